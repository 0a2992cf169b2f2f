// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writing output files so that a failure never leaves a half-written file behind: the content
// goes to a temporary file next to the target, which is renamed over the target only once it
// is complete.

#include <string>

namespace rubick {

/// Writes `content` to `path` atomically; throws rubick::Error naming the path on failure.
void writeFileAtomically(const std::string& path, const std::string& content);

} // namespace rubick
