// `# rubick: size M=64, N=64` comments and --size lists.

#include "rubick/frontend/SizeDirective.h"

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
  EXPECT_EQ(directiveError("# rubick: size M=0"), "size M=0 must be positive");
  EXPECT_EQ(directiveError("# rubick: size M=-3"), "size M=-3 must be positive");
  EXPECT_EQ(directiveError("# rubick: size M=2147483648"),
            "size M=2147483648 is too large (limit 2147483647)");
  EXPECT_EQ(directiveError("# rubick: size M=99999999999999999999999"),
            "size M=99999999999999999999999 is too large (limit 2147483647)");
  EXPECT_EQ(directiveError("# rubick: size M=4, M=4"), "size 'M' is given twice");
  EXPECT_EQ(directiveError("# rubick: size M=4\n# rubick: size M=5"), "size 'M' is given twice");
  EXPECT_EQ(directiveError("# rubick: sizes M=4"),
            "unknown rubick directive 'sizes' (known: size)");
  EXPECT_EQ(directiveError("# rubick:"), "unknown rubick directive '' (known: size)");
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

} // namespace
} // namespace rubick::tc
