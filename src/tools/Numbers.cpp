// SPDX-License-Identifier: Apache-2.0
#include "Numbers.h"

#include "rubick/support/Diagnostic.h"
#include "rubick/support/Printable.h"

#include <limits>

namespace rubick::cli {
namespace {

// The value of `text` when it is a plain decimal number in [lo, hi].
std::optional<int64_t> whole(const std::string& text, int64_t lo, int64_t hi) {
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const int64_t v = std::stoll(text);
  if (v < lo || v > hi) return std::nullopt;
  return v;
}

std::string range(int64_t lo, int64_t hi) {
  return "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
}

// CLI11 prints validator messages itself, so they get rubick's escaping and cutting here.
std::string shown(const std::string& text) {
  return "'" + safeMessage(text) + "'";
}

} // namespace

CLI::Validator wholeNumber(int64_t lo, int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        if (whole(text, lo, hi)) return "";
        return "expected " + range(lo, hi) + ", found " + shown(text);
      },
      "", "whole number");
}

std::optional<int64_t> parseLimit(const std::string& flag, const std::string& text, int64_t hi) {
  if (text.empty()) return std::nullopt;
  if (text == "none") return 0;
  if (std::optional<int64_t> v = whole(text, 1, hi)) return v;
  throw Error(flag, "expected " + range(1, hi) + ", or 'none' for no limit, found " + shown(text) +
                        (text == "0" ? " (a limit of 0 allows no design)" : ""));
}

std::optional<int64_t> parseSize(const std::string& flag, const std::string& text, int64_t hi) {
  if (text.empty()) return std::nullopt;
  if (text == "none") return std::numeric_limits<int64_t>::max();
  if (std::optional<int64_t> v = whole(text, 0, hi)) return v;
  throw Error(flag, "expected " + range(0, hi) + ", or 'none' for no limit, found " + shown(text));
}

} // namespace rubick::cli
