#include "rubick/support/Diagnostic.h"

#include <algorithm>

namespace rubick {

Error::Error(std::shared_ptr<const SourceFile> file, Diagnostic diag)
    : std::runtime_error(diag.message), file_(std::move(file)), diag_(std::move(diag)) {
  if (file_) origin_ = file_->name();
}

Error::Error(std::string origin, std::string message)
    : std::runtime_error(message), origin_(std::move(origin)) {
  diag_.message = std::move(message);
}

namespace {

// Longest stretch of a source line quoted under a message.
constexpr size_t kMaxQuoted = 120;

// Tabs are kept in the caret line so the caret lines up under a tab-indented source line.
std::string caretLine(std::string_view line, uint32_t col, uint32_t length) {
  std::string out;
  for (uint32_t i = 1; i < col && i - 1 < line.size(); ++i)
    out += line[i - 1] == '\t' ? '\t' : ' ';
  out += '^';
  for (uint32_t i = 1; i < length && col - 1 + i < line.size(); ++i)
    out += '~';
  return out;
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
      start = std::min(start, line.size() - kMaxQuoted);
      if (start > 0) head = "...";
      if (start + kMaxQuoted < line.size()) tail = "...";
      line = line.substr(start, kMaxQuoted);
      loc.col = static_cast<uint32_t>(col0 - start + 1);
    }
    out += "    " + head + std::string(line) + tail + "\n";
    out += "    " + std::string(head.size(), ' ') + caretLine(line, loc.col, length) + "\n";
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
