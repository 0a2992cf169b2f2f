// SPDX-License-Identifier: Apache-2.0
// Windows (CRLF) and classic Mac (lone CR) line endings and a UTF-8 byte order mark: the same
// program, the same directives and the same error locations as with plain LF.

#include "rubick/frontend/AstEqual.h"
#include "rubick/poly/PolyProgram.h"

#include "tc_test_util.h"

#include <gtest/gtest.h>

namespace rubick {
namespace {

using test::source;

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

const std::string kBom = "\xEF\xBB\xBF";

// The isl model of the only def, with the file's default sizes.
std::string polyDump(const std::string& text) {
  auto file = source(text);
  poly::IslContext ctx;
  return poly::printPoly(poly::lower(ctx, tc::analyze(tc::parse(file), file)));
}

// The error of running `text` through the front end, rendered as the CLI prints it.
std::string rendered(const std::string& text) {
  try {
    polyDump(text);
  } catch (const Error& e) {
    return formatError(e);
  }
  return "<no error>";
}

TEST(LineEndings, GemmParsesToTheSameProgram) {
  std::string lf = test::readExample("gemm.tc");
  ASSERT_EQ(lf.find('\r'), std::string::npos);
  tc::Module want = test::parseText(lf);
  ASSERT_EQ(want.sizeDefaults.size(), 3u); // M, N, K from the `# rubick: size` directive
  std::string wantPoly = polyDump(lf);
  std::string crlf = replaceAll(lf, "\n", "\r\n");
  std::string cr = replaceAll(lf, "\n", "\r");
  for (const std::string& variant : {crlf, kBom + lf, kBom + crlf, cr}) {
    tc::Module got = test::parseText(variant);
    std::string why;
    EXPECT_TRUE(tc::sameTree(want, got, &why)) << why;
    ASSERT_EQ(got.sizeDefaults.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(got.sizeDefaults[i].name, want.sizeDefaults[i].name);
      EXPECT_EQ(got.sizeDefaults[i].value, 64);
      EXPECT_EQ(got.sizeDefaults[i].loc, want.sizeDefaults[i].loc);
    }
    EXPECT_EQ(polyDump(variant), wantPoly);
  }
}

TEST(LineEndings, DirectiveErrorsDoNotSeeTheCarriageReturn) {
  // Before CRLF was understood, the CR after the last size was read as a size name.
  auto directive = [](const std::string& text) {
    return test::errorOf([&] { test::parseText(text); });
  };
  EXPECT_EQ(directive("# rubick: size M=4\r\ndef f() -> (x) { x = 1 }\r\n"), "<no error>");
  EXPECT_EQ(directive("# rubick: fixed exp_frac=3\r\ndef f() -> (x) { x = 1 }\r\n"), "<no error>");
  EXPECT_EQ(directive("# rubick: size M=x\r\ndef f() -> (x) { x = 1 }\r\n"),
            "size 'M' needs an integer value, found 'x'");
}

TEST(LineEndings, ErrorLocationAndCaretInACrlfFile) {
  // Line 3, `  B(i) = Q(i)`: Q is the 10th character.
  std::string text = "# a comment\r\n"
                     "def f(int8(4) A) -> (B) {\r\n"
                     "  B(i) = Q(i)\r\n"
                     "}\r\n";
  EXPECT_EQ(rendered(text), "t.tc:3:10: error: unknown tensor or function 'Q'\n"
                            "      B(i) = Q(i)\n"
                            "             ^\n");
  // The same with a byte order mark: columns on line 1 count from after it.
  EXPECT_EQ(rendered(kBom + "def f(int8(4) A) -> (B) { B(i) = Q(i) }\r\n"),
            "t.tc:1:34: error: unknown tensor or function 'Q'\n"
            "    def f(int8(4) A) -> (B) { B(i) = Q(i) }\n"
            "                                     ^\n");
}

TEST(LineEndings, ALoneCarriageReturnEndsALine) {
  // The comment ends at the CR, so the def on "line 2" is read, and errors count it as a line.
  std::string text = "# comment\rdef f(int8(4) A) -> (B) {\r  B(i) = Q(i)\r}";
  EXPECT_EQ(rendered(text), "t.tc:3:10: error: unknown tensor or function 'Q'\n"
                            "      B(i) = Q(i)\n"
                            "             ^\n");
  SourceFile f("x.tc", "a\rb\r\n\r\nc\n\rd");
  EXPECT_EQ(f.text(), "a\nb\n\nc\n\nd");
  EXPECT_EQ(f.lineCount(), 6u);
  EXPECT_EQ(f.lineText(2), "b");
  EXPECT_EQ(f.lineText(6), "d");
}

TEST(LineEndings, OnlyALeadingByteOrderMarkIsDropped) {
  EXPECT_EQ(SourceFile("x.tc", kBom + "def").text(), "def");
  EXPECT_EQ(SourceFile("x.tc", kBom).text(), "");
  // Elsewhere it is an ordinary (non-ASCII) character: an error outside comments.
  EXPECT_EQ(SourceFile("x.tc", "a" + kBom).text(), "a" + kBom);
  EXPECT_EQ(test::errorOf([&] { test::parseText("def" + kBom); }),
            "unexpected non-ASCII character in source");
}

} // namespace
} // namespace rubick
