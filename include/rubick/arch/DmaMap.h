// SPDX-License-Identifier: Apache-2.0
#pragma once
// How a DMA engine puts a tensor tile, read in its plain row-major layout, into the tensor's
// banks (and takes an output tile out of them) with adders and small constant tables only.
//
// The tile is seen as a rows x cols array (the last dimension is cols; the others, flattened,
// are rows). The engine moves it in write groups: `lanes` consecutive elements of one row
// (column lanes) or `lanes` consecutive rows of one column (row lanes, which needs a corner turn
// of `lanes` rows). Group (gr, gc) covers, for column lanes, row gr and columns gc*lanes + l;
// for row lanes, rows gr*lanes + l and column gc. Every element of a group goes to a different
// bank in the same cycle (copies included: an input element used by several ports has a place
// in each). The place of lane l, copy c in group (gr, gc) is
//
//   phase   = (gr mod rowPeriod) * colPeriod + (gc mod colPeriod)
//   bank    = cells[phase][l * copies + c].bank
//   address = cells[phase][l * copies + c].address + rowStep * (gr / rowPeriod)
//                                                   + colStep * (gc / colPeriod)
//
// so an engine keeps one base address per tensor, adds rowStep or colStep as it moves, and
// looks up a per-phase constant per lane. The map is derived from the host map and checked
// against every element of it; a layout that no such map reproduces (within a table of
// kMaxCells cells) is reported, not approximated.

#include "rubick/arch/HostMap.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rubick::arch {

struct DmaMap {
  int64_t rows = 1, cols = 1;
  bool rowLanes = false;
  int64_t lanes = 1;
  int64_t copies = 1;
  int64_t rowPeriod = 1, colPeriod = 1; // in groups
  int64_t rowStep = 0, colStep = 0;
  std::vector<std::vector<Location>> cells; // [phase][lane * copies + copy]; bank -1: unused

  int64_t groupRows() const; // groups along rows: rows, or ceil(rows / lanes) for row lanes
  int64_t groupCols() const; // groups along columns
  /// The place of lane `lane`, copy `copy` of group (gr, gc); bank -1 when the lane is past
  /// the tile's edge.
  Location place(int64_t gr, int64_t gc, int64_t lane, int64_t copy) const;
  /// The element (row, col) that lane `lane` of group (gr, gc) carries.
  std::pair<int64_t, int64_t> element(int64_t gr, int64_t gc, int64_t lane) const;
};

inline constexpr int64_t kMaxCells = 1024;

/// The DMA map with the most elements per cycle (lanes x copies; column lanes first on a tie)
/// that reproduces `m` exactly, or nullopt with `why` set. `banks` is the tensor's bank count.
std::optional<DmaMap> deriveDmaMap(const TensorMap& m, int64_t banks, std::string& why);

/// "column lanes 4, copies 1, phases 2x1, steps 9/3": for reports and design.json.
std::string toString(const DmaMap& d);

} // namespace rubick::arch
