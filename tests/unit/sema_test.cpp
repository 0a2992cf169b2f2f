// SPDX-License-Identifier: Apache-2.0
// Sema beyond ranges: sizes (file defaults, --size precedence), def selection, tensors and their
// roles, the type-inference rule, locals, affine indices, values, and name errors.

#include "tc_test_util.h"

#include <gtest/gtest.h>

namespace rubick::tc {
namespace {

using test::analyzeText;
using test::readExample;
using test::semaError;

SemaOptions withSizes(std::vector<std::pair<std::string, int64_t>> sizes, std::string def = "") {
  SemaOptions o;
  for (auto& [n, v] : sizes)
    o.sizes.push_back(SizeDefault{n, v, {}});
  o.defName = std::move(def);
  return o;
}

const Tensor& tensor(const Program& p, const std::string& name) {
  int t = p.findTensor(name);
  EXPECT_GE(t, 0) << name;
  return p.tensors.at(t);
}

ScalarType typeOf(const std::string& text) {
  Program p = analyzeText(text);
  return tensor(p, "C").type;
}

TEST(Sema, SizesFromTheFileAndTheCommandLine) {
  const std::string gemm = readExample("gemm.tc"); // M=64, N=64, K=64 in the file
  Program p = analyzeText(gemm);
  EXPECT_EQ(p.sizes,
            (std::vector<std::pair<std::string, int64_t>>{{"M", 64}, {"K", 64}, {"N", 64}}));
  // --size wins over the file; the others keep their defaults. Order is first use in the def.
  Program q = analyzeText(gemm, withSizes({{"N", 3}, {"M", 2}}));
  EXPECT_EQ(q.sizes, (std::vector<std::pair<std::string, int64_t>>{{"M", 2}, {"K", 64}, {"N", 3}}));
  EXPECT_EQ(tensor(q, "A").shape, (std::vector<int64_t>{2, 64}));
  EXPECT_EQ(tensor(q, "C").shape, (std::vector<int64_t>{2, 3}));
  // Without any default, every size needs a value.
  Program r =
      analyzeText("def f(int8(M,N) A) -> (B) { B(i,j) = A(i,j) }", withSizes({{"M", 5}, {"N", 7}}));
  EXPECT_EQ(tensor(r, "B").shape, (std::vector<int64_t>{5, 7}));
  EXPECT_EQ(tensor(r, "A").dimSymbols, (std::vector<std::string>{"M", "N"}));
}

TEST(Sema, SizesInRangeBoundsOnly) {
  // T appears only in a where bound: it is a size all the same.
  Program p = analyzeText("# rubick: size T=3\n"
                          "def f(int8(8) A) -> (B) { B(i) = A(i) where i in 0:T }");
  EXPECT_EQ(p.sizes, (std::vector<std::pair<std::string, int64_t>>{{"T", 3}}));
  EXPECT_EQ(p.statements[0].loops[0].hi, 3);
}

TEST(Sema, SizeErrors) {
  EXPECT_EQ(semaError("def f(int8(M) A) -> (B) { B(i) = A(i) }"),
            "1:12: size 'M' has no value; bind it with --size M=<n> or a '# rubick: size M=<n>' "
            "comment");
  EXPECT_EQ(semaError("def f(int8(M) A) -> (B) { B(i) = A(i) }", withSizes({{"Q", 1}, {"M", 1}})),
            "--size: 'Q' is not a size of 'f' (its sizes: M)");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (B) { B(i) = A(i) }", withSizes({{"Q", 1}})),
            "--size: 'Q' is not a size of 'f' (it has no sizes)");
  EXPECT_EQ(semaError("def f(int8(M) A) -> (B) { B(i) = A(i) }", withSizes({{"M", 0}})),
            "--size: size M=0 is out of range (1..2147483647)");
  EXPECT_EQ(
      semaError("def f(int8(M) A) -> (B) { B(i) = A(i) }", withSizes({{"M", int64_t(1) << 31}})),
      "--size: size M=2147483648 is out of range (1..2147483647)");
  EXPECT_EQ(semaError("# rubick: size M=2, Z=1\ndef f(int8(M) A) -> (B) { B(i) = A(i) }"),
            "1:21: size 'Z' appears in no tensor shape or range bound of this file");
  EXPECT_EQ(semaError("def f(int8(M) A, int8(4) M) -> (B) { B(i) = A(i) }"),
            "1:12: 'M' is used both as a size and as a tensor name");
  EXPECT_EQ(semaError("def f(int8(0) A) -> (B) { B(i) = A(i) }"),
            "1:12: dimension size must be positive, found 0");
  EXPECT_EQ(semaError("def f(int8(2147483648) A) -> (B) { B(i) = A(i) }"),
            "1:12: dimension size 2147483648 is too large (limit 2147483647)");
  EXPECT_NO_THROW(analyzeText("def f(int8(2147483647) A) -> (B) { B(i) = A(i) }"));
}

TEST(Sema, ChoosingADef) {
  const std::string two = "# rubick: size M=4, N=6\n"
                          "def f(int8(M) A) -> (B) { B(i) = A(i) }\n"
                          "def g(int8(N) A) -> (B) { B(i) = -A(i) }\n";
  EXPECT_EQ(semaError(two),
            "t.tc: the file defines 2 functions (f, g); choose one with --def NAME");
  Program g = analyzeText(two, withSizes({}, "g"));
  EXPECT_EQ(g.name, "g");
  // Only g's sizes are bound; the file's M belongs to f and is not an error.
  EXPECT_EQ(g.sizes, (std::vector<std::pair<std::string, int64_t>>{{"N", 6}}));
  EXPECT_EQ(tensor(g, "B").shape, (std::vector<int64_t>{6}));
  EXPECT_EQ(analyzeText(two, withSizes({}, "f")).name, "f");
  EXPECT_EQ(semaError(two, withSizes({}, "h")),
            "--def: 't.tc' defines no function named 'h' (it defines: f, g)");
  // --size may only name sizes of the chosen def.
  EXPECT_EQ(semaError(two, withSizes({{"M", 2}}, "g")),
            "--size: 'M' is not a size of 'g' (its sizes: N)");
  EXPECT_EQ(semaError("def f() -> (x) { x = 1 }\ndef f() -> (x) { x = 2 }", withSizes({}, "f")),
            "2:5: function 'f' is defined twice");
}

TEST(Sema, RolesAndOrder) {
  Program p = analyzeText(readExample("attention.tc"));
  std::vector<std::pair<std::string, TensorRole>> want = {
      {"Q", TensorRole::Input},  {"K", TensorRole::Input},  {"V", TensorRole::Input},
      {"O", TensorRole::Output}, {"Sc", TensorRole::Local}, {"mx", TensorRole::Local},
      {"E", TensorRole::Local},  {"sm", TensorRole::Local}, {"U", TensorRole::Local}};
  ASSERT_EQ(p.tensors.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(p.tensors[i].name, want[i].first);
    EXPECT_EQ(p.tensors[i].role, want[i].second) << want[i].first;
  }
  // L=S=D=16: Sc(i,j) is LxS, mx(i) L, E(i,j) LxS, sm(i) L, U(i,d) LxD, O(i,d) LxD.
  EXPECT_EQ(tensor(p, "Sc").shape, (std::vector<int64_t>{16, 16}));
  EXPECT_EQ(tensor(p, "mx").shape, (std::vector<int64_t>{16}));
  EXPECT_EQ(tensor(p, "U").shape, (std::vector<int64_t>{16, 16}));
  EXPECT_EQ(tensor(p, "O").shape, (std::vector<int64_t>{16, 16}));
  // Types: Sc sums int8 products -> int32; everything after reads int32 -> int32.
  for (const char* t : {"Sc", "mx", "E", "sm", "U", "O"})
    EXPECT_EQ(tensor(p, t).type, ScalarType::Int32) << t;
  ASSERT_EQ(p.statements.size(), 6u);
  EXPECT_EQ(p.statements[2].text, "E(i, j) = exp(Sc(i, j) - mx(i))");
  EXPECT_EQ(p.statements[5].name, "S5");
}

TEST(Sema, TypeInferenceRule) {
  // Widest type read; `+=`/`*=` (with or without !) of integers narrower than 32 bits -> int32.
  EXPECT_EQ(typeOf("def f(int8(4) A) -> (C) { C(i) = A(i) * A(i) }"), ScalarType::Int8);
  EXPECT_EQ(typeOf("def f(int8(4,4) A) -> (C) { C(i) +=! A(i,k) }"), ScalarType::Int32);
  EXPECT_EQ(typeOf("def f(int8(4,4) A) -> (C) { C(i) *=! A(i,k) }"), ScalarType::Int32);
  EXPECT_EQ(typeOf("def f(int16(4,4) A) -> (C) { C(i) +=! A(i,k) }"), ScalarType::Int32);
  EXPECT_EQ(typeOf("def f(int8(4,4) A) -> (C) { C(i) max=! A(i,k) }"), ScalarType::Int8);
  EXPECT_EQ(typeOf("def f(int8(4,4) A) -> (C) { C(i) min=! A(i,k) }"), ScalarType::Int8);
  EXPECT_EQ(typeOf("def f(int64(4,4) A) -> (C) { C(i) +=! A(i,k) }"), ScalarType::Int64);
  EXPECT_EQ(typeOf("def f(int8(4) A, int16(4) B) -> (C) { C(i) = A(i) + B(i) }"),
            ScalarType::Int16);
  EXPECT_EQ(typeOf("def f(int32(4) A, half(4) B) -> (C) { C(i) = A(i) + B(i) }"),
            ScalarType::Float16);
  EXPECT_EQ(typeOf("def f(float(4,4) A) -> (C) { C(i) +=! A(i,k) }"), ScalarType::Float32);
  EXPECT_EQ(typeOf("def f(double(4) A, float(4) B) -> (C) { C(i) = A(i) * B(i) }"),
            ScalarType::Float64);
  // Nothing read: an integer literal gives int32, a float literal float32.
  EXPECT_EQ(typeOf("def f() -> (C) { C(i) = 1 where i in 0:4 }"), ScalarType::Int32);
  EXPECT_EQ(typeOf("def f() -> (C) { C(i) = 1 + 0.5 where i in 0:4 }"), ScalarType::Float32);
  // A declared type is kept, even where inference would widen.
  EXPECT_EQ(typeOf("def f(int8(4,4) A) -> (int8 C) { C(i) +=! A(i,k) }"), ScalarType::Int8);
  // The first write fixes the type; a later += does not widen it.
  EXPECT_EQ(typeOf("def f(int8(4,4) A) -> (C) { C(i) = A(i,0) C(i) += A(i,k) }"), ScalarType::Int8);
  Program p = analyzeText("def f(int8(4,4) A) -> (int16 C, D) { C(i) +=! A(i,k) D(i) = C(i) }");
  EXPECT_FALSE(tensor(p, "C").typeInferred);
  EXPECT_TRUE(tensor(p, "D").typeInferred);
  EXPECT_EQ(tensor(p, "D").type, ScalarType::Int16);
}

TEST(Sema, LocalsAndScalars) {
  Program p = analyzeText("def f(int8(4) A, int32 s) -> (C) {\n"
                          "  t = A(0) + s\n"
                          "  T(i) = A(i) * t\n"
                          "  C(i) = T(i) + t()\n"
                          "}");
  EXPECT_EQ(tensor(p, "s").shape, std::vector<int64_t>{});
  EXPECT_EQ(tensor(p, "t").role, TensorRole::Local);
  EXPECT_EQ(tensor(p, "t").shape, std::vector<int64_t>{});
  EXPECT_EQ(tensor(p, "t").type, ScalarType::Int32);
  EXPECT_EQ(tensor(p, "T").role, TensorRole::Local);
  EXPECT_EQ(tensor(p, "T").shape, (std::vector<int64_t>{4}));
  ASSERT_EQ(p.statements.size(), 3u);
  EXPECT_TRUE(p.statements[0].loops.empty());
  ASSERT_EQ(p.statements[2].reads.size(), 2u);
  EXPECT_EQ(p.statements[2].reads[1].tensor, p.findTensor("t"));
  EXPECT_TRUE(p.statements[2].reads[1].indices.empty());
}

TEST(Sema, AffineIndicesAndAccessText) {
  // Loops i, j, k (k reduction): A(2*i + k - 1, N - j) has coefficients [2,0,1], -1 and [0,-1,0],
  // N. The write C(i, j) is the identity on the first two loops.
  Program p = analyzeText("# rubick: size N=8\n"
                          "def f(int8(N,N) A) -> (C) { C(i,j) +=! A(2*i + k - 1, N - j)"
                          " where i in 0:3, j in 1:N, k in 1:3 }");
  const Statement& s = p.statements[0];
  ASSERT_EQ(s.loops.size(), 3u);
  EXPECT_EQ(s.loops[2].name, "k");
  EXPECT_TRUE(s.loops[2].reduction);
  ASSERT_EQ(s.reads.size(), 1u);
  const Access& a = s.reads[0];
  EXPECT_EQ(a.text, "A(2 * i + k - 1, N - j)");
  EXPECT_EQ(a.indices[0].coeffs, (std::vector<int64_t>{2, 0, 1}));
  EXPECT_EQ(a.indices[0].constant, -1);
  EXPECT_EQ(a.indices[1].coeffs, (std::vector<int64_t>{0, -1, 0}));
  EXPECT_EQ(a.indices[1].constant, 8);
  EXPECT_EQ(s.write.indices[0].coeffs, (std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(s.write.indices[1].coeffs, (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(s.write.text, "C(i,j)");
  EXPECT_EQ(s.op, AssignOp::PlusEqBang);
  EXPECT_FALSE(s.readsOutput());
}

TEST(Sema, Values) {
  // Reads are numbered in order of appearance; builtins become calls, sizes constants.
  Program p = analyzeText("# rubick: size N=4\n"
                          "def f(int8(N) A, int8(N) B) -> (C) { C(i) = max(A(i), -B(i)) / N + i }");
  const Value& v = p.statements[0].rhs;
  ASSERT_EQ(v.kind, Value::Kind::Add);
  const Value& div = v.args[0];
  ASSERT_EQ(div.kind, Value::Kind::Div);
  ASSERT_EQ(div.args[0].kind, Value::Kind::Call);
  EXPECT_EQ(div.args[0].func, "max");
  EXPECT_EQ(div.args[0].args[0].kind, Value::Kind::Read);
  EXPECT_EQ(div.args[0].args[0].ref, 0);
  EXPECT_EQ(div.args[0].args[1].kind, Value::Kind::Neg);
  EXPECT_EQ(div.args[0].args[1].args[0].ref, 1);
  EXPECT_EQ(div.args[1].kind, Value::Kind::Int);
  EXPECT_EQ(div.args[1].intValue, 4);
  EXPECT_EQ(v.args[1].kind, Value::Kind::Index);
  EXPECT_EQ(v.args[1].ref, 0);
  EXPECT_EQ(p.statements[0].reads[1].tensor, p.findTensor("B"));
}

TEST(Sema, UpdatesReadTheOldValue) {
  Program p = analyzeText("def f(int8(4) A) -> (C) { C(i) = A(i) C(i) += A(i) C(i) max= 0 }");
  EXPECT_FALSE(p.statements[0].readsOutput());
  EXPECT_TRUE(p.statements[1].readsOutput());
  EXPECT_TRUE(p.statements[2].readsOutput());
}

TEST(Sema, StatementErrors) {
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { A(i) = 0 C(i) = A(i) }"),
            "1:27: cannot assign to input 'A'");
  EXPECT_EQ(semaError("def f(int8(4,4) A) -> (C) { C(i) += A(i,k) }"),
            "1:34: 'C' is updated with '+=' before any statement writes it; use '+=!' to start "
            "from the operator's identity");
  EXPECT_EQ(semaError("def f(int8(4,4) A) -> (C) { C(i) max= A(i,k) }"),
            "1:34: 'C' is updated with 'max=' before any statement writes it; use 'max=!' to "
            "start from the operator's identity");
  EXPECT_EQ(semaError("def f(int8(4,4) A) -> (C) { C(i) = A(i,k) }"),
            "1:40: index 'k' is not on the left-hand side, so the statement reduces over it; use "
            "a reduction operator such as +=!");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = C(i) + A(i) }"),
            "1:34: 'C' is read before any statement writes it");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C, D) { C(i) = A(i) }"),
            "1:25: output 'D' is never written");
  EXPECT_EQ(semaError("def f(int8(4) A, int8(4) A) -> (C) { C(i) = A(i) }"),
            "1:26: 'A' is declared twice");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (A) { A(i) = 1 }"), "1:22: 'A' is declared twice");
  EXPECT_EQ(semaError("def f(int8(4,4) A) -> (C) { C(i,i) = A(i,i) }"),
            "1:33: index 'i' appears twice on the left-hand side");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = A(i) where j in 0:4 }"),
            "1:45: 'where' names index 'j', which this statement does not use");
  EXPECT_EQ(semaError("def f(int8(4) A) -> () { B(i) = A(i) }"),
            "1:5: 'f' has no outputs; list its results after '->', as in -> (C)");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { }"), "1:5: 'f' has no statements");
}

TEST(Sema, NameErrors) {
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = B(i) }"),
            "1:34: unknown tensor or function 'B'");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = A(i) * x }"), "1:41: unknown name 'x'");
  EXPECT_EQ(semaError("def f(int8(4) A, int8(4) B) -> (C) { C(i) = A(i) + B }"),
            "1:52: 'B' is a tensor; index it as B(...)");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = A(i, i) }"),
            "1:34: 'A' has 1 dimension but is indexed with 2 indices");
  EXPECT_EQ(semaError("def f(int8(4,4) A) -> (int32(4,4) C) { C(i) +=! A(i,k) }"),
            "1:40: 'C' has 2 dimensions but is indexed with 1 index");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = exp(A(i), 1) }"),
            "1:34: 'exp' takes 1 argument, given 2");
  EXPECT_EQ(semaError("def f(int8(4) exp) -> (C) { C(i) = 1 }"),
            "1:15: 'exp' is a builtin function and cannot name a tensor");
  EXPECT_EQ(semaError("def f(int8(M) A) -> (C) { M(i) = A(i) }", withSizes({{"M", 4}})),
            "1:27: 'M' is a size, not a tensor");
  EXPECT_EQ(semaError("def f(int8(M) A) -> (C) { C(i) = M(i) }", withSizes({{"M", 4}})),
            "1:34: 'M' is a size, not a tensor");
  EXPECT_EQ(semaError("def f(int8(M) A) -> (C) { C(M) = A(0) }", withSizes({{"M", 4}})),
            "1:29: 'M' is a size; left-hand side indices must be index names");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(A) = 1 }"),
            "1:29: 'A' is a tensor; left-hand side indices must be index names");
}

TEST(Sema, NonAffineIndices) {
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i,j) = A(i * j) }"),
            "1:40: non-affine index expression 'i * j': indices may only be multiplied by "
            "constants");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = A(i / 2) }"),
            "1:38: non-affine index expression 'i / 2': division is not allowed in an index");
  EXPECT_EQ(semaError("def f(int8(4) A, int32(4) P) -> (C) { C(i) = A(P(i)) }"),
            "1:48: non-affine index expression: tensor 'P' used inside an index (indirect access "
            "is not supported)");
  EXPECT_EQ(semaError("def f(int8(4) A, int32 p) -> (C) { C(i) = A(i + p) }"),
            "1:49: non-affine index expression: tensor 'p' used inside an index (indirect access "
            "is not supported)");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = A(exp(i)) }"),
            "1:36: non-affine index expression: call to 'exp' inside an index");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = A(g(i)) }"),
            "1:36: non-affine index expression: call to unknown function 'g' inside an index");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = A(0.5) }"),
            "1:36: index expressions must be integers, found '0.5'");
  // Products with a constant on either side are affine.
  EXPECT_NO_THROW(analyzeText("def f(int8(9) A) -> (C) { C(i) = A(2 * i) + A(i * 2) }"));
}

TEST(Sema, RangeBoundErrors) {
  EXPECT_EQ(semaError("def f(int8(4,4) A) -> (C) { C(i) +=! A(i,j) where j in 0:i }"),
            "1:58: range bounds may use sizes and integers only; 'i' is an index (ranges that "
            "depend on other indices, as in triangular loops, are not supported)");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = A(i) where i in 0:2.5 }"),
            "1:52: range bounds must be integers, found '2.5'");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = A(i) where i in 0:A(0) }"),
            "1:52: range bounds may use sizes and integers only");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = A(i) where i in 0:4 / 0 }"),
            "1:54: division by zero in a range bound");
  EXPECT_EQ(semaError("def f(int8(4) A) -> (C) { C(i) = A(i) where i in 0:2147483648 }"),
            "1:50: range i in 0:2147483648 is too large (limit 2147483647)");
  EXPECT_EQ(
      semaError("def f(int8(M) A) -> (C) { C(i) = A(i) where M in 0:2 }", withSizes({{"M", 4}})),
      "1:45: 'M' is a size, not an index");
}

TEST(Sema, AnalyzeRejectsAnEmptyModule) {
  auto file = test::source("");
  EXPECT_EQ(test::errorOf([&] { analyze(Module{}, file); }), "the file defines no function");
}

} // namespace
} // namespace rubick::tc
