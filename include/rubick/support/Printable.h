// SPDX-License-Identifier: Apache-2.0
#pragma once
// Text from the user (identifiers, file names, flag values, source lines) made safe to print on
// a terminal: a message must never carry an escape sequence to the terminal, nor a 10 MB token.
//
// Bytes that are not printable are written as C-style escapes: `\0`, `\t`, `\r`, `\x1b`, ...;
// so are bytes that are not valid UTF-8 (`\xff`). Valid UTF-8 text stays readable, except the
// C1 control characters (U+0080..U+009F, which some terminals obey like ESC) and the
// bidirectional overrides (U+202A..U+202E, U+2066..U+2069), written as `\u{202e}`. A backslash
// is kept as it is, so a Windows path still reads naturally.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rubick {

enum class Layout {
  Escape,       // every control character is escaped
  KeepNewlines, // '\n' is kept (multi-line messages), the rest escaped
  KeepTabs,     // '\t' is kept (a quoted source line, so the caret lines up under it)
};

/// `text` with everything that is not printable escaped.
std::string printable(std::string_view text, Layout layout = Layout::Escape);

/// A quoted source line: its printable text and, for every byte i of the line, the column
/// (0-based, on the terminal) where that byte's output starts; `column[line.size()]` is the
/// printed width. An escape is as wide as its text, a UTF-8 character one column (wide CJK
/// characters are not measured); bytes inside a character share the column of its first byte.
struct PrintableLine {
  std::string text;
  std::vector<size_t> column;
};
PrintableLine printableLine(std::string_view line);

/// Words (runs without spaces) of more than `maxChars` characters are cut to their first
/// `keepChars` characters and `...` (words with a '/', paths, only past kMaxPathChars), keeping the
/// quotes and punctuation around the word, with the length of the word after it: `'aaaa...'
/// (10000000 characters)`.
constexpr size_t kMaxWordChars = 64;
constexpr size_t kKeptWordChars = 48;
constexpr size_t kMaxPathChars = 4096;
std::string shortenLongWords(std::string_view text, size_t maxChars = kMaxWordChars,
                             size_t keepChars = kKeptWordChars);

/// What every rubick::Error message goes through: long words cut, then made printable
/// (newlines kept, for the few messages that quote a log).
std::string safeMessage(std::string_view text);

} // namespace rubick
