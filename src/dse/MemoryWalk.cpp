// The memory model tile by tile: the reference that tests compare evaluateMemory against.

#include "MemoryCommon.h"

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
  std::vector<int64_t> in(n + 1, 0), out(n, 0); // beats read for tile s, written after tile s
  for (size_t s = 0; s < n; ++s) {
    const std::vector<int64_t> size = sizes(tiles[s]);
    for (size_t a = 0; a < accesses; ++a) {
      const bool changed = s == 0 || key(a, tiles[s]) != key(a, tiles[s - 1]);
      const bool leaves = s + 1 == n || key(a, tiles[s]) != key(a, tiles[s + 1]);
      const int64_t b = tileBeats(p, a, size);
      if (!v.accesses[a].write) {
        if (changed) in[s] += b, m.tensors[a].readBytes += b * beatBytes;
        continue;
      }
      if (changed && !visited[a].insert(key(a, tiles[s])).second)
        in[s] += b, m.tensors[a].readBytes += b * beatBytes;
      if (leaves) out[s] += b, m.tensors[a].writeBytes += b * beatBytes;
    }
  }
  int64_t cycles = detail::transferCycles(p, in[0]) + detail::transferCycles(p, out[n - 1]);
  int64_t transferTotal = cycles;
  for (size_t s = 0; s < n; ++s) {
    const int64_t compute = detail::arrayTiles(p, sizes(tiles[s])) * p.tileCycles;
    const int64_t transfer = detail::transferCycles(p, in[s + 1] + (s ? out[s - 1] : 0));
    cycles += std::max(compute, transfer);
    m.computeCycles += compute;
    transferTotal += transfer;
  }
  m.cycles = cycles;
  m.memoryBound = transferTotal > m.computeCycles;
  detail::finishMetrics(p, t, w, m);
  return m;
}

} // namespace rubick::dse
