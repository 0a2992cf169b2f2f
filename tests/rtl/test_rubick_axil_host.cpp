// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_axil_host.v: the four windows of tb_rubick_axil_host.v (DATA_W
// 8 with 4 units, 32, 48 and 64 with multi-bit unit, tensor and bank fields), each onto the test
// top's host-port memory, run side by side.
//  1. Random traffic, checked cycle by cycle against a model of the template's header: AWREADY,
//     WREADY, ARREADY, BVALID/BRESP, RVALID/RDATA/RRESP, host_we with every host_w* field (once
//     per performed write, in the cycle BVALID rises, never otherwise), host_re with every
//     host_r* field (the cycle after the AR handshake), host_rdata of the memory model. Writes
//     have random AW/W delays (AW first, W first, both together, pipelined behind a pending B),
//     reads random AR delays, BREADY and RREADY random back-pressure, busy_in low, high or
//     toggling; addresses with bits [1:0], the ignored bits above the map and the ALL bit set;
//     WSTRB other than F, writes and reads while busy, half 1 with DATA_W <= 32 (all SLVERR,
//     memory unchanged), half 0 then half 1 of a word with DATA_W > 32 (staging), and resets
//     in the middle of transactions (the staging register has no reset: unknown after a reset
//     until written, then only the high half of a write is checked and the rest learnt).
//  2. Software: with busy_in low, words written one after another (one with ALL), then read
//     back through the window, both halves; every value read must be the one written, every
//     unit of the ALL word holding it (computed from the writes alone, not from the model).
// The memory model is filled with random words through the test top's signals after the
// first reset.
#include "Vtb_rubick_axil_host.h"
#include "Vtb_rubick_axil_host___024root.h"
#include "rtl_test.h"

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

using Vtb = Vtb_rubick_axil_host;
const char* kTest = "test_rubick_axil_host";
constexpr unsigned kOkay = 0, kSlverr = 2;

struct Config {
  const char* name;
  int addrW, unitW, tensorW, bankW, aw, dataW;
  int indexBits() const { return unitW + tensorW + bankW + aw; } // {unit, tensor, bank, addr}
  int top() const { return 3 + indexBits() + 1; }                // address bits of the map
  bool wide() const { return dataW > 32; }
  int units() const { return 1 << unitW; }
};

// Must match tb_rubick_axil_host.v.
const Config kConfigs[] = {
    {"c8", 12, 2, 1, 1, 2, 8},
    {"c32", 8, 1, 1, 1, 1, 32},
    {"c48", 32, 1, 2, 1, 4, 48},
    {"c64", 16, 2, 2, 3, 3, 64},
};

struct Ports {
  std::function<void(Vtb&, bool, uint64_t)> setAw, setAr;
  std::function<void(Vtb&, bool, uint32_t, unsigned)> setW;
  std::function<void(Vtb&, bool)> setBready, setRready, setBusy;
  std::function<bool(Vtb&)> awready, wready, bvalid, arready, rvalid, we, wall, re;
  std::function<unsigned(Vtb&)> bresp, rresp;
  std::function<uint32_t(Vtb&)> rdata;
  std::function<uint64_t(Vtb&)> wunit, wtensor, wbank, waddr, wdata, runit, rtensor, rbank, raddr,
      hostRdata;
  std::function<void(Vtb&, int, uint64_t)> memSet;
};

#define HOST_PORTS(P)                                                                              \
  Ports {                                                                                          \
    [](Vtb& m, bool v, uint64_t a) {                                                               \
      m.P##_s_axil_awvalid = v;                                                                    \
      m.P##_s_axil_awaddr = a;                                                                     \
    },                                                                                             \
        [](Vtb& m, bool v, uint64_t a) {                                                           \
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
        [](Vtb& m, bool b) { m.P##_busy_in = b; },                                                 \
        [](Vtb& m) -> bool { return m.P##_s_axil_awready; },                                       \
        [](Vtb& m) -> bool { return m.P##_s_axil_wready; },                                        \
        [](Vtb& m) -> bool { return m.P##_s_axil_bvalid; },                                        \
        [](Vtb& m) -> bool { return m.P##_s_axil_arready; },                                       \
        [](Vtb& m) -> bool { return m.P##_s_axil_rvalid; },                                        \
        [](Vtb& m) -> bool { return m.P##_host_we; },                                              \
        [](Vtb& m) -> bool { return m.P##_host_wall; },                                            \
        [](Vtb& m) -> bool { return m.P##_host_re; },                                              \
        [](Vtb& m) -> unsigned { return m.P##_s_axil_bresp; },                                     \
        [](Vtb& m) -> unsigned { return m.P##_s_axil_rresp; },                                     \
        [](Vtb& m) -> uint32_t { return m.P##_s_axil_rdata; },                                     \
        [](Vtb& m) -> uint64_t { return m.P##_host_wunit; },                                       \
        [](Vtb& m) -> uint64_t { return m.P##_host_wtensor; },                                     \
        [](Vtb& m) -> uint64_t { return m.P##_host_wbank; },                                       \
        [](Vtb& m) -> uint64_t { return m.P##_host_waddr; },                                       \
        [](Vtb& m) -> uint64_t { return m.P##_host_wdata; },                                       \
        [](Vtb& m) -> uint64_t { return m.P##_host_runit; },                                       \
        [](Vtb& m) -> uint64_t { return m.P##_host_rtensor; },                                     \
        [](Vtb& m) -> uint64_t { return m.P##_host_rbank; },                                       \
        [](Vtb& m) -> uint64_t { return m.P##_host_raddr; },                                       \
        [](Vtb& m) -> uint64_t { return m.P##_host_rdata; },                                       \
        [](Vtb& m, int i, uint64_t v) { m.rootp->tb_rubick_axil_host__DOT__##P##_mem[i] = v; },    \
  }

// A word of the host port: its fields (and the data of a write).
struct HostWord {
  uint64_t unit = 0, tensor = 0, bank = 0, addr = 0, data = 0;
  bool all = false;
};

// This cycle's inputs of one window.
struct In {
  bool awvalid = false, wvalid = false, arvalid = false, bready = false, rready = false;
  bool busy = false;
  uint64_t awaddr = 0, araddr = 0;
  uint32_t wdata = 0;
  unsigned wstrb = 0;
};

// The window as its header specifies it, cycle by cycle, and the test top's memory model.
struct Model {
  Config c;
  // Write channel.
  bool ok = false, awHave = false, wHave = false, bValid = false;
  unsigned bResp = 0;
  uint64_t awAddr = 0;
  uint32_t wData = 0;
  unsigned wStrb = 0;
  uint32_t stage = 0;
  bool stageKnown = false;
  bool we = false, weLowUnknown = false; // host_we; its data's low half from an unknown stage
  HostWord w;
  // Read channel.
  bool rdAct = false, s1 = false, s2 = false, rdErr = false, rdHalf = false;
  bool re = false;
  HostWord r;
  bool rValid = false;
  uint32_t rData = 0;
  unsigned rResp = 0;
  // The test top's memory and its read register.
  std::vector<uint64_t> mem;
  std::vector<char> written, writtenAll; // last written by the test (with ALL)
  uint64_t hostRdata = 0;
  bool hostRdataKnown = false;
  // What happened.
  long hostWrites = 0, allWrites = 0, staged = 0, errStrb = 0, errBusy = 0, errHalf = 0;
  long hostReads = 0, readErrBusy = 0, readErrHalf = 0, readsOfWritten = 0, readsOfAll = 0;

  explicit Model(const Config& cfg)
      : c(cfg), mem(size_t{1} << cfg.indexBits()), written(mem.size()), writtenAll(mem.size()) {}

  bool awready() const { return ok && !awHave && !bValid; }
  bool wready() const { return ok && !wHave && !bValid; }
  bool arready() const { return ok && !rdAct; }

  HostWord fields(uint64_t a) const {
    HostWord h;
    uint64_t f = a >> 3;
    h.addr = f & rtl::mask(c.aw);
    f >>= c.aw;
    h.bank = f & rtl::mask(c.bankW);
    f >>= c.bankW;
    h.tensor = f & rtl::mask(c.tensorW);
    f >>= c.tensorW;
    h.unit = f & rtl::mask(c.unitW);
    f >>= c.unitW;
    h.all = f & 1;
    return h;
  }
  size_t index(uint64_t unit, const HostWord& h) const {
    uint64_t i = unit;
    i = (i << c.tensorW) | h.tensor;
    i = (i << c.bankW) | h.bank;
    i = (i << c.aw) | h.addr;
    return size_t(i);
  }

  void reset() {
    ok = awHave = wHave = bValid = we = false;
    rdAct = s1 = s2 = re = rValid = false;
    stageKnown = false; // software must write half 0 again
  }

  // The edge at the end of a cycle with inputs in.
  void edge(const In& in, bool aresetn) {
    // The memory model (no reset): a read sees the word before this edge's write.
    const uint64_t rdataBefore = hostRdata;
    if (re) {
      const size_t i = index(r.unit, r);
      hostRdata = mem[i];
      hostRdataKnown = true;
      readsOfWritten += written[i];
      readsOfAll += writtenAll[i];
    }
    if (we)
      for (int u = 0; u < c.units(); ++u)
        if (w.all || w.unit == uint64_t(u)) {
          const size_t i = index(u, w);
          mem[i] = w.data;
          written[i] = 1;
          writtenAll[i] = w.all;
        }
    if (!aresetn) {
      reset();
      return;
    }
    const bool awHs = in.awvalid && awready(), wHs = in.wvalid && wready();
    const bool arHs = in.arvalid && arready();
    const bool perform = awHave && wHave && !bValid;
    ok = true;
    we = false;
    if (perform) {
      const bool strbOk = wStrb == 0xf, half = (awAddr >> 2) & 1;
      const bool toHost = c.wide() ? half : !half;
      const bool resOk = strbOk && (c.wide() || !half) && !(toHost && in.busy);
      bResp = resOk ? kOkay : kSlverr;
      we = strbOk && toHost && !in.busy;
      w = fields(awAddr);
      if (c.wide()) {
        w.data = ((uint64_t(wData) & rtl::mask(c.dataW - 32)) << 32) | stage;
        weLowUnknown = !stageKnown;
        if (strbOk && !half) {
          stage = wData;
          stageKnown = true;
          ++staged;
        }
      } else {
        w.data = wData & rtl::mask(c.dataW);
        weLowUnknown = false;
      }
      hostWrites += we;
      allWrites += we && w.all;
      if (!strbOk)
        ++errStrb;
      else if (!c.wide() && half)
        ++errHalf;
      else if (toHost && in.busy)
        ++errBusy;
    }
    awHave = awHs || (awHave && !perform);
    wHave = wHs || (wHave && !perform);
    bValid = perform || (bValid && !in.bready);
    if (awHs) awAddr = in.awaddr;
    if (wHs) {
      wData = in.wdata;
      wStrb = in.wstrb;
    }

    const bool rTaken = rValid && in.rready;
    if (s2) {
      rValid = true;
      rResp = rdErr ? kSlverr : kOkay;
      rData = rdErr ? 0 : rdHalf ? uint32_t(rdataBefore >> 32) : uint32_t(rdataBefore);
    } else if (in.rready) {
      rValid = false;
    }
    rdAct = arHs || (rdAct && !rTaken);
    s2 = s1;
    s1 = arHs;
    re = false;
    if (arHs) {
      rdHalf = (in.araddr >> 2) & 1;
      rdErr = in.busy || (!c.wide() && rdHalf);
      r = fields(in.araddr);
      re = !rdErr;
      hostReads += re;
      readErrBusy += in.busy;
      readErrHalf += !in.busy && rdErr;
    }
  }
};

// A write or read the master agents issue: delays count from the previous handshake on the
// channel (from the previous op's response with waitB / waitR).
struct WOp {
  uint64_t addr = 0;
  uint32_t data = 0;
  unsigned strb = 0xf;
  int awDelay = 0, wDelay = 0;
  bool waitB = true;
  long awCycle = -1, wCycle = -1;
  unsigned bresp = 0;
};
struct ROp {
  uint64_t addr = 0;
  int arDelay = 0;
  size_t afterWrites = 0; // AR only once this many B responses were taken (scripts)
  bool waitR = true;
  uint32_t rdata = 0;
  unsigned rresp = 0;
};

struct Inst {
  const char* name;
  Ports io;
  Config c;
  Model mdl;
  In in;
  // Master agents; ops are generated at random unless scripted.
  bool scripted = false;
  std::vector<WOp> wops;
  std::vector<ROp> rops;
  size_t iAw = 0, iW = 0, iB = 0, iAr = 0, iR = 0;
  int awWait = -1, wWait = -1, arWait = -1;
  double pBready = 1, pRready = 1;
  int busyMode = 0, busyLeft = 0;
  std::vector<uint64_t> hot, recent; // word addresses (bits 3 up) to come back to
  // What happened.
  long awFirst = 0, wFirst = 0, together = 0, bStalls = 0, rStalls = 0;

  Inst(const char* n, Ports p, const Config& cfg) : name(n), io(std::move(p)), c(cfg), mdl(cfg) {}

  void restart() {
    wops.clear();
    rops.clear();
    iAw = iW = iB = iAr = iR = 0;
    awWait = wWait = arWait = -1;
  }
};

struct Bench {
  Vtb& m;
  rtl::Rng& rng;
  std::vector<Inst*> insts;
  long cycle = 0;
  long resetsInFlight = 0;

  void fail(const Inst& x, const std::string& what) {
    rtl::fail(kTest, cycle, std::string(x.name) + ": " + what);
  }
  void expect(const Inst& x, const std::string& what, uint64_t got, uint64_t want) {
    if (got != want) fail(x, rtl::mismatch(what, std::to_string(got), std::to_string(want)));
  }

  // ---- Stimuli ----
  // A word address (bits 3 up, with the ALL bit) and a full byte address of it.
  uint64_t wordOf(Inst& x, bool read) {
    const int ib = x.c.indexBits();
    uint64_t word;
    const int pick = rng.range(0, 9);
    if (pick < 4)
      word = x.hot[rng.range(0, int(x.hot.size()) - 1)];
    else if (pick < 6 && read && !x.recent.empty())
      word = x.recent[rng.range(0, int(x.recent.size()) - 1)];
    else
      word = rng.bits(ib);
    word &= rtl::mask(ib);
    if (rng.chance(read ? 0.1 : 0.12)) word |= uint64_t{1} << ib;
    return word;
  }
  uint64_t byteAddr(const Inst& x, uint64_t word, bool half) {
    const int top = x.c.top();
    uint64_t a = (word << 3) | (uint64_t(half) << 2) | rng.bits(2);
    if (x.c.addrW > top) a |= rng.bits(x.c.addrW - top) << top;
    return a;
  }
  void delays(WOp& op) {
    switch (rng.range(0, 3)) {
    case 0:
      op.awDelay = op.wDelay = 0;
      break;
    case 1: // AW first
      op.awDelay = 0;
      op.wDelay = rng.range(1, 4);
      break;
    case 2: // W first
      op.wDelay = 0;
      op.awDelay = rng.range(1, 4);
      break;
    default:
      op.awDelay = rng.range(0, 6);
      op.wDelay = rng.range(0, 6);
    }
    op.waitB = rng.chance(0.6);
  }
  unsigned strb() { return rng.chance(0.85) ? 0xf : unsigned(rng.bits(4)); }

  void genWrite(Inst& x) {
    const uint64_t word = wordOf(x, false);
    if (x.c.wide() && rng.chance(0.7)) { // half 0, then half 1 of the word
      for (int h = 0; h < 2; ++h) {
        WOp op;
        op.addr = byteAddr(x, word, h);
        op.data = uint32_t(rng.bits(32));
        op.strb = rng.chance(0.95) ? 0xf : strb();
        delays(op);
        x.wops.push_back(op);
      }
    } else {
      WOp op;
      op.addr = byteAddr(x, word, x.c.wide() ? rng.chance(0.5) : rng.chance(0.12));
      op.data = uint32_t(rng.bits(32));
      op.strb = strb();
      delays(op);
      x.wops.push_back(op);
    }
    x.recent.push_back(word & rtl::mask(x.c.indexBits()));
    if (x.recent.size() > 16) x.recent.erase(x.recent.begin());
  }
  void genRead(Inst& x) {
    ROp op;
    op.addr = byteAddr(x, wordOf(x, true), x.c.wide() ? rng.chance(0.5) : rng.chance(0.15));
    op.arDelay = rng.chance(0.4) ? 0 : rng.range(1, 6);
    op.waitR = rng.chance(0.6);
    x.rops.push_back(op);
  }

  // This cycle's inputs from the agents (and busy_in, and the random back-pressure).
  void drive(Inst& x, bool inReset) {
    In& in = x.in;
    if (inReset) { // anything: the window must take nothing
      in.awvalid = rng.chance(0.5);
      in.wvalid = rng.chance(0.5);
      in.arvalid = rng.chance(0.5);
      in.awaddr = rng.bits(x.c.addrW);
      in.araddr = rng.bits(x.c.addrW);
      in.wdata = uint32_t(rng.bits(32));
      in.wstrb = 0xf;
    } else {
      if (!x.scripted) {
        while (x.wops.size() <= std::max(x.iAw, x.iW))
          genWrite(x);
        while (x.rops.size() <= x.iAr)
          genRead(x);
      }
      in.awvalid = false;
      if (x.iAw < x.wops.size()) {
        const WOp& op = x.wops[x.iAw];
        if (!op.waitB || x.iB >= x.iAw) {
          if (x.awWait < 0) x.awWait = op.awDelay;
          if (x.awWait > 0)
            --x.awWait;
          else
            in.awvalid = true;
        }
        in.awaddr = op.addr;
      }
      in.wvalid = false;
      if (x.iW < x.wops.size()) {
        const WOp& op = x.wops[x.iW];
        if (!op.waitB || x.iB >= x.iW) {
          if (x.wWait < 0) x.wWait = op.wDelay;
          if (x.wWait > 0)
            --x.wWait;
          else
            in.wvalid = true;
        }
        in.wdata = op.data;
        in.wstrb = op.strb;
      }
      in.arvalid = false;
      if (x.iAr < x.rops.size()) {
        const ROp& op = x.rops[x.iAr];
        if ((!op.waitR || x.iR >= x.iAr) && x.iB >= op.afterWrites) {
          if (x.arWait < 0) x.arWait = op.arDelay;
          if (x.arWait > 0)
            --x.arWait;
          else
            in.arvalid = true;
        }
        in.araddr = op.addr;
      }
    }
    in.bready = rng.chance(x.pBready);
    in.rready = rng.chance(x.pRready);
    if (!x.scripted) {
      if (x.busyLeft-- <= 0) {
        const int k = rng.range(0, 9);
        x.busyMode = k < 6 ? 0 : k < 8 ? 1 : 2;
        x.busyLeft = rng.range(5, 80);
      }
      in.busy = x.busyMode == 1 || (x.busyMode == 2 && rng.chance(0.5));
    } else {
      in.busy = false;
    }
    x.io.setAw(m, in.awvalid, in.awaddr);
    x.io.setW(m, in.wvalid, in.wdata, in.wstrb);
    x.io.setAr(m, in.arvalid, in.araddr);
    x.io.setBready(m, in.bready);
    x.io.setRready(m, in.rready);
    x.io.setBusy(m, in.busy);
  }

  // The outputs of this cycle against the model.
  void check(Inst& x) {
    Model& d = x.mdl;
    expect(x, "awready", x.io.awready(m), d.awready());
    expect(x, "wready", x.io.wready(m), d.wready());
    expect(x, "arready", x.io.arready(m), d.arready());
    expect(x, "bvalid", x.io.bvalid(m), d.bValid);
    expect(x, "rvalid", x.io.rvalid(m), d.rValid);
    if (d.bValid) expect(x, "bresp", x.io.bresp(m), d.bResp);
    if (d.rValid) {
      expect(x, "rresp", x.io.rresp(m), d.rResp);
      expect(x, "rdata", x.io.rdata(m), d.rData);
    }
    expect(x, "host_we", x.io.we(m), d.we);
    if (d.we) {
      expect(x, "host_wunit", x.io.wunit(m), d.w.unit);
      expect(x, "host_wall", x.io.wall(m), d.w.all);
      expect(x, "host_wtensor", x.io.wtensor(m), d.w.tensor);
      expect(x, "host_wbank", x.io.wbank(m), d.w.bank);
      expect(x, "host_waddr", x.io.waddr(m), d.w.addr);
      const uint64_t got = x.io.wdata(m);
      if (d.weLowUnknown) { // the staged half is unknown after a reset: learn it
        expect(x, "host_wdata[63:32]", got >> 32, d.w.data >> 32);
        d.w.data = got;
      } else {
        expect(x, "host_wdata", got, d.w.data);
      }
    }
    expect(x, "host_re", x.io.re(m), d.re);
    if (d.re) {
      expect(x, "host_runit", x.io.runit(m), d.r.unit);
      expect(x, "host_rtensor", x.io.rtensor(m), d.r.tensor);
      expect(x, "host_rbank", x.io.rbank(m), d.r.bank);
      expect(x, "host_raddr", x.io.raddr(m), d.r.addr);
    }
    if (d.hostRdataKnown) expect(x, "host_rdata", x.io.hostRdata(m), d.hostRdata);
  }

  // The agents see this cycle's handshakes.
  void observe(Inst& x) {
    const In& in = x.in;
    if (in.awvalid && x.io.awready(m)) {
      x.wops[x.iAw++].awCycle = cycle;
      x.awWait = -1;
    }
    if (in.wvalid && x.io.wready(m)) {
      x.wops[x.iW++].wCycle = cycle;
      x.wWait = -1;
    }
    if (x.io.bvalid(m)) {
      if (!in.bready) ++x.bStalls;
      if (in.bready) {
        if (x.iB >= x.iAw || x.iB >= x.iW) fail(x, "B before its AW and W");
        WOp& op = x.wops[x.iB++];
        op.bresp = x.io.bresp(m);
        if (op.awCycle < op.wCycle)
          ++x.awFirst;
        else if (op.wCycle < op.awCycle)
          ++x.wFirst;
        else
          ++x.together;
      }
    }
    if (in.arvalid && x.io.arready(m)) {
      ++x.iAr;
      x.arWait = -1;
    }
    if (x.io.rvalid(m)) {
      if (!in.rready) ++x.rStalls;
      if (in.rready) {
        if (x.iR >= x.iAr) fail(x, "R before its AR");
        ROp& op = x.rops[x.iR++];
        op.rdata = x.io.rdata(m);
        op.rresp = x.io.rresp(m);
      }
    }
  }

  // One cycle of every window; aresetn low resets them all.
  void step(bool aresetn) {
    for (Inst* x : insts)
      drive(*x, !aresetn);
    m.aresetn = aresetn;
    m.aclk = 0;
    m.eval();
    for (Inst* x : insts) {
      check(*x);
      if (aresetn) observe(*x);
    }
    m.aclk = 1;
    m.eval();
    for (Inst* x : insts)
      x->mdl.edge(x->in, aresetn);
    ++cycle;
  }

  void resetFor(int n) {
    for (Inst* x : insts) {
      const Model& d = x->mdl;
      resetsInFlight += d.awHave || d.wHave || d.bValid || d.rdAct || x->iAw > x->iB ||
                        x->iW > x->iB || x->iAr > x->iR;
    }
    for (int i = 0; i < n; ++i)
      step(false);
    for (Inst* x : insts)
      x->restart();
  }

  void randomTraffic(long cycles) {
    const double pReady[] = {1.0, 0.7, 0.3, 0.05};
    for (long t = 0; t < cycles; ++t) {
      if (t % 200 == 0)
        for (Inst* x : insts) {
          x->pBready = pReady[rng.range(0, 3)];
          x->pRready = pReady[rng.range(0, 3)];
        }
      if (rng.chance(1.0 / 1500)) resetFor(rng.range(1, 3));
      step(true);
    }
  }

  // Runs the scripted ops of every window to the end (no new ones).
  void drain() {
    for (long t = 0;; ++t) {
      bool done = true;
      for (Inst* x : insts)
        done = done && x->iB == x->wops.size() && x->iR == x->rops.size();
      if (done) return;
      if (t > 100000) rtl::fail(kTest, cycle, "scripted transactions did not finish");
      step(true);
    }
  }
};

// 2. Software: words written (one with ALL), read back; values from the writes alone.
void software(Bench& b) {
  struct Expect {
    size_t inst, read;
    uint32_t value;
    std::string what;
  };
  std::vector<Expect> expects;
  for (Inst* x : b.insts)
    x->scripted = true; // the random ops already made run to their end
  b.drain();
  for (size_t k = 0; k < b.insts.size(); ++k) {
    Inst& x = *b.insts[k];
    x.restart();
    x.pBready = 0.5;
    x.pRready = 0.5;
    const Config& c = x.c;
    const int ib = c.indexBits();
    std::map<uint64_t, uint64_t> words; // word index {unit, tensor, bank, addr} -> value
    auto write = [&](uint64_t word, uint64_t value) {
      const uint64_t idx = word & rtl::mask(ib);
      const int halves = c.wide() ? 2 : 1;
      for (int h = 0; h < halves; ++h) {
        WOp op;
        op.addr = b.byteAddr(x, word, c.wide() ? h : 0);
        op.data = uint32_t(value >> (32 * h));
        op.awDelay = b.rng.range(0, 2);
        op.wDelay = b.rng.range(0, 2);
        x.wops.push_back(op);
      }
      const uint64_t v = value & rtl::mask(c.dataW);
      const uint64_t below = idx & rtl::mask(ib - c.unitW); // {tensor, bank, addr}
      if ((word >> ib) & 1) {
        for (int u = 0; u < c.units(); ++u)
          words[(uint64_t(u) << (ib - c.unitW)) | below] = v;
      } else {
        words[idx] = v;
      }
    };
    // A word in every unit at random places, then an ALL write over one of their places, then
    // another word of unit 0.
    std::vector<uint64_t> places;
    for (int u = 0; u < c.units(); ++u)
      places.push_back((uint64_t(u) << (ib - c.unitW)) | b.rng.bits(ib - c.unitW));
    for (uint64_t p : places)
      write(p, b.rng.bits(64));
    const uint64_t allPlace = places.back() & rtl::mask(ib - c.unitW);
    write((uint64_t{1} << ib) | allPlace, b.rng.bits(64));
    write(b.rng.bits(ib - c.unitW), b.rng.bits(64));
    for (const auto& kv : words) {
      for (int h = 0; h < (c.wide() ? 2 : 1); ++h) {
        ROp op;
        op.addr = b.byteAddr(x, kv.first, h);
        op.afterWrites = x.wops.size();
        op.arDelay = b.rng.range(0, 2);
        expects.push_back({k, x.rops.size(), uint32_t(kv.second >> (32 * h)),
                           "word " + std::to_string(kv.first) + " half " + std::to_string(h)});
        x.rops.push_back(op);
      }
    }
  }
  b.drain();
  for (const Expect& e : expects) {
    Inst& x = *b.insts[e.inst];
    for (const WOp& op : x.wops)
      if (op.bresp != kOkay) b.fail(x, "software write answered " + std::to_string(op.bresp));
    const ROp& op = x.rops[e.read];
    if (op.rresp != kOkay || op.rdata != e.value)
      b.fail(x, "software read of " + e.what + ": " +
                    rtl::mismatch("data, resp",
                                  std::to_string(op.rdata) + ", " + std::to_string(op.rresp),
                                  std::to_string(e.value) + ", 0"));
  }
  for (Inst* x : b.insts) {
    x->scripted = false;
    x->restart();
  }
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(4242);
  Inst c8("c8", HOST_PORTS(c8), kConfigs[0]), c32("c32", HOST_PORTS(c32), kConfigs[1]),
      c48("c48", HOST_PORTS(c48), kConfigs[2]), c64("c64", HOST_PORTS(c64), kConfigs[3]);
  Bench bench{m, rng, {&c8, &c32, &c48, &c64}};

  // Reset with requests on every channel: the windows take nothing, host_we and host_re fall.
  m.aresetn = 0;
  for (Inst* x : bench.insts) {
    x->io.setAw(m, true, 0);
    x->io.setW(m, true, 3, 0xf);
    x->io.setAr(m, true, 0);
    x->io.setBready(m, false);
    x->io.setRready(m, false);
    x->io.setBusy(m, false);
  }
  for (int i = 0; i < 3; ++i) {
    m.aclk = 0;
    m.eval();
    for (Inst* x : bench.insts)
      if (i > 0 && (x->io.awready(m) || x->io.wready(m) || x->io.arready(m) || x->io.bvalid(m) ||
                    x->io.rvalid(m) || x->io.we(m) || x->io.re(m)))
        bench.fail(*x, "ready, valid, host_we or host_re in reset");
    m.aclk = 1;
    m.eval();
  }
  // Fill the memory models (no writes reach them from here on but the windows').
  for (Inst* x : bench.insts) {
    for (size_t i = 0; i < x->mdl.mem.size(); ++i) {
      x->mdl.mem[i] = rng.bits(x->c.dataW);
      x->io.memSet(m, int(i), x->mdl.mem[i]);
    }
    for (int i = 0; i < 6; ++i)
      x->hot.push_back(rng.bits(x->c.indexBits()));
  }

  // 1, with the software check (2) in the middle and at the end.
  bench.randomTraffic(60000);
  software(bench);
  bench.randomTraffic(60000);
  software(bench);

  for (Inst* x : bench.insts) {
    const Model& d = x->mdl;
    const bool narrow = !x->c.wide();
    if (d.hostWrites < 500 || d.allWrites < 30 || d.errStrb < 50 || d.errBusy < 50 ||
        (narrow && d.errHalf < 50) || (!narrow && d.staged < 500) || d.hostReads < 500 ||
        d.readErrBusy < 50 || (narrow && d.readErrHalf < 50) || d.readsOfWritten < 300 ||
        d.readsOfAll < 30 || x->awFirst < 100 || x->wFirst < 100 || x->together < 100 ||
        x->bStalls < 1000 || x->rStalls < 1000)
      bench.fail(
          *x, "random traffic missed a case: " + std::to_string(d.hostWrites) + " host writes (" +
                  std::to_string(d.allWrites) + " ALL), " + std::to_string(d.staged) +
                  " staged, SLVERR writes " + std::to_string(d.errStrb) + " WSTRB / " +
                  std::to_string(d.errBusy) + " busy / " + std::to_string(d.errHalf) + " half 1, " +
                  std::to_string(d.hostReads) + " host reads (" + std::to_string(d.readsOfWritten) +
                  " of written words, " + std::to_string(d.readsOfAll) +
                  " of ALL words), SLVERR reads " + std::to_string(d.readErrBusy) + " busy / " +
                  std::to_string(d.readErrHalf) + " half 1, AW first " +
                  std::to_string(x->awFirst) + ", W first " + std::to_string(x->wFirst) +
                  ", together " + std::to_string(x->together) + ", B stalls " +
                  std::to_string(x->bStalls) + ", R stalls " + std::to_string(x->rStalls));
  }
  if (bench.resetsInFlight < 20)
    rtl::fail(kTest, bench.cycle,
              "only " + std::to_string(bench.resetsInFlight) + " resets hit a transaction");

  std::printf("%s: OK (%ld cycles", kTest, bench.cycle);
  for (Inst* x : bench.insts)
    std::printf("; %s: %ld host writes, %ld host reads, %ld SLVERR", x->name, x->mdl.hostWrites,
                x->mdl.hostReads,
                x->mdl.errStrb + x->mdl.errBusy + x->mdl.errHalf + x->mdl.readErrBusy +
                    x->mdl.readErrHalf);
  std::printf(")\n");
  return 0;
}
