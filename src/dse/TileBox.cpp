// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/TileBox.h"

#include <algorithm>

namespace rubick::dse {

namespace {

struct Dim {
  int64_t size = 1;        // S: the tensor's
  int64_t tile = 1;        // T: the tile's index range
  int64_t accessed = 1;    // the index range of the whole loop space
  std::vector<int> movers; // loops with several tiles that move it
  int64_t stride = 1;      // elements per index in memory
  bool split = false;      // never whole (splitDims)
  bool whole() const { return tile == size && movers.empty() && !split; }
};

int64_t tilesOf(int64_t extent, int64_t size) {
  return (extent + size - 1) / std::max<int64_t>(1, size);
}

} // namespace

std::optional<TileBox> tileBox(const dataflow::AccessView& a, const std::vector<int64_t>& extent,
                               const std::vector<int64_t>& size, uint32_t indexDims,
                               std::string& why, uint32_t splitDims) {
  const size_t n = a.shape.size();
  if (n == 0) {
    why = a.name + " is a scalar; the DMA moves tiles of tensors";
    return std::nullopt;
  }
  std::vector<Dim> dims(n);
  for (size_t d = n; d-- > 0;) {
    Dim& x = dims[d];
    x.size = a.shape[d];
    x.split = (splitDims >> d & 1u) != 0;
    x.stride = d + 1 < n ? dims[d + 1].stride * dims[d + 1].size : 1;
    if (a.constant[d] != 0) {
      why = "dimension " + std::to_string(d) + " of " + a.name +
            " has a constant offset; the memory system moves tiles of indices that are sums of "
            "loops";
      return std::nullopt;
    }
    for (size_t l = 0; l < extent.size(); ++l) {
      const int64_t c = a.coeffs[d][l];
      if (c < 0) {
        why = "dimension " + std::to_string(d) + " of " + a.name +
              " runs backwards along a loop; the memory system moves tiles of indices that are "
              "sums of loops";
        return std::nullopt;
      }
      x.tile += c * (std::min(size[l], extent[l]) - 1);
      x.accessed += c * (extent[l] - 1);
      if (c != 0 && tilesOf(extent[l], size[l]) > 1) x.movers.push_back(static_cast<int>(l));
    }
    x.tile = std::min(x.tile, x.size);
    x.accessed = std::min(x.accessed, x.size);
  }
  auto step = [&](size_t d, int l) {
    return a.coeffs[d][static_cast<size_t>(l)] *
           std::min(size[static_cast<size_t>(l)], extent[static_cast<size_t>(l)]);
  };
  // Columns j .. n-1 (every one after j whole), from the most columns' dimensions down: a 2-D
  // tensor's rows are its first dimension and its columns its second.
  for (size_t j = n; j-- > 0;) {
    if (j + 1 < n && !dims[j + 1].whole()) break;
    // Rows i .. m: the dimensions below j wider than one element (and the index dimensions).
    int i = -1, m = -1;
    for (size_t d = 0; d < j; ++d)
      if (dims[d].tile > 1 || (indexDims >> d & 1u)) {
        if (i < 0) i = static_cast<int>(d);
        m = static_cast<int>(d);
      }
    // None: the last dimension below j that a loop moves, else the one just below j (a 2-D
    // tile of one row keeps its first dimension as its rows).
    if (i < 0)
      for (size_t d = 0; d < j; ++d)
        if (!dims[d].movers.empty()) i = m = static_cast<int>(d);
    if (i < 0 && j > 0) i = m = static_cast<int>(j) - 1;
    bool fits = true;
    for (int d = i + 1; i >= 0 && d <= m; ++d)
      fits &= dims[static_cast<size_t>(d)].whole();
    if (!fits || dims[j].movers.size() > 1 ||
        (i >= 0 && dims[static_cast<size_t>(i)].movers.size() > 1))
      continue;
    TileBox b;
    for (const Dim& x : dims)
      b.shape.push_back(x.tile);
    b.colLoop = dims[j].movers.empty() ? -1 : dims[j].movers[0];
    b.rowLoop = i < 0 || dims[static_cast<size_t>(i)].movers.empty()
                    ? -1
                    : dims[static_cast<size_t>(i)].movers[0];
    if (b.rowLoop >= 0 && b.rowLoop == b.colLoop) continue;
    b.colDim = j + 1 == n ? static_cast<int>(j) : -1;
    b.rowDim = i >= 0 && i == m ? i : -1;
    bool indexed = true;
    for (size_t d = 0; d < n; ++d)
      if (indexDims >> d & 1u)
        indexed &= static_cast<int>(d) == b.rowDim || static_cast<int>(d) == b.colDim;
    if (!indexed) continue;
    const int64_t innerC = dims[j].stride;
    const Dim& cj = dims[j];
    b.cols = cj.tile * innerC;
    b.cstep = b.colLoop >= 0 ? step(j, b.colLoop) * innerC : b.cols;
    b.tcols = (b.colLoop >= 0 ? cj.accessed : cj.tile) * innerC;
    b.pitch = j > 0 ? dims[j - 1].stride : b.tcols;
    if (i >= 0) {
      const Dim& ri = dims[static_cast<size_t>(i)];
      const int64_t innerR = ri.stride / dims[static_cast<size_t>(m)].stride;
      b.rows = ri.tile * innerR;
      b.rstep = b.rowLoop >= 0 ? step(static_cast<size_t>(i), b.rowLoop) * innerR : b.rows;
      b.trows = (b.rowLoop >= 0 ? ri.accessed : ri.tile) * innerR;
      b.pitch = dims[static_cast<size_t>(m)].stride;
    }
    // The sequencer's rule: every tile but the last whole, the last one not empty.
    auto covers = [&](int loop, int64_t tile, int64_t stepBy, int64_t total) {
      if (loop < 0) return total <= tile;
      const int64_t e = tilesOf(extent[static_cast<size_t>(loop)], size[static_cast<size_t>(loop)]);
      return (e - 1) * stepBy < total && total <= (e - 1) * stepBy + tile &&
             (e < 2 || (e - 2) * stepBy + tile <= total);
    };
    if (!covers(b.rowLoop, b.rows, b.rstep, b.trows) ||
        !covers(b.colLoop, b.cols, b.cstep, b.tcols))
      continue;
    // The other moves: loops on the one-element dimensions.
    b.loopStep.assign(extent.size(), 0);
    for (size_t d = 0; d < n; ++d)
      for (int l : dims[d].movers)
        if (!(static_cast<int>(d) == i && l == b.rowLoop) && !(d == j && l == b.colLoop))
          b.loopStep[static_cast<size_t>(l)] += step(d, l) * dims[d].stride;
    return b;
  }
  why = "a tile of " + a.name + " (";
  for (size_t d = 0; d < n; ++d)
    why += (d ? " x " : "") + std::to_string(dims[d].tile);
  why += " of " + std::to_string(n) + "-D shape";
  for (size_t d = 0; d < n; ++d)
    why += (d ? " x " : " ") + std::to_string(dims[d].size);
  why +=
      ") is not a box of evenly spaced rows that the DMA can move" +
      std::string(indexDims ? " with the epilogue's operands indexed by its rows or columns" : "");
  return std::nullopt;
}

bool boxesMayFail(const dataflow::StatementView& v) {
  // An index that runs backwards or has an offset has no box for any tiling: the plan refuses
  // the statement with the reason (arch::memoryBuildProblem), so the search need not filter.
  for (const dataflow::AccessView& a : v.accesses)
    for (size_t d = 0; d < a.coeffs.size(); ++d) {
      if (a.constant[d] != 0) return false;
      for (int64_t c : a.coeffs[d])
        if (c < 0) return false;
    }
  for (const dataflow::AccessView& a : v.accesses) {
    if (a.shape.size() > 2) return true;
    for (size_t d = 0; d < a.coeffs.size(); ++d) {
      int terms = 0;
      for (int64_t c : a.coeffs[d])
        terms += c != 0;
      if (terms != 1 || a.constant[d] != 0) return true;
      for (int64_t c : a.coeffs[d])
        if (c != 0 && c != 1) return true;
    }
  }
  return false;
}

bool boxesFit(const dataflow::StatementView& v, const std::vector<int64_t>& size,
              uint32_t outputIndexDims, uint32_t outputSplitDims) {
  std::string why;
  for (size_t a = 0; a < v.accesses.size(); ++a)
    if (!tileBox(v.accesses[a], v.extent, size, a == 0 ? outputIndexDims : 0, why,
                 a == 0 ? outputSplitDims : 0))
      return false;
  return true;
}

} // namespace rubick::dse
