// SPDX-License-Identifier: Apache-2.0
#include "rubick/support/Diagnostic.h"

#include "rubick/support/Printable.h"

#include <algorithm>

namespace rubick {
namespace {

// Messages quote user text (names, flag values, file names); they are made safe once, here, so
// what(), diag() and every printer of an error only ever see printable, bounded text.
Diagnostic safeDiagnostic(Diagnostic d) {
  d.message = safeMessage(d.message);
  for (DiagNote& n : d.notes)
    n.message = safeMessage(n.message);
  return d;
}

} // namespace

Error::Error(std::shared_ptr<const SourceFile> file, Diagnostic diag)
    : Error(std::move(file), safeDiagnostic(std::move(diag)), Safe{}) {}

Error::Error(std::shared_ptr<const SourceFile> file, Diagnostic safe, Safe)
    : std::runtime_error(safe.message), file_(std::move(file)), diag_(std::move(safe)) {
  // A file name is escaped but never cut: a long path is still the user's path.
  if (file_) origin_ = printable(file_->name());
}

Error::Error(std::string origin, std::string message)
    : std::runtime_error(safeMessage(message)), origin_(printable(origin)) {
  diag_.message = what();
}

namespace {

// Longest stretch of a source line quoted under a message.
constexpr size_t kMaxQuoted = 120;

// The quoted line is printed with its control bytes escaped (printableLine), so the caret is
// placed by printed columns, not bytes. Tabs are kept in both lines so the caret lines up under
// a tab-indented source line.
std::string caretLine(const PrintableLine& line, std::string_view raw, uint32_t col,
                      uint32_t length) {
  size_t at = std::min<size_t>(col == 0 ? 0 : col - 1, raw.size());
  size_t end = std::min<size_t>(at + std::max<uint32_t>(length, 1), raw.size());
  std::string out;
  for (size_t i = 0; i < at; ++i) {
    if (raw[i] == '\t')
      out += '\t';
    else
      out.append(line.column[i + 1] - line.column[i], ' ');
  }
  out += '^';
  for (size_t k = line.column[at] + 1; k < line.column[end]; ++k)
    out += '~';
  return out;
}

// Moves a byte offset forward past UTF-8 continuation bytes, so a cut never splits a character.
size_t characterStart(std::string_view s, size_t i) {
  while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80)
    ++i;
  return i;
}

void appendLocated(std::string& out, const SourceFile* file, const std::string& origin,
                   SourceLoc loc, uint32_t length, const char* kind, const std::string& msg) {
  out += origin;
  if (loc.valid()) out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
  out += std::string(": ") + kind + ": " + msg + "\n";
  if (file && loc.valid() && loc.line <= file->lineCount()) {
    std::string_view line = file->lineText(loc.line);
    // A very long line is cut to a window around the caret, marked with "...".
    std::string head, tail;
    if (line.size() > kMaxQuoted) {
      size_t col0 = loc.col == 0 ? 0 : loc.col - 1;
      size_t start = col0 > kMaxQuoted / 2 ? col0 - kMaxQuoted / 2 : 0;
      start = characterStart(line, std::min(start, line.size() - kMaxQuoted));
      size_t end = std::min(characterStart(line, start + kMaxQuoted), line.size());
      col0 = std::max(col0, start);
      if (start > 0) head = "...";
      if (end < line.size()) tail = "...";
      line = line.substr(start, end - start);
      loc.col = static_cast<uint32_t>(col0 - start + 1);
    }
    PrintableLine shown = printableLine(line);
    out += "    " + head + shown.text + tail + "\n";
    out += "    " + std::string(head.size(), ' ') + caretLine(shown, line, loc.col, length) + "\n";
  }
}

} // namespace

std::string formatError(const Error& e) {
  std::string out;
  const Diagnostic& d = e.diag();
  std::string origin = e.origin().empty() ? "rubick" : e.origin();
  appendLocated(out, e.file(), origin, d.loc, d.length, "error", d.message);
  for (const DiagNote& n : d.notes)
    appendLocated(out, e.file(), origin, n.loc, 1, "note", n.message);
  return out;
}

} // namespace rubick
