// SPDX-License-Identifier: Apache-2.0
#include "rubick/support/TextTable.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace rubick {

std::string formatColumns(const std::vector<std::string>& head,
                          const std::vector<std::vector<std::string>>& rows,
                          const std::function<bool(size_t)>& rightAligned) {
  std::vector<size_t> width(head.size());
  for (size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& row : rows)
      width[c] = std::max(width[c], row[c].size());
  }
  std::ostringstream os;
  auto emit = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string cell = cells[c];
      if (c + 1 < cells.size()) {
        std::string pad(width[c] - cell.size(), ' ');
        cell = rightAligned(c) ? pad + cell : cell + pad;
      }
      line += (c ? "  " : "") + cell;
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    os << line << "\n";
  };
  emit(head);
  for (const auto& row : rows)
    emit(row);
  return os.str();
}

std::string kibText(int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f KiB", double(bytes) / 1024.0);
  return buf;
}

std::string percentText(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * x);
  return buf;
}

} // namespace rubick
