// SPDX-License-Identifier: Apache-2.0
// The PIM search (include/rubick/dse/Pim.h, docs/pim.md, "The model"): every spread of the
// loops over the units; per spread one unit's share, explored on the unit's array and costed
// with its banks; the host's part added.

#include "rubick/dse/Pim.h"

#include "MemoryCommon.h"

#include "rubick/support/Unsupported.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace rubick::dse {

using detail::ceilDiv;

namespace {

// Every vector of per-loop unit counts whose product is `units`, each dividing it and at most
// the loop's extent, in lexicographic order of the counts.
std::vector<std::vector<int64_t>> spreads(const IntVec& extent, int64_t units) {
  std::vector<std::vector<int64_t>> out;
  std::vector<int64_t> cur(extent.size(), 1);
  std::function<void(size_t, int64_t)> rec = [&](size_t l, int64_t left) {
    if (l == extent.size()) {
      if (left == 1) out.push_back(cur);
      return;
    }
    for (int64_t d = 1; d <= left && d <= extent[l]; ++d) {
      if (left % d != 0) continue;
      cur[l] = d;
      rec(l + 1, left / d);
    }
    cur[l] = 1;
  };
  rec(0, units);
  return out;
}

std::string spreadText(const dataflow::StatementView& v, const std::vector<int64_t>& u) {
  std::string s;
  for (size_t l = 0; l < u.size(); ++l)
    if (u[l] > 1) s += v.loops[l] + std::to_string(u[l]);
  return s.empty() ? "1" : s;
}

bool dependsOn(const dataflow::AccessView& a, size_t loop) {
  for (const IntVec& row : a.coeffs)
    if (row[loop] != 0) return true;
  return false;
}

// One unit's share: every spread loop cut to its largest part; the tensors' sizes become the
// index ranges the share reaches (each unit's data lies in its own banks).
dataflow::StatementView share(const dataflow::StatementView& v, const std::vector<int64_t>& u) {
  dataflow::StatementView w = v;
  for (size_t l = 0; l < u.size(); ++l)
    w.extent[l] = ceilDiv(v.extent[l], u[l]);
  for (dataflow::AccessView& a : w.accesses)
    a.shape.clear();
  // The share is another computation: its designs get IDs of their own.
  w.signature += " | share";
  for (int64_t e : w.extent)
    w.signature += " " + std::to_string(e);
  return w;
}

// The bytes of one element of access `a` as stored (o's element widths, else the program's).
int64_t elementBytes(const dataflow::StatementView& v, const ExploreOptions& o, size_t a) {
  const std::vector<int64_t>& bits = o.constraints.elementBits;
  const int64_t b = a < bits.size() && bits[a] > 0 ? bits[a] : v.accesses[a].elementBits;
  return std::max<int64_t>(1, (b + 7) / 8);
}

int64_t elements(const dataflow::StatementView& v, size_t a) {
  int64_t n = 1;
  for (int64_t d : detail::tensorDims(v, a))
    n *= d;
  return n;
}

// What one spread fixes for every unit design of it.
struct Spread {
  std::vector<int64_t> units;
  std::vector<char> split; // per access: it depends on a spread loop (each unit has its own)
  int64_t reduceUnits = 1; // units along spread loops the output does not depend on
};

// A unit design costed: cycles of one unit, its bank traffic and rows, where each access lives.
struct UnitCost {
  int64_t cycles = 0, bankBytes = 0, activates = 0;
  std::vector<PimPlacement> placement;
};

// A stream unit's design (the array reads its banks in place, docs/pim.md): split inputs
// stream from the banks; outputs, then shared inputs, take the unit's buffer while it has
// room, a shared input the broadcast buffer first (when it fits and its ports fit the
// broadcast rate); the rest stream from the banks too, in the order the array reads them.
UnitCost streamCost(const PimSystem& s, const Spread& sp, const DesignPoint& d,
                    const dataflow::StatementView& w, const std::vector<int64_t>& bytes) {
  const size_t n = d.metrics.tensors.size();
  UnitCost c;
  c.placement.assign(n, PimPlacement::banks);
  int64_t room = s.bufferBytes, streamed = 0;
  auto take = [&](size_t a) {
    const TensorMetrics& t = d.metrics.tensors[a];
    if (t.bufferBytes > room) return false;
    room -= t.bufferBytes;
    c.placement[a] = PimPlacement::buffer;
    return true;
  };
  for (size_t a = 0; a < n; ++a)
    if (d.metrics.tensors[a].output) take(a);
  for (size_t a = 0; a < n; ++a) {
    const TensorMetrics& t = d.metrics.tensors[a];
    if (t.output || sp.split[a] || s.units == 1) continue;
    if (s.broadcastBytes >= t.bufferBytes && t.ports * bytes[a] <= s.broadcastBytesPerCycle)
      c.placement[a] = PimPlacement::broadcast;
    else if (!take(a))
      c.placement[a] = PimPlacement::replicated;
  }
  int64_t writeColumns = 0;
  for (size_t a = 0; a < n; ++a) {
    const PimPlacement p = c.placement[a];
    if (p != PimPlacement::banks && p != PimPlacement::replicated) continue;
    // The words the banks deliver (or take): the core's reads or writes, in its order.
    const int64_t moved = bankReads(w, d, a) * bytes[a];
    streamed += moved;
    if (d.metrics.tensors[a].output) writeColumns += ceilDiv(moved, s.bank.bytesPerCycle);
  }
  const PimStream run = streamRun(s, d.metrics.latency, streamed, writeColumns);
  c.cycles = run.cycles;
  c.bankBytes = streamed;
  c.activates = run.rows;
  return c;
}

// A dma unit's design (a memory-system design whose memory is its banks): every tensor moves
// through them; shared inputs are copies in every unit's banks.
UnitCost dmaCost(const PimSystem& s, const Spread& sp, const DesignPoint& d,
                 const dataflow::StatementView& w, const std::vector<int64_t>& bytes) {
  UnitCost c;
  c.cycles = d.memory.cycles;
  MemoryProblem p;
  p.view = &w;
  p.memory = unitMemory(s);
  for (int64_t b : bytes) {
    BankUse u;
    u.bytes = b;
    p.banks.push_back(u);
  }
  for (size_t a = 0; a < bytes.size(); ++a) {
    // With one unit nothing is spread, and its banks hold the whole of every tensor.
    c.placement.push_back(w.accesses[a].write || sp.split[a] || s.units == 1
                              ? PimPlacement::banks
                              : PimPlacement::replicated);
    // What the access moves, and the rows that opens: its transfers counted in full tiles,
    // each opening the rows of one.
    const TensorTraffic& t = d.memory.tensors[a];
    const int64_t moved = t.readBytes + t.writeBytes;
    c.bankBytes += moved;
    const int64_t tileBytes = tileBeats(p, a, d.buffer.size) * p.memory.bytesPerCycle;
    if (tileBytes > 0) c.activates += ceilDiv(moved, tileBytes) * tileRows(p, a, d.buffer.size);
  }
  return c;
}

} // namespace

int64_t hostOnlyCycles(const dataflow::StatementView& v, const PimSystem& s,
                       const ExploreOptions& o) {
  int64_t bytes = 0;
  for (size_t a = 0; a < v.accesses.size(); ++a)
    bytes += elements(v, a) * elementBytes(v, o, a);
  return ceilDiv(bytes, s.hostBytesPerCycle);
}

// Unit designs of a spread replayed when the hardware's replay is given: the first by the closed
// form (a replay costs a walk of the core's cycles).
constexpr size_t kPimReplayed = 4;

PimExploreResult explorePim(const dataflow::StatementView& v, const PimSystem& s,
                            const ExploreOptions& o, const PimExact& exact) {
  PimExploreResult r;
  ExploreOptions uo = o;
  uo.constraints.arrays = s.arrays;
  uo.objective = Objective::Latency;
  uo.onDesign = nullptr;
  uo.progress = nullptr;
  if (s.access == PimAccess::dma) {
    uo.constraints.bufferBytes = s.bufferBytes;
    uo.constraints.memory = unitMemory(s);
    uo.keepBest = 1;
  } else {
    // Each design's fit is checked here (only part of it takes the unit's buffer).
    uo.constraints.bufferBytes = 0;
    uo.constraints.memory = {};
    uo.keepBest = 0;
  }
  const size_t n = v.extent.size(), accesses = v.accesses.size();
  std::vector<int64_t> bytes, tensorBytes;
  for (size_t a = 0; a < accesses; ++a) {
    bytes.push_back(elementBytes(v, o, a));
    tensorBytes.push_back(elements(v, a) * bytes[a]);
  }
  int64_t macs = 1;
  for (int64_t e : v.extent)
    macs *= e;

  for (const std::vector<int64_t>& u : spreads(v.extent, s.units)) {
    ++r.spreads;
    Spread sp;
    sp.units = u;
    for (size_t a = 0; a < accesses; ++a) {
      bool split = false;
      for (size_t l = 0; l < n; ++l)
        split |= u[l] > 1 && dependsOn(v.accesses[a], l);
      sp.split.push_back(split);
    }
    for (size_t l = 0; l < n; ++l)
      if (u[l] > 1 && !dependsOn(v.accesses[0], l)) sp.reduceUnits *= u[l];
    const dataflow::StatementView w = share(v, u);
    ExploreResult er = explore(w, uo);
    r.unitDesigns += er.stats.designs;

    // The unit designs by the closed form: fewest cycles, then the least bank traffic, then ID.
    std::vector<std::pair<UnitCost, const DesignPoint*>> ranked;
    for (const DesignPoint& d : er.points)
      ranked.push_back({s.access == PimAccess::dma ? dmaCost(s, sp, d, w, bytes)
                                                   : streamCost(s, sp, d, w, bytes),
                        &d});
    if (ranked.empty()) continue;
    auto byModel = [](const auto& a, const auto& b) {
      return std::tie(a.first.cycles, a.first.bankBytes, a.second->id) <
             std::tie(b.first.cycles, b.first.bankBytes, b.second->id);
    };
    // With the hardware's replay, the first few by the closed form are replayed and the
    // fastest taken (the closed form can be off where rows or write columns dominate).
    const size_t tries = exact ? std::min<size_t>(kPimReplayed, ranked.size()) : 1;
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(tries),
                      ranked.end(), byModel);
    std::optional<UnitCost> best;
    const DesignPoint* bestPoint = nullptr;
    int64_t bestCycles = 0;
    bool bestExact = false;
    for (size_t k = 0; k < tries; ++k) {
      PimDesign probe;
      probe.spread = u;
      probe.share = w;
      probe.unit = *ranked[k].second;
      probe.placement = ranked[k].first.placement;
      const int64_t x = exact ? exact(probe) : -1;
      const int64_t cycles = x >= 0 ? x : ranked[k].first.cycles;
      if (best && cycles >= bestCycles) continue;
      best = ranked[k].first;
      bestPoint = ranked[k].second;
      bestCycles = cycles;
      bestExact = x >= 0;
    }

    PimDesign d;
    d.spread = u;
    d.share = w;
    d.unit = *bestPoint;
    d.id = d.unit.id + "/" + spreadText(v, u);
    d.placement = best->placement;
    d.reduceUnits = sp.reduceUnits;
    d.macs = macs;
    d.modelUnitCycles = best->cycles;
    d.unitCycles = bestCycles;
    d.exact = bestExact;
    d.bankBytes = s.units * best->bankBytes;
    d.activates = s.units * best->activates;
    // Inputs split over the units (and every input of a single unit) are resident: placed in
    // the banks before the run, as weights or a KV cache are. The host writes the inputs every
    // unit shares once per run, to every unit at once (wherever they are placed), and reads
    // the outputs after it (each unit's partial sums, when they are summed).
    int64_t bankCompulsory = 0;
    for (size_t a = 0; a < accesses; ++a) {
      if (v.accesses[a].write)
        d.hostOutCycles += ceilDiv(tensorBytes[a] * sp.reduceUnits, s.hostBytesPerCycle);
      else if (!sp.split[a] && s.units > 1)
        d.hostInCycles += ceilDiv(tensorBytes[a], s.hostBytesPerCycle);
      else if (d.placement[a] == PimPlacement::banks)
        bankCompulsory += tensorBytes[a];
    }
    d.cycles = d.hostInCycles + d.unitCycles + d.hostOutCycles;
    const double aggregate = double(s.units * s.bank.bytesPerCycle);
    const double peak = double(s.units * unitPes(s));
    d.bankFraction = double(d.bankBytes) / (double(d.cycles) * aggregate);
    // The roofline of the banks: the units' peak, or the aggregate bank rate times the MACs per
    // byte that must come from the banks (the split inputs, each element once).
    d.intensity = bankCompulsory > 0 ? double(macs) / double(bankCompulsory) : 0;
    d.attainable = bankCompulsory > 0 ? std::min(peak, aggregate * d.intensity) : peak;
    d.roofline = double(macs) / double(d.cycles) / d.attainable;
    const double columns = double(d.bankBytes) / double(s.bank.bytesPerCycle);
    d.rowHitRate = columns > 0 ? std::max(0.0, 1 - double(d.activates) / columns) : 0;
    d.utilization = double(macs) / (double(d.cycles) * peak);
    r.designs.push_back(std::move(d));
  }
  std::sort(r.designs.begin(), r.designs.end(), [](const PimDesign& a, const PimDesign& b) {
    return std::tie(a.cycles, a.bankBytes, a.id) < std::tie(b.cycles, b.bankBytes, b.id);
  });
  return r;
}

} // namespace rubick::dse

namespace rubick::dse {

PimDesign selectPimDesign(const dataflow::StatementView& v, const PimSystem& s,
                          const ExploreOptions& o, const std::optional<std::string>& point,
                          const std::string& command, const PimExact& exact) {
  PimExploreResult r = explorePim(v, s, o, exact);
  if (r.designs.empty())
    throw Error(command, "no PIM design fits the target's units (explore lists none)");
  if (!point) return std::move(r.designs.front());
  for (PimDesign& d : r.designs)
    if (d.id == *point) return std::move(d);
  std::string ids;
  for (size_t i = 0; i < r.designs.size() && i < 5; ++i)
    ids += (i ? ", " : "") + r.designs[i].id;
  throw Error("--point", "no PIM design '" + *point + "' on this target; explore lists " +
                             std::to_string(r.designs.size()) + " (the first: " + ids + ")");
}

std::vector<PimDesign> selectPimDesigns(const dataflow::StatementView& v, const PimSystem& s,
                                        const ExploreOptions& o,
                                        const std::optional<std::string>& point, bool all,
                                        const std::string& command, const PimExact& exact) {
  if (!all) return {selectPimDesign(v, s, o, point, command, exact)};
  PimExploreResult r = explorePim(v, s, o, exact);
  if (r.designs.empty())
    throw Error(command, "no PIM design fits the target's units (explore lists none)");
  return std::move(r.designs);
}

} // namespace rubick::dse
