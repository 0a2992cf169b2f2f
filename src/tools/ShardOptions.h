// SPDX-License-Identifier: Apache-2.0
#pragma once
// What explore and verify shards share on the command line (docs/scale.md): the options that
// name a run, for a shard file's header, and --shard I/N with --shard-dir DIR.

#include "rubick/dse/Shard.h"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace rubick::cli {

/// The subcommand's arguments (after its name) from the whole command line `args`.
std::vector<std::string> commandArgs(const std::vector<std::string>& args, const char* command);

/// `args` less --shard, --shard-dir and the flags of `valued` (with their values) and `bare`,
/// which say only where or how fast this shard runs.
std::vector<std::string> shardRunOptions(const std::vector<std::string>& args,
                                         const std::vector<std::string>& valued,
                                         const std::vector<std::string>& bare);

struct ShardFlags {
  std::string shard, dir; // --shard I/N --shard-dir DIR
  bool given() const { return !shard.empty() || !dir.empty(); }
};

/// Adds --shard and --shard-dir to `cmd`; `what` names the file a shard writes.
void addShardFlags(CLI::App& cmd, ShardFlags& f, const std::string& what);

/// The shard --shard names, with --shard-dir created. Throws rubick::Error when one of the two
/// is missing, I/N is malformed or the directory cannot be made.
dse::Shard openShard(const ShardFlags& f);

} // namespace rubick::cli
