// SPDX-License-Identifier: Apache-2.0
// Hostile input files and text: a 10 MB name, a million functions, empty and binary files, an
// input that never ends. Each must end in a short, printable rubick::Error, never a crash or a
// message as large as the input.

#include "rubick/support/Printable.h"
#include "rubick/support/SourceFile.h"

#include "tc_test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace rubick {
namespace {

using test::errorOf;

std::string rendered(const std::string& text) {
  try {
    test::analyzeText(text);
  } catch (const Error& e) {
    return formatError(e);
  }
  return "<no error>";
}

TEST(RobustnessInput, HugeIdentifierIsCutInTheMessageAndTheQuotedLine) {
  std::string name(10'000'000, 'q');
  std::string out = rendered("def f(int8(4) A) -> (B) { B(i) = " + name + "(i) }");
  // The message names the first 48 characters and the length; the line is a 120-byte window
  // (plus "..."); the caret and underline stop at the end of that window.
  EXPECT_EQ(out.rfind("t.tc:1:34: error: unknown tensor or function '" + std::string(48, 'q') +
                          "...' (10000000 characters)\n",
                      0),
            0u)
      << out.substr(0, 300);
  EXPECT_LT(out.size(), 600u);
}

TEST(RobustnessInput, HugeNumbersAreCutToo) {
  std::string digits(100'000, '9');
  std::string msg = errorOf([&] { test::parseText("def f(int8(" + digits + ") A) -> (B) {}"); });
  EXPECT_EQ(msg,
            "integer literal '" + std::string(48, '9') + "...' (100000 characters) is too large");
  msg = errorOf(
      [&] { test::parseText("# rubick: size M=" + digits + "\ndef f() -> (x) { x = 1 }"); });
  EXPECT_EQ(msg, "size M=" + std::string(46, '9') + "... (100002 characters) is too large (limit " +
                     std::to_string(tc::kMaxSize) + ")");
}

TEST(RobustnessInput, ManyFunctionsAreListedBriefly) {
  // 20000 defs: the duplicate check is a map lookup per def (it was a pairwise scan, 2e8
  // comparisons here), and the message names 8 of them.
  std::string text;
  for (int k = 0; k < 20'000; ++k)
    text += "def f" + std::to_string(k) + "() -> (x) { x = 1 }\n";
  EXPECT_EQ(test::semaError(text), "t.tc: the file defines 20000 functions (f0, f1, f2, f3, f4, "
                                   "f5, f6, f7, ... (19992 more)); choose one with --def NAME");
  text += "def f7() -> (x) { x = 1 }\n";
  EXPECT_EQ(test::semaError(text), "20001:5: function 'f7' is defined twice");
}

TEST(RobustnessInput, ManySizesAreListedBriefly) {
  // A def with 1000 sizes S0..S999 and a --size naming none of them: 8 are listed.
  std::string shape;
  for (int k = 0; k < 1000; ++k)
    shape += (k ? "," : "") + std::string("S") + std::to_string(k);
  tc::SemaOptions opts;
  opts.sizes.push_back({"Q", 4, {}});
  EXPECT_EQ(test::semaError("def f(int8(" + shape + ") A) -> (B) { B(i) = A(i) }", opts),
            "--size: 'Q' is not a size of 'f' (its sizes: S0, S1, S2, S3, S4, S5, S6, S7, ... "
            "(992 more))");
}

TEST(RobustnessInput, FilesWithoutAProgram) {
  for (const std::string& text : {std::string(), std::string("  \n\t\r\n"),
                                  std::string("\xEF\xBB\xBF"), std::string("# only a comment")})
    EXPECT_EQ(test::semaError(text), "t.tc: the file defines no function (expected 'def')") << text;
}

class TempDir {
public:
  TempDir()
      : dir_(std::filesystem::temp_directory_path() /
             ("rubick_input_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
  }
  ~TempDir() { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& bytes) {
    std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }

private:
  std::filesystem::path dir_;
};

std::string readError(const std::string& path) {
  try {
    readSourceFile(path);
  } catch (const Error& e) {
    return formatError(e);
  }
  return "<no error>";
}

TEST(RobustnessInput, FilesThatAreNotText) {
  TempDir dir;
  // UTF-16 with a byte order mark, either byte order.
  std::string le = dir.write("le.tc", std::string("\xFF\xFE"
                                                  "d\0e\0f\0",
                                                  8));
  EXPECT_EQ(readError(le),
            le + ": error: cannot read file: it is UTF-16 encoded; save it as UTF-8 (or ASCII)\n");
  std::string be = dir.write("be.tc", std::string("\xFE\xFF\0d\0e\0f", 8));
  EXPECT_NE(readError(be).find("UTF-16"), std::string::npos);
  // A NUL on line 2, column 3 (after a CRLF, which is one line end).
  std::string bin = dir.write("bin.tc", std::string("ab\r\ncd\0ef", 9));
  EXPECT_EQ(readError(bin), bin + ":2:3: error: this is not a text file: it contains a NUL byte\n"
                                  "    cd\\0ef\n"
                                  "      ^~\n");
}

TEST(RobustnessInput, OddPaths) {
  EXPECT_EQ(readError(""), "rubick: error: the input file name is empty\n");
  TempDir dir;
  std::string loop = dir.write("x", "") + "loop";
  std::filesystem::create_symlink(loop, loop); // a link to itself
  EXPECT_EQ(readError(loop),
            loop + ": error: cannot open file: Too many levels of symbolic links\n");
}

TEST(RobustnessInput, AnEndlessInputStopsAtTheSizeLimit) {
  if (!std::filesystem::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero";
  EXPECT_EQ(readError("/dev/zero"), "/dev/zero: error: cannot read file: it is larger than 16 MiB, "
                                    "far more than any tensor program\n");
}

TEST(RobustnessInput, UnreadableFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any file";
  TempDir dir;
  std::string p = dir.write("secret.tc", "def");
  std::filesystem::permissions(p, std::filesystem::perms::none);
  EXPECT_EQ(readError(p), p + ": error: cannot open file: Permission denied\n");
}

TEST(RobustnessInput, FileNamesWithControlBytesAreEscaped) {
  TempDir dir;
  std::string p = dir.write("x\x1b[2J.tc", "def f() -> (x) { x = Q }");
  try {
    auto file = std::make_shared<const SourceFile>(readSourceFile(p));
    tc::analyze(tc::parse(file), file);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(formatError(e).rfind(printable(p) + ":1:", 0), 0u) << formatError(e);
    EXPECT_EQ(formatError(e).find('\x1b'), std::string::npos);
  }
}

} // namespace
} // namespace rubick
