// SPDX-License-Identifier: Apache-2.0
#include "rubick/verify/Attention.h"

#include "MemoryRun.h"
#include "Runtime.h"
#include "Simulate.h"
#include "Stimulus.h"

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/DramTiming.h"
#include "rubick/attn/PipelineMemory.h"
#include "rubick/attn/SelectPipeline.h"
#include "rubick/emit/Attention.h"
#include "rubick/ref/Attention.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Interrupt.h"
#include "rubick/support/Unsupported.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <sstream>
#include <thread>

namespace rubick::verify {

namespace fs = std::filesystem;

namespace {

// Values over the whole type range; a third of them the extremes, -1, 0 or 1 (as
// ref::randomInputs draws them).
std::vector<int64_t> randomValues(std::mt19937_64& rng, int64_t n, int bits) {
  const int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << (bits - 1)) - 1;
  std::uniform_int_distribution<int64_t> value(lo, hi);
  std::uniform_int_distribution<int> pick(0, 15);
  const int64_t special[] = {lo, hi, -1, 0, 1};
  std::vector<int64_t> out(size_t(n), 0);
  for (int64_t& v : out) {
    int k = pick(rng);
    v = k < 5 ? special[k] : value(rng);
  }
  return out;
}

// Head h of a [heads?][a][b] tensor as a row-major [rows][cols] matrix, where `rowDim` (counted
// with the head dimension) is the dimension of the rows.
std::vector<int64_t> matrixOf(const std::vector<int64_t>& t, const tc::Tensor& x, bool heads,
                              int64_t h, int rowDim) {
  const size_t o = heads ? 1 : 0;
  const int64_t a = x.shape[o], b = x.shape[o + 1];
  const bool rowsFirst = size_t(rowDim) == o;
  const int64_t rows = rowsFirst ? a : b, cols = rowsFirst ? b : a;
  std::vector<int64_t> m(size_t(rows * cols));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      m[size_t(r * cols + c)] = t[size_t(h * a * b + (rowsFirst ? r * b + c : c * b + r))];
  return m;
}

} // namespace

std::vector<int64_t> attentionOutput(const tc::Program& prog, const attn::AttentionForm& f,
                                     const std::vector<int64_t>& q, const std::vector<int64_t>& k,
                                     const std::vector<int64_t>& v, int64_t blockKeys) {
  std::vector<int64_t> out;
  for (int64_t h = 0; h < f.heads; ++h) {
    std::vector<int64_t> o =
        ref::attentionFixed(matrixOf(q, prog.tensors[f.q], f.multiHead, h, f.queryDim),
                            matrixOf(k, prog.tensors[f.k], f.multiHead, h, f.keyDimK),
                            matrixOf(v, prog.tensors[f.v], f.multiHead, h, f.keyDimV), f.l, f.s,
                            f.d, f.dv, prog.expFrac, blockKeys);
    o = ref::saturateValues(o, tc::bitWidth(prog.tensors[f.o].type));
    out.insert(out.end(), o.begin(), o.end());
  }
  return out;
}

std::string attentionStimulus(const tc::Program& prog, const attn::AttentionForm& f,
                              int64_t blockKeys, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<int64_t>> in;
  for (int t : {f.q, f.k, f.v}) {
    const tc::Tensor& x = prog.tensors[t];
    int64_t n = 1;
    for (int64_t s : x.shape)
      n *= s;
    in.push_back(randomValues(rng, n, tc::bitWidth(x.type)));
  }
  const std::vector<int64_t> out = attentionOutput(prog, f, in[0], in[1], in[2], blockKeys);
  // Selects as in the pipeline's design.json: O, Q, K, V.
  std::ostringstream os;
  os << "rubick-stimulus 1\n";
  for (size_t t = 0; t < 3; ++t) {
    os << "tensor " << t + 1 << " " << in[t].size() << "\n";
    for (int64_t x : in[t])
      os << x << "\n";
  }
  os << "expect 0 " << out.size() << "\n";
  for (int64_t x : out)
    os << x << "\n";
  return os.str();
}

Result verifyAttention(const tc::Program& prog, const attn::AttentionForm& f,
                       const attn::PipelinePoint& p, const Options& given, double* runtimeSeconds) {
  if (given.dram && !p.memory.enabled())
    throw Error("--dram", "there is no external memory: give --mem-bandwidth or a target with "
                          "'memory'");
  const std::string axi = arch::axiBuildProblem(p.memory);
  if (!axi.empty()) throw Unsupported("verify", axi);
  return withRuntime(
      given, runtimeSeconds, [&](const Options& o, Runtime& runtime, unsigned jobs, Result& r) {
        r.id = p.id;
        r.spec = attn::pipelineSpec(p); // what `verify --pipeline` takes, as a design's dataflow
        r.p = p.g1.design.dataflow.p;
        r.q = p.g1.design.dataflow.q;
        r.macs = p.macs;
        const std::string name = o.name.empty() ? emit::moduleName(prog.name, p.id) : o.name;
        SimDesign d;
        d.dir = fs::path(o.workDir) / p.id;
        d.top = name + "_top";
        d.files = emit::attentionPackage(prog, f, p, name);
        d.faultyArray = "_g1_array.v"; // PE (0, 0) of GEMM 1
        d.simulatedCycles = p.latency;
        if (p.memory.enabled()) {
          // Q, K, V and O in the harness's memory, moved by the pipeline's DMA engines; each trial
          // places them differently, and the prediction follows.
          d.harness = Harness::Memory;
          auto plan = std::make_shared<const arch::MemoryPlan>(attn::withSteps(
              attn::pipelineMemoryPlan(prog, f, p.blockKeys, p.memory, name), p.timing));
          const arch::AxiOptions axi = arch::axiOptions(p.memory);
          const dse::MemorySystem mem = p.memory;
          const std::optional<arch::Dram> dram = o.dram;
          d.runArgs = [plan, axi, mem, dram](uint64_t seed) {
            return memoryRunArgs(*plan, axi, mem, dram, seed);
          };
          if (dram) d.simulatedCycles = arch::dramTiming(*plan, axi, mem, *dram).cycles;
        } else {
          // A trial loads every element through the host port, runs, and reads O back.
          for (int t : {f.q, f.k, f.v, f.o})
            d.simulatedCycles += prog.tensors[t].elements();
        }
        d.pes = p.g1.design.dataflow.p * p.g1.design.dataflow.q +
                p.g2.design.dataflow.p * p.g2.design.dataflow.q;
        d.stimulus = [&](uint64_t seed) { return attentionStimulus(prog, f, p.blockKeys, seed); };
        simulate(std::move(d), o, runtime, jobs, r);
      });
}

Result verifyPimDecode(const tc::Program& prog, const attn::AttentionForm& f,
                       const emit::PimDecodePlan& plan, const dse::PimSystem& s,
                       const Options& given, double* runtimeSeconds) {
  return withRuntime(
      given, runtimeSeconds, [&](const Options& o, Runtime& runtime, unsigned jobs, Result& r) {
        r.id = plan.scores.id + "+" + plan.values.id;
        r.spec = "scores " + plan.scores.id + ", values " + plan.values.id + " x" +
                 std::to_string(plan.blocks);
        r.p = plan.scores.unit.dataflow.p;
        r.q = plan.scores.unit.dataflow.q;
        r.macs = (plan.scores.macs + plan.values.macs) * plan.blocks / s.units;
        const std::string name = o.name.empty() ? emit::moduleName(prog.name, "decode") : o.name;
        emit::PimDecodePackage pkg = emit::packagePimDecode(prog, f, plan, s, name);
        SimDesign d;
        d.dir = fs::path(o.workDir) / "decode";
        d.top = name + "_decode_axil";
        d.files = std::move(pkg.files.files);
        d.faultyArray = "_sc_array.v"; // PE (0, 0) of the scores' units
        d.harness = Harness::Pim;
        d.simulatedCycles =
            pkg.files.predictedCycles + prog.tensors[f.q].elements() + prog.tensors[f.o].elements();
        d.pes = s.units * (r.p * r.q + plan.values.unit.dataflow.p * plan.values.unit.dataflow.q);
        d.stimulus = [&](uint64_t seed) {
          return attentionStimulus(prog, f, plan.blockKeys, seed);
        };
        simulate(std::move(d), o, runtime, jobs, r);
      });
}

} // namespace rubick::verify
