// SPDX-License-Identifier: Apache-2.0
// Printer: the printed text parses back to the same tree (for every example and many hand-written
// programs), printing is idempotent, and the output uses the fewest parentheses.

#include "rubick/frontend/AstEqual.h"
#include "rubick/frontend/Printer.h"

#include "tc_test_util.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace rubick::tc {
namespace {

using test::parseText;

void expectRoundTrip(const std::string& text) {
  Module m = parseText(text);
  std::string printed = print(m);
  Module again;
  ASSERT_NO_THROW(again = parseText(printed)) << printed;
  std::string why;
  EXPECT_TRUE(sameTree(m, again, &why)) << why << "\n--- source\n"
                                        << text << "\n--- printed\n"
                                        << printed;
  EXPECT_EQ(print(again), printed);
}

std::string printedRhs(const std::string& expr) {
  return print(parseText("def f() -> (x) { x = " + expr + " }").defs[0].stmts[0].rhs);
}

TEST(Printer, RoundTripsEveryExample) {
  int seen = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(RUBICK_SOURCE_DIR) + "/examples")) {
    if (entry.path().extension() != ".tc") continue;
    SCOPED_TRACE(entry.path().string());
    expectRoundTrip(readSourceFile(entry.path().string()).text());
    ++seen;
  }
  EXPECT_GE(seen, 6);
}

TEST(Printer, RoundTripsHandWrittenPrograms) {
  const char* programs[] = {
      "def f(int8(M) A) -> (B) { B(i) = A(i) }",
      "def f(int8(M,K) A, int8(K,N) B) -> (C) { C(i,j) +=! A(i,k) * B(k,j) }",
      "def f(int8(M) A) -> (int32 B) { B(i) += A(i) }",
      "def f(int8(M) A) -> (int32(M) B) { B(i) *=! A(i) B(i) *= 2 }",
      "def f(int8(M,N) A) -> (B) { B(i) max=! A(i,j) B(i) max= 0 }",
      "def f(int8(M,N) A) -> (B) { B(i) min=! A(i,j) B(i) min= 127 }",
      "def f(int8(M) A, int32 s) -> (B) { B(i) = A(i) * s }",
      "def f(int8() s, int8(4, M) A) -> (B) { B(i) = A(0, i) + s }",
      "def f(float(N) x) -> (y) { y(i) = exp(-x(i)) / (1.0 + exp(-x(i))) }",
      "def f(half(N) x, double(N) z) -> (y) { y(i) = abs(x(i)) - max(z(i), 0.5f) * min(1e3, 2.) }",
      "def f(int8(N) I, int8(R) W) -> (O) { O(h) +=! I(h + r) * W(r) }",
      "def f(int8(N) I) -> (O) { O(i) = I(2*i + 1) - I(N - 1 - i) where i in 0:N/2 - 1 }",
      "def f(int8(N) I) -> (O) { O(i) = I(i) where i in -(-0):(N + 1) / 2 * 2 - 1 }",
      "def f(int8(N) A) -> (O) { O(i) = a - (b - c) - (d - e) * (f / (g * h)) where i in 0:N }",
      "def f(int8(N) A) -> (O) { O(i) = --A(i) - -A(i) * -(A(i) + 1) }",
      "def f(int8(N) A) -> (O) { O(i) = ((((A(i))))) }",
      "def f(int8(N) A) -> (O) { s = A(0) t() = s O(i) = A(i) + t }",
      "def f(int8(N) A) -> (O, P) { O(i) = A(i) P(i) = O(i) * O(i) }",
      "def f() -> () { }",
      "def f(int8(N) A) -> (O) { O(i) = 007 + 9223372036854775807 }",
      "# rubick: size N=4, M=2\ndef f(int8(N) A) -> (O) { O(i) = A(i) }",
      ("// rubick: size N=4\n# rubick: size M=2\ndef f(int8(N) A) -> (O) { O(i) = A(i) }\n"
       "def g(int8(M) A) -> (O) { O(i) = A(i) }\n"),
      "def f(int8(N) A) -> (O) { O(i) +=! A(i + j) where j in 0:2, i in 0:N - 1 }",
      "def intensity(int8(N) A) -> (intensity_out) { intensity_out(i) = A(i) }",
      "def f(int8(N,N) A) -> (O) { O(i, j) = A(j, i) }\n\n# trailing comment",
  };
  for (const char* p : programs) {
    SCOPED_TRACE(p);
    expectRoundTrip(p);
  }
}

TEST(Printer, ExactText) {
  EXPECT_EQ(print(parseText("# rubick: size M=4,N=2\n"
                            "def   f(int8(M,4) A,int32 s)->(C,int32(M) D){C(i)+=!A(i)*s\n"
                            "D(i)=A(i)where i in 0:M}")),
            "# rubick: size M=4, N=2\n"
            "def f(int8(M,4) A, int32() s) -> (C, int32(M) D) {\n"
            "    C(i) +=! A(i) * s\n"
            "    D(i) = A(i) where i in 0:M\n"
            "}\n");
  // Type names print canonically.
  EXPECT_EQ(print(parseText("def f(float(N) a, half b, double c) -> (y) { y = 1 }")),
            "def f(float32(N) a, float16() b, float64() c) -> (y) {\n    y() = 1\n}\n");
}

TEST(Printer, FewestParentheses) {
  EXPECT_EQ(printedRhs("(a + b) + c"), "a + b + c");
  EXPECT_EQ(printedRhs("a + (b + c)"), "a + (b + c)");
  EXPECT_EQ(printedRhs("a - (b - c)"), "a - (b - c)");
  EXPECT_EQ(printedRhs("(a * b) + (c / d)"), "a * b + c / d");
  EXPECT_EQ(printedRhs("a / (b * c)"), "a / (b * c)");
  EXPECT_EQ(printedRhs("(a / b) * c"), "a / b * c");
  EXPECT_EQ(printedRhs("-(a * b)"), "-(a * b)");
  EXPECT_EQ(printedRhs("(-a) * b"), "-a * b");
  EXPECT_EQ(printedRhs("-(-a)"), "--a");
  EXPECT_EQ(printedRhs("f((a), ((b + c)))"), "f(a, b + c)");
  EXPECT_EQ(printedRhs("1.50"), "1.50");
}

TEST(Printer, SameTreeSeesDifferences) {
  auto differ = [](const std::string& a, const std::string& b) {
    std::string why;
    bool same = sameTree(parseText(a), parseText(b), &why);
    return same ? std::string("same") : why;
  };
  EXPECT_EQ(differ("def f() -> (x) { x = 1 }", "def f() -> (x) {\n  x = 1\n}"), "same");
  EXPECT_EQ(differ("def f() -> (x) { x = 1 }", "def g() -> (x) { x = 1 }"), "def 0: name differs");
  EXPECT_EQ(differ("def f() -> (x) { x = 1 }", "def f() -> (x) { x = 2 }"),
            "def 0: stmt 0: right-hand side differs");
  EXPECT_EQ(differ("def f() -> (x) { x = 1.0 }", "def f() -> (x) { x = 1. }"),
            "def 0: stmt 0: right-hand side differs");
  EXPECT_EQ(differ("def f() -> (x) { x += 1 }", "def f() -> (x) { x +=! 1 }"),
            "def 0: stmt 0: operator differs");
  EXPECT_EQ(differ("def f(int8(M) A) -> (x) { x = 1 }", "def f(int8(N) A) -> (x) { x = 1 }"),
            "def 0: inputs differ");
  EXPECT_EQ(differ("def f() -> (x) { x = 1 }", "def f() -> (int8 x) { x = 1 }"),
            "def 0: outputs differ");
  EXPECT_EQ(differ("def f() -> (x) { x(i) = 1 where i in 0:2 }",
                   "def f() -> (x) { x(i) = 1 where i in 0:3 }"),
            "def 0: stmt 0: where range 0 differs");
  EXPECT_EQ(differ("# rubick: size M=1\ndef f() -> (x) { x = 1 }",
                   "# rubick: size M=2\ndef f() -> (x) { x = 1 }"),
            "size default 0 differs");
}

} // namespace
} // namespace rubick::tc
