// SPDX-License-Identifier: Apache-2.0
// Choosing a design's buffer-level tiling (include/rubick/dse/BufferSearch.h): the candidates,
// the search's key, and the plain search that evaluates every candidate. The best-first search
// is in BufferSearchBestFirst.cpp, the cache in BufferSearchCache.cpp.

#include "BufferSearchCommon.h"

#include "rubick/dse/TileBox.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace rubick::dse {
namespace detail {
namespace {

using dataflow::Dataflow;

// ceil(n / B) for B = 1, 2, 4, ... below n, and n: largest first (into `out`).
void tileSizes(int64_t n, std::vector<int64_t>& out) {
  out.clear();
  out.reserve(66 - size_t(__builtin_clzll(uint64_t(n)))); // at most log2(n) + 2 values
  for (int64_t b = 1; b < n; b *= 2)
    out.push_back(ceilDiv(n, b));
  out.push_back(1);
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// chunked(), in place.
void chunkLoop(const dataflow::StatementView& v, Dataflow& d, int loop, int64_t chunk) {
  for (dataflow::InnerDim& in : d.inner)
    if (in.loop == loop) in.factor = chunk;
  if (chunk < v.extent[size_t(loop)]) d.outer.push_back({loop, chunk});
}

// `out` = `d` with every time loop cut into its chunk of `pick` (assigning into `out` reuses its
// storage).
void chunkInto(const dataflow::StatementView& v, const Dataflow& d, const Space& s,
               const std::vector<size_t>& pick, Dataflow& out) {
  out = d;
  for (size_t i = 0; i < s.timeLoops.size(); ++i)
    chunkLoop(v, out, s.timeLoops[i], s.sizes[size_t(s.timeLoops[i])][pick[i]]);
}

std::vector<Chunking> chunkings(const dataflow::StatementView& v, const Dataflow& d, const Space& s,
                                const std::vector<ir::OrientedEntry>& entries) {
  std::vector<Chunking> out;
  std::vector<size_t> pick(s.timeLoops.size(), 0);
  Dataflow scratch;
  for (;;) {
    Chunking c;
    c.pick = pick;
    chunkInto(v, d, s, pick, scratch);
    int64_t arrayTiles = 1; // in the whole loop space
    for (size_t l = 0; l < v.extent.size(); ++l) {
      int64_t tile = 1;
      for (const dataflow::InnerDim& in : scratch.inner)
        if (in.loop == int(l)) tile = in.factor;
      arrayTiles *= ceilDiv(v.extent[l], tile);
    }
    c.schedule = schedule(v, scratch, entries);
    // A lower bound of every buffer tiling's compute: one core run over all array tiles.
    c.compute = detail::coreRun(arrayTiles, c.schedule.tileCycles, c.schedule.intervalPlain);
    out.push_back(std::move(c));
    size_t i = 0;
    for (; i < pick.size(); ++i) {
      if (++pick[i] < s.sizes[size_t(s.timeLoops[i])].size()) break;
      pick[i] = 0;
    }
    if (i == pick.size()) break;
  }
  return out;
}

// The DMA lanes of access `a` (include/rubick/arch/DmaMap.h), from the array-level layout alone:
// consecutive elements along a tensor dimension reach different banks when the inner loop that
// indexes it moves the PE to another port of the entry, for as many values as that loop spans on
// the array. The engine takes the direction with more lanes (column lanes on a tie), at most one
// lane per bank. (An estimate beyond matrices: the plan derives the real lanes.)
void dmaLanes(const dataflow::StatementView& v, const Dataflow& d, const ir::OrientedEntry& e,
              size_t a, BankUse& b) {
  const dataflow::AccessView& av = v.accesses[a];
  const ir::EntryInfo& inf = ir::info(e.kind);
  auto spread = [&](size_t dim) {
    int64_t most = 1;
    for (size_t c = 0; c < d.k(); ++c) {
      if (av.coeffs[dim][size_t(d.inner[c].loop)] == 0) continue;
      const int64_t sx = d.s[0][c], sy = d.s[1][c];
      const bool moves = inf.omega[0][0] * sx + inf.omega[0][1] * sy != 0 ||
                         inf.omega[1][0] * sx + inf.omega[1][1] * sy != 0;
      if (moves) most = std::max(most, d.inner[c].factor);
    }
    return std::min(most, b.ports);
  };
  // A matrix's rows are its first dimension; a larger tensor's rows are whichever dimension its
  // tile's box makes them (dse/TileBox.h, different per tiling), so only column lanes count.
  const size_t dims = av.coeffs.size();
  const int64_t cols = dims ? spread(dims - 1) : 1, rows = dims == 2 ? spread(0) : 1;
  b.rowLanes = rows > cols;
  b.lanes = std::max(rows, cols);
}

// Everything the search reads besides the statement: equal keys, equal results. Per loop its
// role and factor (which give the sizes and the array tile of every chunking), per access its
// ports, element bytes and DMA lanes (the same in every chunking), per chunking the tile cycles
// and every access's bank words per array tile, the memory and the budget.
std::vector<int64_t> searchKey(const dataflow::StatementView& v, const Space& s,
                               const std::vector<Chunking>& cs,
                               const std::vector<ir::OrientedEntry>& entries,
                               const std::vector<int64_t>& elementBits, const Dataflow& d,
                               const MemorySystem& memory, int64_t bankBudget, bool prune) {
  std::vector<int64_t> k = {bankBudget,
                            prune,
                            memory.bytesPerCycle,
                            memory.latency,
                            memory.burstBytes,
                            memory.rowBytes,
                            memory.rowCycles,
                            memory.outputBytes,
                            memory.outputsFinal,
                            memory.prologueCycles,
                            memory.prologueBytes,
                            memory.prologueBufferBytes,
                            memory.outputOperandBytes,
                            memory.outputIndexDims,
                            memory.outputSplitDims,
                            int64_t(s.role.size()),
                            int64_t(entries.size()),
                            int64_t(cs.size())};
  k.push_back(int64_t(memory.lateOperandBytes.size()));
  k.insert(k.end(), memory.lateOperandBytes.begin(), memory.lateOperandBytes.end());
  for (size_t l = 0; l < s.role.size(); ++l) {
    k.push_back(int64_t(s.role[l]));
    k.push_back(s.factor[l]);
  }
  for (size_t a = 0; a < entries.size(); ++a) {
    BankUse b;
    b.ports = ir::ports(entries[a].kind, d.p, d.q);
    dmaLanes(v, d, entries[a], a, b);
    k.push_back(b.ports);
    k.push_back(elementBits[a]);
    k.push_back(b.rowLanes ? -b.lanes - 1 : b.lanes);
  }
  for (const Chunking& c : cs) {
    k.push_back(c.schedule.tileCycles);
    k.push_back(c.schedule.intervalPlain);
    k.push_back(c.schedule.intervalCarry);
    for (const TensorTiming& t : c.schedule.tensors)
      k.push_back(t.streaming ? t.teMax - t.teMin + 1 : 1);
  }
  return k;
}

} // namespace

Space searchSpace(const dataflow::StatementView& v, const Dataflow& d) {
  const size_t n = v.extent.size();
  Space s;
  s.role.assign(n, Role::Outer);
  s.factor.assign(n, 1);
  for (size_t c = 0; c < d.k(); ++c) {
    const int l = d.inner[c].loop;
    s.factor[l] = d.inner[c].factor;
    s.role[l] = d.s[0][c] != 0 || d.s[1][c] != 0 ? Role::Spatial : Role::Time;
  }
  s.sizes.resize(n);
  for (size_t l = 0; l < n; ++l) {
    if (s.role[l] == Role::Spatial) {
      tileSizes(ceilDiv(v.extent[l], s.factor[l]), s.sizes[l]);
      for (int64_t& m : s.sizes[l])
        m = std::min(m * s.factor[l], v.extent[l]);
    } else {
      tileSizes(v.extent[l], s.sizes[l]);
    }
    if (s.role[l] == Role::Time) s.timeLoops.push_back(int(l));
  }
  return s;
}

std::vector<std::vector<int>> orders(const MemoryProblem& p, const BufferTiling& t) {
  const dataflow::StatementView& v = *p.view;
  std::vector<std::vector<char>> sig;
  std::vector<std::vector<int>> groups;
  for (size_t l = 0; l < v.extent.size(); ++l) {
    if (t.size[l] >= v.extent[l]) continue;
    std::vector<char> s;
    for (size_t a = 0; a < v.accesses.size(); ++a)
      s.push_back(p.dep[a][l]);
    auto it = std::find(sig.begin(), sig.end(), s);
    if (it == sig.end()) {
      sig.push_back(s);
      groups.push_back({int(l)});
    } else {
      groups[size_t(it - sig.begin())].push_back(int(l));
    }
  }
  std::vector<size_t> perm(groups.size());
  for (size_t i = 0; i < perm.size(); ++i)
    perm[i] = i;
  std::vector<std::vector<int>> out;
  // With an epilogue, an order that takes an output's tile out before its reduction ends
  // (a loop it does not depend on outside one it does) is not built.
  auto final = [&](const std::vector<int>& o) {
    for (size_t a = 0; a < v.accesses.size(); ++a) {
      if (!v.accesses[a].write) continue;
      bool reduced = false;
      for (int l : o) {
        if (!p.dep[a][size_t(l)])
          reduced = true;
        else if (reduced)
          return false;
      }
    }
    return true;
  };
  do {
    std::vector<int> o;
    for (size_t g : perm)
      o.insert(o.end(), groups[g].begin(), groups[g].end());
    if (!p.memory.outputsFinal || final(o)) out.push_back(o);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return out;
}

MemoryProblem memoryProblem(const dataflow::StatementView& v, const Dataflow& d, const Schedule& s,
                            const std::vector<ir::OrientedEntry>& entries,
                            const std::vector<int64_t>& elementBits, const MemorySystem& memory) {
  MemoryProblem p;
  p.view = &v;
  p.memory = memory;
  p.arrayTile.assign(v.extent.size(), 1);
  for (const dataflow::InnerDim& in : d.inner)
    p.arrayTile[in.loop] = in.factor;
  p.tileCycles = s.tileCycles;
  p.interval = s.intervalPlain;
  p.intervalCarry = s.intervalCarry;
  for (const dataflow::OuterDim& o : d.outer) {
    p.outerLoops.push_back(o.loop);
    p.outerCarries.push_back(outerCarries(v, o.loop));
  }
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    BankUse b;
    b.ports = ir::ports(entries[a].kind, d.p, d.q);
    const TensorTiming& tt = s.tensors[a];
    b.span = tt.streaming ? tt.teMax - tt.teMin + 1 : 1;
    b.bytes = (elementBits[a] + 7) / 8;
    if (v.accesses[a].write) {
      b.memoryBytes = memory.outputBytes;
      b.bytes += memory.outputOperandBytes; // their banks hold the output's tile too
    }
    for (size_t l = 0; l < v.extent.size(); ++l) {
      bool dep = false;
      for (const IntVec& row : v.accesses[a].coeffs)
        dep |= row[l] != 0;
      if (dep) b.grow.push_back(int(l));
    }
    dmaLanes(v, d, entries[a], a, b);
    p.banks.push_back(std::move(b));
    p.dims.push_back(tensorDims(v, a));
    std::vector<char> dep(v.extent.size(), 0);
    for (int l : p.banks.back().grow)
      dep[l] = 1;
    p.dep.push_back(std::move(dep));
  }
  return p;
}

dataflow::Dataflow SearchInput::dataflow(size_t c) const {
  Dataflow out;
  chunkInto(view, design, space, chunkings[c].pick, out);
  return out;
}

const MemoryProblem& SearchInput::problem(size_t c) const {
  Chunking& ch = chunkings[c];
  if (!ch.problem)
    ch.problem = memoryProblem(view, dataflow(c), ch.schedule, entries, elementBits, memory);
  return *ch.problem;
}

SearchResult searchAll(const SearchInput& in) {
  const Space& s = in.space;
  const size_t n = in.view.extent.size();
  SearchResult best;
  auto rank = [](const SearchResult& r) {
    return std::tie(r.metrics.cycles, r.metrics.busBytes, r.metrics.bankBytes, r.tiling.size,
                    r.tiling.order);
  };
  for (size_t ci = 0; ci < in.chunkings.size(); ++ci) {
    const MemoryProblem& p = in.problem(ci);
    BufferTiling t;
    t.size = p.arrayTile; // time loops: their chunk; the others are set below
    std::vector<size_t> at(n, 0);
    for (;;) {
      for (size_t l = 0; l < n; ++l)
        if (s.role[l] != Role::Time) t.size[l] = s.sizes[l][at[l]];
      if ((!in.bankBudget || bankBytes(p, t) <= in.bankBudget) &&
          (!in.boxes ||
           boxesFit(in.view, t.size, in.memory.outputIndexDims, in.memory.outputSplitDims)))
        for (std::vector<int>& o : orders(p, t)) {
          t.order = std::move(o);
          SearchResult cand{true, ci, t, evaluateMemory(p, t)};
          if (!best.found || rank(cand) < rank(best)) best = std::move(cand);
        }
      size_t l = 0;
      for (; l < n; ++l) {
        if (s.role[l] == Role::Time) continue;
        if (++at[l] < s.sizes[l].size()) break;
        at[l] = 0;
      }
      if (l == n) break;
    }
  }
  return best;
}

} // namespace detail

MemoryProblem memoryProblem(const dataflow::StatementView& v, const dataflow::Dataflow& d,
                            const std::vector<ir::OrientedEntry>& entries,
                            const std::vector<int64_t>& elementBits, const MemorySystem& memory) {
  return detail::memoryProblem(v, d, schedule(v, d, entries), entries, elementBits, memory);
}

dataflow::Dataflow chunked(const dataflow::StatementView& v, const dataflow::Dataflow& d, int loop,
                           int64_t chunk) {
  dataflow::Dataflow out = d;
  detail::chunkLoop(v, out, loop, chunk);
  return out;
}

dataflow::Dataflow unchunked(const dataflow::StatementView& v, const dataflow::Dataflow& d) {
  dataflow::Dataflow out = d;
  const detail::Space s = detail::searchSpace(v, d);
  for (int l : s.timeLoops) {
    // chunkLoop appends the chunk's quotient last; an array tiling never cuts a time loop.
    auto it = std::find_if(out.outer.begin(), out.outer.end(),
                           [&](const dataflow::OuterDim& o) { return o.loop == l; });
    if (it == out.outer.end() || it->factor != s.factor[size_t(l)]) continue;
    out.outer.erase(it);
    for (dataflow::InnerDim& in : out.inner)
      if (in.loop == l) in.factor = v.extent[size_t(l)];
  }
  return out;
}

std::optional<BufferChoice> bestBufferTiling(const dataflow::StatementView& v,
                                             const dataflow::Dataflow& d,
                                             const std::vector<ir::OrientedEntry>& entries,
                                             const std::vector<int64_t>& elementBits,
                                             const MemorySystem& memory, int64_t bankBudget,
                                             bool prune, BufferSearchCache* cache) {
  if (cache && &cache->view() != &v)
    throw std::logic_error("buffer search cache used for another statement");
  const detail::Space s = detail::searchSpace(v, d);
  std::vector<detail::Chunking> cs = detail::chunkings(v, d, s, entries);
  // An epilogue's operand registers take their part of the budget first (1: nothing fits).
  if (bankBudget) bankBudget = std::max<int64_t>(1, bankBudget - memory.prologueBufferBytes);
  const detail::SearchInput in{
      v, d, s, cs, entries, elementBits, memory, bankBudget, boxesMayFail(v)};
  auto search = [&] { return prune ? detail::searchBestFirst(in, cache) : detail::searchAll(in); };
  const std::vector<int64_t> key =
      cache ? detail::searchKey(v, s, cs, entries, elementBits, d, memory, bankBudget, prune)
            : std::vector<int64_t>{};
  const std::shared_ptr<const detail::SearchResult> r =
      detail::cached<detail::SearchResult>(cache, key, search);
  if (!r->found) return std::nullopt;
  BufferTiling tiling = r->tiling;
  tiling.chain = r->metrics.chained; // whichever search found it
  return BufferChoice{in.dataflow(r->chunking), cs[r->chunking].schedule, tiling, r->metrics};
}

} // namespace rubick::dse
