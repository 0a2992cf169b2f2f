// SPDX-License-Identifier: Apache-2.0
#pragma once
// The W-lane schedule of the attention pipeline's vector passes: each pass's items (one per
// place an element is read or written) packed at compile time into rows of at most W lanes, one
// row per cycle. A GEMM array's bank serves one lane per cycle, so two lanes of a row never
// write one bank, and never read one bank at two addresses. The row-wise passes (row max, exp)
// never mix two query rows in a cycle: the vector unit reduces the lanes of a cycle into one
// row's state. The number of rows is the pass length both the timing model
// (attn::pipelineTiming) and the emitted ROM tables use.

#include "rubick/arch/HostMap.h"
#include "rubick/attn/AttentionForm.h"

#include <cstdint>
#include <vector>

namespace rubick::attn {

struct GemmStage;

/// One item of a pass: what it occupies in the cycle it is issued.
struct LaneItem {
  int64_t group = 0;      // items of different groups never share a row; groups are in order
  int64_t readBank = -1;  // the GEMM bank it reads (-1: none) ...
  int64_t readAddr = 0;   // ... at this address (equal addresses may share a bank)
  int64_t writeBank = -1; // the GEMM bank it writes (-1: none)
  int64_t lane = -1;      // the only lane it may take (-1: any)
  int64_t key = -1;       // what pins its lane in schedulePasses (-1: nothing)
};

/// Rows of item indices, in issue order: row[l] is the item lane l issues, -1 for an idle lane
/// (a row never ends in one). Each item appears exactly once; a row has 1 to `lanes` items, no
/// two writing one bank or reading one bank at different addresses, all of one group, each
/// item with a fixed lane in that lane. Greedy, oldest waiting item first: with lanes = 1 it is
/// the items in order, one per row; items of any lane fill the lowest idle lanes.
using LaneRows = std::vector<std::vector<int64_t>>;
LaneRows laneSchedule(const std::vector<LaneItem>& items, int64_t lanes);

/// Lanes are pinned where the hardware keeps a memory per lane, so that each part is a memory
/// with one write port and few read ports (a RAM for synthesis). U_acc, the vector unit's
/// accumulator, is split per normalise lane: row i of U lives in part i mod N at
/// (i / N) x Dv + column, and the accumulate pass issues it in lane i mod N. The words per part:
inline int64_t accPartWords(int64_t rows, int64_t cols, int64_t normLanes) {
  return (rows + normLanes - 1) / normLanes * cols;
}

/// The items of every pass, in the order of the ROM tables (src/emit/AttentionTables.cpp):
/// elements row-major, then their places. The copy passes' key is the element's row-major
/// index in its tile (one head, one block): the Q, K and V stores may be split by it mod W
/// (src/emit/AttentionControl.cpp).
struct PassItems {
  std::vector<LaneItem> query;  // Q places of one head: GEMM 1 bank written
  std::vector<LaneItem> key;    // K places of one block: GEMM 1 bank written
  std::vector<LaneItem> value;  // V places of one block: GEMM 2 bank written
  std::vector<LaneItem> score;  // scores (i, j): GEMM 1 bank read; group i
  std::vector<LaneItem> expo;   // E places: score read in GEMM 1, E written in GEMM 2; group i
  std::vector<LaneItem> result; // U elements: GEMM 2 bank read; key: the query row
  int64_t rows = 1;             // L
};
PassItems passItems(const AttentionForm& f, const GemmStage& g1, const GemmStage& g2,
                    const std::vector<arch::TensorMap>& maps1,
                    const std::vector<arch::TensorMap>& maps2);

struct PassSchedules {
  int64_t lanes = 1;
  LaneRows query, key, value, score, expo, result;
};
/// The passes of a `lanes`-wide vector unit: copy items in lane key mod W, result items in
/// lane key mod normaliseLanes(W, rows), the others in any lane.
PassSchedules schedulePasses(const PassItems& items, int64_t lanes);

/// The host maps of a GEMM stage (both the explorer and the emitter schedule from these).
std::vector<arch::TensorMap> stageMaps(const GemmStage& g);

} // namespace rubick::attn
