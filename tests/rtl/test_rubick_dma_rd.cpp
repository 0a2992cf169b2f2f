// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_dma_rd.v (with rubick_dma_rd_cols.v, rubick_dma_rd_rows.v
// and rubick_axi_rd.v): the engines of tb_rubick_dma_rd.v against the AXI memory model of
// sim_templates/rubick_axi_mem.h, which checks the protocol side.
//  1. Random tiles (aligned and unaligned rows, contiguous rows, partial and empty tiles, rows
//     closer than a row's width) under different memories (latency, bandwidth, DRAM timing)
//     and random backpressure on out_ready: every group is compared with a C++ model of the
//     tile (zeros outside rows_valid x cols_valid, mask = inside ROWS x COLS), the bursts must
//     be exactly the documented read commands split by rubick_axi_rd's rule, every beat read
//     must hold an element of the tile, the memory must see no protocol violation, and error
//     must pulse once per beat read from a region answering SLVERR (the groups still flow).
//  2. Timing: with a fixed latency, out_ready high and one beat per cycle (then beats 2 and 4
//     cycles apart), the cycle of done must be exactly rubick_lib's arch::dmaReadDone (the
//     formula of rubick_dma_rd.v for column lanes, the recurrence of rubick_dma_rd_rows.v for
//     row lanes, both over the beats' arrival), whose read commands must be the ones derived
//     here; also on the full tiles whose groups per cycle are printed (the README's numbers).
#include "Vtb_rubick_dma_rd.h"
#include "axi_test.h"
#include "dram_replay.h"
#include "rubick/arch/DmaTiming.h"

#include <algorithm>
#include <functional>
#include <memory>

namespace {

using rubick_sim::AxiMasterPins;
using rubick_sim::AxiMem;
using rubick_sim::AxiSlavePins;
using Vtb = Vtb_rubick_dma_rd;

const char* kTest = "test_rubick_dma_rd";
constexpr uint64_t kMemBytes = 1 << 20; // ADDR_W 20 in the test top
constexpr unsigned kMaxBurst = 16;
constexpr unsigned kMaxOutstanding = 32; // MAX_OUTSTANDING in the test top

// The parameters of each engine in tb_rubick_dma_rd.v.
struct Config {
  const char* name;
  bool rowLanes;
  unsigned dataW, elemW, lanes, rows, cols, blockBeats;
};

struct Ports {
  std::function<void(Vtb&, const AxiSlavePins&)> drive;
  std::function<void(Vtb&, AxiMasterPins&)> sample;
  std::function<void(Vtb&, bool, uint64_t, uint64_t, unsigned, unsigned)> setStart;
  std::function<void(Vtb&, bool)> setOutReady;
  std::function<bool(Vtb&)> outValid, busy, done, error;
  std::function<uint64_t(Vtb&, int, int)> outBits; // out_data[lo +: w]
  std::function<uint64_t(Vtb&)> outMask;
};

#define DMA_PORTS(P)                                                                               \
  Ports {                                                                                          \
    [](Vtb& m, const AxiSlavePins& s) {                                                            \
      m.P##_m_axi_arready = s.arready;                                                             \
      m.P##_m_axi_rvalid = s.rvalid;                                                               \
      m.P##_m_axi_rlast = s.rlast;                                                                 \
      m.P##_m_axi_rresp = s.rresp;                                                                 \
      m.P##_m_axi_rid = s.rid;                                                                     \
      axi::putBytes(m.P##_m_axi_rdata, s.rdata);                                                   \
    },                                                                                             \
        [](Vtb& m, AxiMasterPins& p) {                                                             \
          p.arvalid = m.P##_m_axi_arvalid;                                                         \
          p.araddr = m.P##_m_axi_araddr;                                                           \
          p.arlen = m.P##_m_axi_arlen;                                                             \
          p.arsize = m.P##_m_axi_arsize;                                                           \
          p.arburst = m.P##_m_axi_arburst;                                                         \
          p.arid = m.P##_m_axi_arid;                                                               \
          p.rready = m.P##_m_axi_rready;                                                           \
        },                                                                                         \
        [](Vtb& m, bool s, uint64_t base, uint64_t pitch, unsigned rv, unsigned cv) {              \
          m.P##_start = s;                                                                         \
          m.P##_base = base;                                                                       \
          m.P##_pitch = pitch;                                                                     \
          m.P##_rows_valid = rv;                                                                   \
          m.P##_cols_valid = cv;                                                                   \
        },                                                                                         \
        [](Vtb& m, bool r) { m.P##_out_ready = r; },                                               \
        [](Vtb& m) -> bool { return m.P##_out_valid; }, [](Vtb& m) -> bool { return m.P##_busy; }, \
        [](Vtb& m) -> bool { return m.P##_done; }, [](Vtb& m) -> bool { return m.P##_error; },     \
        [](Vtb& m, int lo, int w) -> uint64_t { return rtl::getBits(m.P##_out_data, lo, w); },     \
        [](Vtb& m) -> uint64_t { return m.P##_out_mask; }                                          \
  }

struct Geometry {
  uint64_t base = 0, pitch = 0;
  unsigned rv = 0, cv = 0;
};

struct Cmd {
  uint64_t addr, beats;
};

// What the engine must do with one tile, worked out from the documentation.
struct Expect {
  std::vector<std::vector<uint64_t>> groups; // lane values
  std::vector<uint64_t> masks;
  std::vector<Cmd> cmds;
};

struct Engine {
  Config cfg;
  Ports io;
  unsigned bytes() const { return cfg.dataW / 8; }
  unsigned elemBytes() const { return cfg.elemW / 8; }
  unsigned epb() const { return cfg.dataW / cfg.elemW; }
  unsigned groupRows() const {
    return cfg.rowLanes ? (cfg.rows + cfg.lanes - 1) / cfg.lanes : cfg.rows;
  }
  unsigned groupCols() const {
    return cfg.rowLanes ? cfg.cols : (cfg.cols + cfg.lanes - 1) / cfg.lanes;
  }
  unsigned chunkCols() const { return cfg.blockBeats * epb(); }
  std::pair<unsigned, unsigned> element(unsigned gr, unsigned gc, unsigned l) const {
    return cfg.rowLanes ? std::pair{gr * cfg.lanes + l, gc} : std::pair{gr, gc * cfg.lanes + l};
  }
};

uint64_t alignDown(uint64_t a, unsigned b) {
  return a / b * b;
}
uint64_t alignUp(uint64_t a, unsigned b) {
  return (a + b - 1) / b * b;
}

// The read commands of the header comments: column lanes one per row (contiguous rows: from the
// end of the previous one), row lanes one per (block row, chunk, row).
std::vector<Cmd> commands(const Engine& e, const Geometry& g) {
  std::vector<Cmd> out;
  const unsigned B = e.bytes(), E = e.elemBytes();
  if (g.rv == 0 || g.cv == 0) return out;
  auto add = [&](uint64_t from, uint64_t to) {
    if (to > from || e.cfg.rowLanes) out.push_back({from, (to - from) / B});
  };
  if (!e.cfg.rowLanes) {
    const bool merged = g.pitch == uint64_t(g.cv) * E;
    uint64_t prev = 0;
    for (unsigned r = 0; r < g.rv; ++r) {
      const uint64_t row = g.base + r * g.pitch;
      const uint64_t from = merged && r > 0 ? prev : alignDown(row, B);
      prev = alignUp(row + uint64_t(g.cv) * E, B);
      add(from, prev);
    }
    return out;
  }
  const unsigned L = e.cfg.lanes, W = e.chunkCols();
  for (unsigned r0 = 0; r0 < g.rv; r0 += L)
    for (unsigned c0 = 0; c0 < g.cv; c0 += W)
      for (unsigned r = r0; r < std::min(r0 + L, g.rv); ++r) {
        const uint64_t row = g.base + r * g.pitch;
        // A chunk after the first of an unaligned row starts past the beat it shares with
        // the chunk before (read there); it may then have no beat at all.
        const uint64_t shared = c0 > 0 && row % B != 0 ? B : 0;
        add(alignDown(row, B) + uint64_t(c0 / e.epb()) * B + shared,
            alignUp(row + uint64_t(std::min(c0 + W, g.cv)) * E, B));
      }
  return out;
}

Expect expect(const Engine& e, const Geometry& g, const AxiMem& mem) {
  Expect x;
  x.cmds = commands(e, g);
  const unsigned E = e.elemBytes();
  for (unsigned gr = 0; gr < e.groupRows(); ++gr)
    for (unsigned gc = 0; gc < e.groupCols(); ++gc) {
      std::vector<uint64_t> vals(e.cfg.lanes, 0);
      uint64_t mask = 0;
      for (unsigned l = 0; l < e.cfg.lanes; ++l) {
        auto [r, c] = e.element(gr, gc, l);
        if (r < e.cfg.rows && c < e.cfg.cols) mask |= uint64_t(1) << l;
        if (r >= g.rv || c >= g.cv) continue;
        const uint64_t a = g.base + r * g.pitch + uint64_t(c) * E;
        for (unsigned i = 0; i < E; ++i)
          vals[l] |= uint64_t(mem.byte(a + i)) << (8 * i);
      }
      x.groups.push_back(vals);
      x.masks.push_back(mask);
    }
  return x;
}

// The engine as rubick_lib describes it.
rubick::arch::DmaEngine libEngine(const Engine& e) {
  rubick::arch::DmaEngine d;
  d.elemBytes = e.elemBytes();
  d.lanes = e.cfg.lanes;
  d.rowLanes = e.cfg.rowLanes;
  d.rows = e.cfg.rows;
  d.cols = e.cfg.cols;
  d.blockBeats = e.cfg.blockBeats;
  return d;
}

// The cycle of done after a start at edge 0: rubick_lib's timing of the engine (the header
// comments' formula and recurrence, with beats `spacing` cycles apart), so that the library's
// cycle prediction and the RTL are checked against each other.
// With `dram`, the memory's DRAM timing (closed banks at the start) through rubick_lib's
// replay of the row buffers.
long expectedDone(const Engine& e, const Geometry& g, unsigned latency, unsigned spacing = 1,
                  const rubick_sim::AxiMemConfig* dram = nullptr) {
  const rubick::arch::DmaEngine d = libEngine(e);
  rubick::arch::BusTiming b;
  b.busBytes = e.bytes();
  b.beatSpacing = spacing;
  b.latency = latency;
  b.burstBeats = kMaxBurst;
  b.outstanding = kMaxOutstanding;
  std::unique_ptr<rtl::DramReplay> replay;
  if (dram) {
    replay = std::make_unique<rtl::DramReplay>(*dram);
    b.memory = replay.get();
  }
  return long(rubick::arch::dmaReadDone(d, {g.base, g.pitch, g.rv, g.cv}, b));
}

// The library's read commands are the ones the test derives from the header.
void checkCommands(const Engine& e, const Geometry& g, const Expect& x) {
  const rubick::arch::DmaEngine d = libEngine(e);
  const std::vector<rubick::arch::DmaCommand> lib =
      rubick::arch::readCommands(d, {g.base, g.pitch, g.rv, g.cv}, e.bytes());
  bool same = lib.size() == x.cmds.size();
  for (size_t i = 0; same && i < lib.size(); ++i)
    same = lib[i].addr == x.cmds[i].addr && uint64_t(lib[i].beats) == x.cmds[i].beats;
  if (!same) rtl::fail(kTest, 0, std::string(e.cfg.name) + ": rubick_lib's read commands differ");
}

struct Bench {
  Vtb& m;
  std::vector<Engine>& engines;
  rtl::Rng& rng;
  long cycle = 0;

  struct Run {
    bool active = false;
    Geometry g;
    Expect x;
    std::unique_ptr<AxiMem> mem;
    AxiMasterPins pins;
    size_t next = 0; // next group expected
    double pReady = 1;
    bool outReady = false, startPending = false;
    long startCycle = -1, doneCycle = -1, firstGroup = -1, lastGroup = -1;
    unsigned errors = 0;
    uint64_t errAddr = 0, errBytes = 0; // injected SLVERR region
  };
  std::vector<Run> runs = std::vector<Run>(engines.size());
  long errorsSeen = 0;

  void step() {
    for (size_t i = 0; i < engines.size(); ++i) {
      Engine& e = engines[i];
      Run& r = runs[i];
      r.outReady = rng.chance(r.pReady);
      e.io.setOutReady(m, r.outReady);
      e.io.setStart(m, r.startPending, r.g.base, r.g.pitch, r.g.rv, r.g.cv);
      if (r.mem) e.io.drive(m, r.mem->pins());
    }
    m.aclk = 0;
    m.eval();
    for (size_t i = 0; i < engines.size(); ++i) {
      Engine& e = engines[i];
      Run& r = runs[i];
      if (!r.mem) continue;
      e.io.sample(m, r.pins);
      if (r.startPending) {
        if (e.io.busy(m)) rtl::fail(kTest, cycle, std::string(e.cfg.name) + ": busy at start");
        r.startPending = false;
        r.startCycle = cycle;
      }
      if (e.io.outValid(m) && r.outReady) check(e, r);
      if (e.io.done(m)) {
        if (r.doneCycle >= 0) rtl::fail(kTest, cycle, std::string(e.cfg.name) + ": done twice");
        r.doneCycle = cycle;
      }
      if (e.io.error(m)) ++r.errors;
    }
    m.aclk = 1;
    m.eval();
    for (Run& r : runs)
      if (r.mem) r.mem->tick(r.pins);
    ++cycle;
  }

  void check(const Engine& e, Run& r) {
    const std::string who = std::string(e.cfg.name) + ": group " + std::to_string(r.next);
    if (r.next >= r.x.groups.size()) rtl::fail(kTest, cycle, who + " is one too many");
    for (unsigned l = 0; l < e.cfg.lanes; ++l) {
      const uint64_t got = e.io.outBits(m, int(l * e.cfg.elemW), int(e.cfg.elemW));
      if (got != r.x.groups[r.next][l])
        rtl::fail(kTest, cycle,
                  who + rtl::mismatch(" lane " + std::to_string(l), int64_t(got),
                                      int64_t(r.x.groups[r.next][l])));
    }
    if (e.io.outMask(m) != r.x.masks[r.next])
      rtl::fail(kTest, cycle,
                who + rtl::mismatch(" mask", int64_t(e.io.outMask(m)), int64_t(r.x.masks[r.next])));
    if (r.firstGroup < 0) r.firstGroup = cycle;
    r.lastGroup = cycle;
    ++r.next;
  }

  void launch(size_t i, const Geometry& g, const rubick_sim::AxiMemConfig& mc, double pReady,
              bool errors = false) {
    Run& r = runs[i];
    r = Run{};
    r.mem = std::make_unique<AxiMem>(mc);
    // Random bytes over the beats the tile can touch (the rest reads as zeros; no beat outside
    // the tile may be read anyway): filling the whole memory per tile would dominate the test.
    const Engine& e = engines[i];
    const uint64_t lo = alignDown(g.base, 64);
    const uint64_t hi = std::min<uint64_t>(
        kMemBytes,
        alignUp(g.base + uint64_t(g.rv) * g.pitch + uint64_t(e.cfg.cols) * e.elemBytes(), 64) + 64);
    std::vector<uint8_t> content(hi - lo);
    for (size_t k = 0; k < content.size(); k += 8) {
      const uint64_t w = rng.bits(64);
      for (size_t j = 0; j < 8 && k + j < content.size(); ++j)
        content[k + j] = static_cast<uint8_t>(w >> (8 * j));
    }
    r.mem->store(lo, content.data(), content.size());
    if (errors) { // the upper half of the memory, from a byte inside a beat
      r.errAddr = kMemBytes / 2 + 3;
      r.errBytes = kMemBytes / 2 - 3;
      r.mem->injectError(r.errAddr, r.errBytes);
    }
    r.pins = r.mem->masterPins();
    r.g = g;
    r.x = expect(engines[i], g, *r.mem);
    r.pReady = pReady;
    r.startPending = true;
    r.active = true;
  }

  void runAll(long limit, const std::string& what) {
    const long end = cycle + limit;
    auto finished = [&] {
      for (Run& r : runs)
        if (r.active && r.doneCycle < 0) return false;
      return true;
    };
    while (!finished()) {
      if (cycle >= end) rtl::fail(kTest, cycle, what + ": did not finish");
      step();
    }
    for (int i = 0; i < 3; ++i) // nothing after done
      step();
  }

  void verify(size_t i, const std::string& what) {
    const Engine& e = engines[i];
    Run& r = runs[i];
    const std::string who = what + ", " + e.cfg.name + " (base " + std::to_string(r.g.base) +
                            " pitch " + std::to_string(r.g.pitch) + " rows " +
                            std::to_string(r.g.rv) + " cols " + std::to_string(r.g.cv) + "): ";
    if (r.next != r.x.groups.size())
      rtl::fail(kTest, cycle, who + rtl::mismatch("groups", long(r.next), long(r.x.groups.size())));
    if (r.mem->violationCount()) rtl::fail(kTest, cycle, who + axi::violations(*r.mem));
    std::vector<axi::Cmd> cmds;
    for (const Cmd& c : r.x.cmds)
      cmds.push_back({c.addr, c.beats});
    const std::string split = axi::checkBursts(*r.mem, cmds, e.bytes(), kMaxBurst, 0, false);
    if (!split.empty()) rtl::fail(kTest, cycle, who + split);
    // Every beat read holds an element of the tile.
    const unsigned B = e.bytes(), E = e.elemBytes();
    for (const auto& b : r.mem->bursts())
      for (unsigned k = 0; k <= b.len; ++k) {
        const uint64_t a = b.addr + uint64_t(k) * B;
        bool useful = false;
        for (unsigned row = 0; row < r.g.rv && !useful; ++row) {
          const uint64_t lo = r.g.base + row * r.g.pitch, hi = lo + uint64_t(r.g.cv) * E;
          useful = lo < a + B && a < hi;
        }
        if (!useful)
          rtl::fail(kTest, cycle,
                    who + "read a beat at " + std::to_string(a) + " with no element of the tile");
      }
    // One error pulse per beat read that touches the SLVERR region (the data still flows).
    unsigned errorsWanted = 0;
    for (const auto& b : r.mem->bursts())
      for (unsigned k = 0; k <= b.len; ++k) {
        const uint64_t a = b.addr + uint64_t(k) * B;
        if (r.errBytes && a < r.errAddr + r.errBytes && r.errAddr < a + B) ++errorsWanted;
      }
    if (r.errors != errorsWanted)
      rtl::fail(kTest, cycle,
                who + rtl::mismatch("error pulses", long(r.errors), long(errorsWanted)));
    errorsSeen += r.errors;
    r.active = false;
  }
};

Geometry randomGeometry(const Engine& e, rtl::Rng& rng) {
  const unsigned E = e.elemBytes();
  Geometry g;
  g.rv = rng.chance(0.6) ? e.cfg.rows : unsigned(rng.range(0, int(e.cfg.rows)));
  g.cv = rng.chance(0.6) ? e.cfg.cols : unsigned(rng.range(0, int(e.cfg.cols)));
  switch (rng.range(0, 5)) {
  case 0: // contiguous rows
    g.pitch = uint64_t(g.cv) * E;
    break;
  case 1: // rows closer than their width
    g.pitch = uint64_t(rng.range(0, int(g.cv))) * E;
    break;
  case 2: // beat-aligned rows
    g.pitch = alignUp(uint64_t(g.cv) * E + 1, e.bytes()) + e.bytes() * uint64_t(rng.range(0, 2));
    break;
  default:
    g.pitch = uint64_t(g.cv) * E + uint64_t(rng.range(0, 3 * int(e.epb()) + 5)) * E;
  }
  const uint64_t span = uint64_t(g.rv) * g.pitch + uint64_t(e.cfg.cols) * E + 4096;
  g.base = uint64_t(rng.range(0, int((kMemBytes - span) / E))) * E;
  if (rng.chance(0.25)) g.base = alignDown(g.base, e.bytes());                  // aligned start
  if (rng.chance(0.1)) g.base = alignDown(g.base, 4096) + 4096 - 2 * e.bytes(); // across 4 KiB
  return g;
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(77);
  std::vector<Engine> engines = {
      {{"ca", false, 64, 8, 3, 5, 20, 1}, DMA_PORTS(ca)},
      {{"cb", false, 64, 32, 4, 4, 13, 1}, DMA_PORTS(cb)},
      {{"cc", false, 512, 8, 16, 6, 40, 1}, DMA_PORTS(cc)},
      {{"cd", false, 64, 16, 1, 3, 9, 1}, DMA_PORTS(cd)},
      {{"ce", false, 512, 32, 16, 3, 37, 1}, DMA_PORTS(ce)},
      {{"ra", true, 64, 8, 4, 10, 20, 2}, DMA_PORTS(ra)},
      {{"rb", true, 512, 32, 16, 16, 24, 1}, DMA_PORTS(rb)},
      {{"rc", true, 64, 32, 3, 7, 5, 3}, DMA_PORTS(rc)},
      {{"rd", true, 512, 8, 16, 20, 70, 1}, DMA_PORTS(rd)},
      {{"cf", false, 32, 32, 2, 3, 5, 1}, DMA_PORTS(cf)},
      {{"re", true, 32, 32, 2, 5, 3, 2}, DMA_PORTS(re)},
  };
  Bench bench{m, engines, rng};

  m.aresetn = 0;
  for (Engine& e : engines) {
    e.io.setStart(m, true, 0, 0, 1, 1);
    e.io.drive(m, AxiSlavePins{});
  }
  for (int i = 0; i < 3; ++i) {
    m.aclk = 0;
    m.eval();
    m.aclk = 1;
    m.eval();
    for (Engine& e : engines)
      if (i > 0 && (e.io.busy(m) || e.io.outValid(m)))
        rtl::fail(kTest, i, std::string(e.cfg.name) + ": busy or out_valid in reset");
  }
  m.aresetn = 1;
  for (Engine& e : engines)
    e.io.setStart(m, false, 0, 0, 0, 0);

  // 1. Random tiles under different memories.
  const axi::Phase phases[] = {
      {"basic", 8, 1, 64, false, 0.8, false},
      {"quarter bandwidth, latency 30", 30, 4, 64, false, 0.9, false},
      {"memory takes two bursts at a time", 3, 1, 2, false, 0.9, false},
      {"heavy backpressure", 1, 1, 64, false, 0.3, false},
      {"DRAM timing", 5, 1, 64, true, 0.8, false},
      {"SLVERR on the upper half", 4, 1, 64, false, 0.8, true},
  };
  long tiles = 0, groups = 0;
  for (const axi::Phase& p : phases)
    for (int round = 0; round < 30; ++round) {
      for (size_t i = 0; i < engines.size(); ++i)
        bench.launch(i, randomGeometry(engines[i], rng),
                     axi::modelConfig(p, engines[i].bytes(), kMemBytes), p.streamReady, p.errors);
      bench.runAll(200000, p.name);
      for (size_t i = 0; i < engines.size(); ++i) {
        groups += long(bench.runs[i].next);
        bench.verify(i, p.name);
      }
      tiles += long(engines.size());
    }
  if (bench.errorsSeen == 0) rtl::fail(kTest, bench.cycle, "SLVERR phase: no error injected");

  // 2. Timing, exact: one beat per cycle, latency L, out_ready high.
  // Then beats 2 and 4 cycles apart (a memory slower than the bus), as rubick_lib predicts.
  long timed = 0;
  const std::pair<unsigned, unsigned> memories[] = {{1, 1}, {6, 1},  {20, 1}, {30, 1}, // L, spacing
                                                    {1, 2}, {12, 2}, {30, 4}};
  for (auto [latency, spacing] : memories) // 30: MAX_OUTSTANDING (32) = L + 2
    for (int round = 0; round < (spacing == 1 ? 25 : 12); ++round) {
      std::vector<Geometry> gs;
      for (size_t i = 0; i < engines.size(); ++i) {
        Geometry g = round == 0 ? Geometry{4096 + 8, 0, engines[i].cfg.rows, engines[i].cfg.cols}
                                : randomGeometry(engines[i], rng);
        if (round == 0) g.pitch = uint64_t(g.cv) * engines[i].elemBytes() + 8; // unaligned rows
        if (round == 1) g.base = 8192, g.pitch = alignUp(g.pitch, engines[i].bytes());
        gs.push_back(g);
        axi::Phase p{"timing", latency, spacing, 64, false, 1.0, false};
        bench.launch(i, g, axi::modelConfig(p, engines[i].bytes(), kMemBytes), 1.0);
      }
      bench.runAll(200000, "timing");
      for (size_t i = 0; i < engines.size(); ++i) {
        Bench::Run& r = bench.runs[i];
        const long got = r.doneCycle - r.startCycle;
        const long want = expectedDone(engines[i], gs[i], latency, spacing);
        checkCommands(engines[i], gs[i], r.x);
        bench.verify(i, "timing");
        if (got != want)
          rtl::fail(kTest, bench.cycle,
                    std::string(engines[i].cfg.name) + " (base " + std::to_string(gs[i].base) +
                        " pitch " + std::to_string(gs[i].pitch) + " rows " +
                        std::to_string(gs[i].rv) + " cols " + std::to_string(gs[i].cv) +
                        ", latency " + std::to_string(latency) + ", spacing " +
                        std::to_string(spacing) + ")" +
                        rtl::mismatch(": cycles from start to done", got, want));
        ++timed;
      }
    }

  // DRAM timing, exact: rows of 256 bytes in 4 banks (bursts that cross a row, conflicts
  // inside one tile), beats 1 or 2 cycles apart; then a DRAM slow enough (tRCD = tRP = CL = 60)
  // that the engines' bursts in flight and the row-lane reader's descriptors run out.
  for (auto [latency, spacing, slow] :
       {std::tuple<unsigned, unsigned, bool>{6, 1, false}, {20, 2, false}, {6, 1, true}})
    for (int round = 0; round < 12; ++round) {
      std::vector<Geometry> gs;
      std::vector<rubick_sim::AxiMemConfig> cfgs;
      for (size_t i = 0; i < engines.size(); ++i) {
        gs.push_back(randomGeometry(engines[i], rng));
        axi::Phase p{"DRAM timing", latency, spacing, 64, true, 1.0, false};
        cfgs.push_back(axi::modelConfig(p, engines[i].bytes(), kMemBytes));
        cfgs.back().rowBytes = 256;
        if (slow) cfgs.back().tRCD = cfgs.back().tRP = cfgs.back().CL = 60;
        bench.launch(i, gs.back(), cfgs.back(), 1.0);
      }
      bench.runAll(200000, "DRAM timing");
      for (size_t i = 0; i < engines.size(); ++i) {
        Bench::Run& r = bench.runs[i];
        const long got = r.doneCycle - r.startCycle;
        const long want = expectedDone(engines[i], gs[i], latency, spacing, &cfgs[i]);
        bench.verify(i, "DRAM timing");
        if (got != want)
          rtl::fail(kTest, bench.cycle,
                    std::string(engines[i].cfg.name) + " (base " + std::to_string(gs[i].base) +
                        " pitch " + std::to_string(gs[i].pitch) + " rows " +
                        std::to_string(gs[i].rv) + " cols " + std::to_string(gs[i].cv) +
                        ", latency " + std::to_string(latency) + ", spacing " +
                        std::to_string(spacing) + ", DRAM)" +
                        rtl::mismatch(": cycles from start to done", got, want));
        ++timed;
      }
    }

  // Throughput of a full tile, aligned and unaligned rows (what the README reports), timed too.
  for (size_t i = 0; i < engines.size(); ++i) {
    const Engine& e = engines[i];
    for (bool aligned : {true, false}) {
      Geometry g{aligned ? 65536u : 65536u + 4, 0, e.cfg.rows, e.cfg.cols};
      g.pitch = alignUp(uint64_t(g.cv) * e.elemBytes(), e.bytes()) + (aligned ? e.bytes() : 4);
      axi::Phase p{"rate", 10, 1, 64, false, 1.0, false};
      bench.launch(i, g, axi::modelConfig(p, e.bytes(), kMemBytes), 1.0);
      bench.runAll(200000, "rate");
      Bench::Run& r = bench.runs[i];
      const long want = expectedDone(e, g, p.latency);
      if (r.doneCycle - r.startCycle != want)
        rtl::fail(
            kTest, bench.cycle,
            std::string(e.cfg.name) + " rate tile" +
                rtl::mismatch(": cycles from start to done", r.doneCycle - r.startCycle, want));
      ++timed;
      uint64_t beats = 0;
      for (const Cmd& c : r.x.cmds)
        beats += c.beats;
      const double span = double(r.lastGroup - r.firstGroup + 1);
      std::printf("%s: %s %s rows: %zu groups, %llu beats, %ld cycles start to done, %.2f groups "
                  "per cycle from first to last group (target %.2f)\n",
                  kTest, e.cfg.name, aligned ? "aligned" : "unaligned", r.x.groups.size(),
                  static_cast<unsigned long long>(beats), r.doneCycle - r.startCycle,
                  double(r.x.groups.size()) / span,
                  std::min(1.0, double(e.cfg.dataW) / double(e.cfg.lanes * e.cfg.elemW)));
      bench.verify(i, "rate");
    }
  }

  std::printf("%s: OK (%ld tiles, %ld groups checked, %ld timed exactly, %ld cycles)\n", kTest,
              tiles, groups, timed, bench.cycle);
  return 0;
}
