// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/MergeShards.h"

#include "ExploreCommon.h"

#include "rubick/dse/DesignId.h"
#include "rubick/dse/Pareto.h"
#include "rubick/support/Diagnostic.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>

namespace rubick::dse {
namespace {

namespace fs = std::filesystem;

// Maps a shard's own search order to the whole search's: each of its items' designs start at
// the item's position among all items' designs.
class OrderMap {
public:
  explicit OrderMap(const std::vector<ShardContents>& shards) {
    const size_t items = shards.front().header.items;
    std::vector<size_t> designs(items, 0);
    std::vector<char> seen(items, 0);
    for (const ShardContents& s : shards)
      for (const auto& [item, n] : s.result.itemDesigns) {
        if (item >= items || seen[item] || !s.header.shard.owns(item))
          throw Error(s.path, "work item " + std::to_string(item) +
                                  " does not belong to this shard, or appears twice");
        seen[item] = 1;
        designs[item] = n;
      }
    for (size_t i = 0; i < items; ++i)
      if (!seen[i])
        throw Error(shards[i % shards.size()].path,
                    "work item " + std::to_string(i) + " of " + std::to_string(items) +
                        " is missing (the file is not the shard's whole result)");
    std::vector<size_t> start(items + 1, 0);
    for (size_t i = 0; i < items; ++i)
      start[i + 1] = start[i] + designs[i];
    total_ = start[items];
    for (const ShardContents& s : shards) {
      std::vector<std::pair<size_t, size_t>> m; // (shard order of the item's first, global)
      size_t local = 0;
      for (const auto& [item, n] : s.result.itemDesigns) {
        if (n) m.emplace_back(local, start[item]);
        local += n;
      }
      maps_.push_back(std::move(m));
      shardDesigns_.push_back(local);
    }
  }
  size_t total() const { return total_; }
  size_t designs(size_t shard) const { return shardDesigns_[shard]; }
  size_t global(size_t shard, size_t local) const {
    const auto& m = maps_[shard];
    auto it = std::upper_bound(m.begin(), m.end(), std::make_pair(local, size_t(-1)));
    --it; // local < designs(shard), so some item starts at or before it
    return it->second + (local - it->first);
  }

private:
  std::vector<std::vector<std::pair<size_t, size_t>>> maps_;
  std::vector<size_t> shardDesigns_;
  size_t total_ = 0;
};

std::string rerunHint(const ShardHeader& h, Shard s, const std::string& dir) {
  std::string cmd = "rubick explore";
  for (const std::string& o : h.options)
    cmd += " " + o;
  return cmd + " --shard " + toString(s) + " --shard-dir " + dir;
}

} // namespace

std::vector<ShardContents> readShardSet(const std::vector<std::string>& dirs, bool rows) {
  static const std::regex name(R"(explore-shard-([0-9]+)-of-([0-9]+)\.jsonl)");
  std::vector<ShardContents> all;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw Error(dir, "not a directory of explore shards");
    std::vector<std::string> paths;
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
      if (std::regex_match(e.path().filename().string(), name)) paths.push_back(e.path().string());
    std::sort(paths.begin(), paths.end());
    for (const std::string& p : paths) {
      all.push_back(readShardFile(p, rows));
      const ShardContents& c = all.back();
      if (fs::path(p).filename() != shardFileName(c.header.shard))
        throw Error(p, "holds shard " + toString(c.header.shard) + " under another shard's name");
    }
  }
  if (all.empty()) {
    std::string where;
    for (const std::string& d : dirs)
      where += (where.empty() ? "" : ", ") + d;
    throw Error("merge", "no explore shard files (explore-shard-I-of-N.jsonl) in " + where);
  }
  const ShardContents& first = all.front();
  for (const ShardContents& c : all) {
    auto differ = [&](const std::string& what) {
      return Error("merge", c.path + " and " + first.path + " are shards of different runs (" +
                                what + "); merge the shards of one run");
    };
    if (c.header.version != first.header.version)
      throw differ("rubick " + c.header.version + " and " + first.header.version);
    if (c.header.shard.count != first.header.shard.count)
      throw differ(std::to_string(c.header.shard.count) + " and " +
                   std::to_string(first.header.shard.count) + " shards");
    if (c.header.options != first.header.options ||
        c.header.fingerprint != first.header.fingerprint)
      throw differ("other options or inputs");
    if (c.header.items != first.header.items) throw differ("other work items");
  }
  const size_t n = first.header.shard.count;
  std::vector<const ShardContents*> byIndex(n, nullptr);
  for (const ShardContents& c : all) {
    const ShardContents*& slot = byIndex[c.header.shard.index];
    if (slot)
      throw Error("merge", "shard " + toString(c.header.shard) + " twice: " + slot->path + " and " +
                               c.path + "; give each shard once");
    slot = &c;
  }
  for (size_t i = 0; i < n; ++i)
    if (!byIndex[i]) {
      const Shard missing{i, n};
      throw Error("merge", "shard " + toString(missing) + " is missing (no " +
                               shardFileName(missing) + " in the directories given); run it: " +
                               rerunHint(first.header, missing,
                                         fs::path(first.path).parent_path().string()));
    }
  std::vector<ShardContents> sorted;
  for (const ShardContents* c : byIndex)
    sorted.push_back(*c);
  return sorted;
}

ExploreResult mergeShards(const std::vector<ShardContents>& shards, Objective objective,
                          size_t keepBest) {
  const OrderMap orders(shards);
  ExploreResult res;
  std::vector<DesignPoint> all, front;
  for (size_t s = 0; s < shards.size(); ++s) {
    const ExploreResult& r = shards[s].result.result;
    const ExploreStats& st = r.stats;
    res.stats.candidates += st.candidates;
    res.stats.designs += st.designs;
    res.stats.byEntries += st.byEntries;
    res.stats.byFanout += st.byFanout;
    res.stats.byPorts += st.byPorts;
    res.stats.byBuffer += st.byBuffer;
    res.stats.byFit += st.byFit;
    res.stats.tileShapes |= st.tileShapes;
    if (s == 0) res.stats.spaceTimeMatrices = st.spaceTimeMatrices;
    if (st.spaceTimeMatrices != res.stats.spaceTimeMatrices || st.designs != orders.designs(s))
      throw Error(shards[s].path, "does not add up with the other shards");
    for (DesignPoint d : r.points) {
      if (d.order >= orders.designs(s)) throw Error(shards[s].path, "a design out of order");
      d.order = orders.global(s, d.order);
      if (d.pareto) front.push_back(d);
      all.push_back(std::move(d));
    }
  }
  // The whole front: the shards' fronts less what another shard's front dominates.
  markPareto(front, objective == Objective::Area);
  std::vector<size_t> onFront;
  for (const DesignPoint& f : front)
    if (f.pareto) onFront.push_back(f.order);
  std::sort(onFront.begin(), onFront.end());
  auto cmp = [&](const DesignPoint& a, const DesignPoint& b) {
    return detail::better(a, b, objective);
  };
  std::sort(all.begin(), all.end(), cmp);
  // The best N first, then the rest of the front, each in ranking order (as explore's).
  std::vector<DesignPoint> best, rest;
  for (size_t i = 0; i < all.size(); ++i) {
    DesignPoint& d = all[i];
    d.pareto = std::binary_search(onFront.begin(), onFront.end(), d.order);
    if (i < std::max<size_t>(keepBest, 1) || keepBest == 0)
      best.push_back(std::move(d));
    else if (d.pareto)
      rest.push_back(std::move(d));
  }
  res.points = std::move(best);
  for (DesignPoint& d : rest)
    res.points.push_back(std::move(d));
  std::sort(res.points.begin(), res.points.end(), cmp);
  for (const DesignPoint& d : res.points)
    res.stats.pareto += d.pareto;
  res.stats.designs = orders.total();
  requireUniqueIds(
      res.points.size(), [&](size_t i) -> const std::string& { return res.points[i].id; },
      [&](size_t i) {
        const DesignPoint& d = res.points[i];
        return "design " + std::to_string(d.order) + " on " + std::to_string(d.dataflow.p) + "x" +
               std::to_string(d.dataflow.q);
      },
      "design");
  return res;
}

std::string mergedCsvRows(const std::vector<ShardContents>& shards, const ExploreResult& merged) {
  const OrderMap orders(shards);
  std::vector<const std::string*> rows(orders.total(), nullptr);
  for (size_t s = 0; s < shards.size(); ++s)
    for (const auto& [local, row] : shards[s].rows) {
      if (local >= orders.designs(s)) throw Error(shards[s].path, "a CSV row out of order");
      rows[orders.global(s, local)] = &row;
    }
  std::vector<size_t> front;
  for (const DesignPoint& d : merged.points)
    if (d.pareto) front.push_back(d.order);
  std::sort(front.begin(), front.end());
  std::string out;
  std::map<std::string, size_t> firstRow; // duplicate IDs, as explore --csv refuses them
  size_t nextFront = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i])
      throw Error("merge", "the CSV row of design " + std::to_string(i) + " is missing");
    const size_t at = out.size();
    out += *rows[i];
    const std::string id = rows[i]->substr(0, kIdDigits);
    if (auto [it, fresh] = firstRow.emplace(id, i); !fresh)
      throw duplicateIdError("design", id, "row " + std::to_string(it->second + 2) + " of the CSV",
                             "row " + std::to_string(i + 2) + " of the CSV");
    if (nextFront < front.size() && front[nextFront] == i) {
      if (out[at + kIdDigits + 1] != '0') throw Error("merge", "a CSV row without its pareto cell");
      out[at + kIdDigits + 1] = '1';
      ++nextFront;
    }
  }
  return out;
}

} // namespace rubick::dse
