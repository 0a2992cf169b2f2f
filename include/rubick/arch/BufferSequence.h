// SPDX-License-Identifier: Apache-2.0
#pragma once
// The buffer-level sequencer of a memory design (rtl_templates/rubick_buf_seq.v): its
// parameters for a MemoryPlan (what emit instantiates) and its timeline, the phase rule of its
// header with the cycles of each core run, load and store given by a callback.

#include "rubick/arch/MemoryPlan.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace rubick::arch {

struct SequencedTensor {
  bool out = false;
  std::vector<char> dep, red;     // per position of the buffer order (0 outermost)
  int rowLoop = -1, colLoop = -1; // position indexing its rows / columns; -1: one tile
  int64_t rows = 1, cols = 1;     // tile
  int64_t trows = 1, tcols = 1;   // tensor
  int64_t ebytes = 1;
  // The tile as a strided box (rubick_buf_seq's RSTEP, CSTEP, PITCH, ASTEP): the tensor rows
  // (columns) it advances per index of rowLoop (colLoop), 0 for rows (cols), below rows (cols)
  // when tiles overlap (a convolution input's halo); the elements from one row to the next in
  // memory, 0 for tcols; and the bytes its address moves per index of each position of the order
  // (added to the row and column loops' own moves; empty: all 0; a negative move wraps mod
  // 2**64). Tile (r, c) starts at element r * rowStep() of rows and c * colStep() of columns,
  // (r * rowStep() * rowPitch() + c * colStep()) * ebytes + sum of idx_i * astep[i] bytes from
  // the base, with min(rows, trows - r * rowStep()) x min(cols, tcols - c * colStep()) valid
  // elements.
  int64_t rstep = 0, cstep = 0, pitch = 0;
  // Bytes from the tensor's base register to its first tile (an operand read at an offset of
  // the output's index); the sequencer's base input for it is the register plus this.
  uint64_t offset = 0;
  std::vector<uint64_t> astep;
  int64_t rowStep() const { return rstep != 0 ? rstep : rows; }
  int64_t colStep() const { return cstep != 0 ? cstep : cols; }
  int64_t rowPitch() const { return pitch != 0 ? pitch : tcols; }
  uint64_t addrStep(size_t pos) const { return pos < astep.size() ? astep[pos] : 0; }
  // A late input (the sequencer's LATE): an epilogue operand of an output's shape, with the
  // output's dep. Its tile of step s is loaded in phase s (not s-1), with step s's geometry, into
  // the half that is current then (half bit t, not its complement): its reader, started with the
  // output's store in phase s' + 1 (s' the run's last step), finds it in the other half.
  bool late = false;
  // `+=` (the sequencer's ACC; outputs only): every first visit loads the output's start
  // values; acc_zero never.
  bool acc = false;
  bool loads() const; // an input, an output whose partial sums come back (some red), or acc
};

struct SequencerConfig {
  std::vector<int64_t> ext; // tiles per position of the order (at least one position)
  std::vector<SequencedTensor> tensors;
  // Chained core runs (the sequencer's CHAIN): a core event's delay is then its run's cycles to
  // core_next, and its core_done comes coreTail cycles after that.
  bool chain = false;
  int64_t coreTail = 0;
};

/// The sequencer's parameters for `m` (each tensor's tile as its box, dse/TileBox.h). Throws
/// Unsupported for a tensor of elements that are not whole bytes.
SequencerConfig sequencerConfig(const MemoryPlan& m);

enum class SeqKind { core, load, store };

struct SeqEvent {
  SeqKind kind = SeqKind::core;
  int tensor = 0; // 0 for the core
  int64_t step = 0;
  int64_t start = 0, done = 0; // cycles of the start pulse and of the done pulse (the core's
                               // core_next pulse with chained runs)
  uint64_t addr = 0;           // loads and stores: the tile's geometry
  int64_t rows = 0, cols = 0;
};

struct SeqPhase {
  int64_t first = 0, last = 0; // cycles P(k) .. E(k)
  uint64_t half = 0, accZero = 0;
};

struct SeqTimeline {
  std::vector<SeqPhase> phases; // k = -1 .. N
  std::vector<SeqEvent> events; // in phase order: core, stores, loads
  int64_t done = 0; // the done pulse's cycle, start sampled at edge 0 (busy: 1 .. done-1)
};

/// What one phase does, before any timing: the core's run of tile `step` (phases 0 .. N-1),
/// the stores of the tile before one after the other (the write channel) and the loads of the
/// tile after one after the other (the read channel; late tensors' loads are of tile `step`
/// itself, in ascending tensor order among the others), events without start and done.
struct SeqWork {
  bool core = false;
  int64_t step = 0; // the phase: -1 .. N
  uint64_t half = 0, accZero = 0;
  std::vector<SeqEvent> stores, loads;
  std::vector<int> after; // per load: the store of its tensor in this phase (a reload), or -1
};

/// The phases -1 .. N of the sequencer's run with tensor base addresses `bases`.
std::vector<SeqWork> sequencerWork(const SequencerConfig& c, const std::vector<uint64_t>& bases);

/// Cycles from an event's start pulse to its done pulse (at least 1).
using SeqDelay = std::function<int64_t(const SeqEvent&)>;

/// The sequencer's run for tensor base addresses `bases`: phase -1 starts in cycle 1; in phase k
/// the core starts in P(k), stores one after the other from P(k), loads one after the other from
/// P(k) and after their own tensor's store; E(k) is the last done (P(k) with no work) and
/// P(k+1) = E(k) + 1. With chained runs every transfer of a phase also starts after the
/// core_done of the run before the phase's own.
SeqTimeline sequencerTimeline(const SequencerConfig& c, const std::vector<uint64_t>& bases,
                              const SeqDelay& delay);

} // namespace rubick::arch
