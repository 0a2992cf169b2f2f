// SPDX-License-Identifier: Apache-2.0
// `# rubick: size M=64, N=64` and `# rubick: fixed exp_frac=F` comments, and --size lists.

#include "rubick/frontend/SizeDirective.h"

#include "rubick/frontend/AstEqual.h"
#include "rubick/frontend/Printer.h"

#include "tc_test_util.h"

#include <gtest/gtest.h>

namespace rubick::tc {
namespace {

using test::errorOf;
using test::parseText;

std::string list(const std::vector<SizeDefault>& sizes) {
  std::string s;
  for (const SizeDefault& d : sizes)
    s += (s.empty() ? "" : " ") + d.name + "=" + std::to_string(d.value);
  return s;
}

std::string cmdline(const std::string& text) {
  return list(parseSizeList(text, "--size", nullptr, {}));
}

std::string cmdlineError(const std::string& text) {
  return errorOf([&] { parseSizeList(text, "--size", nullptr, {}); });
}

std::string directiveError(const std::string& text) {
  return errorOf([&] { parseText(text + "\ndef f() -> (x) { x = 1 }"); });
}

TEST(SizeDirective, Forms) {
  auto sizes = [](const std::string& comments) {
    return list(parseText(comments + "\ndef f() -> (x) { x = 1 }").sizeDefaults);
  };
  EXPECT_EQ(sizes("# rubick: size M=64, N=32"), "M=64 N=32");
  EXPECT_EQ(sizes("// rubick: size K=3"), "K=3");
  EXPECT_EQ(sizes("#rubick:size A=1 B=2,C=3 ,, D = 4"), "A=1 B=2 C=3 D=4");
  EXPECT_EQ(sizes("# rubick: size M=1\n# rubick: size N=2"), "M=1 N=2");
  EXPECT_EQ(sizes("# rubick: size M=0007"), "M=7");
  EXPECT_EQ(sizes("# rubick: size M=2147483647"), "M=2147483647");
  // Other comments, including ones that mention rubick, are ignored.
  EXPECT_EQ(sizes("# rubick makes hardware\n# size M=4\n#  see rubick: size"), "");
}

TEST(SizeDirective, Locations) {
  Module m = parseText("def f() -> (x) { x = 1 } # rubick: size  M=4,  NB=8");
  ASSERT_EQ(m.sizeDefaults.size(), 2u);
  EXPECT_EQ(m.sizeDefaults[0].loc, (SourceLoc{1, 42}));
  EXPECT_EQ(m.sizeDefaults[1].loc, (SourceLoc{1, 48}));
}

TEST(SizeDirective, Errors) {
  EXPECT_EQ(directiveError("# rubick: size"), "expected at least one size, such as M=64");
  EXPECT_EQ(directiveError("# rubick: size , ,"), "expected at least one size, such as M=64");
  EXPECT_EQ(directiveError("# rubick: size 4=M"), "expected a size name (such as M=64), found '4'");
  EXPECT_EQ(directiveError("# rubick: size M"), "expected '=' and a value after size 'M'");
  EXPECT_EQ(directiveError("# rubick: size M=x"), "size 'M' needs an integer value, found 'x'");
  EXPECT_EQ(directiveError("# rubick: size M="), "size 'M' needs an integer value, found ''");
  EXPECT_EQ(directiveError("# rubick: size M=4k"), "size 'M' needs an integer value, found '4k'");
  EXPECT_EQ(directiveError("# rubick: size M=2.5"), "size 'M' needs an integer value, found '2.5'");
  EXPECT_EQ(directiveError("# rubick: size M=0"), "size M=0 must be positive");
  EXPECT_EQ(directiveError("# rubick: size M=-3"), "size M=-3 must be positive");
  EXPECT_EQ(directiveError("# rubick: size M=2147483648"),
            "size M=2147483648 is too large (limit 2147483647)");
  EXPECT_EQ(directiveError("# rubick: size M=99999999999999999999999"),
            "size M=99999999999999999999999 is too large (limit 2147483647)");
  EXPECT_EQ(directiveError("# rubick: size M=4, M=4"), "size 'M' is given twice");
  EXPECT_EQ(directiveError("# rubick: size M=4\n# rubick: size M=5"), "size 'M' is given twice");
  EXPECT_EQ(directiveError("# rubick: sizes M=4"),
            "unknown rubick directive 'sizes' (known: size, fixed)");
  EXPECT_EQ(directiveError("# rubick:"), "unknown rubick directive '' (known: size, fixed)");
}

TEST(FixedDirective, Forms) {
  const std::string body = "\ndef f() -> (x) { x = 1 }";
  auto frac = [&](const std::string& comments) { return parseText(comments + body).expFrac; };
  EXPECT_EQ(frac(""), std::nullopt);
  EXPECT_EQ(frac("# rubick: fixed exp_frac=8"), 8);
  EXPECT_EQ(frac("// rubick: fixed exp_frac = 0"), 0);
  EXPECT_EQ(frac("#rubick:fixed ,exp_frac=024,"), 24);
  EXPECT_EQ(frac("# rubick: size M=4\n# rubick: fixed exp_frac=16\n# rubick: size N=2"), 16);
  // Sema carries it into the program, with 12 when the file says nothing.
  EXPECT_EQ(test::analyzeText("def f() -> (x) { x = 1 }").expFrac, 12);
  EXPECT_EQ(test::analyzeText("# rubick: fixed exp_frac=3" + body).expFrac, 3);
  // The printer writes it back, so a printed program parses to the same tree.
  Module m = parseText("# rubick: fixed exp_frac=9" + body);
  std::string printed = print(m);
  EXPECT_NE(printed.find("# rubick: fixed exp_frac=9\n"), std::string::npos) << printed;
  EXPECT_TRUE(sameTree(m, parseText(printed)));
  EXPECT_FALSE(sameTree(m, parseText("# rubick: fixed exp_frac=10" + body)));
  EXPECT_FALSE(sameTree(m, parseText(body)));
}

TEST(FixedDirective, Errors) {
  EXPECT_EQ(directiveError("# rubick: fixed"),
            "expected a fixed-point setting, such as exp_frac=12");
  EXPECT_EQ(directiveError("# rubick: fixed 12"),
            "expected a fixed-point setting (such as exp_frac=12), found '1'");
  EXPECT_EQ(directiveError("# rubick: fixed frac=12"),
            "unknown fixed-point setting 'frac' (known: exp_frac)");
  EXPECT_EQ(directiveError("# rubick: fixed exp_frac"),
            "expected '=' and a value after 'exp_frac'");
  EXPECT_EQ(directiveError("# rubick: fixed exp_frac=x"),
            "exp_frac needs an integer value, found 'x'");
  EXPECT_EQ(directiveError("# rubick: fixed exp_frac=1.5"),
            "exp_frac needs an integer value, found '1.5'");
  EXPECT_EQ(directiveError("# rubick: fixed exp_frac=25"), "exp_frac=25 is out of range (0..24)");
  EXPECT_EQ(directiveError("# rubick: fixed exp_frac=-1"), "exp_frac=-1 is out of range (0..24)");
  EXPECT_EQ(directiveError("# rubick: fixed exp_frac=99999999999999999999"),
            "exp_frac=99999999999999999999 is out of range (0..24)");
  EXPECT_EQ(directiveError("# rubick: fixed exp_frac=8, exp_frac=8"), "exp_frac is given twice");
  EXPECT_EQ(directiveError("# rubick: fixed exp_frac=8\n# rubick: fixed exp_frac=9"),
            "exp_frac is given twice");
}

TEST(FixedDirective, Locations) {
  try {
    parseText(
        "# rubick: fixed exp_frac=8\n// rubick: fixed  exp_frac=30\ndef f() -> (x) { x = 1 }");
    FAIL();
  } catch (const Error& e) {
    // Line 2: "// rubick: fixed  exp_frac=30", the value starts at column 28.
    EXPECT_EQ(e.diag().loc, (SourceLoc{2, 28}));
    EXPECT_EQ(e.diag().length, 2u);
  }
  try {
    parseText("# rubick: fixed exp_frac=8\n# rubick: fixed exp_frac=9\ndef f() -> (x) { x = 1 }");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.diag().loc, (SourceLoc{2, 17}));
    ASSERT_EQ(e.diag().notes.size(), 1u);
    EXPECT_EQ(e.diag().notes[0].loc, (SourceLoc{1, 17}));
  }
}

TEST(SizeDirective, CommandLineLists) {
  EXPECT_EQ(cmdline("M=64,N=32"), "M=64 N=32");
  EXPECT_EQ(cmdline("M=1 N=2"), "M=1 N=2");
  EXPECT_EQ(cmdlineError(""), "expected at least one size, such as M=64");
  EXPECT_EQ(cmdlineError("M=-1"), "size M=-1 must be positive");
  EXPECT_EQ(cmdlineError("M=1,M=2"), "size 'M' is given twice");
  try {
    parseSizeList("M=0", "--size", nullptr, {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.origin(), "--size");
    EXPECT_FALSE(e.diag().loc.valid());
  }
}

TEST(SizeDirective, ManyDirectivesAndALateDuplicate) {
  // 30000 sizes on as many lines, then a1 again on line 30001: the note points at line 2.
  // (Duplicates are found with a map; a scan of the earlier sizes made this quadratic.)
  std::string text;
  for (int k = 0; k < 30'000; ++k)
    text += "# rubick: size a" + std::to_string(k) + "=" + std::to_string(k + 1) + "\n";
  Module m = parseText(text + "def f() -> (x) { x = 1 }");
  ASSERT_EQ(m.sizeDefaults.size(), 30'000u);
  EXPECT_EQ(m.sizeDefaults.back().name, "a29999");
  EXPECT_EQ(m.sizeDefaults.back().value, 30'000);
  try {
    parseText(text + "# rubick: size a1=7\ndef f() -> (x) { x = 1 }");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.diag().message, "size 'a1' is given twice");
    EXPECT_EQ(e.diag().loc, (SourceLoc{30'001, 16}));
    ASSERT_EQ(e.diag().notes.size(), 1u);
    EXPECT_EQ(e.diag().notes[0].loc, (SourceLoc{2, 16}));
  }
}

} // namespace
} // namespace rubick::tc
