// SPDX-License-Identifier: Apache-2.0
// Parser: every construct of the grammar in Parser.h, precedence, where-clauses, several defs,
// outputs with and without type or shape. Trees are compared through a small s-expression
// rendering written here, independent of the printer.

#include "rubick/frontend/Parser.h"

#include "tc_test_util.h"

#include <gtest/gtest.h>

namespace rubick::tc {
namespace {

using test::errorOf;
using test::parseText;

std::string sexpr(const Expr& e) {
  auto list = [&](const std::string& head) {
    std::string s = "(" + head;
    for (const Expr& a : e.args)
      s += " " + sexpr(a);
    return s + ")";
  };
  switch (e.kind) {
  case Expr::Kind::IntLit:
    return std::to_string(e.intValue);
  case Expr::Kind::FloatLit:
    return "f:" + e.text;
  case Expr::Kind::Name:
    return e.name;
  case Expr::Kind::Access:
  case Expr::Kind::Call:
    return list("@" + e.name);
  case Expr::Kind::Neg:
    return list("neg");
  case Expr::Kind::Add:
    return list("+");
  case Expr::Kind::Sub:
    return list("-");
  case Expr::Kind::Mul:
    return list("*");
  case Expr::Kind::Div:
    return list("/");
  }
  return "?";
}

// The right-hand side of `x = <expr>` inside a minimal def.
std::string rhs(const std::string& expr) {
  Module m = parseText("def f() -> (x) { x = " + expr + " }");
  return sexpr(m.defs.at(0).stmts.at(0).rhs);
}

std::string parseError(const std::string& text) {
  return errorOf([&] { parseText(text); });
}

TEST(Parser, Gemm) {
  Module m = parseText("def gemm(int8(M,K) A, int8(K,N) B) -> (C) {\n"
                       "    C(i,j) +=! A(i,k) * B(k,j)\n"
                       "}\n");
  ASSERT_EQ(m.defs.size(), 1u);
  const Def& d = m.defs[0];
  EXPECT_EQ(d.name.name, "gemm");
  EXPECT_EQ(d.name.loc, (SourceLoc{1, 5}));
  ASSERT_EQ(d.inputs.size(), 2u);
  EXPECT_EQ(d.inputs[0].name.name, "A");
  EXPECT_EQ(d.inputs[0].type, ScalarType::Int8);
  ASSERT_TRUE(d.inputs[0].shape.has_value());
  ASSERT_EQ(d.inputs[0].shape->size(), 2u);
  EXPECT_EQ((*d.inputs[0].shape)[0].symbol, "M");
  EXPECT_EQ((*d.inputs[0].shape)[1].symbol, "K");
  EXPECT_EQ((*d.inputs[1].shape)[0].symbol, "K");
  ASSERT_EQ(d.outputs.size(), 1u);
  EXPECT_EQ(d.outputs[0].name.name, "C");
  EXPECT_FALSE(d.outputs[0].type.has_value());
  EXPECT_FALSE(d.outputs[0].shape.has_value());
  ASSERT_EQ(d.stmts.size(), 1u);
  const Stmt& s = d.stmts[0];
  EXPECT_EQ(s.lhs.name, "C");
  ASSERT_EQ(s.lhsIndices.size(), 2u);
  EXPECT_EQ(s.lhsIndices[0].name, "i");
  EXPECT_EQ(s.lhsIndices[1].name, "j");
  EXPECT_EQ(s.lhsIndices[1].loc, (SourceLoc{2, 9}));
  EXPECT_EQ(s.op, AssignOp::PlusEqBang);
  EXPECT_EQ(s.opLoc, (SourceLoc{2, 12}));
  EXPECT_EQ(sexpr(s.rhs), "(* (@A i k) (@B k j))");
  EXPECT_TRUE(s.where.empty());
  EXPECT_TRUE(m.sizeDefaults.empty());
}

TEST(Parser, Precedence) {
  EXPECT_EQ(rhs("a + b * c"), "(+ a (* b c))");
  EXPECT_EQ(rhs("a * b + c"), "(+ (* a b) c)");
  EXPECT_EQ(rhs("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(rhs("a - (b - c)"), "(- a (- b c))");
  EXPECT_EQ(rhs("a / b * c"), "(* (/ a b) c)");
  EXPECT_EQ(rhs("a / (b * c)"), "(/ a (* b c))");
  EXPECT_EQ(rhs("(a + b) * c"), "(* (+ a b) c)");
  EXPECT_EQ(rhs("-a * b"), "(* (neg a) b)");
  EXPECT_EQ(rhs("-(a * b)"), "(neg (* a b))");
  EXPECT_EQ(rhs("--a"), "(neg (neg a))");
  EXPECT_EQ(rhs("a - -b"), "(- a (neg b))");
  EXPECT_EQ(rhs("a * -b"), "(* a (neg b))");
  EXPECT_EQ(rhs("((a))"), "a");
  EXPECT_EQ(rhs("1 + 2 * 3 - 4 / 5"), "(- (+ 1 (* 2 3)) (/ 4 5))");
}

TEST(Parser, LiteralsCallsAndAccesses) {
  EXPECT_EQ(rhs("7"), "7");
  EXPECT_EQ(rhs("1.5e-3f"), "f:1.5e-3f");
  EXPECT_EQ(rhs("exp(A(i) - m(i))"), "(@exp (- (@A i) (@m i)))");
  EXPECT_EQ(rhs("max(a, 0)"), "(@max a 0)");
  EXPECT_EQ(rhs("f()"), "(@f)");
  EXPECT_EQ(rhs("A(2*i + r, K - 1 - k)"), "(@A (+ (* 2 i) r) (- (- K 1) k))");
}

TEST(Parser, EveryAssignmentOperator) {
  struct Case {
    const char* op;
    AssignOp want;
  } cases[] = {{"=", AssignOp::Assign},        {"+=", AssignOp::PlusEq},
               {"+=!", AssignOp::PlusEqBang},  {"*=", AssignOp::StarEq},
               {"*=!", AssignOp::StarEqBang},  {"max=", AssignOp::MaxEq},
               {"max=!", AssignOp::MaxEqBang}, {"min=", AssignOp::MinEq},
               {"min=!", AssignOp::MinEqBang}};
  for (const Case& c : cases) {
    Module m = parseText(std::string("def f() -> (x) { x(i) ") + c.op + " y(i) }");
    EXPECT_EQ(m.defs[0].stmts[0].op, c.want) << c.op;
  }
}

TEST(Parser, DeclarationForms) {
  Module m = parseText("def f(int8(M, 4) A, int32 s, int16() t, float(N) x, half h, double(2) d,"
                       " int64(K) q)"
                       " -> (C, int32 D, int32(M,N) E, float16() F) { C(i) = A(i, 0) }");
  const Def& d = m.defs[0];
  ASSERT_EQ(d.inputs.size(), 7u);
  const auto& a = *d.inputs[0].shape;
  EXPECT_EQ(a[0].symbol, "M");
  EXPECT_EQ(a[1].symbol, "");
  EXPECT_EQ(a[1].value, 4);
  // `int32 s` and `int16() t` are both scalars: a present, empty shape.
  ASSERT_TRUE(d.inputs[1].shape.has_value());
  EXPECT_TRUE(d.inputs[1].shape->empty());
  ASSERT_TRUE(d.inputs[2].shape.has_value());
  EXPECT_TRUE(d.inputs[2].shape->empty());
  EXPECT_EQ(d.inputs[1].type, ScalarType::Int32);
  EXPECT_EQ(d.inputs[2].type, ScalarType::Int16);
  EXPECT_EQ(d.inputs[3].type, ScalarType::Float32);
  EXPECT_EQ(d.inputs[4].type, ScalarType::Float16);
  EXPECT_EQ(d.inputs[5].type, ScalarType::Float64);
  EXPECT_EQ(d.inputs[6].type, ScalarType::Int64);
  ASSERT_EQ(d.outputs.size(), 4u);
  EXPECT_FALSE(d.outputs[0].type);
  EXPECT_FALSE(d.outputs[0].shape);
  EXPECT_EQ(d.outputs[1].type, ScalarType::Int32);
  EXPECT_FALSE(d.outputs[1].shape); // type without shape: the shape is inferred
  EXPECT_EQ(d.outputs[2].shape->size(), 2u);
  EXPECT_TRUE(d.outputs[3].shape->empty());
}

TEST(Parser, OutputNamesThatLookLikeTypes) {
  // A bare name is a name even when it starts like a type.
  Module m = parseText("def f(int8(N) A) -> (intensity, float_out) { intensity(i) = A(i)"
                       " float_out(i) = A(i) }");
  EXPECT_EQ(m.defs[0].outputs[0].name.name, "intensity");
  EXPECT_EQ(m.defs[0].outputs[1].name.name, "float_out");
  EXPECT_EQ(parseError("def f(int8(N) A) -> (intt C) { C(i) = A(i) }"),
            "unknown type 'intt' (supported: int8, int16, int32, int64, float16/half, "
            "float32/float, float64/double)");
}

TEST(Parser, EmptyParameterAndOutputLists) {
  Module m = parseText("def f() -> () { }");
  EXPECT_TRUE(m.defs[0].inputs.empty());
  EXPECT_TRUE(m.defs[0].outputs.empty());
  EXPECT_TRUE(m.defs[0].stmts.empty());
}

TEST(Parser, StatementsNeedNoSeparators) {
  Module m = parseText("def f(int8(N) A) -> (B, C) { B(i) = A(i) C(i) = B(i) + 1\n"
                       "  s = B(0)  t() = s }");
  const auto& st = m.defs[0].stmts;
  ASSERT_EQ(st.size(), 4u);
  EXPECT_EQ(sexpr(st[0].rhs), "(@A i)");
  EXPECT_EQ(sexpr(st[1].rhs), "(+ (@B i) 1)");
  EXPECT_EQ(st[2].lhs.name, "s");
  EXPECT_TRUE(st[2].lhsIndices.empty());
  EXPECT_EQ(st[3].lhs.name, "t");
  EXPECT_TRUE(st[3].lhsIndices.empty());
  EXPECT_EQ(sexpr(st[3].rhs), "s");
}

TEST(Parser, WhereClauses) {
  Module m = parseText("def f(int8(N) A) -> (B) {\n"
                       "  B(i) +=! A(i + k) where i in 0:N - 2, k in -1:(K + 1) / 2\n"
                       "  B(i) += A(i) where i in 0:N\n"
                       "}");
  const auto& st = m.defs[0].stmts;
  ASSERT_EQ(st.size(), 2u);
  ASSERT_EQ(st[0].where.size(), 2u);
  EXPECT_EQ(st[0].where[0].index.name, "i");
  EXPECT_EQ(st[0].where[0].index.loc, (SourceLoc{2, 27}));
  EXPECT_EQ(sexpr(st[0].where[0].lo), "0");
  EXPECT_EQ(sexpr(st[0].where[0].hi), "(- N 2)");
  EXPECT_EQ(st[0].where[1].index.name, "k");
  EXPECT_EQ(sexpr(st[0].where[1].lo), "(neg 1)");
  EXPECT_EQ(sexpr(st[0].where[1].hi), "(/ (+ K 1) 2)");
  ASSERT_EQ(st[1].where.size(), 1u);
  EXPECT_EQ(sexpr(st[1].where[0].hi), "N");
}

TEST(Parser, SeveralDefsAndSizeDirectives) {
  Module m = parseText("# rubick: size M=4, N=8\n"
                       "def a(int8(M) X) -> (Y) { Y(i) = X(i) }\n"
                       "// rubick: size K=2\n"
                       "def b(int8(K) X) -> (Y) { Y(i) = -X(i) }\n");
  ASSERT_EQ(m.defs.size(), 2u);
  EXPECT_EQ(m.defs[0].name.name, "a");
  EXPECT_EQ(m.defs[1].name.name, "b");
  ASSERT_EQ(m.sizeDefaults.size(), 3u);
  EXPECT_EQ(m.sizeDefaults[0].name, "M");
  EXPECT_EQ(m.sizeDefaults[0].value, 4);
  EXPECT_EQ(m.sizeDefaults[0].loc, (SourceLoc{1, 16}));
  EXPECT_EQ(m.sizeDefaults[1].name, "N");
  EXPECT_EQ(m.sizeDefaults[1].value, 8);
  EXPECT_EQ(m.sizeDefaults[2].name, "K");
  EXPECT_EQ(m.sizeDefaults[2].loc, (SourceLoc{3, 17}));
}

TEST(Parser, ExpressionDepthLimit) {
  auto nested = [](int n) {
    return "def f() -> (x) { x = " + std::string(n, '(') + "1" + std::string(n, ')') + " }";
  };
  auto chain = [](int n) {
    std::string e = "1";
    for (int i = 0; i < n; ++i)
      e += " + 1";
    return "def f() -> (x) { x = " + e + " }";
  };
  auto negs = [](int n) { return "def f() -> (x) { x = " + std::string(n, '-') + "1 }"; };
  const std::string tooDeep = "expression is too long or too deeply nested (more than " +
                              std::to_string(kMaxExprDepth) +
                              " levels); split it into several statements";
  EXPECT_NO_THROW(parseText(nested(kMaxExprDepth)));
  EXPECT_EQ(parseError(nested(kMaxExprDepth + 1)), tooDeep);
  EXPECT_NO_THROW(parseText(chain(kMaxExprDepth)));
  EXPECT_EQ(parseError(chain(kMaxExprDepth + 1)), tooDeep);
  EXPECT_NO_THROW(parseText(negs(kMaxExprDepth)));
  EXPECT_EQ(parseError(negs(kMaxExprDepth + 1)), tooDeep);
}

TEST(Parser, SyntaxErrors) {
  EXPECT_EQ(parseError(""), "the file defines no function (expected 'def')");
  EXPECT_EQ(parseError("# only a comment\n"), "the file defines no function (expected 'def')");
  EXPECT_EQ(parseError("gemm()"), "expected 'def', found 'gemm'");
  EXPECT_EQ(parseError("def f() -> (x) { x = 1 } 42"), "expected 'def', found '42'");
  EXPECT_EQ(parseError("def 1"), "expected a function name after 'def', found '1'");
  EXPECT_EQ(parseError("def f(A) -> (x) {}"),
            "parameter 'A' needs a type and shape, such as int8(M,K) A");
  EXPECT_EQ(parseError("def f() (x) {}"), "expected '->' after the parameter list, found '('");
  EXPECT_EQ(parseError("def f() -> x {}"), "expected '(' to open the output list, found 'x'");
  EXPECT_EQ(parseError("def f() -> (x {}"), "expected ')' to close the output list, found '{'");
  EXPECT_EQ(parseError("def f() -> (x) x = 1"),
            "expected '{' to open the function body, found 'x'");
  EXPECT_EQ(parseError("def f() -> (x) { x = 1"),
            "expected '}' to close the body of 'f', found end of file");
  EXPECT_EQ(parseError("def f() -> (x) { x = 1 def g() -> (y) { y = 1 }"),
            "expected '}' to close the body of 'f', found 'def'");
  EXPECT_EQ(parseError("def f(int8(M) where) -> (x) {}"),
            "expected a parameter name, found keyword 'where'");
  EXPECT_EQ(parseError("def f(int8(in) A) -> (x) {}"), "expected a size name, found keyword 'in'");
  EXPECT_EQ(parseError("def f() -> (def) {}"), "expected an output name, found keyword 'def'");
  EXPECT_EQ(parseError("def f() -> (x) { x(where) = 1 }"),
            "expected an index name, found keyword 'where'");
  EXPECT_EQ(parseError("def f() -> (x) { x = in }"), "expected an expression, found keyword 'in'");
  EXPECT_EQ(parseError("def f() -> (x) { where i in 0:4 }"), "'where' must follow a statement");
  EXPECT_EQ(parseError("def f() -> (x) { x(i) = 1 where i in 0:4 where j in 0:2 }"),
            "a statement has at most one 'where'; separate its ranges with ','");
  EXPECT_EQ(parseError("def f() -> (x) { x(i) = 1 where i 0:4 }"),
            "expected 'in' after the index name, found '0'");
  EXPECT_EQ(parseError("def f() -> (x) { x(i) = 1 where i in 0 4 }"),
            "expected ':' between the bounds of the range (lo:hi), found '4'");
  EXPECT_EQ(parseError("def f() -> (x) { x(i + 1) = 1 }"),
            "expected ')' or ',' in the left-hand side (indices there must be plain index names), "
            "found '+'");
  EXPECT_EQ(parseError("def f() -> (x) { x(i) 1 }"),
            "expected an assignment operator (=, +=, +=!, *=, *=!, max=, max=!, min=, min=!), "
            "found '1'");
  EXPECT_EQ(parseError("def f() -> (x) { x = (1 }"), "expected ')' to close '(', found '}'");
  EXPECT_EQ(parseError("def f() -> (x) { x = A(1 }"),
            "expected ')' to close the argument list of 'A', found '}'");
  EXPECT_EQ(parseError("def f(int8(M + 1) A) -> (x) {}"),
            "expected ')' to close the shape, found '+'");
  EXPECT_EQ(parseError("def f(int8(-1) A) -> (x) {}"),
            "expected a size name or integer in the shape, found '-'");
}

TEST(Parser, ErrorLocationsPointAtTheOffendingToken) {
  try {
    parseText("def f() -> (x) {\n  x(i) = 1 +\n}");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.diag().loc, (SourceLoc{3, 1}));
    EXPECT_EQ(e.diag().message, "expected an expression, found '}'");
  }
  try {
    parseText("def f() -> (x) { x = 1 } junk");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.diag().loc, (SourceLoc{1, 26}));
    EXPECT_EQ(e.diag().length, 4u);
  }
}

} // namespace
} // namespace rubick::tc
