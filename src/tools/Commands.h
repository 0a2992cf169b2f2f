// SPDX-License-Identifier: Apache-2.0
#pragma once
// Each subcommand registers itself on the app and returns the action to run when selected.

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace rubick::cli {

using Action = std::function<int()>;

Action addDumpCommand(CLI::App& app);
Action addExploreCommand(CLI::App& app);
/// `args`: the whole command line (emit names it in the files it writes); it must outlive the
/// action.
Action addEmitCommand(CLI::App& app, const std::vector<std::string>& args);
Action addVerifyCommand(CLI::App& app);
Action addSynthCommand(CLI::App& app);

} // namespace rubick::cli
