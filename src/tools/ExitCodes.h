// SPDX-License-Identifier: Apache-2.0
#pragma once
// rubick's exit statuses, one place for the CLI and docs/user-guide.md ("Exit status").

namespace rubick::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;         // a mistake in the input, or a design failed verify
inline constexpr int kExitUsage = 2;         // a command-line usage error (CLI11's parse errors)
inline constexpr int kExitUnsupported = 3;   // emit, verify: rubick cannot build this yet
inline constexpr int kExitInternal = 70;     // a bug in rubick (sysexits' EX_SOFTWARE)
inline constexpr int kExitInterrupted = 130; // SIGINT (128 + 2); SIGTERM gives 143

} // namespace rubick::cli
