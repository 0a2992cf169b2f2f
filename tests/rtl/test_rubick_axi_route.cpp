// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_axi_route.v: two routers (tb_rubick_axi_route.v: 64-bit
// data, SEL_BIT 14, 4 in flight; 32-bit data, SEL_BIT 12, 2 in flight), each with the AXI memory
// model of sim_templates/rubick_axi_mem.h behind port 0 and a rubick_scratch behind port 1, and
// a twin of that scratch on its own port.
//  (a) Transparency: with every burst to port 1, every cycle the router's slave-side outputs
//      (ARREADY, AWREADY, WREADY, RVALID, BVALID; RLAST, RID, RRESP, RDATA while RVALID; BID,
//      BRESP while BVALID) equal the twin's given the same master traffic; with every burst to port
//      0, they equal those of a second memory model with the same settings and contents driven
//      directly (latencies 3, 12, 5 with DRAM timing; the model's outstanding limit the router's or
//      1; full and half bandwidth). Nothing may reach the other port.
//  (b) Mixed traffic to both ports with several bursts in flight per direction, random gaps and
//      RREADY / BREADY stalls: every R beat carries the data the test wrote (a shadow of both
//      memories; a burst is planned only when no write in flight overlaps a read and vice
//      versa), RID, RLAST and RRESP right, R in AR order and B in AW order with the burst's ID;
//      every phase drains (no deadlock). Counted and required: cycles with reads to both ports
//      in flight, with writes to both in flight, and with port 0's R or B held by the router
//      behind the other port's.
//   The master follows the AXI rules only (VALID held until READY, W in AW order and possibly
//   before its AW, WLAST, random RREADY / BREADY); the memory model reports no AXI violation.
#include "Vtb_rubick_axi_route.h"
#include "axi_test.h"

#include <deque>
#include <functional>
#include <memory>

namespace {

using rubick_sim::AxiMasterPins;
using rubick_sim::AxiMem;
using rubick_sim::AxiSlavePins;
using Vtb = Vtb_rubick_axi_route;

const char* kTest = "test_rubick_axi_route";

// A slave port of the test top (master side driven by the test) and a master port (driven by a
// memory model).
using SlaveIo = axi::SlavePortIo<Vtb>;
struct MasterIo {
  std::function<void(Vtb&, const AxiSlavePins&)> drive;
  std::function<void(Vtb&, AxiMasterPins&)> sample;
};

#define MASTER_IO(P)                                                                               \
  MasterIo {                                                                                       \
    [](Vtb& m, const AxiSlavePins& s) {                                                            \
      m.P##_arready = s.arready;                                                                   \
      m.P##_rvalid = s.rvalid;                                                                     \
      m.P##_rlast = s.rlast;                                                                       \
      axi::putBytes(m.P##_rdata, s.rdata);                                                         \
      m.P##_rresp = s.rresp;                                                                       \
      m.P##_rid = s.rid;                                                                           \
      m.P##_awready = s.awready;                                                                   \
      m.P##_wready = s.wready;                                                                     \
      m.P##_bvalid = s.bvalid;                                                                     \
      m.P##_bresp = s.bresp;                                                                       \
      m.P##_bid = s.bid;                                                                           \
    },                                                                                             \
        [](Vtb& m, AxiMasterPins& p) {                                                             \
          p.arvalid = m.P##_arvalid;                                                               \
          p.araddr = m.P##_araddr;                                                                 \
          p.arlen = m.P##_arlen;                                                                   \
          p.arsize = m.P##_arsize;                                                                 \
          p.arburst = m.P##_arburst;                                                               \
          p.arid = m.P##_arid;                                                                     \
          p.rready = m.P##_rready;                                                                 \
          p.awvalid = m.P##_awvalid;                                                               \
          p.awaddr = m.P##_awaddr;                                                                 \
          p.awlen = m.P##_awlen;                                                                   \
          p.awsize = m.P##_awsize;                                                                 \
          p.awburst = m.P##_awburst;                                                               \
          p.awid = m.P##_awid;                                                                     \
          p.wvalid = m.P##_wvalid;                                                                 \
          p.wlast = m.P##_wlast;                                                                   \
          axi::getBytes(m.P##_wdata, p.wdata);                                                     \
          for (size_t i = 0; i < p.wstrb.size(); ++i)                                              \
            p.wstrb[i] = static_cast<uint8_t>(rtl::getBits(m.P##_wstrb, int(i), 1));               \
          p.bready = m.P##_bready;                                                                 \
        }                                                                                          \
  }

// How often the master does things, per cycle.
struct Profile {
  const char* name;
  long cycles;
  double pAr, pAw, pW, pR, pB; // offer an AR / AW / W beat when idle; RREADY; BREADY
};

struct Burst {
  uint64_t addr;
  unsigned len, id;
  std::vector<uint8_t> data; // reads: the expected bytes (when checked)
};
struct WrBeat {
  uint64_t addr;
  std::vector<uint8_t> data, strb;
  bool last;
};

// Which ports a phase's bursts go to.
enum class Ports { Zero, One, Both };

// A master that follows the AXI rules, with a shadow of both memories: port p's bytes at
// addresses p * 2**SEL_BIT + [0, 2**SEL_BIT).
struct Master {
  unsigned bytes, idW, sel;
  uint64_t region; // bytes per port
  unsigned maxBeats;
  AxiMasterPins out;
  std::vector<uint8_t> shadow;      // 2 * region bytes
  std::vector<int> pendR, pendW;    // per word: planned reads / writes not yet answered
  std::deque<Burst> arTodo, awTodo; // planned, address not yet taken
  std::deque<WrBeat> wTodo;         // planned beats, in AW order
  std::deque<Burst> reads;          // AR taken, R not complete
  std::deque<Burst> writes;         // planned, B not yet taken (AW order)
  std::deque<Burst> bWait;          // AW taken, B not yet taken
  unsigned rBeat = 0;
  bool checkData = false; // (b): reads never overlap writes in flight
  uint64_t rBeats = 0, wBeats = 0, bursts[2][2] = {{0, 0}, {0, 0}}; // [write][port]

  Master(unsigned b, unsigned id, unsigned s, const AxiMasterPins& blank)
      : bytes(b), idW(id), sel(s), region(uint64_t(1) << s), out(blank) {
    maxBeats = unsigned(std::min<uint64_t>({256, 4096 / bytes, region / bytes}));
    shadow.assign(2 * region, 0);
    pendR.assign(2 * region / bytes, 0);
    pendW.assign(2 * region / bytes, 0);
  }
  unsigned sizeLog2() const {
    unsigned s = 0;
    while ((1u << s) < bytes)
      ++s;
    return s;
  }
  static unsigned portOf(uint64_t addr, unsigned sel) { return unsigned((addr >> sel) & 1); }

  Burst randomBurst(rtl::Rng& rng, Ports ports) {
    const int k = rng.range(0, 19);
    unsigned n = k < 15 ? unsigned(rng.range(1, int(std::min(16u, maxBeats))))
                        : (k < 17 ? maxBeats : unsigned(rng.range(1, int(maxBeats))));
    const unsigned port = ports == Ports::Both ? unsigned(rng.range(0, 1)) : (ports == Ports::One);
    const uint64_t words = region / bytes;
    uint64_t w = uint64_t(rng.range(0, int(words - n)));
    const uint64_t off = (w * bytes) % 4096, len = uint64_t(n) * bytes;
    if (off + len > 4096) w -= (off + len - 4096) / bytes;
    return {port * region + w * bytes, n - 1, unsigned(rng.bits(int(idW))), {}};
  }
  bool clear(const Burst& b, const std::vector<int>& pend) const {
    for (unsigned k = 0; k <= b.len; ++k)
      if (pend[b.addr / bytes + k]) return false;
    return true;
  }
  // Plans a read unless (with checkData) a write in flight overlaps it.
  void planRead(rtl::Rng& rng, Ports ports) {
    Burst b = randomBurst(rng, ports);
    if (checkData && !clear(b, pendW)) return;
    for (unsigned k = 0; k <= b.len; ++k)
      ++pendR[b.addr / bytes + k];
    b.data.assign(shadow.begin() + long(b.addr),
                  shadow.begin() + long(b.addr + uint64_t(b.len + 1) * bytes));
    arTodo.push_back(std::move(b));
  }
  void planWrite(rtl::Rng& rng, const Burst& b, bool fullStrobes) {
    if (checkData && !clear(b, pendR)) return;
    for (unsigned k = 0; k <= b.len; ++k)
      ++pendW[b.addr / bytes + k];
    awTodo.push_back(b);
    writes.push_back(b);
    for (unsigned k = 0; k <= b.len; ++k) {
      WrBeat beat{b.addr + uint64_t(k) * bytes, std::vector<uint8_t>(bytes),
                  std::vector<uint8_t>(bytes, 1), k == b.len};
      for (auto& d : beat.data)
        d = uint8_t(rng.bits(8));
      if (!fullStrobes && rng.chance(0.4))
        for (auto& s : beat.strb)
          s = uint8_t(rng.chance(0.5));
      wTodo.push_back(std::move(beat));
    }
  }
  void planWrite(rtl::Rng& rng, Ports ports) { planWrite(rng, randomBurst(rng, ports), false); }

  void decide(rtl::Rng& rng, const Profile& p) {
    if (!out.arvalid && !arTodo.empty() && rng.chance(p.pAr)) {
      const Burst& b = arTodo.front();
      out.arvalid = true;
      out.araddr = b.addr;
      out.arlen = b.len;
      out.arid = b.id;
      out.arsize = sizeLog2();
      out.arburst = 1;
    }
    if (!out.awvalid && !awTodo.empty() && rng.chance(p.pAw)) {
      const Burst& b = awTodo.front();
      out.awvalid = true;
      out.awaddr = b.addr;
      out.awlen = b.len;
      out.awid = b.id;
      out.awsize = sizeLog2();
      out.awburst = 1;
    }
    if (!out.wvalid && !wTodo.empty() && rng.chance(p.pW)) {
      const WrBeat& w = wTodo.front();
      out.wvalid = true;
      out.wdata = w.data;
      out.wstrb = w.strb;
      out.wlast = w.last;
    }
    out.rready = rng.chance(p.pR);
    out.bready = rng.chance(p.pB);
  }

  // The handshakes of the cycle; returns a message on a wrong response.
  std::string observe(const AxiSlavePins& s) {
    if (s.rvalid && out.rready) {
      if (reads.empty()) return "an R beat with no read in flight";
      const Burst& b = reads.front();
      const bool last = rBeat == b.len;
      if (s.rid != b.id) return rtl::mismatch("RID", s.rid, b.id);
      if (s.rlast != last) return rtl::mismatch("RLAST", s.rlast, last);
      if (s.rresp != 0) return rtl::mismatch("RRESP", s.rresp, 0);
      if (checkData)
        for (unsigned i = 0; i < bytes; ++i)
          if (s.rdata[i] != b.data[size_t(rBeat) * bytes + i])
            return rtl::mismatch("RDATA byte " + std::to_string(i) + " of beat " +
                                     std::to_string(rBeat) + " of the read at " +
                                     std::to_string(b.addr),
                                 s.rdata[i], b.data[size_t(rBeat) * bytes + i]);
      ++rBeats;
      if (++rBeat > b.len) {
        for (unsigned k = 0; k <= b.len; ++k)
          --pendR[b.addr / bytes + k];
        reads.pop_front();
        rBeat = 0;
      }
    }
    if (s.bvalid && out.bready) {
      if (bWait.empty()) return "a B response with no write in flight";
      const Burst& b = bWait.front();
      if (s.bid != b.id) return rtl::mismatch("BID", s.bid, b.id);
      if (s.bresp != 0) return rtl::mismatch("BRESP", s.bresp, 0);
      for (unsigned k = 0; k <= b.len; ++k)
        --pendW[b.addr / bytes + k];
      bWait.pop_front();
      writes.pop_front();
    }
    if (out.arvalid && s.arready) {
      ++bursts[0][portOf(arTodo.front().addr, sel)];
      reads.push_back(std::move(arTodo.front()));
      arTodo.pop_front();
      out.arvalid = false;
    }
    if (out.awvalid && s.awready) {
      ++bursts[1][portOf(awTodo.front().addr, sel)];
      bWait.push_back(awTodo.front());
      awTodo.pop_front();
      out.awvalid = false;
    }
    if (out.wvalid && s.wready) {
      const WrBeat& w = wTodo.front();
      for (unsigned i = 0; i < bytes; ++i)
        if (w.strb[i]) shadow[w.addr + i] = w.data[i];
      wTodo.pop_front();
      out.wvalid = false;
      ++wBeats;
    }
    return "";
  }
  bool inFlightBoth(const std::deque<Burst>& q) const {
    bool seen[2] = {false, false};
    for (const Burst& b : q)
      seen[portOf(b.addr, sel)] = true;
    return seen[0] && seen[1];
  }
  bool idle() const {
    return arTodo.empty() && awTodo.empty() && wTodo.empty() && !out.arvalid && !out.awvalid &&
           !out.wvalid && reads.empty() && bWait.empty();
  }
};

struct Lane {
  const char* name;
  SlaveIo s, d;
  MasterIo m0;
  unsigned bytes, idW, sel, maxOutstanding;
  std::unique_ptr<Master> master{};
  std::unique_ptr<AxiMem> mem0{}, ref0{};
  AxiMasterPins idle{}, m0Pins{}, cyclePins{};
  AxiSlavePins sPins{}, dPins{};
  uint64_t bothReads = 0, bothWrites = 0, rHeldByOrder = 0, bHeldByOrder = 0, compared = 0;

  rubick_sim::AxiMemConfig memConfig(unsigned latency, unsigned outstanding, bool half,
                                     bool dram) const {
    rubick_sim::AxiMemConfig c;
    c.dataBytes = bytes;
    c.bytesPerCycle = half ? bytes / 2 : bytes;
    c.latency = latency;
    c.maxOutstanding = outstanding;
    c.size = uint64_t(1) << sel;
    c.dram = dram;
    c.banks = 4;
    c.rowBytes = 1024;
    c.tRCD = 6;
    c.tRP = 6;
    c.CL = 6;
    return c;
  }
  // A fresh port-0 memory holding the shadow's port-0 bytes (and its twin for (a)).
  void newMem0(const rubick_sim::AxiMemConfig& c, bool withRef) {
    mem0 = std::make_unique<AxiMem>(c);
    mem0->store(0, master->shadow.data(), size_t(c.size));
    ref0.reset();
    if (withRef) {
      ref0 = std::make_unique<AxiMem>(c);
      ref0->store(0, master->shadow.data(), size_t(c.size));
    }
  }
};

// The payloads only while their VALID is high: the router passes the head burst's port's, which
// with nothing in flight may be the other port's.
std::string pinsDiff(const AxiSlavePins& got, const AxiSlavePins& want) {
  auto one = [](const char* n, uint64_t g, uint64_t w) {
    return g == w ? std::string() : rtl::mismatch(n, int64_t(g), int64_t(w)) + "; ";
  };
  std::string d = one("ARREADY", got.arready, want.arready) +
                  one("AWREADY", got.awready, want.awready) +
                  one("WREADY", got.wready, want.wready) + one("RVALID", got.rvalid, want.rvalid) +
                  one("BVALID", got.bvalid, want.bvalid);
  if (want.rvalid) {
    d += one("RLAST", got.rlast, want.rlast) + one("RID", got.rid, want.rid) +
         one("RRESP", got.rresp, want.rresp);
    if (got.rdata != want.rdata) d += "RDATA differs";
  }
  if (want.bvalid) d += one("BID", got.bid, want.bid) + one("BRESP", got.bresp, want.bresp);
  return d;
}

struct Bench {
  Vtb& m;
  std::vector<Lane>& lanes;
  rtl::Rng& rng;
  long cycle = 0;

  void step(const Profile& p, Ports ports) {
    for (Lane& l : lanes) {
      l.master->decide(rng, p);
      l.s.drive(m, l.master->out);
      l.d.drive(m, ports == Ports::One ? l.master->out : l.idle);
      l.m0.drive(m, l.mem0->pins());
    }
    m.aclk = 0;
    m.eval();
    for (Lane& l : lanes) {
      const std::string who = std::string(l.name) + " (" + p.name + "): ";
      l.s.sample(m, l.sPins);
      l.d.sample(m, l.dPins);
      l.m0.sample(m, l.m0Pins);
      std::string d;
      if (ports == Ports::One) d = pinsDiff(l.sPins, l.dPins);
      if (ports == Ports::Zero) d = pinsDiff(l.sPins, l.ref0->pins());
      if (!d.empty()) rtl::fail(kTest, cycle, who + "differs from the port alone: " + d);
      if (ports != Ports::Both) ++l.compared;
      if (ports == Ports::One && (l.m0Pins.arvalid || l.m0Pins.awvalid || l.m0Pins.wvalid))
        rtl::fail(kTest, cycle, who + "a VALID on port 0 with every burst to port 1");
      const AxiSlavePins& z = l.mem0->pins();
      if (z.rvalid && !l.m0Pins.rready && l.master->out.rready) ++l.rHeldByOrder;
      if (z.bvalid && !l.m0Pins.bready && l.master->out.bready) ++l.bHeldByOrder;
      l.cyclePins = l.master->out; // observe() drops the VALIDs handshaken
      const std::string e = l.master->observe(l.sPins);
      if (!e.empty()) rtl::fail(kTest, cycle, who + e);
      if (l.master->inFlightBoth(l.master->reads)) ++l.bothReads;
      if (l.master->inFlightBoth(l.master->bWait)) ++l.bothWrites;
    }
    m.aclk = 1;
    m.eval();
    for (Lane& l : lanes) {
      l.mem0->tick(l.m0Pins);
      if (ports == Ports::Zero) l.ref0->tick(l.cyclePins);
    }
    ++cycle;
  }

  void run(const Profile& p, Ports ports, bool plan) {
    for (long i = 0; i < p.cycles; ++i) {
      if (plan)
        for (Lane& l : lanes) {
          if (l.master->arTodo.size() < 2) l.master->planRead(rng, ports);
          if (l.master->awTodo.size() < 2) l.master->planWrite(rng, ports);
        }
      step(p, ports);
    }
    const Profile d{p.name, 0, 1, 1, 1, 0.8, 0.8};
    const long end = cycle + 20000;
    auto busy = [&] {
      for (Lane& l : lanes)
        if (!l.master->idle()) return true;
      return false;
    };
    while (busy()) {
      if (cycle >= end) rtl::fail(kTest, cycle, std::string(p.name) + ": did not drain");
      step(d, ports);
    }
    for (Lane& l : lanes) {
      for (AxiMem* mem : {l.mem0.get(), l.ref0.get()})
        if (mem && mem->violationCount())
          rtl::fail(kTest, cycle, std::string(l.name) + ": " + axi::violations(*mem));
    }
  }
};

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(9127);
  std::vector<Lane> lanes;
  // name, slave port, twin, port 0, bytes, ID_W, SEL_BIT, MAX_OUTSTANDING (tb_rubick_axi_route.v)
  lanes.push_back({"w", AXI_SLAVE_PORT_IO(Vtb, w_s), AXI_SLAVE_PORT_IO(Vtb, w_d), MASTER_IO(w_m0),
                   8, 4, 14, 4});
  lanes.push_back({"n", AXI_SLAVE_PORT_IO(Vtb, n_s), AXI_SLAVE_PORT_IO(Vtb, n_d), MASTER_IO(n_m0),
                   4, 2, 12, 2});

  m.aresetn = 0;
  for (Lane& l : lanes) {
    rubick_sim::AxiMemConfig c = l.memConfig(3, l.maxOutstanding, false, false);
    AxiMem blank(c);
    l.idle = blank.masterPins();
    l.master = std::make_unique<Master>(l.bytes, l.idW, l.sel, l.idle);
    for (uint64_t a = 0; a < (uint64_t(1) << l.sel); ++a) // port 0's initial contents
      l.master->shadow[a] = uint8_t(rng.bits(8));
    l.newMem0(c, false);
    l.sPins.rdata.assign(l.bytes, 0);
    l.dPins.rdata.assign(l.bytes, 0);
    l.m0Pins = l.idle;
    l.s.drive(m, l.idle);
    l.d.drive(m, l.idle);
    l.m0.drive(m, l.mem0->pins());
  }
  for (int i = 0; i < 2; ++i) {
    m.aclk = 0;
    m.eval();
    m.aclk = 1;
    m.eval();
  }
  m.aresetn = 1;
  Bench bench{m, lanes, rng};

  // (a) port 1 only: the scratch written whole, then random traffic, against the twin.
  for (Lane& l : lanes) {
    Master& ms = *l.master;
    const uint64_t region = uint64_t(1) << l.sel, words = region / l.bytes;
    for (uint64_t w = 0; w < words; w += ms.maxBeats)
      ms.planWrite(rng, {region + w * l.bytes, ms.maxBeats - 1, unsigned(rng.bits(int(l.idW))), {}},
                   true);
  }
  bench.run({"port 1: fill", 0, 0, 0.8, 0.9, 0.9, 0.9}, Ports::One, false);
  const Profile profiles[] = {
      {"busy", 2500, 0.5, 0.5, 0.9, 0.9, 0.9},
      {"stalls", 2500, 0.6, 0.6, 0.5, 0.35, 0.3},
      {"always", 2000, 1, 1, 1, 1, 1},
      {"responses stalled", 2000, 1, 1, 1, 0.1, 0.1},
  };
  for (const Profile& p : profiles)
    bench.run(p, Ports::One, true);

  // (a) port 0 only, against a second memory model driven directly.
  struct MemCase {
    unsigned latency;
    bool oneInFlight, half, dram;
  };
  for (const MemCase& k : {MemCase{3, false, false, false}, MemCase{12, true, true, false},
                           MemCase{5, false, false, true}}) {
    for (Lane& l : lanes)
      l.newMem0(l.memConfig(k.latency, k.oneInFlight ? 1 : l.maxOutstanding, k.half, k.dram), true);
    for (const Profile& p : profiles)
      bench.run(p, Ports::Zero, true);
  }

  // (b) both ports, data checked.
  for (Lane& l : lanes) {
    l.newMem0(l.memConfig(6, l.maxOutstanding, false, false), false);
    l.master->checkData = true;
  }
  for (int round = 0; round < 2; ++round)
    for (const Profile& p : profiles)
      bench.run(p, Ports::Both, true);

  for (Lane& l : lanes) {
    const Master& ms = *l.master;
    std::printf("%s: %s: %llu cycles compared with the port alone; bursts to port 0 / 1: AR "
                "%llu / %llu, AW %llu / %llu; %llu R and %llu W beats; cycles with reads to both "
                "ports in flight %llu, writes %llu; port 0's R held by the order %llu, B %llu\n",
                kTest, l.name, (unsigned long long)l.compared, (unsigned long long)ms.bursts[0][0],
                (unsigned long long)ms.bursts[0][1], (unsigned long long)ms.bursts[1][0],
                (unsigned long long)ms.bursts[1][1], (unsigned long long)ms.rBeats,
                (unsigned long long)ms.wBeats, (unsigned long long)l.bothReads,
                (unsigned long long)l.bothWrites, (unsigned long long)l.rHeldByOrder,
                (unsigned long long)l.bHeldByOrder);
    if (!l.bothReads || !l.bothWrites || !l.rHeldByOrder || !l.bHeldByOrder)
      rtl::fail(kTest, bench.cycle, std::string(l.name) + ": coverage missing (see counts)");
  }
  std::printf("%s: OK (%zu routers, %ld cycles)\n", kTest, lanes.size(), bench.cycle);
  return 0;
}
