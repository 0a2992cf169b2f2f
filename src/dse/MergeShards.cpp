// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/MergeShards.h"

#include "ExploreCommon.h"

#include "rubick/dse/DesignId.h"
#include "rubick/dse/Pareto.h"
#include "rubick/dse/ShardSet.h"
#include "rubick/support/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <queue>
#include <unordered_map>

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

namespace {

// The row lines of one shard file, read in order (the shard wrote them in its search order).
class RowReader {
public:
  explicit RowReader(const std::string& path) : path_(path), in_(path, std::ios::binary) {
    if (!in_) throw Error(path, "cannot read this shard file");
  }
  // The next row: its number in the shard's order and its CSV text; false after the last.
  bool next(size_t& local, std::string& csv) {
    std::string text;
    while (std::getline(in_, text)) {
      if (++line_ == 1) continue;                        // the header
      if (text.rfind("{\"csv\":", 0) != 0) return false; // the designs follow the rows
      try {
        const nlohmann::json j = nlohmann::json::parse(text);
        local = j.at("row").get<size_t>();
        csv = j.at("csv").get<std::string>();
      } catch (const nlohmann::json::exception& e) {
        throw shardLineError(path_, line_, std::string("a malformed row (") + e.what() + ")");
      }
      return true;
    }
    return false;
  }
  const std::string& path() const { return path_; }

private:
  std::string path_;
  std::ifstream in_;
  size_t line_ = 0;
};

} // namespace

void writeMergedCsvRows(const std::vector<ShardContents>& shards, const ExploreResult& merged,
                        const std::function<void(std::string_view)>& out) {
  const OrderMap orders(shards);
  std::vector<size_t> front;
  for (const DesignPoint& d : merged.points)
    if (d.pareto) front.push_back(d.order);
  std::sort(front.begin(), front.end());
  // A k-way merge: each shard's rows come in its own order, which maps increasingly into the
  // whole search order, so the smallest next row of all shards is the next row of the CSV.
  std::vector<RowReader> readers;
  std::vector<std::string> rows(shards.size());
  std::vector<size_t> expected(shards.size(), 0); // each shard's next row number
  using Next = std::pair<size_t, size_t>;         // (whole order, shard)
  std::priority_queue<Next, std::vector<Next>, std::greater<Next>> heap;
  auto advance = [&](size_t s) {
    size_t local = 0;
    if (!readers[s].next(local, rows[s])) return;
    if (local != expected[s] || local >= orders.designs(s))
      throw Error(readers[s].path(), "a CSV row out of order (row " + std::to_string(local) +
                                         " where row " + std::to_string(expected[s]) + " was due)");
    ++expected[s];
    heap.emplace(orders.global(s, local), s);
  };
  for (size_t s = 0; s < shards.size(); ++s)
    readers.emplace_back(shards[s].path);
  for (size_t s = 0; s < shards.size(); ++s)
    advance(s);
  std::unordered_map<std::string, size_t> firstRow; // duplicate IDs, as explore --csv refuses
  size_t nextFront = 0;
  for (size_t i = 0; i < orders.total(); ++i) {
    if (heap.empty() || heap.top().first != i)
      throw Error("merge", "the CSV row of design " + std::to_string(i) + " is missing");
    const size_t s = heap.top().second;
    heap.pop();
    std::string& row = rows[s];
    const std::string id = row.substr(0, kIdDigits);
    if (auto [it, fresh] = firstRow.emplace(id, i); !fresh)
      throw duplicateIdError("design", id, "row " + std::to_string(it->second + 2) + " of the CSV",
                             "row " + std::to_string(i + 2) + " of the CSV");
    if (nextFront < front.size() && front[nextFront] == i) {
      if (row.size() <= kIdDigits + 1 || row[kIdDigits + 1] != '0')
        throw Error("merge", "a CSV row without its pareto cell");
      row[kIdDigits + 1] = '1';
      ++nextFront;
    }
    out(row);
    advance(s);
  }
}

} // namespace rubick::dse
