// SPDX-License-Identifier: Apache-2.0
// Epilogues (dse/Epilogue.h): the form recognised, its expression checked against the reference
// model statement by statement, and the constructs outside the form refused with their reason.

#include "tc_test_util.h"

#include "rubick/dataflow/StatementView.h"
#include "rubick/dse/Epilogue.h"
#include "rubick/dse/Explore.h"
#include "rubick/ref/Interpreter.h"
#include "rubick/support/Unsupported.h"

#include <gtest/gtest.h>

#include <random>

namespace rubick {
namespace {

using test::analyzeText;

const char* kLayer = R"(
def layer(int8(M,K) X, int8(K,N) W, int32(N) b, int32(N) m) -> (int8(M,N) Y) {
  H(i,j) +=! X(i,k) * W(k,j)
  Y(i,j) = requant(max(H(i,j) + b(j), 0), m(j), 12)
})";

const char* kChain = R"(
def chain(int8(M,K) A, int8(K,N) B, int16(M) r, int8(N) s) -> (int16(M,N) Y) {
  C(i,j) +=! A(i,k) * B(k,j)
  T(i,j) = C(i,j) * s(j) - r(i)
  U(i,j) = min(max(-T(i,j), -30000), 30000)
  Y(i,j) = abs(U(i,j)) * 3 + 7
})";

// A residual block's end: the requantised sum plus a residual of the output's shape, ReLU.
const char* kResidual = R"(
def res(int8(M,K) A, int8(K,N) B, int8(M,N) R, int16(N) g) -> (int8(M,N) Y) {
  C(i,j) +=! A(i,k) * B(k,j)
  Y(i,j) = max(requant(C(i,j), g(j), 10) + R(i,j), 0)
})";

const char* kVector = R"(
def v(int8(M,N) A, int8(N) x, int16(M) b) -> (int8(M) y) {
  s(i) +=! A(i,k) * x(k)
  t(i) = s(i) * s(i) + b(i)
  y(i) = requant(t(i) - 5, 3, 0)
})";

tc::Program withSizes(const char* text, std::vector<std::pair<std::string, int64_t>> sizes) {
  tc::SemaOptions o;
  for (auto& [n, v] : sizes)
    o.sizes.push_back({n, v, {}});
  return analyzeText(text, o);
}

TEST(Epilogue, ALayersEpilogueIsRecognised) {
  const tc::Program p = withSizes(kLayer, {{"M", 3}, {"N", 5}, {"K", 4}});
  ASSERT_TRUE(dse::hasEpilogueForm(p));
  const dse::Epilogue e = dse::recogniseEpilogue(p);
  EXPECT_EQ(e.contraction, 0u);
  EXPECT_EQ(p.tensors[size_t(e.accumulator)].name, "H");
  EXPECT_EQ(e.outputName, "Y");
  EXPECT_EQ(e.outputBits, 8);
  ASSERT_EQ(e.operands.size(), 2u);
  EXPECT_EQ(e.operands[0].name, "b");
  EXPECT_EQ(e.operands[0].dim, 1);
  EXPECT_EQ(e.operands[0].extent, 5);
  EXPECT_EQ(e.operands[0].bits, 32);
  EXPECT_EQ(e.operands[1].name, "m");
  // H's value as its type holds it, the statement's value wrapped to Y's type.
  EXPECT_EQ(dse::toString(e.expr, e), "wrap8(requant8(max((wrap32(acc) + b), 0), m, 12))");
}

TEST(Epilogue, OperandsAlongEitherDimensionAndOfAVector) {
  const dse::Epilogue c = dse::recogniseEpilogue(withSizes(kChain, {{"M", 3}, {"N", 5}, {"K", 2}}));
  ASSERT_EQ(c.operands.size(), 2u);
  EXPECT_EQ(c.operands[0].name, "s");
  EXPECT_EQ(c.operands[0].dim, 1);
  EXPECT_EQ(c.operands[1].name, "r");
  EXPECT_EQ(c.operands[1].dim, 0);
  EXPECT_EQ(c.operands[1].bits, 16);
  const dse::Epilogue v = dse::recogniseEpilogue(withSizes(kVector, {{"M", 6}, {"N", 5}}));
  ASSERT_EQ(v.operands.size(), 1u);
  EXPECT_EQ(v.operands[0].dim, 0);
  EXPECT_EQ(v.outputBits, 8);
}

// The composed expression against the reference model running every statement, on random
// inputs that include each type's extremes (so that wrapping and saturation are exercised).
void checkAgainstReference(const tc::Program& p, uint64_t seeds) {
  const dse::Epilogue e = dse::recogniseEpilogue(p);
  const std::vector<int64_t>& shape = p.tensors[size_t(e.output)].shape;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    ref::TensorData data = ref::randomInputs(p, 0, seed);
    std::mt19937_64 rng(seed);
    for (const dse::EpilogueOperand& op : e.operands) {
      const int64_t lo = -(int64_t(1) << (op.bits - 1)), hi = -lo - 1;
      std::uniform_int_distribution<int64_t> full(lo, hi), small(-100, 100);
      for (int64_t& x : data[size_t(op.tensor)])
        x = rng() % 3 == 0 ? full(rng) : rng() % 2 ? small(rng) : (rng() % 2 ? lo : hi);
    }
    for (size_t s = 0; s < p.statements.size(); ++s)
      ref::runStatement(p, s, data);
    const std::vector<int64_t>& acc = data[size_t(e.accumulator)];
    const std::vector<int64_t>& out = data[size_t(e.output)];
    const int64_t cols = shape.size() == 2 ? shape[1] : shape[0];
    for (size_t x = 0; x < out.size(); ++x) {
      const int64_t idx[2] = {shape.size() == 2 ? int64_t(x) / cols : int64_t(x),
                              int64_t(x) % cols};
      std::vector<int64_t> ops;
      for (const dse::EpilogueOperand& op : e.operands)
        ops.push_back(data[size_t(op.tensor)]
                          [op.full() ? x : size_t(shape.size() == 2 ? idx[op.dim] : idx[0])]);
      ASSERT_EQ(dse::evaluateEpilogue(e.expr, acc[x], ops), out[x])
          << p.name << " seed " << seed << " element " << x;
    }
  }
}

TEST(Epilogue, AResidualIsAFullOperand) {
  const dse::Epilogue e =
      dse::recogniseEpilogue(withSizes(kResidual, {{"M", 3}, {"N", 5}, {"K", 2}}));
  ASSERT_EQ(e.operands.size(), 2u);
  EXPECT_EQ(e.operands[0].name, "g");
  EXPECT_FALSE(e.operands[0].full());
  EXPECT_EQ(e.operands[1].name, "R");
  EXPECT_TRUE(e.operands[1].full());
  EXPECT_EQ(e.operands[1].shape, (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(e.operands[1].extent, 15);
}

TEST(Epilogue, AShortcutAtAnOffsetIsAFullOperand) {
  // The centre of a larger X (a convolution shrank the image by 2): offsets 0 0 1 1, and the
  // output's tiles never take h or w as whole (X's rows there are longer).
  const char* text = R"(
def blk(int8(N,C,H,W) X, int8(F,C,R,S) Wt) -> (Y) {
  A(n,f,h,w) +=! X(n,c,h + r,w + s) * Wt(f,c,r,s)
  Y(n,f,h,w) = max(A(n,f,h,w) + X(n,f,h + 1,w + 1), 0)
})";
  const dse::Epilogue e = dse::recogniseEpilogue(
      withSizes(text, {{"N", 1}, {"C", 2}, {"H", 5}, {"W", 6}, {"F", 2}, {"R", 3}, {"S", 3}}));
  ASSERT_EQ(e.operands.size(), 1u);
  EXPECT_TRUE(e.operands[0].full());
  EXPECT_EQ(e.operands[0].offset, (std::vector<int64_t>{0, 0, 1, 1}));
  EXPECT_EQ(e.operands[0].shape, (std::vector<int64_t>{1, 2, 5, 6}));
  EXPECT_EQ(e.outputShape, (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(dse::splitDims(e), (1u << 2) | (1u << 3));
  EXPECT_EQ(dse::indexDims(e), 0u);
  // A residual of the output's shape splits nothing.
  EXPECT_EQ(
      dse::splitDims(dse::recogniseEpilogue(withSizes(kResidual, {{"M", 3}, {"N", 5}, {"K", 2}}))),
      0u);
}

TEST(Epilogue, ItsExpressionIsTheReferenceModelsStatements) {
  checkAgainstReference(withSizes(kResidual, {{"M", 7}, {"N", 9}, {"K", 33}}), 20);
  checkAgainstReference(withSizes(kLayer, {{"M", 7}, {"N", 9}, {"K", 33}}), 20);
  checkAgainstReference(withSizes(kChain, {{"M", 7}, {"N", 9}, {"K", 33}}), 20);
  checkAgainstReference(withSizes(kVector, {{"M", 11}, {"N", 40}}), 20);
}

// The message of the error recogniseEpilogue throws for `text`, "unsupported: ..." for an
// Unsupported one.
std::string formError(const std::string& text) {
  // The sizes the signature (the first line) uses.
  const std::string signature = text.substr(0, text.find('\n'));
  std::vector<std::pair<std::string, int64_t>> sizes;
  for (auto [n, v] : {std::pair<const char*, int64_t>{"M", 4}, {"N", 5}, {"K", 3}, {"P", 7}})
    if (signature.find(std::string(n) + ")") != std::string::npos ||
        signature.find(std::string(n) + ",") != std::string::npos)
      sizes.push_back({n, v});
  const tc::Program p = withSizes(text.c_str(), sizes);
  if (!dse::hasEpilogueForm(p)) return "<not the form>";
  try {
    dse::recogniseEpilogue(p);
  } catch (const Unsupported& e) {
    return "unsupported: " + e.diag().message;
  } catch (const Error& e) {
    return e.diag().message;
  }
  return "<no error>";
}

TEST(Epilogue, WhatIsOutsideTheFormIsRefusedWithItsReason) {
  const std::string head = "def f(int8(M,K) A, int8(K,N) B, int32(N) b, int32(M,N) R) -> (Y) {\n"
                           "  H(i,j) +=! A(i,k) * B(k,j)\n";
  EXPECT_EQ(formError(head + "  Y(i,j) = H(i,j) + R(i,j)\n}"), "<no error>");
  EXPECT_NE(formError("def f(int8(M,K) A, int8(K,M) B, int32(M,M) R) -> (Y) {\n"
                      "  H(i,j) +=! A(i,k) * B(k,j)\n  Y(i,j) = H(i,j) + R(j,i)\n}")
                .find("of the output's shape at the element it writes"),
            std::string::npos);
  EXPECT_NE(
      formError(head + "  Y(i,j) = H(i,j) + B(0,j)\n}").find("unsupported: an epilogue reads"),
      std::string::npos);
  EXPECT_NE(formError("def f(int8(M,K) A, int8(K,M) B) -> (Y) {\n"
                      "  H(i,j) +=! A(i,k) * B(k,j)\n  Y(i,j) = H(j,i)\n}")
                .find("at the element it writes"),
            std::string::npos);
  EXPECT_NE(formError(head + "  Y(i,j) = H(i,j) / 3\n}").find("unsupported: an epilogue is built"),
            std::string::npos);
  // A longer vector than the output's dimension (in bounds, but not an operand along it).
  EXPECT_NE(formError("def f(int8(M,K) A, int8(K,N) B, int32(P) c) -> (Y) {\n"
                      "  H(i,j) +=! A(i,k) * B(k,j)\n  Y(i,j) = H(i,j) + c(j) where j in 0:N\n}")
                .find("needs exactly 5"),
            std::string::npos);
  EXPECT_NE(formError(head + "  Y(i,j) = H(i,j) + b(j) + 1.5\n}").find("floating-point"),
            std::string::npos);
  // The contraction's result is an output, not a local.
  EXPECT_NE(formError("def f(int8(M,K) A, int8(K,N) B) -> (H, Y) {\n"
                      "  H(i,j) +=! A(i,k) * B(k,j)\n  Y(i,j) = H(i,j) + 1\n}")
                .find("must be a local"),
            std::string::npos);
  // Reductions after the first statement: a chain, not an epilogue (MLP, attention).
  EXPECT_EQ(formError("def f(int8(M,K) A, int8(K,N) B) -> (Y) {\n"
                      "  H(i,j) +=! A(i,k) * B(k,j)\n  Y(i) +=! H(i,j)\n}"),
            "<not the form>");
}

// What the memory model adds, worked out by hand: on an 8-byte bus at 20 cycles latency, the
// layer's two vectors of 10 int32 (40 bytes, 5 beats each) load once before the first tile, each
// latency + kLoadOverhead + beats; their registers take 80 bytes of buffer; Y moves as int8.
TEST(Epilogue, TheMemoryModelAddsTheOperandsOnceAndTheOutputAtItsWidth) {
  const dse::Epilogue e =
      dse::recogniseEpilogue(withSizes(kLayer, {{"M", 12}, {"N", 10}, {"K", 14}}));
  dse::MemorySystem mem{8, 20, 2048};
  const dse::MemorySystem m = dse::withEpilogue(mem, e);
  EXPECT_EQ(m.outputBytes, 1);
  EXPECT_TRUE(m.outputsFinal);
  EXPECT_EQ(m.prologueCycles, 2 * (20 + dse::kLoadOverhead + 5));
  EXPECT_EQ(m.prologueBytes, 80);
  EXPECT_EQ(m.prologueBufferBytes, 80);
  EXPECT_EQ(m.outputOperandBytes, 0);
  // A residual moves with the output's tiles: a late load of one byte per element (the output
  // stays at its own byte), its banks beside the output's; nothing before the first tile but
  // the int16 vector g (20 bytes: 3 beats).
  const dse::Epilogue r =
      dse::recogniseEpilogue(withSizes(kResidual, {{"M", 12}, {"N", 10}, {"K", 14}}));
  const dse::MemorySystem mr = dse::withEpilogue(mem, r);
  EXPECT_EQ(mr.outputBytes, 1);
  EXPECT_EQ(mr.outputOperandBytes, 1);
  EXPECT_EQ(mr.lateOperandBytes, (std::vector<int64_t>{1}));
  EXPECT_EQ(mr.prologueCycles, 20 + dse::kLoadOverhead + 3);
  EXPECT_EQ(mr.prologueBufferBytes, 20);
}

// With an epilogue no design writes the output's partial sums out: in every buffer order, the
// loops that do not index the output come after those that do. Without one, some do (K is long
// and the buffer small), so the check can fail.
TEST(Epilogue, NoDesignTakesTheOutputOutBeforeItsReductionEnds) {
  const tc::Program p = withSizes(kLayer, {{"M", 12}, {"N", 10}, {"K", 64}});
  const dataflow::StatementView v = dataflow::viewStatement(p, 0);
  auto reductionOutside = [&](const dse::ExploreOptions& o) {
    int count = 0;
    for (const dse::DesignPoint& d : dse::explore(v, o).points) {
      bool reduced = false, bad = false;
      for (int l : d.buffer.order) {
        const bool indexes = l != 2; // i, j index Y; k does not
        if (!indexes)
          reduced = true;
        else if (reduced)
          bad = true;
      }
      count += bad;
    }
    return count;
  };
  dse::ExploreOptions o;
  o.constraints.arrays = {{4, 4}};
  o.constraints.bufferBytes = 1024;
  o.constraints.elementBits = {32, 8, 8};
  o.constraints.memory = dse::MemorySystem{8, 20, 2048};
  EXPECT_GT(reductionOutside(o), 0);
  o.constraints.memory = dse::withEpilogue(o.constraints.memory, dse::recogniseEpilogue(p));
  EXPECT_EQ(reductionOutside(o), 0);
}

} // namespace
} // namespace rubick
