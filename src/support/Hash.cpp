// SPDX-License-Identifier: Apache-2.0
#include "rubick/support/Hash.h"

#include <cstdio>

namespace rubick {

uint64_t fnv1a(std::string_view text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string fnv1aHex(std::string_view text) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(text)));
  return buf;
}

} // namespace rubick
