// SPDX-License-Identifier: Apache-2.0
#pragma once
// The checks `rubick merge` makes on any kind of shard (explore's, verify's; docs/scale.md):
// the files found in the directories given, and that they are one complete set of one run.

#include "rubick/dse/Shard.h"
#include "rubick/support/Diagnostic.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <string>
#include <vector>

namespace rubick::dse {

/// What names a shard's run, as its file's header says.
struct ShardIdentity {
  std::string path;
  Shard shard;
  std::string version, fingerprint;
  std::vector<std::string> options;
};

/// The paths of the KIND-shard-I-of-N.jsonl files in `dirs` (each sorted by name; directories
/// in the order given). Throws rubick::Error for a path that is not a directory.
std::vector<std::string> findShardFiles(const std::vector<std::string>& dirs,
                                        const std::string& kind);

/// Checks that `found` is one complete set of one run: the same version, options, fingerprint
/// and shard count everywhere, every shard 0..N-1 exactly once. A missing shard is named with
/// `rerun(missing)`, the command that runs it. Returns the positions in `found` by shard index.
/// Throws rubick::Error naming the files.
std::vector<size_t> orderShardSet(const std::vector<ShardIdentity>& found,
                                  const std::function<std::string(Shard)>& rerun);

/// The error merge gives when `dirs` hold no KIND-shard-I-of-N.jsonl file.
Error noShardFiles(const std::vector<std::string>& dirs, const std::string& kind);

/// Called for each line of a shard file (numbered from 1), parsed; returns true for the end
/// line, after which nothing may follow.
using ShardLine = std::function<bool(size_t line, const nlohmann::json& j)>;

/// Reads shard file `path` line by line: each line not `skip`ped (on its text) is parsed and
/// given to `line`. Throws rubick::Error naming the path and line for an unreadable file, a line
/// that is not JSON or that `line` finds malformed (a json exception), text after the end line,
/// an empty file or one without its end line (the shard did not finish).
void readShardLines(const std::string& path, const ShardLine& line,
                    const std::function<bool(const std::string&)>& skip = {});

/// The error for line `line` of shard file `path`.
Error shardLineError(const std::string& path, size_t line, const std::string& what);

/// `rubick KIND OPTIONS... --shard I/N --shard-dir DIR`.
std::string shardCommand(const std::string& kind, const std::vector<std::string>& options, Shard s,
                         const std::string& dir);

} // namespace rubick::dse
