// SPDX-License-Identifier: Apache-2.0
// Messages are safe to print: control bytes escaped, long words cut, in the message, the notes,
// the origin and the quoted source line (with the caret still under the right character).

#include "rubick/support/Diagnostic.h"
#include "rubick/support/Printable.h"

#include <gtest/gtest.h>

#include <memory>

namespace rubick {
namespace {

using namespace std::string_literals;

Error located(const std::string& text, SourceLoc loc, uint32_t length, std::string msg) {
  Diagnostic d;
  d.loc = loc;
  d.length = length;
  d.message = std::move(msg);
  return Error(std::make_shared<const SourceFile>("x.tc", text), std::move(d));
}

TEST(Printable, AsciiTextIsUnchanged) {
  EXPECT_EQ(printable("unknown tensor 'Q' (at C:\\dir\\f.tc) ~!@#$%^&*"),
            "unknown tensor 'Q' (at C:\\dir\\f.tc) ~!@#$%^&*");
  EXPECT_EQ(printable(""), "");
}

TEST(Printable, ControlBytesAreEscaped) {
  EXPECT_EQ(printable("a\x1b[31mb"), "a\\x1b[31mb");
  EXPECT_EQ(printable("a\0b"s), "a\\0b");
  EXPECT_EQ(printable("\t\r\n\x01\x7f"), "\\t\\r\\n\\x01\\x7f");
  EXPECT_EQ(printable("a\tb\nc", Layout::KeepTabs), "a\tb\\nc");
  EXPECT_EQ(printable("a\tb\nc", Layout::KeepNewlines), "a\\tb\nc");
}

TEST(Printable, Utf8StaysReadableAndBadBytesAreEscaped) {
  EXPECT_EQ(printable("größe µ 行列 \xF0\x9F\x98\x80"), "größe µ 行列 \xF0\x9F\x98\x80");
  EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");          // never valid in UTF-8
  EXPECT_EQ(printable("a\xC3"), "a\\xc3");                 // truncated sequence
  EXPECT_EQ(printable("\x80x"), "\\x80x");                 // stray continuation byte
  EXPECT_EQ(printable("\xC0\xAF"), "\\xc0\\xaf");          // overlong '/'
  EXPECT_EQ(printable("\xED\xA0\x80"), "\\xed\\xa0\\x80"); // a UTF-16 surrogate
  // C1 controls (U+009B is CSI on some terminals) and bidi overrides are valid but hostile.
  EXPECT_EQ(printable("\xC2\x9B"
                      "31m"),
            "\\u{9b}31m");
  EXPECT_EQ(printable("a\xE2\x80\xAE"
                      "b"),
            "a\\u{202e}b");
}

TEST(Printable, LongWordsAreCut) {
  std::string name(10'000'000, 'a');
  EXPECT_EQ(shortenLongWords("unknown tensor '" + name + "'"),
            "unknown tensor '" + std::string(48, 'a') + "...' (10000000 characters)");
  // At the limit a word is kept whole; one more character and it is cut.
  std::string at(64, 'b');
  EXPECT_EQ(shortenLongWords("x " + at + " y"), "x " + at + " y");
  EXPECT_EQ(shortenLongWords("x " + at + "b, y"),
            "x " + std::string(48, 'b') + "..., (65 characters) y");
  // Characters, not bytes: 70 two-byte characters are cut after 48 of them.
  std::string wide;
  for (int i = 0; i < 70; ++i)
    wide += "ä";
  EXPECT_EQ(shortenLongWords(wide), wide.substr(0, 96) + "... (70 characters)");
  // At most 4 punctuation characters are kept after the cut (and not counted).
  EXPECT_EQ(shortenLongWords(std::string(100, '.')),
            std::string(48, '.') + "......." + " (96 characters)");
}

TEST(Printable, LineColumnsCountPrintedCharacters) {
  PrintableLine l = printableLine("a\x1b"
                                  "b\tä\0"s);
  EXPECT_EQ(l.text, "a\\x1bb\tä\\0");
  // a at 0, ESC at 1 (4 wide), b at 5, tab at 6, ä at 7 (both bytes), NUL at 8 (2 wide).
  EXPECT_EQ(l.column, (std::vector<size_t>{0, 1, 5, 6, 7, 7, 8, 10}));
}

TEST(Printable, EveryPartOfAnErrorIsEscaped) {
  Diagnostic d;
  d.message = "unknown tensor '\x1b[2J'";
  d.notes.push_back({{}, "see '\x07'"});
  Error e(std::make_shared<const SourceFile>("bad\x1bname.tc", ""), d);
  EXPECT_EQ(e.diag().message, "unknown tensor '\\x1b[2J'");
  EXPECT_STREQ(e.what(), "unknown tensor '\\x1b[2J'");
  EXPECT_EQ(e.diag().notes[0].message, "see '\\x07'");
  EXPECT_EQ(e.origin(), "bad\\x1bname.tc");
  // Errors without a place (command-line values) too.
  Error flag("--def", "no def named '" + std::string(100, 'x') + "\x1b'");
  EXPECT_EQ(formatError(flag),
            "--def: error: no def named '" + std::string(48, 'x') + "...' (101 characters)\n");
}

TEST(Printable, QuotedLineIsEscapedAndTheCaretStillPointsAtTheToken) {
  // ESC in column 3, the error at column 5 ('Q'): the escape is 4 characters wide.
  EXPECT_EQ(formatError(located("ab\x1b Q(i)", {1, 5}, 1, "unknown tensor 'Q'")),
            "x.tc:1:5: error: unknown tensor 'Q'\n"
            "    ab\\x1b Q(i)\n"
            "           ^\n");
  // The caret under the NUL itself, underlining its whole escape.
  EXPECT_EQ(formatError(located("x = \0;"s, {1, 5}, 1, "m")), "x.tc:1:5: error: m\n"
                                                              "    x = \\0;\n"
                                                              "        ^~\n");
  // A UTF-8 character before the caret takes one column.
  EXPECT_EQ(formatError(located("# größe\nx", {1, 9}, 1, "m")), "x.tc:1:9: error: m\n"
                                                                "    # größe\n"
                                                                "          ^\n");
}

TEST(Printable, LongLineWindowDoesNotSplitACharacter) {
  // 100 'ä' (200 bytes) then X. The 120-byte window ends at the end of the line, so it would
  // start at byte 201 - 120 = 81, the second byte of an 'ä': it starts at 82 instead.
  std::string line;
  for (int i = 0; i < 100; ++i)
    line += "ä";
  line += "X";
  std::string out = formatError(located(line, {1, 201}, 1, "m"));
  // Bytes 82..199 are 59 whole characters 'ä', then X; no escaped half character.
  std::string before;
  for (int i = 0; i < 59; ++i)
    before += "ä";
  EXPECT_EQ(out, "x.tc:1:201: error: m\n"
                 "    ..." +
                     before + "X\n" + "    " + std::string(3 + 59, ' ') + "^\n");
}

TEST(Printable, PathsAreKeptWholeUpToPathMax) {
  const std::string path = "/tmp/work/.runtime/" + std::string(80, 'k') + ".failed.log";
  EXPECT_EQ(shortenLongWords("(log: " + path + ")"), "(log: " + path + ")");
  const std::string huge(kMaxPathChars + 1, '/');
  EXPECT_NE(shortenLongWords(huge).find("(4097 characters)"), std::string::npos);
}

} // namespace
} // namespace rubick
