// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/Shard.h"

#include <charconv>
#include <stdexcept>

namespace rubick::dse {
namespace {

bool parseCount(std::string_view s, size_t& out) {
  if (s.empty() || s.size() > 9) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

} // namespace

Shard parseShard(const std::string& text) {
  const size_t slash = text.find('/');
  Shard s;
  if (slash == std::string::npos || !parseCount(std::string_view(text).substr(0, slash), s.index) ||
      !parseCount(std::string_view(text).substr(slash + 1), s.count))
    throw std::invalid_argument("'" + text + "' is not I/N (two whole numbers, e.g. 0/4)");
  if (s.count == 0) throw std::invalid_argument("'" + text + "': N must be at least 1");
  if (s.index >= s.count)
    throw std::invalid_argument("'" + text + "': I counts from 0, so it must be below N (0/" +
                                std::to_string(s.count) + " to " + std::to_string(s.count - 1) +
                                "/" + std::to_string(s.count) + ")");
  return s;
}

std::string toString(Shard s) {
  return std::to_string(s.index) + "/" + std::to_string(s.count);
}

std::string shardFileName(Shard s) {
  return "explore-shard-" + std::to_string(s.index) + "-of-" + std::to_string(s.count) + ".jsonl";
}

} // namespace rubick::dse
