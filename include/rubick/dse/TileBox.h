// SPDX-License-Identifier: Apache-2.0
#pragma once
// A buffer tile of one tensor as the DMA engines move it (docs/memory.md, "Tensors of more than
// two dimensions"): a rows x cols box of the tensor's row-major layout, each row `cols`
// consecutive elements, the rows `pitch` elements apart.
//
// The tensor's dimensions split in two groups: the columns are dimensions j .. D-1, of which
// every one after j is whole in the tile (so a row is contiguous); the rows are dimensions
// i .. m (all below j), of which every one after i is whole (so rows are evenly spaced). Every
// other dimension is one element wide in the tile. A dimension's tile is its index range:
// for I(n, c, h + r, w + s) and loop sizes h_t, r_t it is h_t + r_t - 1 wide (a halo: the
// tiles overlap), and it moves by h_t per tile of h and by r_t per tile of r.
//
// The sequencer (rtl_templates/rubick_buf_seq.v) counts a tile's valid rows and columns from
// one loop each (its ROW_LOOP and COL_LOOP), so dimensions i and j may each be moved by one
// loop with several tiles at most; the loops that move the one-element dimensions only add to
// the tile's address. A tiling whose tiles do not split this way has no box: the explorer does
// not propose it (dse::boxesFit) and the plan refuses it.
//
//   O(n, f, h, w), shape 1 x 16 x 8 x 8, tile 1 x 4 x 2 x 8 (f and h cut):
//   columns h, w (2 x 8 = 16 elements, moved by 16 per tile of h), rows f (4, moved by 4 per
//   tile of f), pitch 64.

#include "rubick/dataflow/StatementView.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rubick::dse {

struct TileBox {
  std::vector<int64_t> shape;     // the tile, per dimension of the tensor
  int64_t rows = 1, cols = 1;     // the tile as a box
  int64_t trows = 1, tcols = 1;   // the rows and columns of the tensor the tiles cover
  int64_t rstep = 1, cstep = 1;   // rows / columns a tile moves per index of its row / column loop
  int64_t pitch = 1;              // elements from one row to the next in memory
  int rowLoop = -1, colLoop = -1; // the statement loop that moves the rows / columns; -1: none
  std::vector<int64_t> loopStep;  // per statement loop: elements the tile's first element moves
                                  // per tile index, besides the row and column loops' moves
  // The dimension whose index is the tile's first row plus the row (the rows are that dimension
  // alone), and the one whose index is the first column plus the column (the last dimension,
  // when it alone makes the columns); -1: none.
  int rowDim = -1, colDim = -1;
};

/// The box of access `a`'s buffer tile for per-loop tile sizes `size` of loops with extents
/// `extent`, or nullopt with `why` set. `indexDims` (a bit per dimension): dimensions that must
/// be the box's rowDim or colDim (an epilogue operand's index along the output). `splitDims`:
/// dimensions never taken as whole (where a tensor moved with the same boxes is larger).
std::optional<TileBox> tileBox(const dataflow::AccessView& a, const std::vector<int64_t>& extent,
                               const std::vector<int64_t>& size, uint32_t indexDims,
                               std::string& why, uint32_t splitDims = 0);

/// Whether some access of `v` may lack a box for some tiling (more than two dimensions, or a
/// dimension that is not one loop): only then does the search check boxesFit. False when an
/// index runs backwards or has an offset (no tiling has boxes; the plan says why).
bool boxesMayFail(const dataflow::StatementView& v);

/// Whether every access of `v` has a box for `size` (`outputIndexDims` and `outputSplitDims`
/// for the output, access 0).
bool boxesFit(const dataflow::StatementView& v, const std::vector<int64_t>& size,
              uint32_t outputIndexDims, uint32_t outputSplitDims = 0);

} // namespace rubick::dse
