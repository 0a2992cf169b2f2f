#include "rubick/dse/Explore.h"

#include "rubick/dataflow/Enumerate.h"
#include "rubick/dse/Pareto.h"
#include "rubick/dse/Tilings.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace rubick::dse {

using dataflow::Dataflow;
using dataflow::StatementView;

const char* toString(Objective o) {
  switch (o) {
  case Objective::Latency: return "latency";
  case Objective::Wires: return "wires";
  case Objective::Area: return "area";
  case Objective::Buffer: return "buffer";
  }
  return "?";
}

std::string designId(const StatementView& v, const Dataflow& d) {
  std::string text = v.statement + "|" + std::to_string(d.p) + "x" + std::to_string(d.q) + "|" +
                     dataflow::toSpec(d, v);
  uint64_t h = 1469598103934665603ull; // FNV-1a, 64 bit
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  static const char* hex = "0123456789abcdef";
  std::string id(10, '0');
  for (int i = 9; i >= 0; --i, h >>= 4)
    id[i] = hex[h & 15];
  return id;
}

std::string ExploreResult::mostRestrictive() const {
  std::pair<size_t, std::string> best{0, "none"};
  auto consider = [&](size_t n, const char* what) {
    if (n > best.first) best = {n, what};
  };
  consider(stats.byFit, "the array size (--array)");
  consider(stats.byEntries, "the allowed entries (--entries / target)");
  consider(stats.byFanout, "the fan-out limit (--max-fanout)");
  consider(stats.byPorts, "the port limit (--max-ports)");
  consider(stats.byBuffer, "the buffer budget (--buffer-kib)");
  return best.second + " removed " + std::to_string(best.first) + " candidates";
}

namespace {

struct Violations {
  bool entries = false, fanout = false, ports = false;
  bool any() const { return entries || fanout || ports; }
};

Violations checkEntries(const Constraints& c, const std::vector<ir::OrientedEntry>& es, int64_t p,
                        int64_t q) {
  Violations v;
  for (const ir::OrientedEntry& e : es) {
    if (!c.entries.empty() && !c.entries.count(e.kind)) v.entries = true;
    if (c.maxFanout && ir::fanout(e.kind, p, q) > c.maxFanout) v.fanout = true;
    if (c.maxPorts && ir::ports(e.kind, p, q) > c.maxPorts) v.ports = true;
  }
  return v;
}

struct Item {
  ArrayShape shape;
  size_t matrix;
};

struct ItemResult {
  std::vector<DesignPoint> points;
  ExploreStats stats;
};

bool better(const DesignPoint& a, const DesignPoint& b, Objective o) {
  auto key = [o](const DesignPoint& d) {
    const Metrics& m = d.metrics;
    double primary = o == Objective::Latency ? double(m.latency)
                     : o == Objective::Wires ? double(m.wires)
                     : o == Objective::Area  ? m.area
                                             : double(m.bufferBytes);
    return std::make_tuple(primary, m.latency, m.wires, m.bufferBytes, m.area);
  };
  auto ka = key(a), kb = key(b);
  if (ka != kb) return ka < kb;
  return a.id < b.id;
}

} // namespace

ExploreResult explore(const StatementView& v, const ExploreOptions& o) {
  const Constraints& c = o.constraints;
  ExploreResult res;
  // 1. Space-time matrices with their entries, pruned by what no array shape can accept.
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
      return !checkEntries(c, {e}, pmin, qmin).any();
    };
  }
  const int64_t anyArray = int64_t(1) << 30;
  std::vector<dataflow::FoundDataflow> matrices;
  {
    // One of each pair of time-reversed matrices (same metrics by symmetry).
    std::set<Dataflow> seen;
    for (dataflow::FoundDataflow& f : dataflow::enumerateDataflows(v, anyArray, anyArray, eo).dataflows) {
      // Reversing t1 mirrors every entry in x and y; canonical mirroring may flip x or y back.
      Dataflow timed = dataflow::canonicalTimeDirection(f.dataflow);
      Dataflow rev = dataflow::canonicalMirror(timed);
      if (!seen.insert(rev).second) continue;
      bool ft = timed.s[2] != f.dataflow.s[2];
      bool fx = (rev.s[0] != timed.s[0]) != ft, fy = (rev.s[1] != timed.s[1]) != ft;
      for (ir::OrientedEntry& e : f.entries)
        e = ir::mirrored(e, fx, fy);
      f.dataflow = rev;
      matrices.push_back(std::move(f));
    }
  }
  res.stats.spaceTimeMatrices = matrices.size();

  // 2. Per (shape, matrix): tilings, metrics, constraints.
  std::vector<Item> items;
  for (const ArrayShape& s : c.arrays)
    for (size_t m = 0; m < matrices.size(); ++m)
      items.push_back({s, m});
  std::vector<ItemResult> results(items.size());
  auto work = [&](size_t i) {
    const Item& it = items[i];
    ItemResult& r = results[i];
    const dataflow::FoundDataflow& f = matrices[it.matrix];
    Violations viol = checkEntries(c, f.entries, it.shape.p, it.shape.q);
    std::vector<Dataflow> ts = exploreTilings(v, f.dataflow, it.shape.p, it.shape.q);
    if (ts.empty()) {
      ++r.stats.byFit;
      return;
    }
    for (const Dataflow& t : ts) {
      ++r.stats.candidates;
      r.stats.byEntries += viol.entries;
      r.stats.byFanout += viol.fanout;
      r.stats.byPorts += viol.ports;
      if (o.prune && viol.any()) continue;
      Metrics m = evaluate(v, t, f.entries, c.elementBits, o.costs);
      bool overBudget = c.bufferBytes && m.bufferBytes > c.bufferBytes;
      r.stats.byBuffer += overBudget;
      // Final filter: every constraint, whatever was pruned before.
      if (viol.any() || overBudget) continue;
      DesignPoint d;
      d.id = designId(v, t);
      d.dataflow = t;
      d.entries = f.entries;
      d.metrics = std::move(m);
      r.points.push_back(std::move(d));
    }
  };
  unsigned n = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  std::atomic<size_t> next{0}, done{0};
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < n; ++t)
    pool.emplace_back([&] {
      for (size_t i; (i = next++) < items.size();) {
        work(i);
        ++done;
        cv.notify_one();
      }
    });
  if (o.progress) {
    std::unique_lock<std::mutex> lock(mu);
    while (done < items.size()) {
      cv.wait_for(lock, std::chrono::milliseconds(100));
      o.progress(done, items.size());
    }
  }
  for (std::thread& t : pool)
    t.join();

  // 3. Merge in item order, then rank and mark the front.
  for (ItemResult& r : results) {
    res.stats.candidates += r.stats.candidates;
    res.stats.byEntries += r.stats.byEntries;
    res.stats.byFanout += r.stats.byFanout;
    res.stats.byPorts += r.stats.byPorts;
    res.stats.byBuffer += r.stats.byBuffer;
    res.stats.byFit += r.stats.byFit;
    for (DesignPoint& d : r.points)
      res.points.push_back(std::move(d));
  }
  markPareto(res.points, o.objective == Objective::Area);
  std::sort(res.points.begin(), res.points.end(),
            [&](const DesignPoint& a, const DesignPoint& b) { return better(a, b, o.objective); });
  res.stats.designs = res.points.size();
  for (const DesignPoint& d : res.points)
    res.stats.pareto += d.pareto;
  if (res.points.empty() && o.prune) {
    // Pruned candidates were never counted: recount without pruning to name the culprit.
    ExploreOptions unpruned = o;
    unpruned.prune = false;
    unpruned.progress = nullptr;
    res.stats = explore(v, unpruned).stats;
  }
  return res;
}

} // namespace rubick::dse
