// SPDX-License-Identifier: Apache-2.0
#pragma once
// The cycle schedule of the hardware rubick emits, as the cost model's single source of truth.
//
// Tiles (one per combination of outer time stamps) run back to back, without overlap. Inside a
// tile, time tau counts cycles relative to the cycle in which PEs compute t1 = 0; the PE at
// (x, y) computes its iteration of time t1 in cycle tau = t1. Around that:
//
//   input, streaming (port time te):   bank address issued at tau = te - 2
//                                      (1 cycle RAM read, 1 cycle port register; a systolic
//                                      value then moves one PE per cycle, te + hops = t1)
//   input, held (stationary kinds):    loaded at tau = -2 (address), valid from tau = 0
//   product:                           registered at the end of cycle t1 (valid tau = t1 + 1)
//   output, held (stationary kinds):   accumulates in place; old value (if the element recurs
//                                      in another tile) loaded at tau = -2; written back at
//                                      tau = T1 + 1 + D (D: adder-tree depth of its multicast
//                                      part, 0 for plain stationary)
//   output, multicast:                 adder tree of depth D; written at tau = t1 + 1 + D, plus
//                                      one cycle to add the old value when the element recurs
//   output, systolic:                  the partial sum enters the chain at its port side (old
//                                      value read at tau = te when it recurs, else 0), moves one
//                                      PE per cycle and is written at tau = te + x_end + 2 + D,
//                                      x_end being the chain's last PE along its direction
//
// A tile lasts from its first event to its last. The controller enters tile 0 at the clock edge
// that samples `start` and raises `done` at the edge after the last tile's last cycle. Tile n
// starts n x interval cycles after tile 0: the interval is the tile's length unless the tiles can
// overlap (tileIntervals), so the latency (edges from sampling `start` to raising `done`) is
// (tiles - 1) x interval + tile cycles.

#include "rubick/dataflow/Dataflow.h"
#include "rubick/ir/AccessEntry.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace rubick::dse {

inline constexpr int64_t kReadLead = 2;    // address-to-use distance of an input
inline constexpr int64_t kStartCycles = 0; // edges between sampling start and tile 0
inline constexpr int64_t kDoneCycles = 0;  // edges between the last tile and done

struct TensorTiming {
  bool streaming = false;       // the entry has a port time (not a held value)
  bool recurs = false;          // (outputs) the element recurs in another tile: read-modify-write
  bool recursNext = false;      // (outputs) ... possibly in the very next tile
  int64_t teMin = 0, teMax = 0; // port time range over the tile (streaming only)
  int64_t treeDepth = 0;        // adder-tree depth (outputs with a multicast part)
  int64_t first = 0, last = 0;  // first and last event (tau) of this tensor in a tile
};

struct Schedule {
  int64_t tiles = 1;
  int64_t t1Extent = 1;
  int64_t first = 0, last = 0; // tile window (tau)
  int64_t tileCycles = 0;
  int64_t interval = 0; // cycles between the starts of consecutive tiles (<= tileCycles)
  int64_t intervalPlain = 0, intervalCarry = 0; // tileIntervals (tileCycles for one tile)
  int64_t latency = 0;                          // clock edges from sampling start to raising done
  std::vector<TensorTiming> tensors;
};

/// Adder-tree depth for n inputs: ceil(log2 n) (0 for n <= 1).
int64_t treeDepth(int64_t n);

/// The schedule of dataflow `d` with `entries` (one per access of `v`). `bufferRecurs` (per
/// access, may be empty) marks outputs whose partial sums also meet across buffer tiles (a
/// memory system's tiled reduction): they read-modify-write like a recurring element.
Schedule schedule(const dataflow::StatementView& v, const dataflow::Dataflow& d,
                  const std::vector<ir::OrientedEntry>& entries,
                  const std::vector<char>& bufferRecurs = {});

/// The fewest cycles between the starts of consecutive tiles of `s` (the schedule of `d` with
/// `entries`, tile window and tensors filled in) such that no PE, bank port, held register or
/// accumulator serves two tiles in one cycle, a partial sum is written before the next tile
/// reads it back, and at most two tiles are in flight; the tile's length when they cannot overlap
/// (docs/cost-model.md). `plain` when no partial sum recurs in the next tile, `carry` when every
/// recurring one does (schedule() picks by its outer order; the memory model's core has one or
/// the other depending on the buffer tiling).
struct TileIntervals {
  int64_t plain = 0, carry = 0;
};
TileIntervals tileIntervals(const dataflow::StatementView& v, const dataflow::Dataflow& d,
                            const std::vector<ir::OrientedEntry>& entries, const Schedule& s);

/// Largest (te + x_end) over the tile of `d` for an output with systolic entry `e`, x_end being
/// the last PE of the element's chain along its flow direction (in the entry's mirrored frame).
/// Closed form: its cost does not depend on the array or tile size.
int64_t chainEndMax(const dataflow::Dataflow& d, const ir::OrientedEntry& e);

/// Range of a linear form over (x, y, t1) plus constant, over the tile of `d`:
/// form . (S u + offset) + constant for u in the inner box.
std::pair<int64_t, int64_t> rangeOverTile(const dataflow::Dataflow& d,
                                          const std::array<int64_t, 3>& form, int64_t constant);

} // namespace rubick::dse
