// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/MergeShards.h"

#include "ExploreCommon.h"

#include "rubick/dse/DesignId.h"
#include "rubick/dse/Pareto.h"
#include "rubick/dse/ShardSet.h"
#include "rubick/support/Diagnostic.h"

#include <algorithm>
#include <filesystem>
#include <map>

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

} // namespace

std::vector<ShardContents> readShardSet(const std::vector<std::string>& dirs, bool rows) {
  std::vector<ShardContents> all;
  std::vector<ShardIdentity> ids;
  for (const std::string& p : findShardFiles(dirs, "explore")) {
    all.push_back(readShardFile(p, rows));
    const ShardHeader& h = all.back().header;
    if (fs::path(p).filename() != shardFileName(h.shard))
      throw Error(p, "holds shard " + toString(h.shard) + " under another shard's name");
    ids.push_back({p, h.shard, h.version, h.fingerprint, h.options});
  }
  if (all.empty()) throw noShardFiles(dirs, "explore");
  const std::vector<size_t> order = orderShardSet(ids, [&](Shard missing) {
    return shardCommand("explore", all.front().header.options, missing,
                        fs::path(all.front().path).parent_path().string());
  });
  for (const ShardContents& c : all)
    if (c.header.items != all.front().header.items)
      throw Error("merge", c.path + " and " + all.front().path +
                               " are shards of different runs (other work items); merge the "
                               "shards of one run");
  std::vector<ShardContents> sorted;
  for (size_t i : order)
    sorted.push_back(std::move(all[i]));
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
