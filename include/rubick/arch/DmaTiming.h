// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cycle-exact timing of the DMA engines of a memory design (rtl_templates/README.md): the
// reader (rubick_dma_rd with rubick_dma_scatter) and the writer (rubick_dma_gather with
// rubick_dma_wr), for one tile, against a memory like sim_templates/rubick_axi_mem.h: a beat
// every `beatSpacing` cycles at most (bytes per cycle below the bus width space the beats out),
// a fixed latency (or, through a BurstMemory, a latency that depends on the memory's state, such
// as a DRAM's row buffers), no outstanding limit of its own.
//
// The engines' header comments state the timing for a beat every cycle; these functions are
// the same rules written as recurrences over bursts and beats, so that spaced beats and the
// engines' own outstanding limit are covered too. tests/rtl checks them against the RTL.

#include "rubick/arch/DmaMap.h"

#include <cstdint>
#include <vector>

namespace rubick::arch {

/// When a burst's beats can come, from a memory whose timing depends on its state (a DRAM's
/// open rows; arch/DramTiming.h): `first` the burst's first beat of a run, `cycle` the cycle
/// from which that beat and the ones after it can be presented.
struct BeatsReady {
  int64_t first = 0, cycle = 0;
};

/// A memory told every burst at its address handshake, on one channel in order.
class BurstMemory {
public:
  virtual ~BurstMemory() = default;
  /// The burst of `beats` beats from beat-aligned `addr` has its address handshake in cycle
  /// `at` (the engine's cycles, its start sampled at edge 0). Returns its runs of beats, the
  /// first from beat 0, in order; for a write the last run's cycle is the earliest response.
  virtual const std::vector<BeatsReady>& burst(bool write, int64_t at, uint64_t addr,
                                               int64_t beats) = 0;
};

/// What the engines' timing depends on besides the tile.
struct BusTiming {
  int64_t busBytes = 8;    // bytes per beat
  int64_t beatSpacing = 1; // cycles from a beat to the next at least: bus bytes / bytes per cycle
  int64_t latency = 1;     // AR handshake to the first R beat; AW handshake to the earliest B
  int64_t burstBeats = 16; // the engines' MAX_BURST
  int64_t outstanding = 4; // the engines' MAX_OUTSTANDING
  BurstMemory* memory = nullptr; // the beats' cycles instead of `latency`; null: fixed latency
};

/// The engine parameters that matter for timing (a DmaMap's walk and the element size).
struct DmaEngine {
  int64_t elemBytes = 1;
  int64_t lanes = 1;
  bool rowLanes = false;
  int64_t rows = 1, cols = 1; // the tile in the banks
  int64_t blockBeats = 1;     // row-lane reader: beats per row of a block (BLOCK_BEATS)
  int64_t groupRows() const { return rowLanes ? (rows + lanes - 1) / lanes : rows; }
  int64_t groupCols() const { return rowLanes ? cols : (cols + lanes - 1) / lanes; }
};
DmaEngine dmaEngine(const DmaMap& d, int64_t elementBits);

/// A tile at run time: byte address of element (0, 0), bytes between rows, valid rows and
/// columns (at most the engine's rows and cols).
struct TileGeometry {
  uint64_t base = 0, pitch = 0;
  int64_t rows = 0, cols = 0;
};

struct DmaCommand {
  uint64_t addr = 0; // beat-aligned
  int64_t beats = 0;
};

/// The read commands of rubick_dma_rd: column lanes one per row (contiguous rows: one run),
/// row lanes one per (block row, block, row), possibly of no beat.
std::vector<DmaCommand> readCommands(const DmaEngine& e, const TileGeometry& g, int64_t busBytes);
/// The write commands of rubick_dma_wr: one per valid row.
std::vector<DmaCommand> writeCommands(const DmaEngine& e, const TileGeometry& g, int64_t busBytes);
/// Beats per burst of rubick_axi_rd/wr's split (MAX_BURST, never across 4 KiB).
std::vector<int64_t> splitBursts(const std::vector<DmaCommand>& cmds, int64_t busBytes,
                                 int64_t burstBeats);
/// The same bursts with their addresses.
std::vector<DmaCommand> burstsOf(const std::vector<DmaCommand>& cmds, int64_t busBytes,
                                 int64_t burstBeats);

/// rubick_dma_rd: the cycle of done after a start sampled at edge 0, out_ready high.
int64_t dmaReadDone(const DmaEngine& e, const TileGeometry& g, const BusTiming& bus);

/// rubick_dma_wr: the cycle of done after a start sampled at edge 0, its group stream valid from
/// cycle `firstInput` on whenever taken (1 for a stream held valid, as in its test; 3 when fed
/// by rubick_dma_gather started in the same cycle).
int64_t dmaWriteDone(const DmaEngine& e, const TileGeometry& g, const BusTiming& bus,
                     int64_t firstInput);

} // namespace rubick::arch
