// The memory model in closed form (include/rubick/dse/Memory.h). Tiles are grouped by the class
// of each level's index (first, middle, next to last, last): within a class every term of the
// cycle sum is the same, so the sum costs at most 4^levels evaluations, whatever the tile count.

#include "MemoryCommon.h"

#include <stdexcept>

namespace rubick::dse {
namespace detail {
namespace {

int64_t ceilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

} // namespace

// Declared sizes, or (for hand-built views) the index range the loops reach.
std::vector<int64_t> tensorDims(const dataflow::StatementView& v, size_t a) {
  const dataflow::AccessView& av = v.accesses[a];
  if (!av.shape.empty()) return av.shape;
  std::vector<int64_t> out;
  for (size_t d = 0; d < av.coeffs.size(); ++d) {
    int64_t hi = av.constant.empty() ? 0 : av.constant[d];
    for (size_t l = 0; l < v.extent.size(); ++l)
      hi += std::max<int64_t>(0, av.coeffs[d][l]) * (v.extent[l] - 1);
    out.push_back(std::max<int64_t>(hi + 1, 1));
  }
  return out;
}

Walk makeWalk(const MemoryProblem& p, const BufferTiling& t) {
  const dataflow::StatementView& v = *p.view;
  const size_t n = v.extent.size();
  if (t.size.size() != n) throw std::invalid_argument("buffer tiling: one size per loop");
  Walk w;
  for (size_t l = 0; l < n; ++l) {
    const int64_t e = v.extent[l];
    if (t.size[l] < 1 || (t.size[l] % p.arrayTile[l] != 0 && t.size[l] < e))
      throw std::invalid_argument("buffer tiling: a size is not a multiple of the array tile");
    w.full.push_back(std::min(t.size[l], e));
    const int64_t tiles = ceilDiv(e, w.full[l]);
    w.last.push_back(e - (tiles - 1) * w.full[l]);
    w.tiles *= tiles;
  }
  std::vector<char> placed(n, 0);
  for (int l : t.order) {
    if (l < 0 || size_t(l) >= n || placed[l])
      throw std::invalid_argument("buffer tiling: the order repeats or names no loop");
    placed[l] = 1;
    w.levels.push_back({l, ceilDiv(v.extent[l], w.full[l]), w.full[l], w.last[l]});
  }
  for (size_t l = 0; l < n; ++l)
    if (!placed[l] && w.full[l] < v.extent[l])
      throw std::invalid_argument("buffer tiling: a loop with several tiles is not in the order");
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    std::vector<char> dep = a < p.dep.size() ? p.dep[a] : std::vector<char>(n, 0);
    if (a >= p.dep.size())
      for (const IntVec& row : v.accesses[a].coeffs)
        for (size_t l = 0; l < n; ++l)
          dep[l] |= row[l] != 0;
    int deepest = -1;
    for (size_t i = 0; i < w.levels.size(); ++i)
      if (dep[w.levels[i].loop]) deepest = int(i);
    w.dep.push_back(dep);
    w.deepest.push_back(deepest);
  }
  return w;
}

int64_t arrayTiles(const MemoryProblem& p, const std::vector<int64_t>& size) {
  int64_t n = 1;
  for (size_t l = 0; l < size.size(); ++l)
    n *= ceilDiv(size[l], p.arrayTile[l]);
  return n;
}

void finishMetrics(const MemoryProblem& p, const BufferTiling& t, MemoryMetrics& m) {
  const dataflow::StatementView& v = *p.view;
  m.tensors.resize(v.accesses.size());
  m.bankBytes = 0;
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    TensorTraffic& tt = m.tensors[a];
    tt.name = v.accesses[a].name;
    tt.output = v.accesses[a].write;
    int64_t elements = 1;
    for (int64_t d : tensorDims(v, a))
      elements *= d;
    tt.compulsoryBytes = elements * p.banks[a].bytes;
    m.compulsoryBytes += tt.compulsoryBytes;
    m.busBytes += tt.readBytes + tt.writeBytes;
  }
  m.bankBytes = bankBytes(p, t);
  const Walk w = makeWalk(p, t);
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    const BankUse& b = p.banks[a];
    int64_t depth = b.span;
    for (int l : b.grow)
      depth *= ceilDiv(w.full[l], p.arrayTile[l]);
    m.tensors[a].bankBytes = 2 * b.ports * depth * b.bytes;
  }
}

} // namespace detail

using detail::Walk;

int64_t tileBeats(const MemoryProblem& p, size_t a, const std::vector<int64_t>& loopSize) {
  const dataflow::AccessView& av = p.view->accesses[a];
  const std::vector<int64_t> computed =
      a < p.dims.size() ? std::vector<int64_t>{} : detail::tensorDims(*p.view, a);
  const std::vector<int64_t>& dim = a < p.dims.size() ? p.dims[a] : computed;
  // The index range a tile covers in dimension d (no allocation: this is the hot loop).
  auto range = [&](size_t d) {
    int64_t r = 1;
    for (size_t l = 0; l < loopSize.size(); ++l)
      r += std::abs(av.coeffs[d][l]) * (loopSize[l] - 1);
    return std::min(r, dim[d]);
  };
  // Row-major: the last dimension is contiguous, and so are the ones above it while every
  // dimension below is taken whole.
  int64_t run = 1, runs = 1;
  size_t k = dim.size();
  while (k > 0) {
    --k;
    const int64_t r = range(k);
    run *= r;
    if (r != dim[k]) break;
  }
  for (size_t d = 0; d < k; ++d)
    runs *= range(d);
  const int64_t bytes = run * p.banks[a].bytes, w = p.memory.bytesPerCycle;
  return runs * ((bytes + w - 1) / w);
}

int64_t bankBytes(const MemoryProblem& p, const BufferTiling& t) {
  int64_t total = 0;
  for (size_t a = 0; a < p.banks.size(); ++a) {
    const BankUse& b = p.banks[a];
    int64_t depth = b.span;
    for (int l : b.grow)
      depth *= (std::min(t.size[l], p.view->extent[l]) + p.arrayTile[l] - 1) / p.arrayTile[l];
    total += 2 * b.ports * depth * b.bytes;
  }
  return total;
}

MemoryMetrics evaluateMemory(const MemoryProblem& p, const BufferTiling& t) {
  const Walk w = detail::makeWalk(p, t);
  const dataflow::StatementView& v = *p.view;
  const size_t levels = w.levels.size(), accesses = v.accesses.size();
  const int64_t beatBytes = p.memory.bytesPerCycle;
  MemoryMetrics m;
  m.bufferTiles = w.tiles;
  m.tensors.resize(accesses);

  // Prologue and epilogue: the first tile's inputs (every level at index 0: full sizes) and the
  // last tile's outputs (every level at its last index).
  int64_t in0 = 0, outLast = 0;
  for (size_t a = 0; a < accesses; ++a) {
    if (v.accesses[a].write) {
      const int64_t b = tileBeats(p, a, w.last);
      outLast += b;
      m.tensors[a].writeBytes += b * beatBytes;
    } else {
      const int64_t b = tileBeats(p, a, w.full);
      in0 += b;
      m.tensors[a].readBytes += b * beatBytes;
    }
  }
  int64_t cycles = detail::transferCycles(p, in0) + detail::transferCycles(p, outLast);
  int64_t transferTotal = cycles;

  // Per level, the classes of its index: first, middle (tiles - 3 of them), next to last, last.
  struct Class {
    bool first, penult, last;
    int64_t count;
  };
  std::vector<std::vector<Class>> classes(levels);
  for (size_t i = 0; i < levels; ++i) {
    const int64_t b = w.levels[i].tiles;
    auto& c = classes[i];
    if (b == 1) {
      c = {{true, false, true, 1}};
    } else if (b == 2) {
      c = {{true, true, false, 1}, {false, false, true, 1}};
    } else {
      c = {{true, false, false, 1}};
      if (b >= 4) c.push_back({false, false, false, b - 3});
      c.push_back({false, true, false, 1});
      c.push_back({false, false, true, 1});
    }
  }
  std::vector<size_t> pick(levels, 0);
  std::vector<int64_t> cur = w.full, next = w.full, prev = w.full;
  for (;;) {
    int64_t count = 1;
    int jOut = -1, jIn = -1;
    for (size_t i = 0; i < levels; ++i) {
      const Class& c = classes[i][pick[i]];
      count *= c.count;
      if (!c.last) jOut = int(i);
      if (!c.first) jIn = int(i);
    }
    // Sizes of this tile, the next and the previous one (levels inside the stepping level
    // restart at index 0 in the next tile, and were at their last index in the previous one).
    for (size_t i = 0; i < levels; ++i) {
      const detail::Level& lv = w.levels[i];
      const Class& c = classes[i][pick[i]];
      cur[lv.loop] = c.last ? lv.last : lv.full;
      next[lv.loop] = int(i) < jOut    ? cur[lv.loop]
                      : int(i) == jOut ? (c.penult ? lv.last : lv.full)
                                       : lv.full;
      prev[lv.loop] = int(i) < jIn ? cur[lv.loop] : int(i) == jIn ? lv.full : lv.last;
    }
    int64_t beats = 0;
    for (size_t a = 0; a < accesses && jOut >= 0; ++a) {
      if (w.deepest[a] < jOut) continue; // its tile does not change
      bool read = !v.accesses[a].write;
      if (!read) { // partial sums written out before come back
        read = !w.dep[a][w.levels[jOut].loop];
        for (int i = 0; i < jOut && !read; ++i)
          read = !w.dep[a][w.levels[i].loop] && !classes[i][pick[i]].first;
      }
      if (!read) continue;
      const int64_t b = tileBeats(p, a, next);
      beats += b;
      m.tensors[a].readBytes += count * b * beatBytes;
    }
    for (size_t a = 0; a < accesses && jIn >= 0; ++a)
      if (v.accesses[a].write && w.deepest[a] >= jIn) {
        const int64_t b = tileBeats(p, a, prev);
        beats += b;
        m.tensors[a].writeBytes += count * b * beatBytes;
      }
    const int64_t compute = detail::arrayTiles(p, cur) * p.tileCycles;
    const int64_t transfer = detail::transferCycles(p, beats);
    cycles += count * std::max(compute, transfer);
    m.computeCycles += count * compute;
    transferTotal += count * transfer;
    size_t i = 0;
    for (; i < levels; ++i) {
      if (++pick[i] < classes[i].size()) break;
      pick[i] = 0;
    }
    if (i == levels) break;
  }
  m.cycles = cycles;
  m.memoryBound = transferTotal > m.computeCycles;
  detail::finishMetrics(p, t, m);
  return m;
}

std::string toString(const BufferTiling& t, const dataflow::StatementView& v) {
  std::string s;
  for (size_t l = 0; l < t.size.size(); ++l)
    if (t.size[l] < v.extent[l])
      s += (s.empty() ? "" : " ") + v.loops[l] + ":" + std::to_string(t.size[l]);
  if (s.empty()) return "whole";
  s += ", order ";
  for (size_t i = 0; i < t.order.size(); ++i)
    s += (i ? "," : "") + v.loops[t.order[i]];
  return s;
}

} // namespace rubick::dse
