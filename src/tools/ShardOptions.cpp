// SPDX-License-Identifier: Apache-2.0
#include "ShardOptions.h"

#include "rubick/support/Diagnostic.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace rubick::cli {

std::vector<std::string> commandArgs(const std::vector<std::string>& args, const char* command) {
  const auto at = std::find(args.begin() + (args.empty() ? 0 : 1), args.end(), command);
  return at == args.end() ? std::vector<std::string>{}
                          : std::vector<std::string>(at + 1, args.end());
}

std::vector<std::string> shardRunOptions(const std::vector<std::string>& args,
                                         const std::vector<std::string>& valued,
                                         const std::vector<std::string>& bare) {
  std::vector<std::string> drop = valued;
  drop.insert(drop.end(), {"--shard", "--shard-dir"});
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (std::find(drop.begin(), drop.end(), a) != drop.end()) {
      ++i; // and its value
      continue;
    }
    const bool joined = std::any_of(drop.begin(), drop.end(),
                                    [&](const std::string& f) { return a.rfind(f + "=", 0) == 0; });
    if (joined || std::find(bare.begin(), bare.end(), a) != bare.end()) continue;
    out.push_back(a);
  }
  return out;
}

void addShardFlags(CLI::App& cmd, ShardFlags& f, const std::string& what) {
  cmd.add_option("--shard", f.shard,
                 "Run only shard I of N (I from 0) and write its file into --shard-dir, for "
                 "`rubick merge` (docs/scale.md)")
      ->type_name("I/N");
  cmd.add_option("--shard-dir", f.dir, "Where --shard writes " + what + " (created when missing)")
      ->type_name("DIR");
}

dse::Shard openShard(const ShardFlags& f) {
  if (f.shard.empty() || f.dir.empty())
    throw Error("--shard", "--shard I/N and --shard-dir DIR go together");
  dse::Shard shard;
  try {
    shard = dse::parseShard(f.shard);
  } catch (const std::invalid_argument& e) {
    throw Error("--shard", e.what());
  }
  std::error_code ec;
  std::filesystem::create_directories(f.dir, ec);
  if (!std::filesystem::is_directory(f.dir))
    throw Error(f.dir, "cannot create this --shard-dir directory");
  return shard;
}

} // namespace rubick::cli
