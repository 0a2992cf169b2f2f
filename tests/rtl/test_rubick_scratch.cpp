// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_scratch.v: eight RAMs (tb_rubick_scratch.v: 1 to 128 bytes
// wide, LATENCY 1 to 8, MAX_OUTSTANDING 1 to 8), each next to the AXI memory model of
// sim_templates/rubick_axi_mem.h with the settings the header names (dataBytes = DATA_BYTES,
// bytesPerCycle = DATA_BYTES, latency = LATENCY, maxOutstanding = MAX_OUTSTANDING, no DRAM,
// size = the RAM's), both given the same master traffic. Every cycle, every slave output of the
// RAM must equal the model's: ARREADY, AWREADY, WREADY, RVALID, RLAST, RID, RRESP, BVALID, BID,
// BRESP, and RDATA while RVALID is high.
//   The master follows the AXI rules only: VALID held with its payload until READY, W beats in
//   AW order (a W beat may lead its AW), WLAST on each burst's last beat, RREADY and BREADY
//   random. Bursts: 1..16 beats mostly, now and then the longest the 4 KiB rule and the RAM allow
//   (256 beats up to 16-byte buses), at random aligned addresses within the RAM and one 4 KiB
//   page, a third of them in a hot region of 16 words so that reads meet writes in flight to the
//   same words; random IDs and random byte strobes; reads and writes interleaved and overlapping.
//   Phases: the RAM written whole (the RAM starts random, the model at 0: afterwards both hold
//   the same), then traffic profiles (busy, stalled RREADY / BREADY / WVALID, sparse, everything
//   always valid and ready, short bursts all in the hot region), each a few thousand cycles and
//   drained. The model must report no AXI violation (the master's own check).
//   Coverage counted and required: at least 10 R beats first shown in the cycle after a W beat
//   to the same word (the bypass), cycles with ARREADY / AWREADY low (the outstanding limits), R
//   beats held.
#include "Vtb_rubick_scratch.h"
#include "axi_test.h"

#include <deque>
#include <functional>
#include <memory>

namespace {

using rubick_sim::AxiMasterPins;
using rubick_sim::AxiMem;
using rubick_sim::AxiSlavePins;
using Vtb = Vtb_rubick_scratch;

const char* kTest = "test_rubick_scratch";

using Io = axi::SlavePortIo<Vtb>;

// How often the master does things, per cycle.
struct Profile {
  const char* name;
  long cycles;
  double pAr, pAw, pW, pR, pB; // offer an AR / AW / W beat when idle; RREADY; BREADY
  double pHot = 0.33;          // bursts in the hot region
  unsigned shortLen = 0;       // else: every burst 1..shortLen beats
};

struct RdBurst {
  uint64_t addr;
  unsigned len, id;
};
struct WrBeat {
  uint64_t addr;
  std::vector<uint8_t> data, strb;
  bool last;
};

// A master that follows the AXI rules and nothing else: its outputs never depend on the slave's
// outputs of the same cycle.
struct Master {
  unsigned bytes, idW;
  uint64_t size; // bytes of the RAM
  unsigned maxBeats;
  AxiMasterPins out;
  std::deque<RdBurst> arTodo, awTodo; // planned, address not yet taken
  std::deque<WrBeat> wTodo;           // planned beats, in AW order
  std::deque<RdBurst> reads;          // AR taken, R not complete (for the beat addresses)
  unsigned rBeat = 0;
  long lastWWord = -1; // word of the W beat taken in the previous cycle
  bool prevRHeld = false;
  uint64_t bypassHits = 0, rBeats = 0, wBeats = 0, arBursts = 0, awBursts = 0, bResps = 0;
  uint64_t rHeld = 0;

  Master(unsigned b, unsigned id, uint64_t s, const AxiMasterPins& blank)
      : bytes(b), idW(id), size(s), out(blank) {
    const uint64_t page = 4096 / bytes, words = size / bytes;
    maxBeats = unsigned(std::min<uint64_t>({256, page, words}));
  }

  unsigned sizeLog2() const {
    unsigned s = 0;
    while ((1u << s) < bytes)
      ++s;
    return s;
  }

  // A burst of n beats at a random aligned address inside the RAM and one 4 KiB page.
  RdBurst randomBurst(rtl::Rng& rng, unsigned n, bool hot) {
    const uint64_t words = size / bytes;
    const uint64_t span = hot ? std::min<uint64_t>(words, 16) : words;
    if (n > span) n = unsigned(span);
    uint64_t w = uint64_t(rng.range(0, int(span - n)));
    const uint64_t off = (w * bytes) % 4096, len = uint64_t(n) * bytes;
    if (off + len > 4096) w -= (off + len - 4096) / bytes;
    return {w * bytes, n - 1, unsigned(rng.bits(int(idW)))};
  }
  unsigned randomBeats(rtl::Rng& rng, unsigned shortLen) {
    if (shortLen) return unsigned(rng.range(1, int(std::min(shortLen, maxBeats))));
    const int k = rng.range(0, 19);
    if (k < 14) return unsigned(rng.range(1, int(std::min(16u, maxBeats))));
    if (k < 16) return 1;
    if (k < 18) return maxBeats;
    return unsigned(rng.range(1, int(maxBeats)));
  }
  void planRead(rtl::Rng& rng, const Profile& p) {
    arTodo.push_back(randomBurst(rng, randomBeats(rng, p.shortLen), rng.chance(p.pHot)));
  }
  void planWrite(rtl::Rng& rng, const RdBurst& b, bool fullStrobes) {
    awTodo.push_back(b);
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
  void planWrite(rtl::Rng& rng, const Profile& p) {
    planWrite(rng, randomBurst(rng, randomBeats(rng, p.shortLen), rng.chance(p.pHot)), false);
  }

  // The outputs for this cycle (a VALID offered stays until its handshake).
  void decide(rtl::Rng& rng, const Profile& p) {
    if (!out.arvalid && !arTodo.empty() && rng.chance(p.pAr)) {
      const RdBurst& b = arTodo.front();
      out.arvalid = true;
      out.araddr = b.addr;
      out.arlen = b.len;
      out.arid = b.id;
      out.arsize = sizeLog2();
      out.arburst = 1;
    }
    if (!out.awvalid && !awTodo.empty() && rng.chance(p.pAw)) {
      const RdBurst& b = awTodo.front();
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

  // The handshakes of the cycle, given the slave's outputs.
  void observe(const AxiSlavePins& s) {
    long wWord = -1;
    // An R beat shown for the first time: does the W beat of the previous cycle hit its word?
    // (The comparison with the model has passed: an R beat belongs to a burst in flight.)
    if (s.rvalid) {
      const uint64_t a = reads.front().addr + uint64_t(rBeat) * bytes;
      if (!prevRHeld && long(a / bytes) == lastWWord) ++bypassHits;
      if (!out.rready) ++rHeld;
    }
    prevRHeld = s.rvalid && !out.rready;
    if (s.bvalid && out.bready) ++bResps;
    if (s.rvalid && out.rready) {
      ++rBeats;
      if (++rBeat > reads.front().len) {
        reads.pop_front();
        rBeat = 0;
      }
    }
    if (out.arvalid && s.arready) {
      reads.push_back(arTodo.front());
      arTodo.pop_front();
      out.arvalid = false;
      ++arBursts;
    }
    if (out.awvalid && s.awready) {
      awTodo.pop_front();
      out.awvalid = false;
      ++awBursts;
    }
    if (out.wvalid && s.wready) {
      wWord = long(wTodo.front().addr / bytes);
      wTodo.pop_front();
      out.wvalid = false;
      ++wBeats;
    }
    lastWWord = wWord;
  }
  // Nothing planned, nothing in flight.
  bool idle() const {
    return arTodo.empty() && awTodo.empty() && wTodo.empty() && !out.arvalid && !out.awvalid &&
           !out.wvalid && reads.empty() && bResps == awBursts;
  }
};

struct Lane {
  const char* name;
  Io io;
  unsigned bytes, idW, depth, latency, maxOutstanding;
  std::unique_ptr<AxiMem> mem{};
  std::unique_ptr<Master> master{};
  AxiSlavePins dut{};
  AxiMasterPins cyclePins{};
  uint64_t arStalls = 0, awStalls = 0;
  uint64_t size() const { return uint64_t(depth) * bytes; }
};

std::string pinsDiff(const AxiSlavePins& got, const AxiSlavePins& want) {
  auto one = [](const char* n, uint64_t g, uint64_t w) {
    return g == w ? std::string() : rtl::mismatch(n, int64_t(g), int64_t(w)) + "; ";
  };
  std::string d = one("ARREADY", got.arready, want.arready) +
                  one("AWREADY", got.awready, want.awready) +
                  one("WREADY", got.wready, want.wready) + one("RVALID", got.rvalid, want.rvalid) +
                  one("RLAST", got.rlast, want.rlast) + one("RID", got.rid, want.rid) +
                  one("RRESP", got.rresp, want.rresp) + one("BVALID", got.bvalid, want.bvalid) +
                  one("BID", got.bid, want.bid) + one("BRESP", got.bresp, want.bresp);
  if (want.rvalid && got.rdata != want.rdata) {
    for (size_t i = 0; i < got.rdata.size(); ++i)
      if (got.rdata[i] != want.rdata[i]) {
        d += rtl::mismatch("RDATA byte " + std::to_string(i), got.rdata[i], want.rdata[i]);
        break;
      }
  }
  return d;
}

struct Bench {
  Vtb& m;
  std::vector<Lane>& lanes;
  rtl::Rng& rng;
  long cycle = 0;

  void step(const Profile& p) {
    for (Lane& l : lanes) {
      l.master->decide(rng, p);
      l.io.drive(m, l.master->out);
    }
    m.aclk = 0;
    m.eval();
    for (Lane& l : lanes) {
      l.io.sample(m, l.dut);
      const std::string d = pinsDiff(l.dut, l.mem->pins());
      if (!d.empty()) rtl::fail(kTest, cycle, std::string(l.name) + " (" + p.name + "): " + d);
      if (!l.dut.arready) ++l.arStalls;
      if (!l.dut.awready) ++l.awStalls;
      l.cyclePins = l.master->out; // observe() drops the VALIDs handshaken
      l.master->observe(l.dut);
    }
    m.aclk = 1;
    m.eval();
    for (Lane& l : lanes)
      l.mem->tick(l.cyclePins);
    ++cycle;
  }

  // Random traffic for p.cycles cycles, then no new bursts until every lane has drained.
  void run(const Profile& p, bool plan) {
    for (long i = 0; i < p.cycles; ++i) {
      if (plan)
        for (Lane& l : lanes) {
          if (l.master->arTodo.size() < 2) l.master->planRead(rng, p);
          if (l.master->awTodo.size() < 2) l.master->planWrite(rng, p);
        }
      step(p);
    }
    drain(p);
  }
  void drain(const Profile& p) {
    const Profile d{p.name, 0, 1, 1, 1, 0.8, 0.8};
    const long end = cycle + 20000;
    auto busy = [&] {
      for (Lane& l : lanes)
        if (!l.master->idle()) return true;
      return false;
    };
    while (busy()) {
      if (cycle >= end) rtl::fail(kTest, cycle, std::string(p.name) + ": did not drain");
      step(d);
    }
  }
};

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(7031);
  std::vector<Lane> lanes;
  // name, port, DATA_BYTES, ID_W, DEPTH, LATENCY, MAX_OUTSTANDING (as in tb_rubick_scratch.v)
  lanes.push_back({"a", AXI_SLAVE_PORT_IO(Vtb, a), 8, 4, 256, 2, 4});
  lanes.push_back({"b", AXI_SLAVE_PORT_IO(Vtb, b), 1, 1, 512, 1, 1});
  lanes.push_back({"c", AXI_SLAVE_PORT_IO(Vtb, c), 4, 2, 1024, 3, 3});
  lanes.push_back({"d", AXI_SLAVE_PORT_IO(Vtb, d), 16, 8, 512, 8, 8});
  lanes.push_back({"e", AXI_SLAVE_PORT_IO(Vtb, e), 128, 3, 64, 5, 2});
  lanes.push_back({"f", AXI_SLAVE_PORT_IO(Vtb, f), 2, 5, 2048, 4, 6});
  lanes.push_back({"g", AXI_SLAVE_PORT_IO(Vtb, g), 32, 2, 256, 7, 5});
  lanes.push_back({"h", AXI_SLAVE_PORT_IO(Vtb, h), 64, 1, 32, 1, 2});

  // Reset (two edges), the master idle; the model starts in the cycle after the last reset edge.
  m.aresetn = 0;
  for (Lane& l : lanes) {
    rubick_sim::AxiMemConfig c;
    c.dataBytes = l.bytes;
    c.bytesPerCycle = l.bytes;
    c.latency = l.latency;
    c.maxOutstanding = l.maxOutstanding;
    c.size = l.size();
    l.mem = std::make_unique<AxiMem>(c);
    l.master = std::make_unique<Master>(l.bytes, l.idW, l.size(), l.mem->masterPins());
    l.dut.rdata.assign(l.bytes, 0);
    l.io.drive(m, l.master->out);
  }
  for (int i = 0; i < 2; ++i) {
    m.aclk = 0;
    m.eval();
    m.aclk = 1;
    m.eval();
  }
  m.aresetn = 1;

  Bench bench{m, lanes, rng};
  // 1. Every word written (full strobes), in the longest bursts, with no reads.
  for (Lane& l : lanes) {
    Master& ms = *l.master;
    const uint64_t words = l.size() / l.bytes;
    for (uint64_t w = 0; w < words; w += ms.maxBeats)
      ms.planWrite(rng,
                   {w * l.bytes, unsigned(std::min<uint64_t>(ms.maxBeats, words - w) - 1),
                    unsigned(rng.bits(int(l.idW)))},
                   true);
  }
  bench.run({"fill", 0, 0, 0.8, 0.9, 0.9, 0.9}, false);
  for (Lane& l : lanes)
    if (l.mem->stats().bytesWritten != l.size())
      rtl::fail(kTest, bench.cycle, std::string(l.name) + ": the RAM was not written whole");

  // 2. Random traffic under several profiles.
  const Profile profiles[] = {
      {"busy", 4000, 0.5, 0.5, 0.9, 0.9, 0.9},
      {"stalls", 4000, 0.6, 0.6, 0.5, 0.35, 0.3},
      {"sparse", 3000, 0.08, 0.08, 0.3, 0.7, 0.7},
      {"always", 3000, 1, 1, 1, 1, 1},
      {"reads stalled, writes fast", 3000, 0.7, 0.7, 1, 0.2, 1},
      {"short bursts, hot words", 3000, 0.7, 0.7, 0.9, 0.8, 0.8, 1, 4},
  };
  for (const Profile& p : profiles)
    bench.run(p, true);

  for (Lane& l : lanes) {
    const Master& ms = *l.master;
    if (l.mem->violationCount())
      rtl::fail(kTest, bench.cycle, std::string(l.name) + ": " + axi::violations(*l.mem));
    std::printf("%s: %s (%u B, latency %u, %u in flight): %llu AR, %llu AW, %llu R beats, %llu W "
                "beats, %llu bypass hits, %llu R beats held, ARREADY low %llu, AWREADY low %llu "
                "cycles\n",
                kTest, l.name, l.bytes, l.latency, l.maxOutstanding,
                (unsigned long long)ms.arBursts, (unsigned long long)ms.awBursts,
                (unsigned long long)ms.rBeats, (unsigned long long)ms.wBeats,
                (unsigned long long)ms.bypassHits, (unsigned long long)ms.rHeld,
                (unsigned long long)l.arStalls, (unsigned long long)l.awStalls);
    if (ms.bypassHits < 10 || ms.rHeld == 0 || l.arStalls == 0 || l.awStalls == 0)
      rtl::fail(kTest, bench.cycle, std::string(l.name) + ": coverage missing (see counts)");
  }
  std::printf("%s: OK (%zu RAMs, %ld cycles each)\n", kTest, lanes.size(), bench.cycle);
  return 0;
}
