// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_axil_regs.v: two register blocks (tb_rubick_axil_regs.v)
// driven through AXI4-Lite with random skew between AW and W and random BREADY/RREADY delays,
// against a transaction-level model of the register map in the template's header.
//  1. Random operations: writes and reads of every register and of unmapped addresses (random
//     strobes, address bits [1:0] set), a write and a read at once, START with busy_in low and
//     high, runs (busy_in high for a while, then a done_in pulse), error_in pulses, write-1-to-
//     clear of STATUS and ISR. Every read must return the model's value and response, every
//     write the model's response; after every operation irq and base_addr must match.
//  2. Timing: RVALID the cycle after the AR handshake; BVALID two cycles after the later of
//     the AW and W handshakes; start high for exactly one cycle, the cycle BVALID rises.
//  3. The 64-bit cycle counter across its 32-bit carry (the counter is preset through the
//     model's internal signal, as 2^32 cycles would take too long), with the CYCLES_HI latch.
#include "Vtb_rubick_axil_regs.h"
#include "Vtb_rubick_axil_regs___024root.h"
#include "rtl_test.h"

#include <functional>

namespace {

using Vtb = Vtb_rubick_axil_regs;
const char* kTest = "test_rubick_axil_regs";
constexpr unsigned kOkay = 0, kSlverr = 2;

struct Ports {
  std::function<void(Vtb&, bool, uint32_t)> setAw, setAr;
  std::function<void(Vtb&, bool, uint32_t, unsigned)> setW;
  std::function<void(Vtb&, bool)> setBready, setRready;
  std::function<void(Vtb&, bool, bool, bool)> setAccel; // busy_in, done_in, error_in
  std::function<bool(Vtb&)> awready, wready, bvalid, arready, rvalid, start, irq;
  std::function<unsigned(Vtb&)> bresp, rresp;
  std::function<uint32_t(Vtb&)> rdata;
  std::function<uint64_t(Vtb&, int)> base;
};

#define REGS_PORTS(P)                                                                              \
  Ports {                                                                                          \
    [](Vtb& m, bool v, uint32_t a) {                                                               \
      m.P##_s_axil_awvalid = v;                                                                    \
      m.P##_s_axil_awaddr = a;                                                                     \
    },                                                                                             \
        [](Vtb& m, bool v, uint32_t a) {                                                           \
          m.P##_s_axil_arvalid = v;                                                                \
          m.P##_s_axil_araddr = a;                                                                 \
        },                                                                                         \
        [](Vtb& m, bool v, uint32_t d, unsigned s) {                                               \
          m.P##_s_axil_wvalid = v;                                                                 \
          m.P##_s_axil_wdata = d;                                                                  \
          m.P##_s_axil_wstrb = s;                                                                  \
        },                                                                                         \
        [](Vtb& m, bool r) { m.P##_s_axil_bready = r; },                                           \
        [](Vtb& m, bool r) { m.P##_s_axil_rready = r; },                                           \
        [](Vtb& m, bool b, bool d, bool e) {                                                       \
          m.P##_busy_in = b;                                                                       \
          m.P##_done_in = d;                                                                       \
          m.P##_error_in = e;                                                                      \
        },                                                                                         \
        [](Vtb& m) -> bool { return m.P##_s_axil_awready; },                                       \
        [](Vtb& m) -> bool { return m.P##_s_axil_wready; },                                        \
        [](Vtb& m) -> bool { return m.P##_s_axil_bvalid; },                                        \
        [](Vtb& m) -> bool { return m.P##_s_axil_arready; },                                       \
        [](Vtb& m) -> bool { return m.P##_s_axil_rvalid; },                                        \
        [](Vtb& m) -> bool { return m.P##_start; }, [](Vtb& m) -> bool { return m.P##_irq; },      \
        [](Vtb& m) -> unsigned { return m.P##_s_axil_bresp; },                                     \
        [](Vtb& m) -> unsigned { return m.P##_s_axil_rresp; },                                     \
        [](Vtb& m) -> uint32_t { return m.P##_s_axil_rdata; },                                     \
        [](Vtb& m, int i) -> uint64_t { return rtl::getBits(m.P##_base_addr, 64 * i, 64); }        \
  }

// The register map as software sees it (the template's header comment).
struct Model {
  int nBase;
  bool ie = false, done = false, error = false;
  unsigned isr = 0;
  uint64_t cycles = 0;
  uint32_t cyclesHi = 0;
  std::vector<uint64_t> base;

  explicit Model(int n) : nBase(n), base(n, 0) {}
  static uint32_t merge(uint32_t old, uint32_t data, unsigned strb) {
    uint32_t mask = 0;
    for (int b = 0; b < 4; ++b)
      if ((strb >> b) & 1) mask |= 0xffu << (8 * b);
    return (old & ~mask) | (data & mask);
  }
  // Returns the response; *start tells whether a start pulse must come.
  unsigned write(uint32_t addr, uint32_t data, unsigned strb, bool busy, bool* start) {
    const uint32_t w = addr >> 2;
    const bool byte0 = strb & 1;
    *start = false;
    if (w == 0) {
      if (byte0) {
        ie = (data >> 1) & 1;
        if ((data & 1) && !busy) {
          *start = true;
          done = error = false;
          cycles = 0;
        }
      }
      return kOkay;
    }
    if (w == 1) {
      if (byte0 && (data & 1)) done = false;
      if (byte0 && (data & 4)) error = false;
      return kOkay;
    }
    if (w == 2) {
      if (byte0) isr &= ~data & 3;
      return kOkay;
    }
    if (w >= 8 && w < 8 + 2u * nBase) {
      uint64_t& b = base[(w - 8) / 2];
      if ((w - 8) % 2 == 0)
        b = (b & 0xffffffff00000000ull) | merge(uint32_t(b), data, strb);
      else
        b = (b & 0xffffffffull) | (uint64_t(merge(uint32_t(b >> 32), data, strb)) << 32);
      return kOkay;
    }
    return kSlverr; // CYCLES_* (read only) and unmapped
  }
  unsigned read(uint32_t addr, bool busy, uint32_t* data) {
    const uint32_t w = addr >> 2;
    *data = 0;
    switch (w) {
    case 0:
      *data = ie << 1;
      return kOkay;
    case 1:
      *data = (error << 2) | (busy << 1) | done;
      return kOkay;
    case 2:
      *data = isr;
      return kOkay;
    case 4:
      cyclesHi = uint32_t(cycles >> 32);
      *data = uint32_t(cycles);
      return kOkay;
    case 5:
      *data = cyclesHi;
      return kOkay;
    default:
      if (w >= 8 && w < 8 + 2u * nBase) {
        const uint64_t b = base[(w - 8) / 2];
        *data = (w - 8) % 2 ? uint32_t(b >> 32) : uint32_t(b);
        return kOkay;
      }
      return kSlverr;
    }
  }
};

struct Inst {
  const char* name;
  Ports io;
  int addrW, nBase;
  Model model;
  bool busy = false;
  long starts = 0, slverrs = 0, irqsSeen = 0;
};

struct Op {
  bool write = false, read = false;
  uint32_t waddr = 0, wdata = 0, raddr = 0;
  unsigned strb = 0xf;
};

struct Bench {
  Vtb& m;
  rtl::Rng& rng;
  long cycle = 0;

  // One cycle with the inputs as set: beforeEdge sees the settled outputs before the edge.
  void step(Inst& x, const std::function<void()>& beforeEdge = {}) {
    m.aclk = 0;
    m.eval();
    if (beforeEdge) beforeEdge();
    if (x.busy) ++x.model.cycles; // CYCLES counts every edge with busy_in high
    m.aclk = 1;
    m.eval();
    ++cycle;
  }

  void fail(const Inst& x, const std::string& what) {
    rtl::fail(kTest, cycle, std::string(x.name) + ": " + what);
  }

  // A write and/or a read, with random skew and ready delays, checked against the model.
  // Returns the data read.
  uint32_t transact(Inst& x, const Op& op) {
    const int awAt = rng.range(0, 3), wAt = rng.range(0, 3), arAt = rng.range(0, 3);
    bool awDone = !op.write, wDone = !op.write, bDone = !op.write, arDone = !op.read,
         rDone = !op.read;
    long awCycle = -1, wCycle = -1, arCycle = -1, bFirst = -1, rFirst = -1, startAt = -1;
    int startCycles = 0;
    bool wantStart = false;
    unsigned wantB = 0, wantR = 0;
    uint32_t wantData = 0;
    for (int t = 0; !(awDone && wDone && bDone && arDone && rDone); ++t) {
      if (t > 40) fail(x, "transaction did not finish");
      x.io.setAw(m, !awDone && t >= awAt, op.waddr | uint32_t(rng.bits(2)));
      x.io.setW(m, !wDone && t >= wAt, op.wdata, op.strb);
      x.io.setAr(m, !arDone && t >= arAt, op.raddr | uint32_t(rng.bits(2)));
      const bool bready = rng.chance(0.6), rready = rng.chance(0.6);
      x.io.setBready(m, bready);
      x.io.setRready(m, rready);
      x.io.setAccel(m, x.busy, false, false);
      step(x, [&] {
        if (x.io.start(m)) {
          ++startCycles;
          startAt = cycle;
        }
        if (!awDone && t >= awAt && x.io.awready(m)) {
          awDone = true;
          awCycle = cycle;
        }
        if (!wDone && t >= wAt && x.io.wready(m)) {
          wDone = true;
          wCycle = cycle;
        }
        if (!arDone && t >= arAt && x.io.arready(m)) {
          arDone = true;
          arCycle = cycle;
          wantR = x.model.read(op.raddr, x.busy, &wantData); // the value at the AR edge
        }
        if (!rDone && x.io.rvalid(m)) {
          if (rFirst < 0) rFirst = cycle;
          if (x.io.rdata(m) != wantData || x.io.rresp(m) != wantR)
            fail(x, "read " + std::to_string(op.raddr) + ": " +
                        rtl::mismatch("data, resp",
                                      std::to_string(x.io.rdata(m)) + ", " +
                                          std::to_string(x.io.rresp(m)),
                                      std::to_string(wantData) + ", " + std::to_string(wantR)));
          if (rready) rDone = true;
        }
        if (!bDone && x.io.bvalid(m)) {
          if (bFirst < 0) {
            bFirst = cycle;
            wantB = x.model.write(op.waddr, op.wdata, op.strb, x.busy, &wantStart);
          }
          if (x.io.bresp(m) != wantB)
            fail(x, "write " + std::to_string(op.waddr) + ": " +
                        rtl::mismatch("bresp", x.io.bresp(m), wantB));
          if (bready) bDone = true;
        }
      });
    }
    if (op.read && rFirst != arCycle + 1)
      fail(x, rtl::mismatch("RVALID cycle after the AR handshake in " + std::to_string(arCycle),
                            rFirst, arCycle + 1));
    if (op.write && bFirst != std::max(awCycle, wCycle) + 2)
      fail(x, rtl::mismatch("BVALID cycle after AW in " + std::to_string(awCycle) + ", W in " +
                                std::to_string(wCycle),
                            bFirst, std::max(awCycle, wCycle) + 2));
    // A start pulse comes with BVALID, so it is seen within the transaction.
    if (wantStart != (startCycles > 0) || startCycles > 1 || (startCycles && startAt != bFirst))
      fail(x, "start pulse: " + std::to_string(startCycles) + " cycle(s), at " +
                  std::to_string(startAt) + ", expected " + (wantStart ? "1 at " : "none, ") +
                  std::to_string(bFirst));
    x.starts += startCycles;
    x.slverrs += (op.write && wantB == kSlverr) + (op.read && wantR == kSlverr);
    quiet(x);
    checkOutputs(x);
    return wantData;
  }

  // No request on any channel.
  void quiet(Inst& x) {
    x.io.setAw(m, false, 0);
    x.io.setW(m, false, 0, 0);
    x.io.setAr(m, false, 0);
    x.io.setBready(m, false);
    x.io.setRready(m, false);
    x.io.setAccel(m, x.busy, false, false);
  }

  void checkOutputs(Inst& x) {
    m.eval();
    const bool irq = x.model.ie && x.model.isr;
    if (x.io.irq(m) != irq) fail(x, rtl::mismatch("irq", x.io.irq(m), irq));
    x.irqsSeen += irq;
    for (int i = 0; i < x.nBase; ++i)
      if (x.io.base(m, i) != x.model.base[i])
        fail(x, rtl::mismatch("base_addr " + std::to_string(i), std::to_string(x.io.base(m, i)),
                              std::to_string(x.model.base[i])));
  }

  // Idle cycles, with done_in / error_in pulses at the end.
  void idle(Inst& x, int n, bool done, bool error) {
    for (int i = 0; i < n; ++i) {
      const bool last = i + 1 == n;
      quiet(x);
      x.io.setAccel(m, x.busy, last && done, last && error);
      step(x, [&] {
        if (x.io.start(m)) fail(x, "start outside a START write");
      });
    }
    if (done) x.model.done = true, x.model.isr |= 1;
    if (error) x.model.error = true, x.model.isr |= 2;
    x.io.setAccel(m, x.busy, false, false);
    checkOutputs(x);
  }

  uint32_t randomAddr(const Inst& x) {
    const uint32_t mapEnd = 0x20 + 8 * x.nBase;
    switch (rng.range(0, 5)) {
    case 0: // anywhere, mapped or not
      return uint32_t(rng.bits(x.addrW)) & ~3u;
    case 1:
      return 0x10 + 4 * rng.range(0, 1); // CYCLES
    case 2:
      return 4 * rng.range(0, 2); // CTRL, STATUS, ISR
    default:
      return 0x20 + 4 * rng.range(0, int(mapEnd - 0x20) / 4 - 1); // base registers
    }
  }

  void randomOps(Inst& x, int n) {
    for (int i = 0; i < n; ++i) {
      Op op;
      const int kind = rng.range(0, 9);
      if (kind <= 2) { // write
        op.write = true;
        op.waddr = randomAddr(x);
        op.wdata = uint32_t(rng.bits(32));
        op.strb = rng.chance(0.5) ? 0xf : unsigned(rng.bits(4));
      } else if (kind <= 4) { // read
        op.read = true;
        op.raddr = randomAddr(x);
      } else if (kind == 5) { // both at once: a write that cannot change what is read
        op.write = op.read = true;
        op.wdata = uint32_t(rng.bits(32));
        do
          op.waddr = randomAddr(x);
        while ((op.waddr >> 2) <= 2); // not CTRL (START clears STATUS), STATUS or ISR
        do
          op.raddr = randomAddr(x);
        while ((op.raddr >> 2) == (op.waddr >> 2));
      } else if (kind == 6) { // START (and IE), busy or not
        op.write = true;
        op.wdata = 1 | uint32_t(rng.bits(1) << 1);
        op.strb = 1;
      } else if (kind == 7) { // W1C of STATUS or ISR
        op.write = true;
        op.waddr = rng.chance(0.5) ? 4 : 8;
        op.wdata = uint32_t(rng.bits(3));
        op.strb = 1;
      } else if (kind == 8) { // a run: busy for a while, then done (or error)
        x.busy = true;
        idle(x, rng.range(1, 60), false, false);
        x.busy = rng.chance(0.2); // sometimes stays busy into the next operations
        idle(x, 1, rng.chance(0.8), rng.chance(0.3));
        continue;
      } else {
        idle(x, rng.range(1, 4), rng.chance(0.3), rng.chance(0.2));
        continue;
      }
      transact(x, op);
    }
  }
};

uint32_t readReg(Bench& b, Inst& x, uint32_t addr) {
  Op op;
  op.read = true;
  op.raddr = addr;
  return b.transact(x, op);
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(77);
  Bench bench{m, rng};
  Inst insts[] = {{"a", REGS_PORTS(a), 8, 3, Model(3)}, {"b", REGS_PORTS(b), 12, 1, Model(1)}};

  m.aresetn = 0;
  for (Inst& x : insts) {
    x.io.setAw(m, true, 0);
    x.io.setW(m, true, 3, 0xf);
    x.io.setAr(m, true, 0);
    x.io.setAccel(m, false, false, false);
  }
  for (int i = 0; i < 3; ++i) {
    m.aclk = 0;
    m.eval();
    for (Inst& x : insts)
      if (i > 0 && (x.io.awready(m) || x.io.wready(m) || x.io.arready(m) || x.io.start(m)))
        bench.fail(x, "ready or start in reset");
    m.aclk = 1;
    m.eval();
  }
  m.aresetn = 1;
  for (Inst& x : insts)
    bench.quiet(x);

  for (Inst& x : insts) {
    // Everything reads as after reset, mapped or not.
    for (uint32_t a = 0; a < 0x20 + 8u * x.nBase + 16; a += 4) {
      Op op;
      op.read = true;
      op.raddr = a;
      bench.transact(x, op);
    }
    // 1 and 2.
    bench.randomOps(x, 3000);
    if (x.starts < 50 || x.slverrs < 50 || x.irqsSeen < 50)
      bench.fail(x, "random operations missed a case: " + std::to_string(x.starts) + " starts, " +
                        std::to_string(x.slverrs) + " SLVERR, " + std::to_string(x.irqsSeen) +
                        " operations with irq high");
  }

  // 3. The counter across bit 32, and CYCLES_HI latched by the CYCLES_LO read: preset the
  // counter to 0x1_fffffff0, count 8 busy cycles, read LO (0xfffffff8, latching 1), count 16
  // more (0x2_00000008 now), read HI (still 1), LO (8) and HI (2).
  Inst& a = insts[0];
  a.busy = false;
  bench.idle(a, 1, false, false);
  m.rootp->tb_rubick_axil_regs__DOT__u_a__DOT__cycles = 0x1fffffff0ull;
  a.model.cycles = 0x1fffffff0ull;
  auto busyFor = [&](int n) {
    a.busy = true;
    bench.idle(a, n, false, false);
    a.busy = false;
    bench.idle(a, 1, false, false);
  };
  busyFor(8);
  const uint32_t lo1 = readReg(bench, a, 0x10);
  busyFor(16);
  const uint32_t hi1 = readReg(bench, a, 0x14);
  const uint32_t lo2 = readReg(bench, a, 0x10);
  const uint32_t hi2 = readReg(bench, a, 0x14);
  if (lo1 != 0xfffffff8u || hi1 != 1 || lo2 != 8 || hi2 != 2)
    bench.fail(a, "CYCLES reads " + std::to_string(lo1) + ", " + std::to_string(hi1) + ", " +
                      std::to_string(lo2) + ", " + std::to_string(hi2) +
                      ", expected 4294967288, 1, 8, 2");

  std::printf("%s: OK (%ld cycles; a: %ld starts, %ld SLVERR; b: %ld starts, %ld SLVERR)\n", kTest,
              bench.cycle, insts[0].starts, insts[0].slverrs, insts[1].starts, insts[1].slverrs);
  return 0;
}
