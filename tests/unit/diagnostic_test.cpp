// SPDX-License-Identifier: Apache-2.0
// Rendering of errors (location, quoted line, caret) and the file helpers' errors.

#include "rubick/support/Diagnostic.h"
#include "rubick/support/OutputFile.h"
#include "rubick/support/SourceFile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <unistd.h>

namespace rubick {
namespace {

Error located(const std::string& text, SourceLoc loc, uint32_t length, std::string msg,
              std::vector<DiagNote> notes = {}) {
  Diagnostic d;
  d.loc = loc;
  d.length = length;
  d.message = std::move(msg);
  d.notes = std::move(notes);
  return Error(std::make_shared<const SourceFile>("x.tc", text), std::move(d));
}

TEST(Diagnostic, LocatedErrorWithCaretAndUnderline) {
  EXPECT_EQ(formatError(located("line one\n  C(i) = Q(i)\n", {2, 10}, 1, "unknown tensor 'Q'")),
            "x.tc:2:10: error: unknown tensor 'Q'\n"
            "      C(i) = Q(i)\n"
            "             ^\n");
  EXPECT_EQ(formatError(located("C(i) +=! A", {1, 6}, 3, "m")), "x.tc:1:6: error: m\n"
                                                                "    C(i) +=! A\n"
                                                                "         ^~~\n");
}

TEST(Diagnostic, Notes) {
  EXPECT_EQ(formatError(located("a b\nc", {2, 1}, 1, "twice", {{{1, 3}, "first here"}})),
            "x.tc:2:1: error: twice\n"
            "    c\n"
            "    ^\n"
            "x.tc:1:3: note: first here\n"
            "    a b\n"
            "      ^\n");
}

TEST(Diagnostic, TabsKeepTheCaretAligned) {
  EXPECT_EQ(formatError(located("\tC(i) = Q", {1, 9}, 1, "m")), "x.tc:1:9: error: m\n"
                                                                "    \tC(i) = Q\n"
                                                                "    \t       ^\n");
}

TEST(Diagnostic, UnderlineStopsAtTheEndOfTheLine) {
  EXPECT_EQ(formatError(located("abc\r\n", {1, 3}, 10, "m")), "x.tc:1:3: error: m\n"
                                                              "    abc\n"
                                                              "      ^\n");
  // A caret just past the end (an unexpected end of file) is still drawn.
  EXPECT_EQ(formatError(located("abc", {1, 4}, 1, "m")), "x.tc:1:4: error: m\n"
                                                         "    abc\n"
                                                         "       ^\n");
}

TEST(Diagnostic, LongLinesAreQuotedAroundTheCaret) {
  std::string line = std::string(200, 'a') + "X" + std::string(200, 'b');
  std::string out = formatError(located(line, {1, 201}, 1, "m"));
  // 120 characters centred on the caret: 60 before it.
  std::string window = std::string(60, 'a') + "X" + std::string(59, 'b');
  EXPECT_EQ(out, "x.tc:1:201: error: m\n"
                 "    ..." +
                     window +
                     "...\n"
                     "    " +
                     std::string(3 + 60, ' ') + "^\n");
  // Near the start only the tail is cut.
  std::string head = formatError(located(line, {1, 2}, 1, "m"));
  EXPECT_EQ(head, "x.tc:1:2: error: m\n"
                  "    " +
                      std::string(120, 'a') +
                      "...\n"
                      "     ^\n");
  // Near the end only the head is cut.
  std::string tail = formatError(located(line, {1, 401}, 1, "m"));
  EXPECT_EQ(tail, "x.tc:1:401: error: m\n"
                  "    ..." +
                      std::string(120, 'b') +
                      "\n"
                      "    " +
                      std::string(3 + 119, ' ') + "^\n");
}

TEST(Diagnostic, ErrorsWithoutAPlace) {
  EXPECT_EQ(formatError(Error("--size", "size 'M' is given twice")),
            "--size: error: size 'M' is given twice\n");
  EXPECT_EQ(formatError(Error("", "oops")), "rubick: error: oops\n");
  // A location beyond the file is named but not quoted.
  EXPECT_EQ(formatError(located("a", {5, 1}, 1, "m")), "x.tc:5:1: error: m\n");
}

TEST(SourceFileTest, LinesAndErrors) {
  SourceFile f("a.tc", "one\r\ntwo\n\nlast");
  EXPECT_EQ(f.lineCount(), 4u);
  EXPECT_EQ(f.lineText(1), "one");
  EXPECT_EQ(f.lineText(2), "two");
  EXPECT_EQ(f.lineText(3), "");
  EXPECT_EQ(f.lineText(4), "last");
  EXPECT_EQ(f.lineText(5), "");
  EXPECT_EQ(f.lineText(0), "");
  try {
    readSourceFile("/nonexistent/x.tc");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.origin(), "/nonexistent/x.tc");
    EXPECT_EQ(e.diag().message, "cannot open file: No such file or directory");
  }
  try {
    readSourceFile("/");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.diag().message, "cannot read file: it is a directory");
  }
}

TEST(OutputFileTest, WritesAtomicallyAndLeavesNothingOnFailure) {
  auto dir = std::filesystem::temp_directory_path() / ("rubick_out_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / "out.txt").string();
  writeFileAtomically(path, "hello\n");
  std::ifstream in(path);
  std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(got, "hello\n");
  EXPECT_THROW(writeFileAtomically((dir / "missing" / "out.txt").string(), "x"), Error);
  // Only the one file: no temporary left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            1);
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace rubick
