// SPDX-License-Identifier: Apache-2.0
// Benchmark of `rubick explore` (not a test: it prints figures, it asserts nothing about time).
//
//   build/bench/explore_bench            all cases
//   build/bench/explore_bench gemm-8x8   cases whose name contains the argument
//   build/bench/explore_bench mem        the cases with an external memory (docs/memory.md)
//
// For each case: the IR-space explorer and the brute-force reference (every space-time matrix
// decomposed on its own, per array shape) on the same constraints, their statistics and wall
// times, the speed-up, and whether both give the same Pareto front.
//
// The last columns estimate a per-dataflow analysis with isl (the approach of TENET, the Rubick
// paper's baseline): isl legality and decomposition checks on a fixed sample of space-time
// matrices, timed, and scaled to all 3^(k*k) matrices per inner-loop choice and array shape.

#include "rubick/dataflow/Enumerate.h"
#include "rubick/dataflow/IslVerify.h"
#include "rubick/dse/Explore.h"
#include "rubick/dse/Target.h"
#include "rubick/frontend/Sema.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>

using namespace rubick;

namespace {

struct Case {
  std::string name, file, stmt;
  std::vector<std::pair<std::string, int64_t>> sizes;
  int lo, hi; // array range (lo == hi: one square shape)
  int64_t maxFanout;
  dse::MemorySystem memory = {}; // with a memory: every design's buffer tiling is searched
  int64_t bufferKib = 0;
};

double seconds(std::chrono::steady_clock::time_point a) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
}

// Seconds per matrix for an isl analysis: legality (and, if legal, the decomposition check).
double islSecondsPerMatrix(const dataflow::StatementView& v, int64_t p, int64_t q, size_t& total) {
  poly::IslContext ctx;
  std::vector<std::vector<int>> sets = dataflow::innerLoopSets(v);
  size_t k = sets.front().size();
  size_t perSet = 1;
  for (size_t i = 0; i < k * k; ++i)
    perSet *= 3;
  total = perSet * sets.size() * (k == 3 ? 1 : 3);
  const size_t sample = 300;
  auto t0 = std::chrono::steady_clock::now();
  size_t analysed = 0;
  for (size_t n = 0; n < sample; ++n) {
    size_t code = (n * 7919) % perSet; // a fixed spread over the matrices
    dataflow::Dataflow d;
    for (int l : sets[n % sets.size()])
      d.inner.push_back({l, v.extent[l]});
    d.s.assign(3, IntVec(k, 0));
    for (size_t c = 0; c < k * k; ++c, code /= 3)
      d.s[c / k][c % k] = int64_t(code % 3) - 1;
    for (dataflow::InnerDim& in : d.inner)
      in.factor = std::min<int64_t>(in.factor, 2); // a tile that fits
    d.outer = dataflow::canonicalOuter(d.inner, v.extent);
    d.p = d.q = 1 << 20;
    if (!dataflow::checkWellFormed(d, v).empty()) continue; // singular: isl would reject it too
    dataflow::LegalityReport r = dataflow::checkLegality(ctx, v, d);
    if (r.legal()) dataflow::verifyDecomposition(ctx, v, d, dataflow::decompose(v, d));
    ++analysed;
  }
  (void)p;
  (void)q;
  return analysed ? seconds(t0) / double(analysed) : 0;
}

bool sameFront(const dse::ExploreResult& a, const dse::ExploreResult& b) {
  std::map<std::string, std::tuple<int64_t, int64_t, int64_t>> fa, fb;
  for (const auto& d : a.points)
    if (d.pareto) fa[d.id] = {d.metrics.latency, d.metrics.wires, d.metrics.bufferBytes};
  for (const auto& d : b.points)
    if (d.pareto) fb[d.id] = {d.metrics.latency, d.metrics.wires, d.metrics.bufferBytes};
  return fa == fb;
}

} // namespace

int main(int argc, char** argv) {
  std::string filter = argc > 1 ? argv[1] : "";
  std::string root = RUBICK_SOURCE_DIR;
  const dse::MemorySystem mem64{64, dse::kDefaultMemoryLatency, dse::defaultBurstBytes(64)};
  // clang-format off
  std::vector<Case> cases = {
      {"gemm-64^3-8x8", "examples/gemm.tc", "", {{"M", 64}, {"N", 64}, {"K", 64}}, 8, 8, 8},
      {"gemm-64^3-4..16", "examples/gemm.tc", "", {{"M", 64}, {"N", 64}, {"K", 64}}, 4, 16, 8},
      {"conv2d-8x8", "examples/conv2d.tc", "", {}, 8, 8, 8},
      {"mttkrp-16^4-8x8", "examples/mttkrp.tc", "", {}, 8, 8, 8},
      {"attention-QK-8x8", "examples/attention.tc", "S0", {{"L", 64}, {"S", 64}, {"D", 64}}, 8, 8, 8},
      {"attention-EV-8x8", "examples/attention.tc", "S4", {{"L", 64}, {"S", 64}, {"D", 64}}, 8, 8, 8},
      // `rubick explore G.tc --array 16x16 --mem-bandwidth 64 --buffer-kib 64`
      {"gemm-256^3-16x16-mem", "examples/gemm.tc", "", {{"M", 256}, {"N", 256}, {"K", 256}}, 16, 16, 0, mem64, 64},
      {"gemm-1024^3-16x16-mem", "examples/gemm.tc", "", {{"M", 1024}, {"N", 1024}, {"K", 1024}}, 16, 16, 0, mem64, 64},
  };
  // clang-format on
  std::printf("%-21s %7s %9s %9s %7s %9s %11s %9s %8s %6s %11s %9s\n", "case", "shapes",
              "candidates", "designs", "pareto", "ir_s", "designs/s", "brute_s", "speedup", "front",
              "isl_est_s", "vs_isl");
  for (const Case& c : cases) {
    if (!filter.empty() && c.name.find(filter) == std::string::npos) continue;
    tc::SemaOptions so;
    for (const auto& [n, val] : c.sizes)
      so.sizes.push_back({n, val, {}});
    tc::Program prog = tc::loadProgram(root + "/" + c.file, so);
    size_t stmt = 0;
    for (size_t i = 0; i < prog.statements.size(); ++i)
      if (prog.statements[i].name == c.stmt) stmt = i;
    dataflow::StatementView v = dataflow::viewStatement(prog, stmt);
    dse::ExploreOptions o;
    for (int p = c.lo; p <= c.hi; ++p)
      for (int q = c.lo; q <= c.hi; ++q)
        o.constraints.arrays.push_back({p, q});
    o.constraints.maxFanout = c.maxFanout;
    o.constraints.memory = c.memory;
    o.constraints.bufferBytes = c.bufferKib * 1024;
    for (const auto& a : v.accesses)
      o.constraints.elementBits.push_back(tc::bitWidth(prog.tensors[a.tensor].type));
    auto t0 = std::chrono::steady_clock::now();
    dse::ExploreResult ir = dse::explore(v, o);
    double irS = seconds(t0);
    t0 = std::chrono::steady_clock::now();
    dse::ExploreResult bf = dse::exploreBruteForce(v, o);
    double bfS = seconds(t0);
    size_t matrices = 0;
    double perMatrix = islSecondsPerMatrix(v, c.lo, c.lo, matrices);
    double islS = perMatrix * double(matrices) * double(o.constraints.arrays.size());
    std::printf("%-21s %7zu %9zu %9zu %7zu %9.3f %11.0f %9.2f %7.1fx %6s %11.0f %8.0fx\n",
                c.name.c_str(), o.constraints.arrays.size(), ir.stats.candidates, ir.stats.designs,
                ir.stats.pareto, irS, double(ir.stats.designs) / irS, bfS, bfS / irS,
                sameFront(ir, bf) && ir.points.size() == bf.points.size() ? "same" : "DIFF", islS,
                islS / irS);
    std::fflush(stdout);
  }
  return 0;
}
