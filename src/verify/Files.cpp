// SPDX-License-Identifier: Apache-2.0
#include "Files.h"

#include "rubick/support/Diagnostic.h"

#include <fstream>
#include <sstream>

namespace rubick::verify {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeFile(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out) throw Error(p.string(), "cannot write file");
}

std::string tail(const std::string& text, size_t lines) {
  if (text.empty()) return text; // a tool that failed without a word (substr would throw)
  size_t pos = text.size();
  for (size_t n = 0; n <= lines && pos > 0; ++n)
    pos = text.rfind('\n', pos - 1);
  return pos == std::string::npos ? text : text.substr(pos + 1);
}

} // namespace rubick::verify
