// SPDX-License-Identifier: Apache-2.0
// Hostile inputs: huge expressions, deep nesting at the limit through every pass, and the
// regression inputs found by fuzzing (fuzz/). Each must end in a rubick::Error or a result,
// never a crash.

#include "rubick/frontend/AstEqual.h"
#include "rubick/frontend/Printer.h"
#include "rubick/poly/PolyProgram.h"

#include "tc_test_util.h"

#include <gtest/gtest.h>

#include <functional>

namespace rubick {
namespace {

using test::analyzeText;
using test::errorOf;
using test::parseText;

// What the fuzzer does with one input: parse, round trip, analyze, lower, print.
void wholePipeline(const std::string& text) {
  auto file = test::source(text);
  tc::Module m;
  try {
    m = tc::parse(file);
  } catch (const Error& e) {
    EXPECT_FALSE(formatError(e).empty());
    return;
  }
  tc::Module again = parseText(tc::print(m));
  std::string why;
  EXPECT_TRUE(tc::sameTree(m, again, &why)) << why;
  try {
    poly::IslContext ctx(2'000'000);
    poly::PolyProgram p = poly::lower(ctx, tc::analyze(m, file));
    EXPECT_FALSE(poly::printPoly(p).empty());
  } catch (const Error& e) {
    EXPECT_EQ(e.diag().message.rfind("internal error", 0), std::string::npos) << formatError(e);
  }
}

TEST(Robustness, HugeFlatExpressionIsAnErrorNotAStackOverflow) {
  std::string e = "A(i)";
  for (int k = 0; k < 200000; ++k)
    e += " + A(i)";
  std::string msg = errorOf([&] { parseText("def f(int8(4) A) -> (B) { B(i) = " + e + " }"); });
  EXPECT_EQ(msg.rfind("expression is too long or too deeply nested", 0), 0u) << msg;
  std::string negs(100000, '-');
  msg = errorOf([&] { parseText("def f(int8(4) A) -> (B) { B(i) = " + negs + "A(i) }"); });
  EXPECT_EQ(msg.rfind("expression is too long or too deeply nested", 0), 0u) << msg;
  std::string parens(100000, '(');
  msg = errorOf([&] { parseText("def f(int8(4) A) -> (B) { B(i) = " + parens + "A(i) }"); });
  EXPECT_EQ(msg.rfind("expression is too long or too deeply nested", 0), 0u) << msg;
}

TEST(Robustness, ExpressionsAtTheDepthLimitGoThroughEveryPass) {
  // The deepest accepted shapes: a chain, a tower of negations, nested parentheses around an
  // index expression. For each, the largest accepted n must be close to the limit, and that
  // program must pass sema, lowering and printing.
  using Gen = std::function<std::string(int)>;
  Gen chain = [](int n) {
    std::string e = "A(i)";
    for (int k = 0; k < n; ++k)
      e += " - A(i)";
    return e;
  };
  Gen negs = [](int n) { return std::string(n, '-') + "A(i)"; };
  Gen index = [](int n) {
    std::string e = "i";
    for (int k = 0; k < n; ++k)
      e = "(" + e + ") + 0";
    return "A(" + e + ")";
  };
  for (const Gen& gen : {chain, negs, index}) {
    auto text = [&](int n) { return "def f(int8(4) A) -> (B) { B(i) = " + gen(n) + " }"; };
    int n = tc::kMaxExprDepth;
    while (n > 0 && errorOf([&] { parseText(text(n)); }) != "<no error>")
      --n;
    SCOPED_TRACE(n);
    EXPECT_GE(n, tc::kMaxExprDepth - 2);
    wholePipeline(text(n));
    poly::IslContext ctx;
    EXPECT_NO_THROW(poly::lower(ctx, analyzeText(text(n))));
  }
}

TEST(Robustness, ManyStatementsAndTensors) {
  std::string body;
  std::string prev = "A";
  for (int k = 0; k < 300; ++k) {
    std::string t = "T" + std::to_string(k);
    body += t + "(i) = " + prev + "(i) + 1\n";
    prev = t;
  }
  body += "B(i) = " + prev + "(i)\n";
  std::string text = "# rubick: size N=16\ndef f(int8(N) A) -> (B) {\n" + body + "}";
  poly::IslContext ctx;
  poly::PolyProgram p = poly::lower(ctx, analyzeText(text));
  EXPECT_EQ(p.statements.size(), 301u);
  EXPECT_EQ(p.program.tensors.size(), 302u);
}

// Inputs the fuzzer found (see docs/development.md); each once crashed or misbehaved.
TEST(Robustness, FuzzRegressions) {
  const char* inputs[] = {
      // A 1 + 2^63 - 4 upper bound solved from A(i + c*j) overflowed int64 when made exclusive.
      "def f(int8(4) A) -> (C) { C(j) +=! A(i + 9223372036854775804 * j) where j in -1:0 }",
      // Empty and comment-only files, a lone directive.
      "",
      "#",
      "# rubick: size M=1",
      // Odd but valid programs.
      "def f() -> (x) { x = 1 }",
      "def f(int8(1) A) -> (x) { x = A(0) }",
      "def f(int8(1) A) -> (x) { x(i) = A(i - i) where i in 0:2147483647 }",
      ("def f(int8(2147483647) A) -> (x) { x(i) +=! A(i + j - j) where j in -2147483647:2147483647 "
       "}"),
  };
  for (const char* in : inputs) {
    SCOPED_TRACE(in);
    wholePipeline(in);
  }
}

} // namespace
} // namespace rubick
