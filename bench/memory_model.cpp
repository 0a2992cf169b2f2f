// SPDX-License-Identifier: Apache-2.0
// How well the explorer's memory model ranks designs (not a test: it prints figures).
//
//   build/bench/memory_model            all cases
//   build/bench/memory_model gemm-256   cases whose name contains the argument
//
// For each case: explore with an external memory, then for the model's best N designs the exact
// cycles of the emitted top (arch::memoryTiming, which `rubick verify` checks cycle for cycle),
// the ratio exact / model, the end-to-end PE utilisation both ways, and where the exact best of
// those N sits in the model's ranking. Per design it also shows each tensor's DMA rate: its
// lanes (elements into the banks per cycle) against the tensor's bank count.

#include "rubick/arch/MemoryPlan.h"
#include "rubick/arch/MemoryTiming.h"
#include "rubick/dataflow/StatementView.h"
#include "rubick/dse/BufferSearch.h"
#include "rubick/dse/Explore.h"
#include "rubick/frontend/Parser.h"
#include "rubick/frontend/Sema.h"
#include "rubick/support/Diagnostic.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

using namespace rubick;

namespace {

struct Case {
  std::string name, tc;
  std::vector<std::pair<std::string, int64_t>> sizes;
  int64_t p, q;
  dse::MemorySystem memory;
  int64_t bufferKib;
  size_t top;
};

const char* kGemm = "def gemm(int8(M,K) A, int8(K,N) B) -> (C) { C(i,j) +=! A(i,k) * B(k,j) }";
const char* kGemv = "def gemv(int8(M,N) A, int8(N) x) -> (y) { y(i) +=! A(i,j) * x(j) }";

double seconds(std::chrono::steady_clock::time_point a) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
}

void run(const Case& c) {
  auto file = std::make_shared<const SourceFile>(c.name + ".tc", c.tc);
  tc::SemaOptions so;
  for (auto& [n, v] : c.sizes)
    so.sizes.push_back({n, v, {}});
  const tc::Program prog = tc::analyze(tc::parse(file), file, so);
  const dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  dse::ExploreOptions o;
  o.constraints.arrays = {{c.p, c.q}};
  o.constraints.memory = c.memory;
  o.constraints.bufferBytes = c.bufferKib * 1024;
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(tc::bitWidth(prog.tensors[a.tensor].type));
  o.keepBest = c.top;
  const auto t0 = std::chrono::steady_clock::now();
  const dse::ExploreResult r = dse::explore(v, o);
  const double exploreSeconds = seconds(t0);
  int64_t macs = 1;
  for (int64_t e : v.extent)
    macs *= e;
  const double pes = double(c.p * c.q);
  std::printf("\n%s: %zu designs explored in %.2f s; the model's best %zu:\n", c.name.c_str(),
              r.stats.designs, exploreSeconds, std::min(c.top, r.points.size()));
  std::printf("rank  id                  model   exact  exact/model  util(model)  util(exact)  "
              "phases c/l/s  DMA lanes/banks per tensor\n");
  const arch::AxiOptions axi = arch::axiOptions(c.memory);
  std::vector<double> ratios;
  int64_t bestExact = 0, lanesSeen = 0, lanesOff = 0;
  size_t bestRank = 0;
  const auto t1 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < r.points.size() && i < c.top; ++i) {
    const dse::DesignPoint& pt = r.points[i];
    std::string lanes;
    int64_t exact = 0;
    std::string phases;
    try {
      const arch::MemoryPlan m = arch::makeMemoryPlan(prog, v, pt.dataflow, pt.entries,
                                                      o.constraints.elementBits, pt.buffer, "d");
      const arch::MemoryTiming t = arch::memoryTiming(m, axi, c.memory);
      exact = t.cycles;
      phases = std::to_string(t.computeBound) + "/" + std::to_string(t.loadBound) + "/" +
               std::to_string(t.storeBound);
      const dse::MemoryProblem mp =
          dse::memoryProblem(v, pt.dataflow, pt.entries, o.constraints.elementBits, c.memory);
      for (size_t a = 0; a < m.tensors.size(); ++a) {
        const arch::DmaMap& d = m.tensors[a].dma;
        const dse::BankUse& b = mp.banks[a];
        lanes += " " + v.accesses[a].name + ":" + std::to_string(d.lanes) +
                 (d.rowLanes ? "r" : "c") + (d.copies > 1 ? "x" + std::to_string(d.copies) : "") +
                 "/" + std::to_string(m.core.tensors[a].ports.size());
        ++lanesSeen;
        if (b.lanes != d.lanes || b.rowLanes != d.rowLanes) {
          ++lanesOff;
          lanes += "(model " + std::to_string(b.lanes) + (b.rowLanes ? "r)" : "c)");
        }
      }
    } catch (const Error& e) {
      std::printf("%4zu  %s  not buildable: %s\n", i + 1, pt.id.c_str(), e.diag().message.c_str());
      continue;
    }
    const double ratio = double(exact) / double(pt.memory.cycles);
    ratios.push_back(ratio);
    if (!bestExact || exact < bestExact) bestExact = exact, bestRank = i + 1;
    std::printf("%4zu  %s %8lld %8lld  %10.3f  %10.1f%%  %10.1f%%  %13s %s\n", i + 1, pt.id.c_str(),
                (long long)pt.memory.cycles, (long long)exact, ratio,
                100.0 * double(macs) / pes / double(pt.memory.cycles),
                100.0 * double(macs) / pes / double(exact), phases.c_str(), lanes.c_str());
  }
  if (ratios.empty()) return;
  std::sort(ratios.begin(), ratios.end());
  std::printf("exact/model: min %.3f, median %.3f, max %.3f; exact best %lld cycles (%.1f%% "
              "utilisation) at the model's rank %zu; exact timing of %zu designs in %.2f s\n",
              ratios.front(), ratios[ratios.size() / 2], ratios.back(), (long long)bestExact,
              100.0 * double(macs) / pes / double(bestExact), bestRank, ratios.size(), seconds(t1));
  std::printf("DMA lanes: the model's estimate differs from the engine's on %lld of %lld "
              "tensors\n",
              (long long)lanesOff, (long long)lanesSeen);
}

} // namespace

int main(int argc, char** argv) {
  const std::string filter = argc > 1 ? argv[1] : "";
  // {bytes per cycle, latency, burst bytes}
  const std::vector<Case> cases = {
      {"gemm-256-16x16",
       kGemm,
       {{"M", 256}, {"N", 256}, {"K", 256}},
       16,
       16,
       {64, 100, 4096},
       64,
       25},
      {"gemm-32-4x4", kGemm, {{"M", 32}, {"N", 32}, {"K", 32}}, 4, 4, {8, 50, 2048}, 4, 40},
      {"gemv-1024-16x16", kGemv, {{"M", 1024}, {"N", 1024}}, 16, 16, {16, 100, 4096}, 64, 15},
  };
  try {
    for (const Case& c : cases)
      if (c.name.find(filter) != std::string::npos) run(c);
  } catch (const Error& e) {
    std::fprintf(stderr, "memory_model: %s\n", e.diag().message.c_str());
    return 1;
  }
  return 0;
}
