// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whole-number flags read strictly: "-1" is not a huge unsigned number, "0" is not "no limit",
// and the message says what is allowed.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

namespace rubick::cli {

/// Accepts a decimal whole number in [lo, hi] (no sign, no fraction, no exponent).
CLI::Validator wholeNumber(int64_t lo, int64_t hi);

/// A limit flag (--max-fanout, --max-ports, --buffer-kib): a whole number in [1, hi], or
/// "none" to lift a target file's limit. nullopt when the flag was not given; 0 for "none" (the
/// library's "no limit"). Throws rubick::Error naming the flag otherwise.
std::optional<int64_t> parseLimit(const std::string& flag, const std::string& text, int64_t hi);

/// A size flag where 0 means none (--chip-kib): a whole number in [0, hi], or "none" for no
/// limit (INT64_MAX). nullopt when not given; throws rubick::Error naming the flag otherwise.
std::optional<int64_t> parseSize(const std::string& flag, const std::string& text, int64_t hi);

} // namespace rubick::cli
