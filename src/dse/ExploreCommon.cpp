#include "ExploreCommon.h"

#include "rubick/dse/Pareto.h"
#include "rubick/dse/Tilings.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace rubick::dse::detail {

using dataflow::Dataflow;

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

void costMatrix(const dataflow::StatementView& v, const ExploreOptions& o, ArrayShape shape,
                const dataflow::FoundDataflow& f, Batch& out) {
  const Constraints& c = o.constraints;
  Violations viol = checkEntries(c, f.entries, shape.p, shape.q);
  std::vector<Dataflow> ts = exploreTilings(v, f.dataflow, shape.p, shape.q);
  if (ts.empty()) {
    ++out.stats.byFit;
    return;
  }
  for (const Dataflow& t : ts) {
    ++out.stats.candidates;
    out.stats.byEntries += viol.entries;
    out.stats.byFanout += viol.fanout;
    out.stats.byPorts += viol.ports;
    if (o.prune && viol.any()) continue;
    Metrics m = evaluate(v, t, f.entries, c.elementBits, o.costs);
    bool overBudget = c.bufferBytes && m.bufferBytes > c.bufferBytes;
    out.stats.byBuffer += overBudget;
    // Final filter: every constraint, whatever was pruned before.
    if (viol.any() || overBudget) continue;
    DesignPoint d;
    d.id = designId(v, t, c.elementBits);
    d.dataflow = t;
    d.entries = f.entries;
    d.metrics = std::move(m);
    out.points.push_back(std::move(d));
  }
}

void runParallel(size_t n, const ExploreOptions& o, const std::function<void(size_t)>& work) {
  unsigned threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  std::atomic<size_t> next{0}, done{0};
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (size_t i; (i = next++) < n;) {
        work(i);
        ++done;
        cv.notify_one();
      }
    });
  if (o.progress) {
    std::unique_lock<std::mutex> lock(mu);
    while (done < n) {
      cv.wait_for(lock, std::chrono::milliseconds(100));
      o.progress(done, n);
    }
  }
  for (std::thread& t : pool)
    t.join();
}

void finish(const ExploreOptions& o, std::vector<Batch>& batches, ExploreResult& res) {
  for (Batch& b : batches) {
    res.stats.candidates += b.stats.candidates;
    res.stats.byEntries += b.stats.byEntries;
    res.stats.byFanout += b.stats.byFanout;
    res.stats.byPorts += b.stats.byPorts;
    res.stats.byBuffer += b.stats.byBuffer;
    res.stats.byFit += b.stats.byFit;
    for (DesignPoint& d : b.points)
      res.points.push_back(std::move(d));
  }
  markPareto(res.points, o.objective == Objective::Area);
  std::sort(res.points.begin(), res.points.end(),
            [&](const DesignPoint& a, const DesignPoint& b) { return better(a, b, o.objective); });
  res.stats.designs = res.points.size();
  for (const DesignPoint& d : res.points)
    res.stats.pareto += d.pareto;
}

dataflow::FoundDataflow canonicalTimeAndMirror(const dataflow::FoundDataflow& f) {
  // Reversing t1 mirrors every entry in x and y; canonical mirroring may flip x or y back.
  Dataflow timed = dataflow::canonicalTimeDirection(f.dataflow);
  Dataflow rev = dataflow::canonicalMirror(timed);
  bool ft = timed.s[2] != f.dataflow.s[2];
  bool fx = (rev.s[0] != timed.s[0]) != ft, fy = (rev.s[1] != timed.s[1]) != ft;
  dataflow::FoundDataflow out;
  out.dataflow = rev;
  for (const ir::OrientedEntry& e : f.entries)
    out.entries.push_back(ir::mirrored(e, fx, fy));
  return out;
}

} // namespace rubick::dse::detail
