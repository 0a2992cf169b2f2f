// SPDX-License-Identifier: Apache-2.0
#pragma once
// Each subcommand registers itself on the app and returns the action to run when selected.

#include <CLI/CLI.hpp>
#include <functional>

namespace rubick::cli {

using Action = std::function<int()>;

Action addDumpCommand(CLI::App& app);
Action addExploreCommand(CLI::App& app);
Action addEmitCommand(CLI::App& app);
Action addVerifyCommand(CLI::App& app);
Action addSynthCommand(CLI::App& app);

} // namespace rubick::cli
