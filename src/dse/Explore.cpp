// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/Explore.h"
#include "rubick/dse/Shard.h"

#include "ExploreCommon.h"
#include "ShapeCaches.h"

#include "rubick/support/Interrupt.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace rubick::dse {

using namespace detail;
using dataflow::Dataflow;
using dataflow::StatementView;

std::string ExploreResult::mostRestrictive() const {
  std::pair<size_t, std::string> best{0, "none"};
  auto consider = [&](size_t n, const char* what) {
    if (n > best.first) best = {n, what};
  };
  consider(stats.byFit, "the array size (--array)");
  consider(stats.byEntries, "the allowed entries (--entries / target)");
  consider(stats.byFanout, "the fan-out limit (--max-fanout)");
  consider(stats.byPorts, "the port limit (--max-ports)");
  consider(stats.byBuffer, stats.tileShapes
                               ? "the buffer budget (--buffer-kib), with tiles the DMA can move,"
                               : "the buffer budget (--buffer-kib)");
  return best.second + " removed " + std::to_string(best.first) + " candidates";
}

// Loops a space-time matrix can map (extent 2 or more).
size_t usableLoops(const StatementView& v) {
  return static_cast<size_t>(
      std::count_if(v.extent.begin(), v.extent.end(), [](int64_t e) { return e >= 2; }));
}

std::vector<dataflow::FoundDataflow> spaceTimeMatrices(const StatementView& v,
                                                       const ExploreOptions& o) {
  const Constraints& c = o.constraints;
  // Space-time matrices with their entries, pruned by what no array shape can accept.
  dataflow::EnumerationOptions eo;
  eo.tiling = dataflow::Tiling::None;
  if (o.prune && !c.arrays.empty()) {
    int64_t pmin = c.arrays.front().p, qmin = c.arrays.front().q;
    for (const ArrayShape& s : c.arrays) {
      pmin = std::min(pmin, s.p);
      qmin = std::min(qmin, s.q);
    }
    // Fan-out and ports only grow with the array: the smallest shape bounds them from below.
    eo.allowEntry = [&c, pmin, qmin](size_t, const ir::OrientedEntry& e) {
      if (!c.entries.empty() && !c.entries.count(e.kind)) return false;
      if (c.maxFanout && ir::fanout(e.kind, pmin, qmin) > c.maxFanout) return false;
      return !(c.maxPorts && ir::ports(e.kind, pmin, qmin) > c.maxPorts);
    };
  }
  const int64_t anyArray = int64_t(1) << 30;
  std::vector<dataflow::FoundDataflow> matrices;
  std::set<Dataflow> seen;
  auto add = [&](int64_t p, int64_t q) {
    for (const dataflow::FoundDataflow& f : dataflow::enumerateDataflows(v, p, q, eo).dataflows) {
      dataflow::FoundDataflow g = canonicalTimeAndMirror(f);
      g.dataflow.p = g.dataflow.q = anyArray; // the shapes come with the costing
      if (seen.insert(g.dataflow).second) matrices.push_back(std::move(g));
    }
  };
  add(anyArray, anyArray);
  // A row of PEs or a single PE maps fewer loops (the rest all in time): its own matrices.
  std::set<size_t> spans;
  for (const ArrayShape& s : c.arrays)
    spans.insert(dataflow::arraySpan(s.p, s.q));
  const size_t usable = usableLoops(v);
  if (spans.count(2) && usable > 2) add(1, anyArray);
  if (spans.count(1) && usable > 1) add(1, 1);
  return matrices;
}

// Matrices of fewer inner loops than the statement offers (up to 3) are for the arrays that
// need them (spaceTimeMatrices); on a larger array they would only be poorer copies.
bool forShape(const StatementView& v, const Dataflow& d, const ArrayShape& s) {
  const size_t usable = usableLoops(v);
  const size_t k = d.inner.size();
  return k >= std::min<size_t>(3, usable) || k == dataflow::arraySpan(s.p, s.q);
}

namespace {

// explore(), or one shard of it (the items `shard` does not own are left out; `sharded`
// receives what the shard's file needs).
ExploreResult run(const StatementView& v, const ExploreOptions& given, Shard shard,
                  ShardResult* sharded) {
  InterruptScope interruptible; // a signal unwinds from the search (runParallel polls)
  // The program's widths where the caller gives none (the CLI always does).
  ExploreOptions filled;
  const bool fill = given.constraints.elementBits.empty();
  if (fill) {
    filled = given;
    for (const dataflow::AccessView& a : v.accesses)
      filled.constraints.elementBits.push_back(a.elementBits);
  }
  const ExploreOptions& o = fill ? filled : given;
  if (o.constraints.elementBits.size() != v.accesses.size())
    throw std::invalid_argument("explore: " + std::to_string(o.constraints.elementBits.size()) +
                                " element widths for " + std::to_string(v.accesses.size()) +
                                " accesses");
  const Constraints& c = o.constraints;
  ExploreResult res;
  // 1. Space-time matrices with their entries.
  std::vector<dataflow::FoundDataflow> matrices = spaceTimeMatrices(v, o);

  // 2. Per (shape, matrix): tilings, metrics, constraints, folded into the result as each
  //    finishes (search order: shape-major).
  const size_t nm = matrices.size();
  Collector collect(v, o);
  ShapeCaches caches(v, c.arrays.size(), nm);
  runParallel(
      c.arrays.size() * nm, o,
      [&](size_t i) {
        Batch b;
        if (shard.owns(i) && forShape(v, matrices[i % nm].dataflow, c.arrays[i / nm]))
          costMatrix(v, o, c.arrays[i / nm], matrices[i % nm], b, caches.take(i / nm).get());
        caches.done(i / nm);
        collect.add(i, std::move(b));
      },
      &collect.found());

  // 3. Mark the front, rank. IDs are unique among the designs kept (the lookup by ID, which
  //    sees every candidate, refuses a shared one).
  collect.finish(res);
  res.stats.spaceTimeMatrices = matrices.size();
  requireUniqueIds(
      res.points.size(), [&](size_t i) -> const std::string& { return res.points[i].id; },
      [&](size_t i) {
        const Dataflow& d = res.points[i].dataflow;
        return dataflow::toSpec(d, v) + " on " + std::to_string(d.p) + "x" + std::to_string(d.q);
      },
      "design");
  if (sharded) {
    sharded->items = c.arrays.size() * nm;
    const std::vector<size_t>& found = collect.itemDesigns();
    for (size_t i = 0; i < found.size(); ++i)
      if (shard.owns(i)) sharded->itemDesigns.emplace_back(i, found[i]);
    return res; // the stats of what it searched: merge sums them
  }
  if (res.points.empty() && o.prune) {
    // Pruned candidates were never counted: recount without pruning to name the culprit.
    ExploreOptions unpruned = o;
    unpruned.prune = false;
    unpruned.progress = nullptr;
    unpruned.onDesign = nullptr;
    res.stats = explore(v, unpruned).stats;
  }
  return res;
}

} // namespace

ExploreResult explore(const StatementView& v, const ExploreOptions& o) {
  return run(v, o, Shard{}, nullptr);
}

ShardResult exploreShard(const StatementView& v, const ExploreOptions& o, Shard s) {
  ShardResult r;
  r.result = run(v, o, s, &r);
  return r;
}

} // namespace rubick::dse
