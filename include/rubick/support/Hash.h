// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one stable text hash rubick uses for names and checks that must not change between
// builds (std::hash may): FNV-1a, 64 bits. Not a defence against forgery.

#include <cstdint>
#include <string>
#include <string_view>

namespace rubick {

uint64_t fnv1a(std::string_view text);

/// fnv1a(text) as 16 lower-case hex digits.
std::string fnv1aHex(std::string_view text);

} // namespace rubick
