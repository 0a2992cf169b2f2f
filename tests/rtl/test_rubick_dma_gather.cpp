// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_dma_gather.v with the DMA maps of real output tensors
// (tb_rubick_dma_gather.v: four GEMM designs, real rubick_bank instances).
//  1. The maps: this test derives them again (explore, makePlan, hostMap, deriveDmaMap from
//     rubick_lib) and checks that the parameters the test top was built with, which it gives
//     back on <p>_info / <p>_cell_*, are exactly those maps.
//  2. Both halves of every bank are filled with random words through the write ports; the
//     gather reads a tile from one half under random stalls on out_ready: every group must
//     come in order (gr outer, gc inner) with each lane carrying the word the host map places
//     at that element (independent of the DMA map), the mask high exactly inside the tile; each
//     element read exactly once; done exactly in cycle groups + 3 + stall cycles.
#include "Vtb_rubick_dma_gather.h"
#include "rtl_test.h"

#include "rubick/arch/DmaMap.h"
#include "rubick/arch/HostMap.h"
#include "rubick/arch/Plan.h"
#include "rubick/dse/Explore.h"
#include "rubick/frontend/Parser.h"
#include "rubick/frontend/Sema.h"

#include <functional>

using namespace rubick;

namespace {

using Vtb = Vtb_rubick_dma_gather;
const char* kTest = "test_rubick_dma_gather";

struct Ports {
  std::function<void(Vtb&, bool, bool, bool)> setCtl;               // start, half, out_ready
  std::function<void(Vtb&, uint64_t, uint64_t, uint64_t)> setWrite; // bank mask, addr, data
  std::function<bool(Vtb&)> busy, done, outValid;
  std::function<uint64_t(Vtb&, int, int)> outData; // lane, width
  std::function<uint64_t(Vtb&)> outMask, rdEn;
  std::function<int64_t(Vtb&, int)> info;                     // field
  std::function<uint64_t(Vtb&, int, int)> cellBank, cellAddr; // bit offset, width
};

#define G_PORTS(P)                                                                                 \
  Ports {                                                                                          \
    [](Vtb& m, bool start, bool half, bool ready) {                                                \
      m.P##_start = start;                                                                         \
      m.P##_half = half;                                                                           \
      m.P##_out_ready = ready;                                                                     \
    },                                                                                             \
        [](Vtb& m, uint64_t en, uint64_t addr, uint64_t data) {                                    \
          m.P##_wr_en = en;                                                                        \
          m.P##_wr_addr = addr;                                                                    \
          m.P##_wr_data = static_cast<uint32_t>(data);                                             \
        },                                                                                         \
        [](Vtb& m) -> bool { return m.P##_busy; }, [](Vtb& m) -> bool { return m.P##_done; },      \
        [](Vtb& m) -> bool { return m.P##_out_valid; },                                            \
        [](Vtb& m, int l, int w) { return rtl::getBits(m.P##_out_data, l * w, w); },               \
        [](Vtb& m) -> uint64_t { return m.P##_out_mask; },                                         \
        [](Vtb& m) -> uint64_t { return m.P##_rd_en; },                                            \
        [](Vtb& m, int f) { return rtl::sext(rtl::getBits(m.P##_info, 32 * f, 32), 32); },         \
        [](Vtb& m, int lo, int w) { return rtl::getBits(m.P##_cell_bank, lo, w); },                \
        [](Vtb& m, int lo, int w) { return rtl::getBits(m.P##_cell_addr, lo, w); },                \
  }

// The fields of <p>_info, in order.
enum Field {
  kRowLanes,
  kLanes,
  kCopies,
  kBanks,
  kAddrBits,
  kRows,
  kCols,
  kRowPeriod,
  kColPeriod,
  kRowStep,
  kColStep,
  kElemW
};

struct Gather {
  const char* name;
  const char* pointId; // GEMM M 6, N 5, K 7 on a 4 x 4 array
  Ports io;
  arch::DmaMap map{};
  std::vector<arch::Location> place{}; // host map: element r * cols + c
  int64_t banks = 0, addrBits = 0, elemW = 0;
  // Bank contents: [bank][half << addrBits | address].
  std::vector<std::vector<uint64_t>> mem{};
  // Run state.
  bool running = false, starting = false, half = false, ready = true;
  double pReady = 1;
  int64_t nextGroup = 0, reads = 0, stalls = 0;
  long startCycle = 0;
  long runs = 0;

  int64_t groups() const { return map.groupRows() * map.groupCols(); }
};

tc::Program program(const char* text, std::vector<std::pair<std::string, int64_t>> sizes) {
  auto file = std::make_shared<const SourceFile>("t.tc", text);
  tc::SemaOptions o;
  for (auto& [n, v] : sizes)
    o.sizes.push_back({n, v, {}});
  return tc::analyze(tc::parse(file), file, o);
}

// The DMA and host maps of output C of the design point `id`, derived as rubick does.
void derive(Gather& g) {
  static const tc::Program prog =
      program("def gemm(int8(M,K) A, int8(K,N) B) -> (C) { C(i,j) +=! A(i,k) * B(k,j) }",
              {{"M", 6}, {"N", 5}, {"K", 7}});
  static const dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  dse::ExploreOptions o;
  o.constraints.arrays = {{4, 4}};
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(a.write ? 32 : 8);
  static const dse::ExploreResult r = dse::explore(v, o);
  for (const dse::DesignPoint& pt : r.points) {
    if (pt.id != g.pointId) continue;
    arch::Plan plan =
        arch::makePlan(prog, v, pt.dataflow, pt.entries, o.constraints.elementBits, "d");
    std::vector<arch::TensorMap> maps = arch::hostMap(prog, v, pt.dataflow, plan);
    for (size_t t = 0; t < maps.size(); ++t) {
      const arch::TensorPlan& tp = plan.tensors[t];
      if (!tp.output) continue;
      std::string why;
      std::optional<arch::DmaMap> d =
          arch::deriveDmaMap(maps[t], static_cast<int64_t>(tp.ports.size()), why);
      if (!d) rtl::fail(kTest, 0, std::string(g.name) + ": no DMA map: " + why);
      g.map = *d;
      g.banks = static_cast<int64_t>(tp.ports.size());
      g.addrBits = tp.addressBits;
      g.elemW = tp.elementBits;
      for (const std::vector<arch::Location>& e : maps[t].elements)
        g.place.push_back(e.at(0));
      return;
    }
  }
  rtl::fail(kTest, 0, std::string(g.name) + ": design point " + g.pointId + " not found");
}

// The test top's parameters must be the derived map.
void checkParameters(Vtb& m, const Gather& g) {
  const arch::DmaMap& d = g.map;
  const std::string who = std::string(g.name) + " (" + g.pointId + "): ";
  const std::pair<Field, int64_t> fields[] = {
      {kRowLanes, d.rowLanes}, {kLanes, d.lanes},         {kCopies, d.copies},
      {kBanks, g.banks},       {kAddrBits, g.addrBits},   {kRows, d.rows},
      {kCols, d.cols},         {kRowPeriod, d.rowPeriod}, {kColPeriod, d.colPeriod},
      {kRowStep, d.rowStep},   {kColStep, d.colStep},     {kElemW, g.elemW}};
  for (auto [f, want] : fields)
    if (g.io.info(m, f) != want)
      rtl::fail(kTest, 0,
                who + rtl::mismatch("info field " + std::to_string(int(f)), g.io.info(m, f), want));
  int bw = 0;
  while ((int64_t{1} << bw) < g.banks + 1)
    ++bw;
  const int aw = int(g.addrBits);
  int cell = 0;
  for (const std::vector<arch::Location>& phase : d.cells)
    for (const arch::Location& c : phase) {
      const uint64_t bank = c.bank < 0 ? rtl::mask(bw) : uint64_t(c.bank);
      const uint64_t addr = uint64_t(c.address) & rtl::mask(aw);
      if (g.io.cellBank(m, cell * bw, bw) != bank || g.io.cellAddr(m, cell * aw, aw) != addr)
        rtl::fail(kTest, 0,
                  who + "cell " + std::to_string(cell) + ": bank " +
                      std::to_string(g.io.cellBank(m, cell * bw, bw)) + " address " +
                      std::to_string(g.io.cellAddr(m, cell * aw, aw)) + ", the map has " +
                      std::to_string(bank) + " " + std::to_string(addr));
      ++cell;
    }
}

struct Bench {
  Vtb& m;
  std::vector<Gather>& gs;
  rtl::Rng& rng;
  long cycle = 0;

  void clock() {
    m.aclk = 1;
    m.eval();
    m.aclk = 0;
    m.eval();
    ++cycle;
  }

  // Every word of both halves of every bank, one bank word per cycle per gather.
  void fill() {
    for (Gather& g : gs) {
      g.mem.assign(size_t(g.banks), std::vector<uint64_t>(size_t(2) << g.addrBits));
      for (auto& bank : g.mem)
        for (auto& w : bank)
          w = rng.bits(int(g.elemW));
    }
    for (size_t k = 0;; ++k) {
      bool any = false;
      for (Gather& g : gs) {
        const size_t words = size_t(2) << g.addrBits;
        const size_t b = k / words, a = k % words;
        if (b < size_t(g.banks)) {
          g.io.setWrite(m, uint64_t(1) << b, a, g.mem[b][a]);
          any = true;
        } else {
          g.io.setWrite(m, 0, 0, 0);
        }
      }
      if (!any) break;
      clock();
    }
  }

  void check(Gather& g) {
    const arch::DmaMap& d = g.map;
    const std::string who = std::string(g.name) + " half " + std::to_string(g.half) + ": ";
    if (g.nextGroup >= g.groups()) rtl::fail(kTest, cycle, who + "more groups than the tile has");
    const int64_t gr = g.nextGroup / d.groupCols(), gc = g.nextGroup % d.groupCols();
    const uint64_t mask = g.io.outMask(m);
    for (int64_t l = 0; l < d.lanes; ++l) {
      const int64_t r = d.rowLanes ? gr * d.lanes + l : gr;
      const int64_t c = d.rowLanes ? gc : gc * d.lanes + l;
      const bool inside = r < d.rows && c < d.cols;
      const std::string lane = who + "group (" + std::to_string(gr) + ", " + std::to_string(gc) +
                               ") lane " + std::to_string(l);
      if (((mask >> l) & 1) != uint64_t(inside))
        rtl::fail(kTest, cycle, rtl::mismatch(lane + " mask", int64_t((mask >> l) & 1), inside));
      if (!inside) continue;
      const arch::Location& p = g.place[size_t(r * d.cols + c)];
      const uint64_t want =
          g.mem[size_t(p.bank)][size_t((int64_t(g.half) << g.addrBits) | p.address)];
      const uint64_t got = g.io.outData(m, int(l), int(g.elemW));
      if (got != want)
        rtl::fail(kTest, cycle, rtl::mismatch(lane + " data", int64_t(got), int64_t(want)));
    }
    ++g.nextGroup;
  }

  // One tile per gather, each with its own half and stall probability.
  void run() {
    for (Gather& g : gs) {
      g.running = g.starting = true;
      g.half = rng.chance(0.5);
      g.nextGroup = g.reads = g.stalls = 0;
      g.startCycle = cycle;
      g.io.setWrite(m, 0, 0, 0);
    }
    const long limit = cycle + 10000;
    for (;;) {
      bool any = false;
      for (Gather& g : gs) {
        g.ready = rng.chance(g.pReady);
        g.io.setCtl(m, g.starting, g.half, g.ready);
        any = any || g.running;
      }
      if (!any) break;
      if (cycle > limit) rtl::fail(kTest, cycle, "tiles did not finish");
      m.eval();
      for (Gather& g : gs) {
        if (!g.running) continue;
        const std::string who = std::string(g.name) + ": ";
        const long c = cycle - g.startCycle;
        g.reads += __builtin_popcountll(g.io.rdEn(m));
        if (g.io.outValid(m)) {
          if (g.ready)
            check(g);
          else
            ++g.stalls;
        }
        if (c >= 1 && !g.io.done(m) && !g.io.busy(m))
          rtl::fail(kTest, cycle, who + "busy low before done");
        if (g.io.done(m)) {
          const long want = g.groups() + 3 + g.stalls;
          if (c != want) rtl::fail(kTest, cycle, who + rtl::mismatch("done cycle", c, want));
          if (g.io.busy(m)) rtl::fail(kTest, cycle, who + "busy with done");
          if (g.nextGroup != g.groups())
            rtl::fail(kTest, cycle, who + rtl::mismatch("groups", g.nextGroup, g.groups()));
          if (g.reads != g.map.rows * g.map.cols)
            rtl::fail(kTest, cycle,
                      who + rtl::mismatch("bank reads", g.reads, g.map.rows * g.map.cols));
          g.running = false;
          ++g.runs;
        }
        g.starting = false;
      }
      clock();
    }
  }
};

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(777);
  std::vector<Gather> gs;
  gs.push_back({"a", "66aff94d5e7c5a42", G_PORTS(a)});
  gs.push_back({"b", "15adb244cab869b8", G_PORTS(b)});
  gs.push_back({"c", "8c94105b8f90e0c2", G_PORTS(c)});
  gs.push_back({"d", "039b1baf07c18b50", G_PORTS(d)});

  m.aresetn = 0;
  for (Gather& g : gs) {
    g.io.setCtl(m, false, false, true);
    g.io.setWrite(m, 0, 0, 0);
  }
  m.aclk = 0;
  m.eval();
  bool twoPhases = false, negativeStep = false, rowLanes = false, colLanes = false;
  for (Gather& g : gs) {
    derive(g);
    checkParameters(m, g);
    std::printf("%s: %s: %s, %lld banks\n", kTest, g.pointId, arch::toString(g.map).c_str(),
                static_cast<long long>(g.banks));
    twoPhases |= g.map.rowPeriod * g.map.colPeriod >= 2;
    negativeStep |= g.map.rowStep < 0 || g.map.colStep < 0;
    (g.map.rowLanes ? rowLanes : colLanes) = true;
  }
  if (!twoPhases || !negativeStep || !rowLanes || !colLanes)
    rtl::fail(kTest, 0,
              "the maps must include several phases, a negative step, row and column lanes");
  Bench bench{m, gs, rng};
  for (int i = 0; i < 3; ++i)
    bench.clock();
  m.aresetn = 1;
  for (Gather& g : gs)
    if (g.io.busy(m) || g.io.outValid(m)) rtl::fail(kTest, bench.cycle, "busy after reset");

  const double pReady[] = {1.0, 0.7, 0.3};
  for (int round = 0; round < 12; ++round) {
    if (round % 3 == 0) bench.fill();
    for (Gather& g : gs)
      g.pReady = pReady[size_t(round) % 3];
    bench.run();
  }
  long runs = 0;
  for (const Gather& g : gs)
    runs += g.runs;
  std::printf("%s: OK (%ld tiles, %ld cycles)\n", kTest, runs, bench.cycle);
  return 0;
}
