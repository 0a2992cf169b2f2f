// SPDX-License-Identifier: Apache-2.0
// The buffer-tiling search, best first (include/rubick/dse/BufferSearch.h). Every candidate's
// sizes get a lower bound of their cycles, whatever the order of the levels; candidates are then
// evaluated in the bound's order until the bound exceeds the best cycles found, so the result is
// the plain search's (the ranking is a strict total order and only strictly worse candidates are
// skipped). A transfer lasts the latency, its engine overhead and its units, the larger of its
// beats and write groups; with in0 the first tile's input units, out the last tile's output
// units, R and W the units of every distinct input and output tile once (each is loaded or
// stored at least once):
//
//   cycles >= sum over inputs (latency + load overhead) + in0
//             + sum over outputs (latency + store overhead) + out
//             + max(compute, R - in0, W - out)
//
// where compute is the core's phases, each running a full buffer tile (corePhase), since the
// phases between last at least that and at least the units each channel moves in them. A chunking's
// candidates are made only when its own bound comes out: its compute cycles plus the shortest first
// load and last store, which none of its candidates beats. Candidates over the bank budget are
// never made: bank bytes only grow with a loop's size, so a sweep of one loop from its smallest
// size up stops at the first over the budget.

#include "BufferSearchCommon.h"

#include "MemoryCommon.h"
#include "rubick/dse/TileBox.h"

#include <algorithm>
#include <tuple>

namespace rubick::dse::detail {
namespace {

// What tileBeats reads besides the statement and the loops' sizes: element bytes, bus width.
void appendBeatKey(const MemoryProblem& p, std::vector<int64_t>& key) {
  for (const BankUse& b : p.banks)
    key.push_back(b.movedBytes());
  key.push_back(p.memory.bytesPerCycle);
}

// What tileTransferCycles reads besides tileBeats': the DMA lanes, the latency and the rows.
void appendTransferKey(const MemoryProblem& p, std::vector<int64_t>& key) {
  appendBeatKey(p, key);
  for (const BankUse& b : p.banks)
    key.push_back(b.rowLanes ? -b.lanes - 1 : b.lanes);
  key.push_back(p.memory.latency);
  key.push_back(p.memory.rowBytes);
  key.push_back(p.memory.rowCycles);
}

// A transfer's cycles beyond its latency and overhead: the larger of its beats and write groups.
int64_t transferUnits(const MemoryProblem& p, size_t a, const std::vector<int64_t>& size) {
  const bool load = !p.view->accesses[a].write;
  return tileTransferCycles(p, a, size, load) - p.memory.latency -
         (load ? kLoadOverhead : kStoreOverhead);
}

BeatTables beatTables(const MemoryProblem& p, const Space& s) {
  const dataflow::StatementView& v = *p.view;
  const size_t n = v.extent.size();
  BeatTables tables;
  std::vector<TileBeats>& out = tables.access;
  out.resize(v.accesses.size());
  std::vector<int64_t> full(n, 1), last(n, 1), tiles(n, 1), size(n, 1);
  for (size_t a = 0; a < out.size(); ++a) {
    TileBeats& tb = out[a];
    tb.stride.assign(n, 0);
    std::vector<int> loops;
    int64_t count = 1;
    for (size_t l = 0; l < n; ++l)
      if (p.dep[a][l]) {
        loops.push_back(int(l));
        tb.stride[l] = count;
        count *= int64_t(s.sizes[l].size());
      }
    tb.first.resize(size_t(count));
    tb.last.resize(size_t(count));
    tb.least.resize(size_t(count));
    for (int64_t i = 0; i < count; ++i) {
      int64_t rest = i;
      for (int l : loops) {
        const int64_t e = v.extent[l], k = int64_t(s.sizes[l].size());
        full[l] = std::min(s.sizes[l][size_t(rest % k)], e);
        rest /= k;
        tiles[l] = ceilDiv(e, full[l]);
        last[l] = e - (tiles[l] - 1) * full[l];
      }
      // Every subset of its loops at their last tile, the others at one of their full ones.
      int64_t least = 0;
      const uint64_t all = (uint64_t(1) << loops.size()) - 1;
      for (uint64_t m = 0; m <= all; ++m) {
        int64_t times = 1;
        for (size_t j = 0; j < loops.size(); ++j) {
          const int l = loops[j];
          const bool atLast = (m >> j) & 1;
          size[l] = atLast ? last[l] : full[l];
          times *= atLast ? 1 : tiles[l] - 1;
        }
        // With every loop at its last tile or every one at a full tile, these are also the last
        // and the first tile.
        const bool needed = times || m == 0 || m == all;
        const int64_t b = needed ? transferUnits(p, a, size) : 0;
        least += times * b;
        if (m == 0) tb.first[size_t(i)] = b;
        if (m == all) tb.last[size_t(i)] = b;
      }
      tb.least[size_t(i)] = least;
    }
  }
  return tables;
}

// The tables of every loop's size choices, from the cache when it has them.
std::shared_ptr<const BeatTables> sharedBeatTables(const MemoryProblem& p, const Space& s,
                                                   BufferSearchCache* cache) {
  auto make = [&] { return beatTables(p, s); };
  std::vector<int64_t> key; // every loop's size choices, and appendBeatKey's
  for (const std::vector<int64_t>& sizes : s.sizes) {
    key.push_back(int64_t(sizes.size()));
    key.insert(key.end(), sizes.begin(), sizes.end());
  }
  appendTransferKey(p, key);
  return cached<BeatTables>(cache, key, make);
}

// Every order of tiling `t`'s sizes with its profile, from the cache when it has them; `key` is
// scratch.
std::shared_ptr<const SizeProfiles> sizeProfiles(const MemoryProblem& p, const BufferTiling& t,
                                                 ClosedForm& form, BufferSearchCache* cache,
                                                 std::vector<int64_t>& key) {
  auto make = [&] {
    SizeProfiles out;
    form.reset(p, t.size);
    const std::vector<std::vector<int>> os = orders(p, t);
    out.orders.reserve(os.size());
    for (const std::vector<int>& o : os)
      out.orders.push_back(form.profile(o));
    return out;
  };
  // What the profiles read besides the statement: sizes, array tile, and appendTransferKey's.
  key.assign(t.size.begin(), t.size.end());
  key.insert(key.end(), p.arrayTile.begin(), p.arrayTile.end());
  appendTransferKey(p, key);
  return cached<SizeProfiles>(cache, key, make);
}

// Per access, its bank bytes (bankBytes' terms) over the size choices of the loops it depends on,
// indexed as its TileBeats.
void bankTables(const MemoryProblem& p, const Space& s, const std::vector<TileBeats>& beats,
                std::vector<std::vector<int64_t>>& out) {
  const std::vector<int64_t>& extent = p.view->extent;
  out.resize(beats.size());
  for (size_t a = 0; a < beats.size(); ++a) {
    const BankUse& b = p.banks[a];
    const TileBeats& tb = beats[a];
    out[a].resize(tb.first.size());
    for (size_t i = 0; i < out[a].size(); ++i) {
      int64_t depth = b.span;
      for (int l : b.grow) {
        const std::vector<int64_t>& sizes = s.sizes[size_t(l)];
        const int64_t size = sizes[(i / size_t(tb.stride[size_t(l)])) % sizes.size()];
        depth *= ceilDiv(std::min(size, extent[size_t(l)]), p.arrayTile[size_t(l)]);
      }
      out[a][i] = 2 * b.ports * depth * b.bytes;
    }
  }
}

} // namespace

SearchResult searchBestFirst(const SearchInput& in, BufferSearchCache* cache) {
  const dataflow::StatementView& v = in.view;
  const Space& s = in.space;
  const size_t n = v.extent.size(), accesses = v.accesses.size();
  const std::shared_ptr<const BeatTables> tables = sharedBeatTables(in.problem(0), s, cache);
  const std::vector<TileBeats>& beats = tables->access;

  // The heap holds candidates (their sizes at[], per loop an index into s.sizes, kept in
  // `indices`) and chunkings whose candidates are not made yet (at == kLater), under a bound no
  // larger than any of their candidates': the compute cycles plus the shortest first load and
  // last store. Usually only a few chunkings and candidates come out before the bound passes the
  // best.
  struct Candidate {
    int64_t bound;
    uint32_t chunking;
    size_t at; // offset in `indices`
    int64_t bankBytes;
  };
  constexpr size_t kLater = ~size_t(0);
  auto later = [](const Candidate& a, const Candidate& b) { return a.bound > b.bound; };
  // The first tile's loads and the last one's stores without their beats.
  int64_t ends = 0;
  for (const dataflow::AccessView& a : v.accesses)
    ends += in.memory.latency + (a.write ? kStoreOverhead : kLoadOverhead);
  const int64_t minEnds = ends + 2; // at least a beat each way
  // Scratch kept between searches (explore runs thousands; their allocations cost more than the
  // search).
  thread_local std::vector<Candidate> heap;
  thread_local std::vector<size_t> indices;
  heap.clear();
  indices.clear();
  for (size_t ci = 0; ci < in.chunkings.size(); ++ci)
    heap.push_back({in.chunkings[ci].compute + minEnds, uint32_t(ci), kLater, 0});
  std::make_heap(heap.begin(), heap.end(), later);

  // The ranking needs cycles and bus bytes (from the orders' profiles, shared by every design
  // with the same sizes and array tile) and bank bytes (the same for every order); the winner's
  // metrics come from its profile as evaluateMemory's do.
  struct Best {
    int64_t cycles = 0, busBytes = 0, bankBytes = 0;
    size_t chunking = 0;
    BufferTiling tiling;
    std::shared_ptr<const SizeProfiles> profiles;
    size_t order = 0;
  };
  std::optional<Best> best;

  // Chunking ci's candidates within the budget that may still beat the best, with their bounds.
  // The time loops' sizes are the chunking's. The first other loop (`sweep`) goes from its
  // smallest size up and stops at the first over the budget (bank bytes only grow with a size);
  // the rest take every size.
  size_t sweep = n;
  for (size_t l = n; l-- > 0;)
    if (s.role[l] != Role::Time) sweep = l;
  std::vector<size_t> at(n, 0), table(accesses, 0); // per access: the index into its tables
  thread_local std::vector<std::vector<int64_t>> bank;
  std::vector<int64_t> sizeScratch(n);
  auto expand = [&](size_t ci) {
    const MemoryProblem& p = in.problem(ci);
    bankTables(p, s, beats, bank);
    // Per loop and size choice: buffer tiles along it, array tiles in one buffer tile.
    auto tilesOf = [&](size_t l, size_t i) {
      const int64_t e = v.extent[l], size = std::min(s.sizes[l][i], e);
      return std::pair{ceilDiv(e, size), ceilDiv(size, p.arrayTile[l])};
    };
    for (size_t l = 0; l < n; ++l)
      at[l] = 0;
    for (size_t i = 0; i < s.timeLoops.size(); ++i)
      at[size_t(s.timeLoops[i])] = in.chunkings[ci].pick[i];
    for (;;) {
      for (size_t a = 0; a < accesses; ++a) {
        table[a] = 0;
        for (size_t l = 0; l < n; ++l)
          if (l != sweep) table[a] += size_t(beats[a].stride[l]) * at[l];
      }
      int64_t phases = 1, full = 1; // of the loops but `sweep`
      for (size_t l = 0; l < n; ++l)
        if (l != sweep) {
          const auto [t, f] = tilesOf(l, at[l]);
          phases *= t, full *= f;
        }
      for (size_t k = sweep < n ? s.sizes[sweep].size() : 1; k-- > 0;) {
        int64_t bytes = 0, in0 = 0, out = 0, reads = 0, writes = 0;
        for (size_t a = 0; a < accesses; ++a) {
          const TileBeats& tb = beats[a];
          const size_t i = table[a] + (sweep < n ? size_t(tb.stride[sweep]) * k : 0);
          bytes += bank[a][i];
          (v.accesses[a].write ? out : in0) += v.accesses[a].write ? tb.last[i] : tb.first[i];
          (v.accesses[a].write ? writes : reads) += tb.least[i];
        }
        if (in.bankBudget && bytes > in.bankBudget) break;
        const auto [t, f] = sweep < n ? tilesOf(sweep, k) : std::pair<int64_t, int64_t>{1, 1};
        for (size_t l = 0; l < n; ++l)
          sizeScratch[l] = s.sizes[l][l == sweep ? k : at[l]];
        if (in.boxes &&
            !boxesFit(v, sizeScratch, in.memory.outputIndexDims, in.memory.outputSplitDims))
          continue;
        const int64_t core =
            phases * t * corePhaseLow(full * f, p.tileCycles, coreInterval(p, sizeScratch));
        const int64_t bound = ends + in0 + out + std::max({core, reads - in0, writes - out});
        if (best && bound > best->cycles) continue;
        if (sweep < n) at[sweep] = k;
        heap.push_back({bound, uint32_t(ci), indices.size(), bytes});
        std::push_heap(heap.begin(), heap.end(), later);
        indices.insert(indices.end(), at.begin(), at.end());
      }
      // The next sizes of the other loops (the first fastest).
      size_t l = 0;
      for (; l < n; ++l) {
        if (s.role[l] == Role::Time || l == sweep) continue;
        if (++at[l] < s.sizes[l].size()) break;
        at[l] = 0;
      }
      if (l == n) break;
    }
  };

  ClosedForm form;
  BufferTiling t;
  t.size.resize(n);
  std::vector<int64_t> key;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const Candidate c = heap.back();
    heap.pop_back();
    if (best && c.bound > best->cycles) break;
    if (c.at == kLater) {
      expand(c.chunking);
      continue;
    }
    const MemoryProblem& p = in.problem(c.chunking);
    for (size_t l = 0; l < n; ++l)
      t.size[l] = s.sizes[l][indices[c.at + l]];
    std::shared_ptr<const SizeProfiles> profiles = sizeProfiles(p, t, form, cache, key);
    const int64_t interval = coreInterval(p, t.size);
    for (size_t k = 0; k < profiles->orders.size(); ++k) {
      const OrderProfile& o = profiles->orders[k];
      bool chain = false;
      const int64_t cycles = o.cycles(p.tileCycles, interval, p.intervalCarry, &chain);
      const int64_t bus = o.busBeats * p.memory.bytesPerCycle;
      if (best && std::tie(cycles, bus, c.bankBytes, t.size, o.order) >=
                      std::tie(best->cycles, best->busBytes, best->bankBytes, best->tiling.size,
                               best->tiling.order))
        continue;
      best = Best{cycles,   bus, c.bankBytes, c.chunking, BufferTiling{t.size, o.order, chain},
                  profiles, k};
    }
  }
  if (!best) return {};
  const MemoryProblem& p = in.problem(best->chunking);
  return {true, best->chunking, best->tiling,
          profileMetrics(p, best->tiling, makeWalk(p, best->tiling),
                         best->profiles->orders[best->order])};
}

} // namespace rubick::dse::detail
