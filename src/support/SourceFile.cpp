#include "rubick/support/SourceFile.h"

#include "rubick/support/Diagnostic.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rubick {

SourceFile::SourceFile(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {
  lineStarts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') lineStarts_.push_back(i + 1);
}

std::string_view SourceFile::lineText(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size()) return {};
  size_t begin = lineStarts_[line - 1];
  size_t end = line < lineStarts_.size() ? lineStarts_[line] - 1 : text_.size();
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

SourceFile readSourceFile(const std::string& path) {
  // A directory opens like a file on Linux and then reads as empty; say what it is instead.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(path, "cannot read file: it is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(path, std::string("cannot open file") +
                          (errno ? std::string(": ") + std::strerror(errno) : ""));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Error(path, "cannot read file");
  return SourceFile(path, ss.str());
}

} // namespace rubick
