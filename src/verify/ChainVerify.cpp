// SPDX-License-Identifier: Apache-2.0
#include "rubick/verify/Chain.h"

#include "MemoryRun.h"
#include "Simulate.h"
#include "Stimulus.h"

#include "rubick/arch/AxiOptions.h"
#include "rubick/ref/Interpreter.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/workload/Stages.h"

#include <memory>
#include <optional>
#include <sstream>

namespace rubick::verify {

namespace fs = std::filesystem;

std::string chainStimulus(const tc::Program& prog, const std::vector<emit::ChainStageDesign>& s,
                          const arch::ChainPlan& c, uint64_t seed) {
  // Every statement's inputs drawn as a statement's stimulus draws them; the first draw of a
  // tensor stays.
  ref::TensorData data;
  std::vector<char> drawn(prog.tensors.size(), 0);
  for (size_t st = 0; st < prog.statements.size(); ++st) {
    ref::TensorData d = ref::randomInputs(prog, st, seed * 131 + st);
    if (data.empty()) data = d;
    for (const tc::Access& a : prog.statements[st].reads) {
      const size_t t = static_cast<size_t>(a.tensor);
      if (drawn[t] || prog.tensors[t].role != tc::TensorRole::Input) continue;
      data[t] = d[t];
      drawn[t] = 1;
    }
  }
  for (size_t t = 0; t < prog.tensors.size(); ++t)
    if (!drawn[t]) std::fill(data[t].begin(), data[t].end(), 0);
  for (size_t k = 0; k < s.size(); ++k) {
    const dse::Epilogue* e = s[k].options.epilogue.get();
    if (!e) continue;
    std::vector<int> tensorOf;
    for (const tc::Tensor& x : s[k].program.tensors)
      tensorOf.push_back(prog.findTensor(x.name));
    epilogueOperandValues(data, *e, tensorOf, seed + k);
  }
  for (const arch::ChainTensor& t : c.tensors)
    if (t.role == arch::ChainRole::Input)
      for (int64_t& x : data[static_cast<size_t>(t.programTensor)])
        x = ref::wrap(x, static_cast<int>(t.tensor.bits));
  const ref::TensorData inputs = data;
  // Each stage as its hardware computes it: an attention stage's O in the pipeline's fixed point
  // (its query rows are independent: with tiles of rows, the whole stage's O is every tile's).
  const std::vector<workload::Stage> whole = workload::chainStages(prog, nullptr);
  for (size_t k = 0; k < s.size(); ++k) {
    if (!s[k].pipeline) {
      for (size_t x : s[k].statements)
        ref::runStatement(prog, x, data);
      continue;
    }
    const workload::Stage& st = whole.at(k);
    const attn::AttentionForm& f = *st.workload.attention;
    auto of = [&](int t) -> std::vector<int64_t>& {
      return data[static_cast<size_t>(st.tensorOf[static_cast<size_t>(t)])];
    };
    of(f.o) = attentionOutput(st.program, f, of(f.q), of(f.k), of(f.v), s[k].pipeline->blockKeys);
  }
  std::ostringstream os;
  os << "rubick-stimulus 1\n";
  // The tensors in memory, by base register: the on-chip ones never reach it.
  const std::vector<int> regs = arch::baseRegisters(c);
  for (size_t r = 0; r < c.tensors.size(); ++r) {
    const arch::ChainTensor& t = c.tensors[r];
    if (regs[r] < 0) continue;
    const bool in = t.role == arch::ChainRole::Input;
    section(os, in ? "tensor" : "expect", static_cast<size_t>(regs[r]),
            (in ? inputs : data)[static_cast<size_t>(t.programTensor)]);
  }
  return os.str();
}

namespace {

int64_t stagePes(const attn::PipelinePoint& p) {
  return p.g1.design.dataflow.p * p.g1.design.dataflow.q +
         p.g2.design.dataflow.p * p.g2.design.dataflow.q;
}

} // namespace

Result verifyChain(const tc::Program& prog, const std::vector<emit::ChainStageDesign>& s,
                   const std::string& name, const Options& given, double* runtimeSeconds) {
  checkTools();
  const std::string id = emit::chainId(s);
  const arch::AxiOptions axi = arch::axiOptions(s.front().options.constraints.memory);
  auto plan =
      std::make_shared<const arch::ChainPlan>(emit::chainDesignPlan(prog, s, name, axi.busBytes));
  Result res = withRuntime(
      given, runtimeSeconds, [&](const Options& o, Runtime& runtime, unsigned jobs, Result& r) {
        r.id = id;
        SimDesign d;
        d.dir = fs::path(o.workDir) / id;
        d.top = name + "_top";
        d.files = emit::packageChain(prog, s, name);
        // The last stage's: its result is compared as it is (an earlier stage's epilogue may
        // hide a broken PE, a ReLU clipping both the right and the wrong sums to 0).
        d.faultyArray =
            "_s" + std::to_string(s.size() - 1) + (s.back().pipeline ? "_g1_array.v" : "_array.v");
        d.harness = Harness::Memory;
        const std::optional<arch::Dram> dram = o.dram;
        d.runArgs = [plan, axi, dram](uint64_t seed) {
          const std::vector<uint64_t> bases =
              trialBases(arch::memoryTensors(*plan), seed, axi.busBytes);
          const int64_t cycles =
              arch::chainTiming(*plan, axi, arch::chainBases(*plan, bases), dram ? &*dram : nullptr)
                  .cycles;
          return runArgs(bases, cycles, dram);
        };
        d.simulatedCycles = arch::chainTiming(*plan, axi, {}, dram ? &*dram : nullptr).cycles;
        for (const emit::ChainStageDesign& st : s)
          d.pes = std::max(d.pes, st.pipeline ? stagePes(*st.pipeline)
                                              : st.point.dataflow.p * st.point.dataflow.q);
        d.stimulus = [&](uint64_t seed) { return chainStimulus(prog, s, *plan, seed); };
        simulate(std::move(d), o, runtime, jobs, r);
      });
  for (const emit::ChainStageDesign& st : s)
    res.macs += st.point.metrics.macs;
  res.p = s.front().point.dataflow.p;
  res.q = s.front().point.dataflow.q;
  return res;
}

} // namespace rubick::verify
