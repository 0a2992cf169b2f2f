// SPDX-License-Identifier: Apache-2.0
#pragma once
// Each subcommand registers itself on the app and returns the action to run when selected.

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace rubick::dse {
struct ShardContents;
}

namespace rubick::cli {

using Action = std::function<int()>;

Action addDumpCommand(CLI::App& app);
/// `args`: the whole command line (a shard's file names explore's options); it must outlive
/// the action. `merged`: `rubick merge` runs explore on the shards' result instead of a search.
Action addExploreCommand(CLI::App& app, const std::vector<std::string>& args,
                         const std::vector<dse::ShardContents>* merged = nullptr);
/// `rubick merge DIR...`: the shards of one `explore --shard` run, printed and written as the
/// unsharded run would, or of one `verify --shard` run, as one report.
Action addMergeCommand(CLI::App& app);
/// `args`: the whole command line (emit names it in the files it writes); it must outlive the
/// action.
Action addEmitCommand(CLI::App& app, const std::vector<std::string>& args);
/// `args`: the whole command line (a shard's file names verify's options); it must outlive the
/// action.
Action addVerifyCommand(CLI::App& app, const std::vector<std::string>& args);
Action addSynthCommand(CLI::App& app);

} // namespace rubick::cli
