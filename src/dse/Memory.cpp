// SPDX-License-Identifier: Apache-2.0
// The memory model's pieces (include/rubick/dse/Memory.h); the cycle sum itself is in
// MemoryClosedForm.cpp.

#include "MemoryCommon.h"

#include <stdexcept>

namespace rubick::dse {
namespace detail {

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

bool outerCarries(const dataflow::StatementView& v, int loop) {
  for (const dataflow::AccessView& a : v.accesses) {
    if (!a.write) continue;
    bool moves = false;
    for (const IntVec& row : a.coeffs)
      moves |= row[size_t(loop)] != 0;
    if (!moves) return true;
  }
  return false;
}

int64_t coreInterval(const MemoryProblem& p, const std::vector<int64_t>& size) {
  const bool known = p.outerCarries.size() == p.outerLoops.size();
  for (size_t o = 0; o < p.outerLoops.size(); ++o) {
    const int l = p.outerLoops[o];
    if (ceilDiv(size[size_t(l)], p.arrayTile[size_t(l)]) <= 1) continue;
    const bool carries = known ? p.outerCarries[o] != 0 : outerCarries(*p.view, l);
    return carries ? p.intervalCarry : p.interval;
  }
  return p.interval;
}

void finishMetrics(const MemoryProblem& p, const BufferTiling& t, const Walk& w, MemoryMetrics& m) {
  const dataflow::StatementView& v = *p.view;
  // An epilogue's operands load once, before the first tile's inputs.
  m.cycles += p.memory.prologueCycles;
  m.busBytes += p.memory.prologueBytes;
  m.tensors.resize(v.accesses.size());
  m.bankBytes = 0;
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    TensorTraffic& tt = m.tensors[a];
    tt.name = v.accesses[a].name;
    tt.output = v.accesses[a].write;
    int64_t elements = 1;
    for (int64_t d : a < p.dims.size() ? p.dims[a] : tensorDims(v, a))
      elements *= d;
    tt.compulsoryBytes = elements * p.banks[a].movedBytes();
    m.compulsoryBytes += tt.compulsoryBytes;
    m.busBytes += tt.readBytes + tt.writeBytes;
  }
  m.bankBytes = bankBytes(p, t) + p.memory.prologueBufferBytes;
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

namespace {

// A tile in the tensor's row-major layout: `runs` runs of `run` contiguous elements, and as the
// DMA sees it, `rows` x `cols` (the last dimension is cols).
// Consecutive runs along the dimension above the run's lie `pitch` elements apart, `inner` of
// them (runs / inner such groups).
struct TileShape {
  int64_t run = 1, runs = 1, rows = 1, cols = 1;
  int64_t pitch = 0, inner = 1;
};

TileShape tileShape(const MemoryProblem& p, size_t a, const std::vector<int64_t>& loopSize) {
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
  TileShape s;
  size_t k = dim.size();
  while (k > 0) {
    --k;
    const int64_t r = range(k);
    s.run *= r;
    if (k + 1 == dim.size()) s.cols = r;
    if (r != dim[k]) break;
  }
  for (size_t d = 0; d < k; ++d)
    s.runs *= range(d);
  s.rows = dim.empty() ? 1 : s.run / s.cols * s.runs;
  if (k > 0) {
    s.pitch = 1;
    for (size_t d = k; d < dim.size(); ++d)
      s.pitch *= dim[d];
    s.inner = range(k - 1);
  }
  return s;
}

// Rows of `rowBytes` touched by the tile's runs, each group of runs starting on a row boundary:
// runs a row or more apart open their own rows; closer ones share the rows of their span.
int64_t rowsOf(const MemoryProblem& p, size_t a, const TileShape& s, int64_t elementBytes = 0) {
  const int64_t r = p.memory.rowBytes,
                eb = elementBytes > 0 ? elementBytes : p.banks[a].movedBytes();
  if (r <= 0) return 1;
  const int64_t runBytes = s.run * eb;
  if (s.runs == 1) return detail::ceilDiv(runBytes, r);
  if (s.pitch * eb >= r) return s.runs * detail::ceilDiv(runBytes, r);
  const int64_t span = (s.inner - 1) * s.pitch * eb + runBytes;
  return s.runs / s.inner * detail::ceilDiv(span, r);
}

int64_t beatsOf(const MemoryProblem& p, size_t a, const TileShape& s, int64_t elementBytes = 0) {
  const int64_t bytes = s.run * (elementBytes > 0 ? elementBytes : p.banks[a].movedBytes()),
                w = p.memory.bytesPerCycle;
  return s.runs * ((bytes + w - 1) / w);
}

} // namespace

int64_t tileBeats(const MemoryProblem& p, size_t a, const std::vector<int64_t>& loopSize) {
  return beatsOf(p, a, tileShape(p, a, loopSize));
}

int64_t tileBeats(const MemoryProblem& p, size_t a, const std::vector<int64_t>& loopSize,
                  int64_t elementBytes) {
  return beatsOf(p, a, tileShape(p, a, loopSize), elementBytes);
}

int64_t tileRows(const MemoryProblem& p, size_t a, const std::vector<int64_t>& loopSize) {
  return rowsOf(p, a, tileShape(p, a, loopSize));
}

int64_t tileTransferCycles(const MemoryProblem& p, size_t a, const std::vector<int64_t>& loopSize,
                           bool load, int64_t elementBytes) {
  const TileShape s = tileShape(p, a, loopSize);
  const int64_t rowCycles =
      p.memory.rowCycles > 0 ? (rowsOf(p, a, s, elementBytes) - 1) * p.memory.rowCycles : 0;
  const BankUse& b = p.banks[a];
  int64_t groups = 0;
  if (b.lanes > 0)
    groups = b.rowLanes ? detail::ceilDiv(s.rows, b.lanes) * s.cols
                        : s.rows * detail::ceilDiv(s.cols, b.lanes);
  return p.memory.latency + (load ? kLoadOverhead : kStoreOverhead) +
         std::max(beatsOf(p, a, s, elementBytes), groups) + rowCycles;
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

namespace detail {

MemoryMetrics profileMetrics(const MemoryProblem& p, const BufferTiling& t, const Walk& w,
                             const OrderProfile& o) {
  const int64_t beatBytes = p.memory.bytesPerCycle;
  const OrderProfile::Sum s = o.sum(p.tileCycles, coreInterval(p, t.size), p.intervalCarry);
  MemoryMetrics m;
  m.bufferTiles = w.tiles;
  m.tensors.resize(p.view->accesses.size());
  for (size_t a = 0; a < m.tensors.size(); ++a) {
    m.tensors[a].readBytes = o.readBeats[a] * beatBytes;
    m.tensors[a].writeBytes = o.writeBeats[a] * beatBytes;
  }
  m.cycles = s.cycles;
  m.computeCycles = s.computeCycles;
  m.chained = s.chained;
  m.memoryBound = s.transferCycles > s.computeCycles;
  finishMetrics(p, t, w, m);
  return m;
}

} // namespace detail

MemoryMetrics evaluateMemory(const MemoryProblem& p, const BufferTiling& t) {
  const Walk w = detail::makeWalk(p, t); // checks the tiling first
  return detail::profileMetrics(p, t, w, detail::ClosedForm(p, t.size).profile(t.order));
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
