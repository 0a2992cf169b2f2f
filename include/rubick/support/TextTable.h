#pragma once
// Plain-text tables for the terminal: columns padded to their widest cell, two spaces apart,
// trailing blanks trimmed; the last column is never padded.

#include <functional>
#include <string>
#include <vector>

namespace rubick {

/// `rightAligned(c)` says whether column c is a number (right-aligned) or a name.
std::string formatColumns(const std::vector<std::string>& head,
                          const std::vector<std::vector<std::string>>& rows,
                          const std::function<bool(size_t)>& rightAligned);

} // namespace rubick
