// SPDX-License-Identifier: Apache-2.0
#pragma once
// A source text with its name and line index, so diagnostics can quote the offending line.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rubick {

/// A position in a source file; line and column are 1-based, 0 means "unknown".
struct SourceLoc {
  uint32_t line = 0;
  uint32_t col = 0;
  bool valid() const { return line != 0; }
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

/// Line endings: `\r\n` (Windows) and a lone `\r` (classic Mac OS, as clang and Python read it)
/// both end a line, and a UTF-8 byte order mark at the start is dropped. The text is stored with
/// `\n` endings only, so the lexer, the `# rubick:` directives and the line:col of every message
/// see the same thing whatever editor wrote the file (a CR changes no column: it ends the line).
class SourceFile {
public:
  SourceFile(std::string name, std::string text);

  const std::string& name() const { return name_; }
  /// The text with `\n` line endings and no byte order mark.
  const std::string& text() const { return text_; }
  /// The text of line `line` (1-based) without its newline; empty if out of range.
  std::string_view lineText(uint32_t line) const;
  uint32_t lineCount() const { return static_cast<uint32_t>(lineStarts_.size()); }

private:
  std::string name_;
  std::string text_;
  std::vector<size_t> lineStarts_;
};

/// Reads a file; throws rubick::Error (no location) if it cannot be read.
SourceFile readSourceFile(const std::string& path);

} // namespace rubick
