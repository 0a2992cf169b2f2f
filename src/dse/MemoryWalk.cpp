// SPDX-License-Identifier: Apache-2.0
// The memory model tile by tile: the reference that tests compare evaluateMemory against.

#include "MemoryCommon.h"

#include <algorithm>
#include <set>

namespace rubick::dse {

MemoryMetrics walkMemory(const MemoryProblem& p, const BufferTiling& t) {
  const detail::Walk w = detail::makeWalk(p, t);
  const dataflow::StatementView& v = *p.view;
  const size_t levels = w.levels.size(), accesses = v.accesses.size();
  const int64_t beatBytes = p.memory.bytesPerCycle;
  MemoryMetrics m;
  m.bufferTiles = w.tiles;
  m.tensors.resize(accesses);

  // Every tile's index per level, in walk order.
  std::vector<std::vector<int64_t>> tiles;
  std::vector<int64_t> idx(levels, 0);
  for (;;) {
    tiles.push_back(idx);
    int i = int(levels) - 1;
    for (; i >= 0; --i) {
      if (++idx[i] < w.levels[i].tiles) break;
      idx[i] = 0;
    }
    if (i < 0) break;
  }
  auto sizes = [&](const std::vector<int64_t>& at) {
    std::vector<int64_t> s = w.full;
    for (size_t i = 0; i < levels; ++i)
      s[w.levels[i].loop] = at[i] == w.levels[i].tiles - 1 ? w.levels[i].last : w.levels[i].full;
    return s;
  };
  // The indices of the levels an access depends on: its tile.
  auto key = [&](size_t a, const std::vector<int64_t>& at) {
    std::vector<int64_t> k;
    for (size_t i = 0; i < levels; ++i)
      if (w.dep[a][w.levels[i].loop]) k.push_back(at[i]);
    return k;
  };
  std::vector<std::set<std::vector<int64_t>>> visited(accesses);
  const size_t n = tiles.size();
  // Per tile s: which accesses are loaded for it, and stored after it.
  std::vector<std::vector<char>> load(n, std::vector<char>(accesses, 0)), store = load;
  std::vector<char> late(n, 0); // an epilogue's full operands load for tile s in its phase
  for (size_t s = 0; s < n; ++s) {
    const std::vector<int64_t> size = sizes(tiles[s]);
    for (size_t a = 0; a < accesses; ++a) {
      const bool changed = s == 0 || key(a, tiles[s]) != key(a, tiles[s - 1]);
      if (v.accesses[a].write && changed && !p.memory.lateOperandBytes.empty()) {
        late[s] = 1;
        for (int64_t eb : p.memory.lateOperandBytes)
          m.tensors[a].readBytes += tileBeats(p, a, size, eb) * beatBytes;
      }
      const bool leaves = s + 1 == n || key(a, tiles[s]) != key(a, tiles[s + 1]);
      const int64_t b = tileBeats(p, a, size);
      if (!v.accesses[a].write) {
        if (changed) load[s][a] = 1, m.tensors[a].readBytes += b * beatBytes;
        continue;
      }
      // Partial sums written out before come back; with `+=` its start values on the first
      // visit too.
      const bool seen = !visited[a].insert(key(a, tiles[s])).second;
      if (changed && (seen || v.accumulates))
        load[s][a] = 1, m.tensors[a].readBytes += b * beatBytes;
      if (leaves) store[s][a] = 1, m.tensors[a].writeBytes += b * beatBytes;
    }
  }
  // The phases: the first tile's loads; per tile its core, the previous tile's stores and the
  // next tile's loads (a reload after its own tensor's store); the last tile's stores.
  // Every tile runs the full buffer tile's array tiles (edge tiles are padded).
  const int64_t fullTiles = detail::arrayTiles(p, w.full);
  const int64_t interval = detail::coreInterval(p, t.size);
  const int64_t core = detail::corePhase(fullTiles, p.tileCycles, interval);
  const int64_t cc = detail::chainedCorePhase(fullTiles, interval);
  const int64_t g = detail::chainGate(p.tileCycles, interval);
  auto gated = [g](int64_t x) { return x > 0 ? g + x : 0; };
  int64_t cycles = 0, chainCycles = 0, transferTotal = 0;
  for (size_t k = 0; k <= n + 1; ++k) { // phase k - 1
    int64_t loads = 0, stores = 0;
    std::vector<int64_t> storeEnd(accesses, -1);
    if (k >= 2)
      for (size_t a = 0; a < accesses; ++a)
        if (store[k - 2][a])
          storeEnd[a] = stores += tileTransferCycles(p, a, sizes(tiles[k - 2]), false);
    if (k < n)
      for (size_t a = 0; a < accesses; ++a)
        if (load[k][a])
          loads = std::max(loads, storeEnd[a]) + tileTransferCycles(p, a, sizes(tiles[k]), true);
    const bool compute = k >= 1 && k <= n;
    // After them, the full operands of the tile this phase computes (the output is access 0).
    if (compute && late[k - 1])
      for (int64_t eb : p.memory.lateOperandBytes)
        loads += tileTransferCycles(p, 0, sizes(tiles[k - 1]), true, eb);
    cycles += std::max({compute ? core : 0, loads, stores});
    // Chained runs: the phases after the first tile's wait for the previous run's drain.
    chainCycles += k <= 1 ? std::max({compute ? cc : 0, loads, stores})
                          : std::max({compute ? cc : 0, gated(loads), gated(stores)});
    transferTotal += std::max(loads, stores);
    if (compute) m.computeCycles += detail::coreRun(fullTiles, p.tileCycles, interval);
  }
  bool outputsMove = !w.levels.empty();
  for (size_t a = 0; a < accesses && outputsMove; ++a)
    if (v.accesses[a].write && !w.dep[a][size_t(w.levels.back().loop)] &&
        !detail::severalArrayTiles(p, w.full, [&](int l) { return w.dep[a][size_t(l)] != 0; }))
      outputsMove = false;
  m.chained = detail::mayChain(int64_t(n), fullTiles, p.tileCycles, interval, p.intervalCarry,
                               outputsMove) &&
              chainCycles < cycles;
  m.cycles = m.chained ? chainCycles : cycles;
  // Chained runs fill and drain the array once for all buffer tiles.
  if (m.chained) m.computeCycles = int64_t(n) * fullTiles * interval + p.tileCycles - interval;
  m.memoryBound = transferTotal > m.computeCycles;
  detail::finishMetrics(p, t, w, m);
  return m;
}

} // namespace rubick::dse
