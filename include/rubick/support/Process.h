// SPDX-License-Identifier: Apache-2.0
#pragma once
// Running external tools (Verilator, the simulations it builds) without a shell: arguments are
// passed as given, output goes to a log file.

#include <string>
#include <vector>

namespace rubick {

/// Runs argv[0] (looked up on PATH) with its arguments in directory `cwd`, stdout and stderr
/// appended to `log` (or inherited when empty). Returns the exit status, or -1 when the program
/// could not be started (then `error` says why). Throws rubick::Interrupted when a signal asked
/// rubick to stop (the child, in its own process group, receives the signal too).
int runProcess(const std::vector<std::string>& argv, const std::string& cwd, const std::string& log,
               std::string* error = nullptr);

/// True when `program` is found on PATH.
bool onPath(const std::string& program);

/// `w` as one shell word: unchanged when the shell would not split or expand it, else quoted.
std::string shellWord(const std::string& w);

} // namespace rubick
