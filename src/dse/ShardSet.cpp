// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/ShardSet.h"

#include "rubick/support/Diagnostic.h"
#include "rubick/support/Process.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

namespace rubick::dse {

namespace fs = std::filesystem;

std::vector<std::string> findShardFiles(const std::vector<std::string>& dirs,
                                        const std::string& kind) {
  const std::regex name(kind + R"(-shard-([0-9]+)-of-([0-9]+)\.jsonl)");
  std::vector<std::string> all;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw Error(dir, "not a directory of shard files");
    std::vector<std::string> paths;
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
      if (std::regex_match(e.path().filename().string(), name)) paths.push_back(e.path().string());
    std::sort(paths.begin(), paths.end());
    all.insert(all.end(), paths.begin(), paths.end());
  }
  return all;
}

std::vector<size_t> orderShardSet(const std::vector<ShardIdentity>& found,
                                  const std::function<std::string(Shard)>& rerun) {
  const ShardIdentity& first = found.front();
  for (const ShardIdentity& c : found) {
    auto differ = [&](const std::string& what) {
      return Error("merge", c.path + " and " + first.path + " are shards of different runs (" +
                                what + "); merge the shards of one run");
    };
    if (c.version != first.version) throw differ("rubick " + c.version + " and " + first.version);
    if (c.shard.count != first.shard.count)
      throw differ(std::to_string(c.shard.count) + " and " + std::to_string(first.shard.count) +
                   " shards");
    if (c.options != first.options || c.fingerprint != first.fingerprint)
      throw differ("other options or inputs");
  }
  const size_t n = first.shard.count;
  std::vector<size_t> byIndex(n, found.size());
  for (size_t i = 0; i < found.size(); ++i) {
    size_t& slot = byIndex[found[i].shard.index];
    if (slot != found.size())
      throw Error("merge", "shard " + toString(found[i].shard) + " twice: " + found[slot].path +
                               " and " + found[i].path + "; give each shard once");
    slot = i;
  }
  for (size_t i = 0; i < n; ++i)
    if (byIndex[i] == found.size()) {
      const Shard missing{i, n};
      const std::string file = fs::path(first.path).filename().string();
      throw Error("merge", "shard " + toString(missing) + " is missing (no " +
                               file.substr(0, file.find("-shard-")) + "-shard-" +
                               std::to_string(i) + "-of-" + std::to_string(n) +
                               ".jsonl in the directories given); run it: " + rerun(missing));
    }
  return byIndex;
}

Error noShardFiles(const std::vector<std::string>& dirs, const std::string& kind) {
  std::string where;
  for (const std::string& d : dirs)
    where += (where.empty() ? "" : ", ") + d;
  return Error("merge",
               "no " + kind + " shard files (" + kind + "-shard-I-of-N.jsonl) in " + where);
}

Error shardLineError(const std::string& path, size_t line, const std::string& what) {
  return Error(path + ":" + std::to_string(line), what);
}

void readShardLines(const std::string& path, const ShardLine& line,
                    const std::function<bool(const std::string&)>& skip) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path, "cannot read this shard file");
  std::string text;
  size_t lineNo = 0;
  bool ended = false;
  while (std::getline(in, text)) {
    ++lineNo;
    if (ended) throw shardLineError(path, lineNo, "text after the end line");
    if (lineNo > 1 && skip && skip(text)) continue;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
      throw shardLineError(path, lineNo, std::string("not a JSON line (") + e.what() + ")");
    }
    try {
      ended = line(lineNo, j);
    } catch (const nlohmann::json::exception& e) {
      throw shardLineError(path, lineNo, std::string("a malformed line (") + e.what() + ")");
    }
  }
  if (lineNo == 0) throw Error(path, "an empty shard file");
  if (!ended) throw Error(path, "incomplete: no end line (the shard did not finish; run it again)");
}

std::string shardCommand(const std::string& kind, const std::vector<std::string>& options, Shard s,
                         const std::string& dir) {
  std::string cmd = "rubick " + kind;
  for (const std::string& o : options)
    cmd += " " + shellWord(o);
  return cmd + " --shard " + toString(s) + " --shard-dir " + shellWord(dir);
}

} // namespace rubick::dse
