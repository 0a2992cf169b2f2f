// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whole-file text I/O for verify's work directories, and the tail of a tool's log for errors.

#include <filesystem>
#include <string>

namespace rubick::verify {

/// The file's bytes; empty when it cannot be read.
std::string readFile(const std::filesystem::path& p);

/// Writes `text` to `p`; throws rubick::Error when it cannot.
void writeFile(const std::filesystem::path& p, const std::string& text);

/// The last `lines` lines of `text`.
std::string tail(const std::string& text, size_t lines);

} // namespace rubick::verify
