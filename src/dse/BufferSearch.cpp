#include "rubick/dse/BufferSearch.h"

#include "MemoryCommon.h"

#include "rubick/dse/Schedule.h"

#include <algorithm>
#include <tuple>

namespace rubick::dse {
namespace {

using dataflow::Dataflow;

int64_t ceilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

// ceil(n / B) for B = 1, 2, 4, ... below n, and n: largest first.
std::vector<int64_t> tileSizes(int64_t n) {
  std::vector<int64_t> out;
  for (int64_t b = 1; b < n; b *= 2)
    out.push_back(ceilDiv(n, b));
  out.push_back(1);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

enum class Role { Spatial, Time, Outer };

// Every order of the loops with several tiles, loops read by the same tensors kept together
// in loop order.
std::vector<std::vector<int>> orders(const MemoryProblem& p, const BufferTiling& t) {
  const dataflow::StatementView& v = *p.view;
  std::vector<std::vector<char>> sig;
  std::vector<std::vector<int>> groups;
  for (size_t l = 0; l < v.extent.size(); ++l) {
    if (t.size[l] >= v.extent[l]) continue;
    std::vector<char> s;
    for (const dataflow::AccessView& a : v.accesses) {
      bool dep = false;
      for (const IntVec& row : a.coeffs)
        dep |= row[l] != 0;
      s.push_back(dep);
    }
    auto it = std::find(sig.begin(), sig.end(), s);
    if (it == sig.end()) {
      sig.push_back(s);
      groups.push_back({int(l)});
    } else {
      groups[it - sig.begin()].push_back(int(l));
    }
  }
  std::vector<size_t> perm(groups.size());
  for (size_t i = 0; i < perm.size(); ++i)
    perm[i] = i;
  std::vector<std::vector<int>> out;
  do {
    std::vector<int> o;
    for (size_t g : perm)
      o.insert(o.end(), groups[g].begin(), groups[g].end());
    out.push_back(o);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return out;
}

auto rankKey(const BufferChoice& c) {
  return std::tie(c.metrics.cycles, c.metrics.busBytes, c.metrics.bankBytes, c.tiling.size,
                  c.tiling.order);
}

} // namespace

MemoryProblem memoryProblem(const dataflow::StatementView& v, const Dataflow& d,
                            const std::vector<ir::OrientedEntry>& entries,
                            const std::vector<int64_t>& elementBits, const MemorySystem& memory) {
  MemoryProblem p;
  p.view = &v;
  p.memory = memory;
  p.arrayTile.assign(v.extent.size(), 1);
  for (const dataflow::InnerDim& in : d.inner)
    p.arrayTile[in.loop] = in.factor;
  const Schedule s = schedule(v, d, entries);
  p.tileCycles = s.tileCycles;
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    BankUse b;
    b.ports = ir::ports(entries[a].kind, d.p, d.q);
    const TensorTiming& tt = s.tensors[a];
    b.span = tt.streaming ? tt.teMax - tt.teMin + 1 : 1;
    b.bytes = (elementBits[a] + 7) / 8;
    for (size_t l = 0; l < v.extent.size(); ++l) {
      bool dep = false;
      for (const IntVec& row : v.accesses[a].coeffs)
        dep |= row[l] != 0;
      if (dep) b.grow.push_back(int(l));
    }
    p.banks.push_back(std::move(b));
    p.dims.push_back(detail::tensorDims(v, a));
    std::vector<char> dep(v.extent.size(), 0);
    for (int l : p.banks.back().grow)
      dep[l] = 1;
    p.dep.push_back(std::move(dep));
  }
  return p;
}

Dataflow chunked(const dataflow::StatementView& v, const Dataflow& d, int loop, int64_t chunk) {
  Dataflow out = d;
  for (dataflow::InnerDim& in : out.inner)
    if (in.loop == loop) in.factor = chunk;
  if (chunk < v.extent[loop]) out.outer.push_back({loop, chunk});
  return out;
}

std::optional<BufferChoice> bestBufferTiling(const dataflow::StatementView& v, const Dataflow& d,
                                             const std::vector<ir::OrientedEntry>& entries,
                                             const std::vector<int64_t>& elementBits,
                                             const MemorySystem& memory, int64_t bankBudget,
                                             bool prune) {
  const size_t n = v.extent.size();
  std::vector<Role> role(n, Role::Outer);
  std::vector<int64_t> factor(n, 1);
  for (size_t c = 0; c < d.k(); ++c) {
    const int l = d.inner[c].loop;
    factor[l] = d.inner[c].factor;
    role[l] = d.s[0][c] != 0 || d.s[1][c] != 0 ? Role::Spatial : Role::Time;
  }
  // Per loop, the sizes a buffer tile may give it.
  std::vector<std::vector<int64_t>> sizes(n);
  std::vector<int> timeLoops;
  for (size_t l = 0; l < n; ++l) {
    if (role[l] == Role::Spatial) {
      for (int64_t m : tileSizes(ceilDiv(v.extent[l], factor[l])))
        sizes[l].push_back(std::min(m * factor[l], v.extent[l]));
    } else {
      sizes[l] = tileSizes(v.extent[l]);
    }
    if (role[l] == Role::Time) timeLoops.push_back(int(l));
  }

  // The chunkings of the time loops, each with its problem and compute cycles.
  struct Chunking {
    MemoryProblem problem;
    Dataflow dataflow;
    int64_t compute = 0;
  };
  std::vector<Chunking> chunkings;
  std::vector<size_t> pick(timeLoops.size(), 0);
  for (;;) {
    Chunking c;
    c.dataflow = d;
    for (size_t i = 0; i < timeLoops.size(); ++i)
      c.dataflow = chunked(v, c.dataflow, timeLoops[i], sizes[timeLoops[i]][pick[i]]);
    c.problem = memoryProblem(v, c.dataflow, entries, elementBits, memory);
    c.compute = detail::arrayTiles(c.problem, v.extent) * c.problem.tileCycles;
    chunkings.push_back(std::move(c));
    size_t i = 0;
    for (; i < pick.size(); ++i) {
      if (++pick[i] < sizes[timeLoops[i]].size()) break;
      pick[i] = 0;
    }
    if (i == pick.size()) break;
  }
  if (prune)
    std::stable_sort(chunkings.begin(), chunkings.end(),
                     [](const Chunking& a, const Chunking& b) { return a.compute < b.compute; });

  bool hasInput = false, hasOutput = false;
  for (const dataflow::AccessView& a : v.accesses)
    (a.write ? hasOutput : hasInput) = true;
  const int64_t minEnds =
      (hasInput ? memory.latency + 1 : 0) + (hasOutput ? memory.latency + 1 : 0);

  std::optional<BufferChoice> best;
  for (Chunking& c : chunkings) {
    if (prune && best && c.compute + minEnds > best->metrics.cycles) break;
    const MemoryProblem& p = c.problem;
    BufferTiling t;
    t.size = p.arrayTile; // time loops: their chunk; the others are set below
    std::vector<size_t> at(n, 0);
    for (;;) {
      for (size_t l = 0; l < n; ++l)
        if (role[l] != Role::Time) t.size[l] = sizes[l][at[l]];
      bool skip = bankBudget && bankBytes(p, t) > bankBudget;
      if (!skip && prune && best) {
        // The first load and the last store bound the cycles from below, whatever the order.
        std::vector<int64_t> full(n), last(n);
        for (size_t l = 0; l < n; ++l) {
          full[l] = std::min(t.size[l], v.extent[l]);
          last[l] = v.extent[l] - (ceilDiv(v.extent[l], full[l]) - 1) * full[l];
        }
        int64_t in0 = 0, out = 0;
        for (size_t a = 0; a < v.accesses.size(); ++a)
          (v.accesses[a].write ? out : in0) += tileBeats(p, a, v.accesses[a].write ? last : full);
        skip = c.compute + detail::transferCycles(p, in0) + detail::transferCycles(p, out) >
               best->metrics.cycles;
      }
      if (!skip)
        for (std::vector<int>& order : orders(p, t)) {
          t.order = order;
          BufferChoice cand{c.dataflow, t, evaluateMemory(p, t)};
          if (!best || rankKey(cand) < rankKey(*best)) best = std::move(cand);
        }
      size_t l = 0;
      for (; l < n; ++l) {
        if (role[l] == Role::Time) continue;
        if (++at[l] < sizes[l].size()) break;
        at[l] = 0;
      }
      if (l == n) break;
    }
  }
  return best;
}

} // namespace rubick::dse
