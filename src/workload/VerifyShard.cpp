// SPDX-License-Identifier: Apache-2.0
#include "rubick/workload/VerifyShard.h"

#include "rubick/dse/ShardSet.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Process.h"

#include <nlohmann/json.hpp>

#include <filesystem>

// Every field of a result, so that merge prints what the shard's own report printed.
namespace rubick::verify {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Trial, seed, pass, mismatches, elements, measured, predicted,
                                   simCycles, simSeconds, report, wave, rowHits, rowMisses,
                                   rowConflicts)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Result, id, spec, p, q, macs, built, reused, buildSeconds, error,
                                   trials)
} // namespace rubick::verify

namespace rubick::workload {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json designJson(const VerifiedDesign& d) {
  json j = {{"rank", d.rank}, {"id", d.id}};
  if (d.result) j["result"] = *d.result;
  return j;
}

} // namespace

std::string verifyShardFileName(dse::Shard s) {
  return "verify-shard-" + std::to_string(s.index) + "-of-" + std::to_string(s.count) + ".jsonl";
}

std::string verifyShardText(const VerifyShardHeader& h, const Verified& v) {
  // kVerifyShardSignature: the first key (json sorts keys: hence an ordered_json).
  nlohmann::ordered_json head;
  head["rubick_verify_shard"] = toString(h.shard);
  head["version"] = h.version;
  head["fingerprint"] = h.fingerprint;
  head["heading"] = h.heading;
  head["selected"] = h.selected;
  head["skip"] = h.skip;
  head["window"] = h.window;
  head["trials"] = h.trials;
  head["dram"] = h.dram;
  head["options"] = h.options;
  std::string text = head.dump() + "\n";
  size_t passed = 0;
  for (const VerifiedDesign& d : v.designs) {
    text += json{{"design", designJson(d)}}.dump() + "\n";
    passed += d.result && d.result->pass();
  }
  return text + json{{"end", true}, {"designs", v.designs.size()}, {"passed", passed}}.dump() +
         "\n";
}

VerifyShard readVerifyShardFile(const std::string& path) {
  VerifyShard s;
  s.path = path;
  dse::readShardLines(path, [&](size_t lineNo, const json& j) {
    VerifyShardHeader& h = s.header;
    if (lineNo == 1) {
      if (!j.contains("rubick_verify_shard"))
        throw dse::shardLineError(path, lineNo,
                                  "not a verify shard file (no rubick_verify_shard header)");
      try {
        h.shard = dse::parseShard(j.at("rubick_verify_shard").get<std::string>());
      } catch (const std::invalid_argument& e) {
        throw dse::shardLineError(path, lineNo, e.what());
      }
      h.version = j.at("version").get<std::string>();
      h.fingerprint = j.at("fingerprint").get<std::string>();
      h.heading = j.at("heading").get<std::string>();
      h.selected = j.at("selected").get<size_t>();
      h.skip = j.at("skip").get<size_t>();
      h.window = j.at("window").get<size_t>();
      h.trials = j.at("trials").get<int>();
      h.dram = j.at("dram").get<bool>();
      h.options = j.at("options").get<std::vector<std::string>>();
    } else if (j.contains("design")) {
      const json& d = j.at("design");
      VerifiedDesign vd;
      vd.rank = d.at("rank").get<size_t>();
      vd.id = d.at("id").get<std::string>();
      if (d.contains("result")) vd.result = d.at("result").get<verify::Result>();
      s.designs.push_back(std::move(vd));
    } else if (j.contains("end")) {
      if (j.at("designs").get<size_t>() != s.designs.size())
        throw dse::shardLineError(
            path, lineNo,
            "the end line counts " + std::to_string(j.at("designs").get<size_t>()) +
                " designs, the file holds " + std::to_string(s.designs.size()));
      return true;
    } else {
      throw dse::shardLineError(path, lineNo, "an unknown line");
    }
    return false;
  });
  return s;
}

std::vector<VerifyShard> readVerifyShardSet(const std::vector<std::string>& dirs) {
  std::vector<VerifyShard> all;
  std::vector<dse::ShardIdentity> ids;
  for (const std::string& p : dse::findShardFiles(dirs, "verify")) {
    all.push_back(readVerifyShardFile(p));
    const VerifyShardHeader& h = all.back().header;
    if (fs::path(p).filename() != verifyShardFileName(h.shard))
      throw Error(p, "holds shard " + toString(h.shard) + " under another shard's name");
    ids.push_back({p, h.shard, h.version, h.fingerprint, h.options});
  }
  if (all.empty()) throw dse::noShardFiles(dirs, "verify");
  const std::vector<size_t> order = dse::orderShardSet(ids, [&](dse::Shard missing) {
    return dse::shardCommand("verify", all.front().header.options, missing,
                             fs::path(all.front().path).parent_path().string());
  });
  std::vector<VerifyShard> sorted;
  for (size_t i : order)
    sorted.push_back(std::move(all[i]));
  return sorted;
}

Verified mergeVerifyShards(const std::vector<VerifyShard>& shards) {
  const VerifyShardHeader& h = shards.front().header;
  Verified v;
  v.selected = h.selected;
  v.window = h.window;
  std::vector<const VerifiedDesign*> byPlace(h.window, nullptr);
  for (const VerifyShard& s : shards) {
    if (s.header.window != h.window || s.header.selected != h.selected)
      throw Error(s.path, "selects other designs than " + shards.front().path);
    for (const VerifiedDesign& d : s.designs) {
      const size_t place = d.rank - 1 - h.skip; // ranks count --skip
      if (d.rank <= h.skip || place >= h.window || !s.header.shard.owns(place) || byPlace[place])
        throw Error(s.path, "design " + d.id + " at rank " + std::to_string(d.rank) +
                                " is not this shard's, or appears twice");
      byPlace[place] = &d;
    }
  }
  for (size_t i = 0; i < byPlace.size(); ++i) {
    if (!byPlace[i])
      throw Error(shards[i % shards.size()].path,
                  "rank " + std::to_string(h.skip + i + 1) +
                      " is missing (the file is not the shard's whole result)");
    v.designs.push_back(*byPlace[i]);
  }
  return v;
}

std::string reproduceCommand(const VerifyShardHeader& h, const std::string& id) {
  static const std::vector<std::string> valued = {"--cover",   "--skip",   "--limit",   "--point",
                                                  "--entries", "--layout", "--dataflow"};
  std::string cmd = "rubick verify";
  for (size_t i = 0; i < h.options.size(); ++i) {
    const std::string& a = h.options[i];
    if (a == "--all") continue;
    bool drop = false;
    for (const std::string& f : valued) {
      if (a == f) {
        ++i; // and its value
        drop = true;
      }
      if (a.rfind(f + "=", 0) == 0) drop = true;
    }
    if (!drop) cmd += " " + shellWord(a);
  }
  return cmd + " --point " + id;
}

} // namespace rubick::workload
