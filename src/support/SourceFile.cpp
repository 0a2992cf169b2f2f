#include "rubick/support/SourceFile.h"

#include "rubick/support/Diagnostic.h"

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
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path, "cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Error(path, "cannot read file");
  return SourceFile(path, ss.str());
}

} // namespace rubick
