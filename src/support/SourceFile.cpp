// SPDX-License-Identifier: Apache-2.0
#include "rubick/support/SourceFile.h"

#include "rubick/support/Diagnostic.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

namespace rubick {

namespace {

// Drops a leading UTF-8 byte order mark and turns "\r\n" and a lone "\r" into "\n".
std::string normalizeLineEndings(std::string text) {
  size_t from = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
  if (from == 0 && text.find('\r') == std::string::npos) return text;
  std::string out;
  out.reserve(text.size() - from);
  for (size_t i = from; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else {
      out += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    }
  }
  return out;
}

} // namespace

SourceFile::SourceFile(std::string name, std::string text)
    : name_(std::move(name)), text_(normalizeLineEndings(std::move(text))) {
  lineStarts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') lineStarts_.push_back(i + 1);
}

std::string_view SourceFile::lineText(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size()) return {};
  size_t begin = lineStarts_[line - 1];
  size_t end = line < lineStarts_.size() ? lineStarts_[line] - 1 : text_.size();
  return std::string_view(text_).substr(begin, end - begin);
}

namespace {

// A tensor program is a few lines; this only stops a device (/dev/zero), a pipe that never ends
// or a wrong file from filling memory.
constexpr size_t kMaxSourceBytes = size_t(16) << 20;

// Files that are clearly not a program in text: UTF-16 (what some Windows editors call
// "Unicode") and anything with a NUL byte. The NUL is pointed at, escaped, in the quoted line.
void checkIsText(const std::string& path, const std::string& text) {
  if (text.rfind("\xFF\xFE", 0) == 0 || text.rfind("\xFE\xFF", 0) == 0)
    throw Error(path, "cannot read file: it is UTF-16 encoded; save it as UTF-8 (or ASCII)");
  if (text.find('\0') == std::string::npos) return;
  auto file = std::make_shared<const SourceFile>(path, text);
  const std::string& t = file->text();
  size_t at = t.find('\0');
  size_t lineStart = t.rfind('\n', at) == std::string::npos ? 0 : t.rfind('\n', at) + 1;
  Diagnostic d;
  d.loc.line = static_cast<uint32_t>(std::count(t.begin(), t.begin() + at, '\n') + 1);
  d.loc.col = static_cast<uint32_t>(at - lineStart + 1);
  d.message = "this is not a text file: it contains a NUL byte";
  throw Error(file, std::move(d));
}

} // namespace

SourceFile readSourceFile(const std::string& path) {
  // An empty name (`rubick dump ""`) has nothing to print as the origin; say so.
  if (path.empty()) throw Error("", "the input file name is empty");
  // A directory opens like a file on Linux and then reads as empty; say what it is instead.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(path, "cannot read file: it is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(path, std::string("cannot open file") +
                          (errno ? std::string(": ") + std::strerror(errno) : ""));
  // At most one byte more than the limit is read, so an endless input stops.
  std::string text;
  std::vector<char> buf(size_t(1) << 16);
  while (in && text.size() <= kMaxSourceBytes) {
    errno = 0;
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    text.append(buf.data(), static_cast<size_t>(in.gcount()));
  }
  if (in.bad())
    throw Error(path, std::string("cannot read file") +
                          (errno ? std::string(": ") + std::strerror(errno) : ""));
  if (text.size() > kMaxSourceBytes)
    throw Error(path, "cannot read file: it is larger than " +
                          std::to_string(kMaxSourceBytes >> 20) +
                          " MiB, far more than any tensor program");
  checkIsText(path, text);
  return SourceFile(path, std::move(text));
}

} // namespace rubick
