// SPDX-License-Identifier: Apache-2.0
// A chain's stages (workload/Stages.h) and the chain built from them (arch/ChainPlan.h): which
// statements each stage holds, each stage as a program of its own that computes what the whole
// program does, what a sequence of memory designs cannot build, and the chain's tensors,
// registers and cycles.

#include "tc_test_util.h"

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/ChainPlan.h"
#include "rubick/arch/DramTiming.h"
#include "rubick/arch/MemoryTiming.h"
#include "rubick/dse/Chain.h"
#include "rubick/dse/Epilogue.h"
#include "rubick/emit/Chain.h"
#include "rubick/ref/Interpreter.h"
#include "rubick/support/Unsupported.h"
#include "rubick/workload/ChainDesigns.h"
#include "rubick/workload/Stages.h"

#include <gtest/gtest.h>

#include <map>

namespace rubick {
namespace {

using test::analyzeText;

constexpr const char* kMlp = R"(
def mlp(int8(M,K) X, int8(K,N) W1, int32(N) b, int8(N,P) W2) -> (Y) {
    H(i,j) +=! X(i,k) * W1(k,j)
    R(i,j) = max(H(i,j) + b(j), 0)
    Y(i,p) +=! R(i,j) * W2(j,p)
}
)";

// Three contractions, an epilogue with a per-column scale on the second.
constexpr const char* kThree = R"(
def three(int8(M,K) X, int8(K,N) A, int16(N,P) B, int8(P,Q) C, int32(P) s) -> (Z) {
    T(i,j) +=! X(i,k) * A(k,j)
    U(i,p) +=! T(i,j) * B(j,p)
    V(i,p) = U(i,p) * s(p)
    Z(i,q) +=! V(i,p) * C(p,q)
}
)";

tc::Program withSizes(const char* text, std::vector<std::pair<std::string, int64_t>> sizes) {
  tc::SemaOptions o;
  for (auto& [n, v] : sizes)
    o.sizes.push_back({n, v, {}});
  return analyzeText(text, o);
}

std::vector<std::string> names(const tc::Program& p) {
  std::vector<std::string> n;
  for (const tc::Tensor& t : p.tensors)
    n.push_back(t.name + ":" + tc::toString(t.role));
  return n;
}

TEST(Stages, TheMlpBlockIsAContractionWithItsEpilogueThenAContraction) {
  const tc::Program p = withSizes(kMlp, {{"M", 4}, {"K", 5}, {"N", 6}, {"P", 3}});
  const std::vector<workload::Stage> s = workload::chainStages(p, nullptr);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].statements, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(s[0].workload.kind, workload::Kind::Epilogue);
  EXPECT_EQ(p.tensors[size_t(s[0].output)].name, "R");
  EXPECT_EQ(names(s[0].program),
            (std::vector<std::string>{"X:input", "W1:input", "b:input", "R:output", "H:local"}));
  EXPECT_EQ(s[0].program.name, "mlp_s0");
  EXPECT_EQ(s[1].statements, (std::vector<size_t>{2}));
  EXPECT_EQ(s[1].workload.kind, workload::Kind::Statement);
  // Inputs in the program's tensor order: W2 (an input) before R (a local).
  EXPECT_EQ(names(s[1].program), (std::vector<std::string>{"W2:input", "R:input", "Y:output"}));
  for (const workload::Stage& st : s)
    for (size_t t = 0; t < st.program.tensors.size(); ++t)
      EXPECT_EQ(p.tensors[size_t(st.tensorOf[t])].name, st.program.tensors[t].name);
}

// The stages run one after another by the reference model, each on what the earlier ones left,
// give every tensor the whole program gives.
TEST(Stages, RunInSequenceTheyComputeWhatTheProgramComputes) {
  for (const char* text : {kMlp, kThree}) {
    std::vector<std::pair<std::string, int64_t>> sizes = {{"M", 5}, {"K", 4}, {"N", 6}, {"P", 3}};
    if (text == kThree) sizes.push_back({"Q", 2});
    const tc::Program p = withSizes(text, sizes);
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      ref::TensorData inputs(p.tensors.size());
      for (size_t st = 0; st < p.statements.size(); ++st) {
        const ref::TensorData r = ref::randomInputs(p, st, seed * 7 + st);
        for (const tc::Access& a : p.statements[st].reads)
          if (p.tensors[size_t(a.tensor)].role == tc::TensorRole::Input)
            inputs[size_t(a.tensor)] = r[size_t(a.tensor)];
      }
      const ref::TensorData whole = ref::interpret(p, inputs);
      ref::TensorData held = inputs; // what memory holds as the stages run
      for (const workload::Stage& s : workload::chainStages(p, nullptr)) {
        ref::TensorData in(s.program.tensors.size());
        for (size_t t = 0; t < s.program.tensors.size(); ++t)
          if (s.program.tensors[t].role == tc::TensorRole::Input)
            in[t] = held[size_t(s.tensorOf[t])];
        const ref::TensorData out = ref::interpret(s.program, in);
        for (size_t t = 0; t < s.program.tensors.size(); ++t)
          if (s.program.tensors[t].role == tc::TensorRole::Output)
            held[size_t(s.tensorOf[t])] = out[t];
      }
      for (size_t t = 0; t < p.tensors.size(); ++t) {
        if (p.tensors[t].role != tc::TensorRole::Output) continue;
        EXPECT_EQ(held[t], whole[t]) << p.name << " " << p.tensors[t].name << " seed " << seed;
      }
    }
  }
}

// Why chainStages refuses `text`, or "<no refusal>".
std::string refusal(const char* text) {
  const tc::Program p = analyzeText(text);
  try {
    workload::chainStages(p, nullptr);
  } catch (const Unsupported& e) {
    return e.diag().message;
  }
  return "<no refusal>";
}

TEST(Stages, WhatASequenceOfMemoryDesignsCannotBuildIsRefused) {
  EXPECT_NE(refusal(R"(def f(int8(4,4) A, int8(4,4) B) -> (C) {
      T(i,j) = A(i,j) * 2
      C(i,j) +=! T(i,k) * B(k,j)
    })")
                .find("S0 (T(i, j) = A(i, j) * 2) has no contraction before it"),
            std::string::npos);
  // H stays inside the first stage (its epilogue turns it into R), but the second reads it.
  EXPECT_NE(refusal(R"(def f(int8(4,4) A, int8(4,4) B) -> (C) {
      H(i,j) +=! A(i,k) * B(k,j)
      R(i,j) = max(H(i,j), 0)
      C(i,j) +=! R(i,k) * H(k,j)
    })")
                .find("S2 reads H, which stays inside an earlier stage (statements S0..S1)"),
            std::string::npos);
  EXPECT_NE(refusal(R"(def f(int8(4,4) A, int8(4,4) B) -> (H, C) {
      H(i,j) +=! A(i,k) * B(k,j)
      R(i,j) = max(H(i,j), 0)
      C(i,j) +=! R(i,k) * B(k,j)
    })")
                .find("S0 writes the program output H inside a stage"),
            std::string::npos);
  EXPECT_NE(refusal(R"(def f(int8(4,4) A, int8(4,4) B) -> (C) {
      C(i,j) +=! A(i,k) * B(k,j)
      C(i,j) +=! A(i,k) * B(k,j)
    })")
                .find("S1 writes C, which an earlier stage wrote"),
            std::string::npos);
}

// Attention, then its output projection.
constexpr const char* kAttentionProjection = R"(
def ap(int8(L,D) Q, int8(S,D) K, int8(S,D) V, int8(D,N) W) -> (Y) {
    Sc(i,j) +=! Q(i,d) * K(j,d)
    mx(i) max=! Sc(i,j)
    E(i,j) = exp(Sc(i,j) - mx(i))
    sm(i) +=! E(i,j)
    U(i,d) +=! E(i,j) * V(j,d)
    O(i,d) = U(i,d) / sm(i)
    Y(i,n) +=! O(i,d) * W(d,n)
}
)";

TEST(Stages, TheAttentionFormIsOneStage) {
  const tc::Program p = withSizes(kAttentionProjection, {{"L", 4}, {"S", 8}, {"D", 4}, {"N", 3}});
  const std::vector<workload::Stage> s = workload::chainStages(p, nullptr);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].statements, (std::vector<size_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(s[0].workload.kind, workload::Kind::Attention);
  ASSERT_TRUE(s[0].workload.attention.has_value());
  EXPECT_EQ(s[0].program.tensors[size_t(s[0].workload.attention->o)].name, "O");
  EXPECT_EQ(names(s[0].program),
            (std::vector<std::string>{"Q:input", "K:input", "V:input", "O:output", "Sc:local",
                                      "mx:local", "E:local", "sm:local", "U:local"}));
  EXPECT_EQ(s[1].statements, (std::vector<size_t>{6}));
  EXPECT_EQ(s[1].workload.kind, workload::Kind::Statement);
  EXPECT_EQ(names(s[1].program), (std::vector<std::string>{"W:input", "O:input", "Y:output"}));
  // A projection before attention (requantised to an int8 Q): the contraction with its
  // epilogue, then the six statements.
  const tc::Program before = withSizes(R"(
def pa(int8(L,C) X, int8(C,D) Wq, int32(D) m, int8(S,D) K, int8(S,D) V) -> (int8(L,D) Q, O) {
    A(i,d) +=! X(i,c) * Wq(c,d)
    Q(i,d) = requant(A(i,d), m(d), 8)
    Sc(i,j) +=! Q(i,d) * K(j,d)
    mx(i) max=! Sc(i,j)
    E(i,j) = exp(Sc(i,j) - mx(i))
    sm(i) +=! E(i,j)
    U(i,d) +=! E(i,j) * V(j,d)
    O(i,d) = U(i,d) / sm(i)
}
)",
                                       {{"L", 4}, {"S", 8}, {"D", 4}, {"C", 3}});
  const std::vector<workload::Stage> b = workload::chainStages(before, nullptr);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].workload.kind, workload::Kind::Epilogue);
  EXPECT_EQ(b[1].statements, (std::vector<size_t>{2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(b[1].workload.kind, workload::Kind::Attention);
}

TEST(Stages, AnAttentionStageTakesNoEpilogueAndKeepsItsLocals) {
  EXPECT_NE(refusal(R"(def f(int8(4,4) Q, int8(8,4) K, int8(8,4) V) -> (R) {
      Sc(i,j) +=! Q(i,d) * K(j,d)
      mx(i) max=! Sc(i,j)
      E(i,j) = exp(Sc(i,j) - mx(i))
      sm(i) +=! E(i,j)
      U(i,d) +=! E(i,j) * V(j,d)
      O(i,d) = U(i,d) / sm(i)
      R(i,d) = max(O(i,d), 0)
    })")
                .find("S6 (R(i, d) = max(O(i, d), 0)) has no contraction before it (an attention "
                      "stage takes no epilogue)"),
            std::string::npos);
  // The row sums stay inside the attention stage.
  EXPECT_NE(refusal(R"(def f(int8(4,4) Q, int8(8,4) K, int8(8,4) V) -> (Y) {
      Sc(i,j) +=! Q(i,d) * K(j,d)
      mx(i) max=! Sc(i,j)
      E(i,j) = exp(Sc(i,j) - mx(i))
      sm(i) +=! E(i,j)
      U(i,d) +=! E(i,j) * V(j,d)
      O(i,d) = U(i,d) / sm(i)
      Y(i) +=! sm(i) * O(i,d)
    })")
                .find("S6 reads sm, which stays inside an earlier stage (statements S0..S5)"),
            std::string::npos);
  // An int32 Q is not the attention form; as stages of their own the six statements cannot be
  // built either, and the refusal says both.
  const std::string q32 =
      refusal(R"(def f(int8(4,3) X, int8(3,4) W, int8(8,4) K, int8(8,4) V) -> (O) {
      Q(i,d) +=! X(i,c) * W(c,d)
      Sc(i,j) +=! Q(i,d) * K(j,d)
      mx(i) max=! Sc(i,j)
      E(i,j) = exp(Sc(i,j) - mx(i))
      sm(i) +=! E(i,j)
      U(i,d) +=! E(i,j) * V(j,d)
      O(i,d) = U(i,d) / sm(i)
    })");
  EXPECT_NE(q32.find("statements S1..S6 start like attention but are not its form"),
            std::string::npos)
      << q32;
  EXPECT_NE(q32.find("int32"), std::string::npos) << q32;
}

// Each stage's design with the memory system, as the commands choose them
// (workload::chainDesigns): 4x4, 1 KiB, the program's widths; `text` at other sizes for tiles.
std::vector<emit::ChainStageDesign> stageDesigns(const tc::Program& p, const dse::MemorySystem& m,
                                                 int64_t rowTiles = 1, const char* text = nullptr) {
  workload::ChainSearch s;
  s.options = [&m, rowTiles](const tc::Program&, const dataflow::StatementView& v) {
    dse::ExploreOptions o;
    o.constraints.arrays = {{4, 4}};
    o.constraints.bufferBytes = 1024;
    for (const dataflow::AccessView& a : v.accesses)
      o.constraints.elementBits.push_back(a.elementBits);
    o.constraints.memory = m;
    o.constraints.rowTiles = rowTiles;
    return o;
  };
  s.rebind = [text](const std::vector<std::pair<std::string, int64_t>>& sizes) {
    return withSizes(text, sizes);
  };
  s.rowTiles = rowTiles;
  return workload::chainDesigns(p, s, nullptr);
}

TEST(ChainPlan, TensorsRegistersAndCyclesOfTheMlpBlock) {
  const tc::Program p = withSizes(kMlp, {{"M", 8}, {"K", 12}, {"N", 8}, {"P", 6}});
  const dse::MemorySystem mem{8, 20, 2048};
  const std::vector<emit::ChainStageDesign> s = stageDesigns(p, mem);
  ASSERT_EQ(s.size(), 2u);
  const arch::AxiOptions o = arch::axiOptions(mem);
  arch::ChainPlan c = emit::chainDesignPlan(p, s, "mlp_x", o.busBytes);
  // No buffer limit: the chain's RAM holds R (below); here every tensor is in memory.
  EXPECT_TRUE(c.tensors[1].onChip);
  arch::placeOnChip(c, 0, o.busBytes, o.addrBits);
  std::vector<std::string> regs;
  for (const arch::ChainTensor& t : c.tensors)
    regs.push_back(t.tensor.name + ":" + arch::toString(t.role) + ":" +
                   std::to_string(t.tensor.bits));
  EXPECT_EQ(regs, (std::vector<std::string>{"Y:output:32", "R:intermediate:32", "X:input:8",
                                            "W1:input:8", "b:input:32", "W2:input:8"}));
  // Stage 0 moves R (its epilogue's result), X, W1, then b; stage 1 Y, R, W2.
  EXPECT_EQ(c.stages[0].registers, (std::vector<size_t>{1, 2, 3, 4}));
  EXPECT_EQ(c.stages[1].registers, (std::vector<size_t>{0, 1, 5}));
  EXPECT_EQ(c.stages[0].plan.core.name, "mlp_x_s0");
  // The cycles: each stage's own at the bases it is given, plus one between them, wherever the
  // tensors lie.
  for (uint64_t shift : {0u, 4u, 12u}) {
    std::vector<uint64_t> bases;
    for (size_t r = 0; r < c.tensors.size(); ++r)
      bases.push_back(8192 * (r + 1) + shift * r);
    const arch::ChainTiming t = arch::chainTiming(c, o, bases);
    const int64_t s0 = arch::memoryTiming(c.stages[0].plan, o, s[0].options.constraints.memory,
                                          {bases[1], bases[2], bases[3], bases[4]})
                           .cycles;
    const int64_t s1 =
        arch::memoryTiming(c.stages[1].plan, o, mem, {bases[0], bases[1], bases[5]}).cycles;
    EXPECT_EQ(t.cycles, s0 + s1 + arch::kChainHandoff);
    EXPECT_EQ(t.stages[0].cycles, s0);
  }
  // With a DRAM the first stage starts on closed banks; the second on the rows the first left
  // open: with one bank of short rows, it is not the run it would have on closed banks.
  arch::Dram d;
  d.banks = 1;
  d.rowBytes = 32;
  d.tRAS = 40;
  const arch::ChainTiming t = arch::chainTiming(c, o, {}, &d);
  const std::vector<uint64_t> b = t.bases;
  EXPECT_EQ(t.stages[0].cycles,
            arch::dramTiming(c.stages[0].plan, o, mem, d, {b[1], b[2], b[3], b[4]}).cycles);
  arch::DramBanks banks(d);
  arch::dramTiming(c.stages[0].plan, o, mem, {b[1], b[2], b[3], b[4]}, banks);
  banks.shift(t.stages[0].cycles + arch::kChainHandoff);
  const int64_t carried =
      arch::dramTiming(c.stages[1].plan, o, mem, {b[0], b[1], b[5]}, banks).cycles;
  const int64_t closed = arch::dramTiming(c.stages[1].plan, o, mem, d, {b[0], b[1], b[5]}).cycles;
  EXPECT_EQ(t.stages[1].cycles, carried);
  EXPECT_NE(carried, closed);
  EXPECT_EQ(t.cycles, t.stages[0].cycles + carried + arch::kChainHandoff);
}

// Intermediates in the on-chip RAM: placed in register order while the RAM (a power of two of
// bus words) fits the budget; the stages find them above the select bit and time them at the
// RAM's latency and a beat a cycle, which is never slower than the memory's 20 cycles.
TEST(ChainPlan, IntermediatesOnChipWhenTheyFit) {
  const tc::Program p = withSizes(kMlp, {{"M", 8}, {"K", 12}, {"N", 8}, {"P", 6}});
  const dse::MemorySystem mem{8, 20, 2048};
  const std::vector<emit::ChainStageDesign> s = stageDesigns(p, mem);
  const arch::AxiOptions o = arch::axiOptions(mem);
  arch::ChainPlan c = emit::chainDesignPlan(p, s, "mlp_x", o.busBytes);
  ASSERT_EQ(c.tensors[1].tensor.name, "R"); // 8 x 8 int32: 256 bytes
  arch::placeOnChip(c, 0, o.busBytes, o.addrBits);
  EXPECT_FALSE(c.tensors[1].onChip);
  const arch::ChainTiming inMemory = arch::chainTiming(c, o);
  arch::placeOnChip(c, 255, o.busBytes, 32);
  EXPECT_FALSE(c.tensors[1].onChip);
  EXPECT_EQ(c.chipBytes, 0);
  arch::placeOnChip(c, 256, o.busBytes, 32);
  EXPECT_TRUE(c.tensors[1].onChip);
  EXPECT_EQ(c.chipBytes, 256);
  for (size_t r = 0; r < c.tensors.size(); ++r)
    EXPECT_EQ(c.tensors[r].onChip, r == 1) << r;
  EXPECT_EQ(arch::onChipAddress(c, 1), uint64_t{1} << 31);
  const arch::ChainTiming onChip = arch::chainTiming(c, o);
  EXPECT_EQ(onChip.bases[1], uint64_t{1} << 31);
  arch::OnChip chip;
  chip.latency = c.chipLatency;
  chip.tensors = {true, false, false, false}; // stage 0 writes R, reads X, W1, b
  EXPECT_EQ(onChip.stages[0].cycles,
            arch::memoryTiming(c.stages[0].plan, o, mem, arch::stageBases(c, 0, onChip.bases), chip)
                .cycles);
  for (size_t k = 0; k < 2; ++k)
    EXPECT_LE(onChip.stages[k].cycles, inMemory.stages[k].cycles) << k;
  EXPECT_LT(onChip.cycles, inMemory.cycles);
}

// Four contractions (tests/sim/chain/four.tc): T (16 x 12 int32, 768 bytes), U (16 x 16, 1,024)
// and V (768) hand each stage's result to the next. A 1 KiB RAM holds any one of them: keeping
// T and V saves 2 x (768 + 768) bytes of traffic against U's 2 x 1,024, and they can share the
// RAM only as two groups that take turns (S0..S1, S2..S3), so the fusion plan makes those
// groups and the plan puts both at offset 0; as one group only T would fit.
TEST(ChainPlan, FusionGroupsTakeTurnsInTheOnChipRam) {
  const std::string text = test::readExample("../tests/sim/chain/four.tc");
  const tc::Program p = withSizes(text.c_str(), {});
  const dse::MemorySystem mem{8, 20, 2048};
  const std::vector<emit::ChainStageDesign> s = stageDesigns(p, mem); // 1 KiB on chip
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].group, 0u);
  EXPECT_EQ(s[1].group, 0u);
  EXPECT_EQ(s[2].group, 1u);
  EXPECT_EQ(s[3].group, 1u);
  const arch::AxiOptions o = arch::axiOptions(mem);
  arch::ChainPlan c = emit::chainDesignPlan(p, s, "four_x", o.busBytes);
  std::map<std::string, const arch::ChainTensor*> by;
  for (const arch::ChainTensor& t : c.tensors)
    by[t.tensor.name] = &t;
  ASSERT_TRUE(by.count("T") && by.count("U") && by.count("V"));
  EXPECT_TRUE(by["T"]->onChip);
  EXPECT_TRUE(by["V"]->onChip);
  EXPECT_FALSE(by["U"]->onChip);
  EXPECT_EQ(by["T"]->chipOffset, 0u);
  EXPECT_EQ(by["V"]->chipOffset, 0u);
  EXPECT_EQ(c.chipBytes, 1024);
  // One group: T first (register order), then neither U nor V fits beside it.
  arch::placeOnChip(c, 1024, o.busBytes, o.addrBits);
  EXPECT_TRUE(by["T"]->onChip);
  EXPECT_FALSE(by["U"]->onChip);
  EXPECT_FALSE(by["V"]->onChip);
}

// The fusion analysis over the stages as built (dse::stageChain): what each stage reads from
// memory (by rows or not), what it writes, its cycles alone with the handoff, and the groups the
// dynamic programme picks are the best of every grouping.
TEST(ChainPlan, TheFusionAnalysisRunsOverTheStagesAsBuilt) {
  const tc::Program p = withSizes(kMlp, {{"M", 8}, {"K", 12}, {"N", 8}, {"P", 6}});
  const dse::MemorySystem mem{8, 20, 2048};
  const std::vector<emit::ChainStageDesign> s = stageDesigns(p, mem);
  const std::vector<workload::Stage> st = workload::chainStages(p, nullptr);
  std::vector<dse::BuiltStage> built;
  for (size_t k = 0; k < s.size(); ++k)
    built.push_back({st[k].statements.front(), st[k].statements.back(), &st[k].program,
                     st[k].tensorOf, s[k].point, 1000 * int64_t(k + 1)});
  const dse::FusionLimits limits{8, 1024, 20};
  const dse::ChainResult r = dse::stageChain(p, built, limits, 1);
  ASSERT_TRUE(r.built);
  ASSERT_EQ(r.chain.stages.size(), 2u);
  auto reads = [&](const dse::FusionStage& f) {
    std::vector<std::string> out;
    for (const dse::FusionRead& x : f.reads)
      out.push_back(r.chain.tensors[size_t(x.tensor)].name + (x.byRow ? ":rows" : ""));
    return out;
  };
  EXPECT_EQ(reads(r.chain.stages[0]), (std::vector<std::string>{"X:rows", "W1", "b"}));
  EXPECT_EQ(reads(r.chain.stages[1]), (std::vector<std::string>{"R:rows", "W2"}));
  EXPECT_EQ(r.chain.tensors[size_t(r.chain.stages[0].output)].name, "R");
  EXPECT_FALSE(r.chain.tensors[size_t(r.chain.stages[0].output)].external);
  EXPECT_EQ(r.chain.tensors[size_t(r.chain.stages[1].output)].name, "Y");
  EXPECT_EQ(r.chain.stages[0].soloCycles, 1000);
  EXPECT_EQ(r.chain.stages[1].soloCycles, 2001); // its cycles and the handoff
  EXPECT_EQ(r.chain.stages[0].rows, 8);
  EXPECT_EQ(r.stages[0].label, "S0..S1");
  EXPECT_EQ(r.stages[1].label, "S2");
  const dse::FusionPlan every = dse::fuseChainExhaustively(r.chain, limits);
  EXPECT_EQ(r.plan.cycles, every.cycles);
  EXPECT_EQ(r.plan.bytes, every.bytes);
}

// Tiles of rows (docs/fusion.md, "Tiles of rows"): the program at a tile's rows computes the
// whole program's rows tile by tile only when every tensor with the rows has them first and
// every read of one is along its statement's own rows.
TEST(RowTiles, TheRowSizeAndWhatATileCannotCompute) {
  EXPECT_EQ(workload::rowSize(withSizes(kMlp, {{"M", 8}, {"K", 4}, {"N", 4}, {"P", 2}}), nullptr),
            "M");
  auto problem = [](const char* text) {
    const tc::Program whole = withSizes(text, {{"M", 8}, {"N", 4}});
    const tc::Program tile = withSizes(text, {{"M", 2}, {"N", 4}});
    return workload::rowTileProblem(whole, tile);
  };
  EXPECT_EQ(problem(R"(def f(int8(M,N) A, int8(N,N) B, int8(N,N) C) -> (Y) {
      T(i,j) +=! A(i,k) * B(k,j)
      Y(i,j) +=! T(i,k) * C(k,j)
    })"),
            "");
  // T's rows summed over (a Gram matrix): every tile of rows adds to all of Y.
  EXPECT_NE(problem(R"(def f(int8(M,N) A, int8(N,N) B) -> (Y) {
      T(i,j) +=! A(i,k) * B(k,j)
      Y(i,j) +=! T(k,i) * T(k,j)
    })")
                .find("S1 (Y(i, j) +=! T(k, i) * T(k, j)) reads T(k, i) into Y, which has no rows "
                      "to split: a tile would need rows of other tiles"),
            std::string::npos);
  // B has the rows' size in its second dimension.
  EXPECT_NE(problem(R"(def f(int8(M,N) A, int8(N,M) B) -> (Y) {
      Y(i,j) +=! A(i,k) * B(k,j)
    })")
                .find("B has the rows' size in dimension 1"),
            std::string::npos);
  // A sum over the rows has no rows to split.
  EXPECT_NE(problem(R"(def f(int8(M,N) A, int8(N,N) B) -> (Y) {
      T(i,j) +=! A(i,k) * B(k,j)
      Y(j) +=! T(i,j)
    })")
                .find("which has no rows to split"),
            std::string::npos);
}

TEST(ChainPlan, TilesOfRowsRunTheStagesOncePerTile) {
  const dse::MemorySystem mem{8, 20, 2048};
  const arch::AxiOptions o = arch::axiOptions(mem);
  const tc::Program whole = withSizes(kMlp, {{"M", 12}, {"K", 12}, {"N", 8}, {"P", 6}});
  std::vector<emit::ChainStageDesign> s = stageDesigns(whole, mem, 3, kMlp);
  ASSERT_EQ(s.size(), 2u);
  // Designed for a tile of 4 rows.
  EXPECT_EQ(s[0].program.tensors[size_t(s[0].program.findTensor("X"))].shape,
            (std::vector<int64_t>{4, 12}));
  for (emit::ChainStageDesign& d : s)
    d.options.constraints.chipBytes = 0;
  const arch::ChainPlan c = emit::chainDesignPlan(whole, s, "mlp_t", o.busBytes);
  EXPECT_EQ(c.tiles, 3);
  // Y, R, X move by tiles of 4 rows (whole shapes held); W1, b and W2 are read whole.
  for (const arch::ChainTensor& t : c.tensors) {
    const tc::Tensor& w = whole.tensors[size_t(t.programTensor)];
    EXPECT_EQ(t.tensor.shape, w.shape) << t.tensor.name;
    const bool rows = t.tensor.name == "Y" || t.tensor.name == "R" || t.tensor.name == "X";
    EXPECT_EQ(t.tileBytes, rows ? uint64_t(arch::tensorBytes(t.tensor) / 3) : 0u) << t.tensor.name;
  }
  const arch::ChainTiming tm = arch::chainTiming(c, o);
  ASSERT_EQ(tm.stages.size(), 6u);
  int64_t sum = 0;
  for (int64_t t = 0; t < 3; ++t)
    for (size_t k = 0; k < 2; ++k) {
      const std::vector<uint64_t> b = arch::stageBases(c, k, tm.bases, t);
      const arch::MemoryTiming run = arch::memoryTiming(c.stages[k].plan, o, mem, b);
      EXPECT_EQ(tm.stages[size_t(t) * 2 + k].cycles, run.cycles) << t << " " << k;
      sum += run.cycles;
      // Tile t of a tensor with rows is t tiles further; the others where they are.
      for (size_t i = 0; i < b.size(); ++i) {
        const arch::ChainTensor& x = c.tensors[c.stages[k].registers[i]];
        EXPECT_EQ(b[i], tm.bases[c.stages[k].registers[i]] + uint64_t(t) * x.tileBytes);
      }
    }
  EXPECT_EQ(tm.cycles, sum + 5 * arch::kChainHandoff);
}

} // namespace
} // namespace rubick
