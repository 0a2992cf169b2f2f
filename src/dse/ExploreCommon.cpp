// SPDX-License-Identifier: Apache-2.0
#include "ExploreCommon.h"

#include "rubick/dse/TileBox.h"

#include "rubick/dse/BufferSearch.h"
#include "rubick/dse/Pareto.h"
#include "rubick/dse/Tilings.h"
#include "rubick/support/Interrupt.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

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

} // namespace

void costMatrix(const dataflow::StatementView& v, const ExploreOptions& o, ArrayShape shape,
                const dataflow::FoundDataflow& f, Batch& out, BufferSearchCache* cache) {
  const Constraints& c = o.constraints;
  Violations viol = checkEntries(c, f.entries, shape.p, shape.q);
  std::vector<Dataflow> ts = exploreTilings(v, f.dataflow, shape.p, shape.q);
  if (ts.empty()) {
    ++out.stats.byFit;
    return;
  }
  out.points.reserve(out.points.size() + ts.size());
  for (Dataflow& t : ts) {
    ++out.stats.candidates;
    out.stats.byEntries += viol.entries;
    out.stats.byFanout += viol.fanout;
    out.stats.byPorts += viol.ports;
    if (o.prune && viol.any()) continue;
    Metrics m;
    std::optional<BufferChoice> buffer;
    bool overBudget = false;
    if (c.memory.enabled()) {
      // The buffer tiling with the fewest cycles within the budget; its time loops may be cut
      // into chunks, which changes the dataflow.
      buffer =
          bestBufferTiling(v, t, f.entries, c.elementBits, c.memory, c.bufferBytes, true, cache);
      overBudget = !buffer;
      if (!buffer && boxesMayFail(v)) out.stats.tileShapes = true;
      if (buffer) {
        t = buffer->dataflow;
        m = withMemory(evaluate(v, t, f.entries, c.elementBits, buffer->schedule, o.costs),
                       buffer->metrics, t);
      }
    } else {
      m = evaluate(v, t, f.entries, c.elementBits, o.costs);
      overBudget = c.bufferBytes && m.bufferBytes > c.bufferBytes;
    }
    out.stats.byBuffer += overBudget;
    // Final filter: every constraint, whatever was pruned before.
    if (viol.any() || overBudget) continue;
    DesignPoint d;             // the id is set by Collector::add, for the designs it keeps
    d.dataflow = std::move(t); // ts is ours: no copy
    d.entries = f.entries;
    d.metrics = std::move(m);
    if (buffer) {
      d.buffer = std::move(buffer->tiling);
      d.memory = std::move(buffer->metrics);
    }
    out.points.push_back(std::move(d));
  }
}

Metrics withMemory(Metrics m, const MemoryMetrics& mm, const dataflow::Dataflow& d) {
  m.latency = mm.cycles;
  m.utilization = double(m.macs) / (double(d.p * d.q) * double(mm.cycles));
  m.bufferBytes = mm.bankBytes;
  return m;
}

std::optional<DesignPoint> memoryDesign(const dataflow::StatementView& v, const ExploreOptions& o,
                                        const dataflow::Dataflow& t,
                                        const std::vector<ir::OrientedEntry>& entries,
                                        BufferSearchCache* cache) {
  const Constraints& c = o.constraints;
  std::optional<BufferChoice> buffer =
      bestBufferTiling(v, t, entries, c.elementBits, c.memory, c.bufferBytes, true, cache);
  if (!buffer) return std::nullopt;
  DesignPoint d;
  d.dataflow = std::move(buffer->dataflow);
  d.entries = entries;
  d.metrics = withMemory(evaluate(v, d.dataflow, entries, c.elementBits, buffer->schedule, o.costs),
                         buffer->metrics, d.dataflow);
  d.buffer = std::move(buffer->tiling);
  d.memory = std::move(buffer->metrics);
  d.id = designId(v, d.dataflow, c.elementBits, memoryIdText(d.buffer, c.memory));
  return d;
}

std::string memoryIdText(const BufferTiling& t, const MemorySystem& mem) {
  if (t.size.empty()) return "";
  std::string s = "memory " + std::to_string(mem.bytesPerCycle) + "," +
                  std::to_string(mem.latency) + "," + std::to_string(mem.burstBytes) + "|tile ";
  for (int64_t x : t.size)
    s += std::to_string(x) + ",";
  s += "|order ";
  for (int l : t.order)
    s += std::to_string(l) + ",";
  return s;
}

void runParallel(size_t n, const ExploreOptions& o, const std::function<void(size_t)>& work,
                 const std::atomic<size_t>* designs) {
  unsigned threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::condition_variable cv;
  size_t done = 0;            // under mu
  std::exception_ptr failure; // under mu: the first exception of a work item
  std::vector<std::thread> pool;
  // An exception must not escape a worker (std::terminate) nor leave one running: the first is
  // kept, no new work is handed out, and the caller rethrows it once every worker has stopped.
  auto worker = [&] {
    for (size_t i; !stop && (i = next++) < n;) {
      try {
        work(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!failure) failure = std::current_exception();
        stop = true;
        cv.notify_all();
        return;
      }
      std::lock_guard<std::mutex> lock(mu);
      ++done;
      cv.notify_all();
    }
  };
  auto joinAll = [&] {
    stop = true;
    for (std::thread& t : pool)
      t.join();
  };
  try {
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back(worker);
    // The caller polls for a signal (and reports progress) after every work item and at least
    // every 100 ms.
    std::unique_lock<std::mutex> lock(mu);
    size_t seen = 0;
    for (bool finished = n == 0; !finished;) {
      cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return done != seen || failure; });
      seen = done;
      const bool failed = bool(failure);
      finished = seen == n || failed;
      lock.unlock();
      throwIfInterrupted();
      if (o.progress && !failed) o.progress(seen, n, designs ? designs->load() : 0);
      lock.lock();
    }
  } catch (...) {
    joinAll(); // the exception of the progress callback or the interruption wins
    throw;
  }
  joinAll();
  if (failure) std::rethrow_exception(failure);
}

bool better(const DesignPoint& a, const DesignPoint& b, Objective o) {
  const RankKey ka = rankKey(a.metrics, o), kb = rankKey(b.metrics, o);
  if (ka != kb) return ka < kb;
  if (a.id != b.id) return a.id < b.id;
  return a.order < b.order;
}

void Collector::add(size_t index, Batch&& b) {
  // Outside the lock: number the designs within the batch, and when streaming drop those that
  // can be neither shown nor on the front before paying for their IDs.
  std::vector<DesignPoint>& ps = b.points;
  for (size_t i = 0; i < ps.size(); ++i)
    ps[i].order = i;
  b.designs = ps.size();
  found_ += ps.size();
  if (o_.keepBest && !ps.empty()) {
    markPareto(ps, o_.objective == Objective::Area);
    // The batch's best N by metrics alone (with every tie at the boundary: IDs break ties).
    std::vector<char> keep(ps.size(), 1);
    if (!o_.onDesign && ps.size() > o_.keepBest) {
      auto key = [&](size_t i) { return rankKey(ps[i].metrics, o_.objective); };
      std::vector<size_t> idx(ps.size());
      for (size_t i = 0; i < idx.size(); ++i)
        idx[i] = i;
      std::nth_element(idx.begin(), idx.begin() + (o_.keepBest - 1), idx.end(),
                       [&](size_t x, size_t y) { return key(x) < key(y); });
      const auto limit = key(idx[o_.keepBest - 1]);
      for (size_t i = 0; i < ps.size(); ++i)
        keep[i] = !(limit < key(i)) || ps[i].pareto;
    }
    std::vector<DesignPoint> kept;
    for (size_t i = 0; i < ps.size(); ++i)
      if (keep[i]) {
        b.localFront.push_back(std::exchange(ps[i].pareto, false));
        kept.push_back(std::move(ps[i]));
      }
    ps = std::move(kept);
  }
  for (DesignPoint& d : ps)
    d.id = designId(v_, d.dataflow, o_.constraints.elementBits,
                    memoryIdText(d.buffer, o_.constraints.memory));
  std::lock_guard<std::mutex> lock(mu_);
  pending_.emplace(index, std::move(b));
  for (auto it = pending_.begin(); it != pending_.end() && it->first == next_;
       it = pending_.erase(it), ++next_)
    take(it->second);
}

void Collector::take(Batch& b) {
  stats_.candidates += b.stats.candidates;
  stats_.byEntries += b.stats.byEntries;
  stats_.byFanout += b.stats.byFanout;
  stats_.byPorts += b.stats.byPorts;
  stats_.byBuffer += b.stats.byBuffer;
  stats_.tileShapes |= b.stats.tileShapes;
  stats_.byFit += b.stats.byFit;
  for (size_t i = 0; i < b.points.size(); ++i) {
    DesignPoint& d = b.points[i];
    d.order += designs_;
    if (o_.onDesign) o_.onDesign(d);
    if (o_.keepBest)
      fold(std::move(d), b.localFront.empty() || b.localFront[i]);
    else
      all_.push_back(std::move(d));
  }
  designs_ += b.designs;
  itemDesigns_.push_back(b.designs);
}

void Collector::fold(DesignPoint&& d, bool localFront) {
  // A design dominated within its batch is dominated: only the batch's front is checked.
  if (localFront) {
    const ParetoKey k = paretoKey(d.metrics, o_.objective == Objective::Area);
    if (std::none_of(frontKeys_.begin(), frontKeys_.end(),
                     [&](const ParetoKey& f) { return dominates(f, k); })) {
      size_t w = 0;
      for (size_t r = 0; r < front_.size(); ++r)
        if (!dominates(k, frontKeys_[r])) {
          if (w != r) front_[w] = std::move(front_[r]), frontKeys_[w] = frontKeys_[r];
          ++w;
        }
      front_.resize(w);
      frontKeys_.resize(w);
      front_.push_back(d);
      frontKeys_.push_back(k);
    }
  }
  // Only a design better than the worst of the best N so far can enter them.
  if (trimmed_ && best_.size() >= o_.keepBest && !better(d, best_[o_.keepBest - 1], o_.objective))
    return;
  best_.push_back(std::move(d));
  if (best_.size() >= 2 * o_.keepBest) trimBest();
}

void Collector::trimBest() {
  // Sorted, so that best_[keepBest - 1] is the threshold above.
  auto cmp = [&](const DesignPoint& a, const DesignPoint& b) { return better(a, b, o_.objective); };
  std::sort(best_.begin(), best_.end(), cmp);
  if (best_.size() > o_.keepBest) best_.resize(o_.keepBest);
  trimmed_ = true;
}

void Collector::finish(ExploreResult& res) {
  res.stats = stats_;
  res.stats.spaceTimeMatrices = 0; // set by the caller
  res.stats.designs = designs_;
  auto cmp = [&](const DesignPoint& a, const DesignPoint& b) { return better(a, b, o_.objective); };
  if (!o_.keepBest) {
    res.points = std::move(all_);
    markPareto(res.points, o_.objective == Objective::Area);
  } else {
    trimBest();
    // The best N come first under the total order; the rest of the front follows them.
    std::vector<size_t> onFront;
    for (const DesignPoint& f : front_)
      onFront.push_back(f.order);
    std::sort(onFront.begin(), onFront.end());
    res.points = std::move(best_);
    for (DesignPoint& d : res.points)
      d.pareto = std::binary_search(onFront.begin(), onFront.end(), d.order);
    std::vector<size_t> kept;
    for (const DesignPoint& d : res.points)
      kept.push_back(d.order);
    std::sort(kept.begin(), kept.end());
    for (DesignPoint& f : front_)
      if (!std::binary_search(kept.begin(), kept.end(), f.order)) {
        f.pareto = true;
        res.points.push_back(std::move(f));
      }
  }
  std::sort(res.points.begin(), res.points.end(), cmp);
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
