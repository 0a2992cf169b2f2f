// SPDX-License-Identifier: Apache-2.0
#pragma once
// Plain-text tables for the terminal: columns padded to their widest cell, two spaces apart,
// trailing blanks trimmed; the last column is never padded.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rubick {

/// `rightAligned(c)` says whether column c is a number (right-aligned) or a name.
std::string formatColumns(const std::vector<std::string>& head,
                          const std::vector<std::vector<std::string>>& rows,
                          const std::function<bool(size_t)>& rightAligned);

/// "12.5 KiB" (one decimal) and "93.8%" (x = 0.938), as the terminal tables print them.
std::string kibText(int64_t bytes);
std::string percentText(double x);

} // namespace rubick
