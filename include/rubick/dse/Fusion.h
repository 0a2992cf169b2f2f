// SPDX-License-Identifier: Apache-2.0
#pragma once
// Fusion of a chain of statements (docs/fusion.md): which consecutive statements run as one
// group, their intermediates kept on chip a tile of rows at a time, and how many tiles. A
// group's cost is its external traffic and time; the best grouping is found by dynamic
// programming over the chain (each group's best tile count inside), checked against every
// grouping by fuseChainExhaustively.

#include <cstdint>
#include <string>
#include <vector>

namespace rubick::dse {

struct FusionTensor {
  std::string name;
  int64_t bytes = 0;     // the whole tensor
  bool external = false; // a program input or output: in memory whatever the grouping
};

struct FusionRead {
  int tensor = 0;
  bool byRow = false; // its first dimension is indexed by the statement's row loop alone
};

struct FusionStage {
  std::string statement; // "S0"
  int output = 0;        // the tensor it writes (its first dimension: the row loop)
  int64_t rows = 1;      // the row loop's extent
  std::vector<FusionRead> reads;
  int64_t computeCycles = 0; // its array's cycles, data on chip
  // Alone, as its own memory-system design (explore's model): cycles and bytes moved.
  int64_t soloCycles = 0, soloBytes = 0;
};

struct FusionChain {
  std::vector<FusionTensor> tensors;
  std::vector<FusionStage> stages; // in program order; a stage reads earlier stages' outputs
};

struct FusionLimits {
  int64_t bytesPerCycle = 1; // the memory's bandwidth (and the on-chip RAM's: the same bus)
  int64_t chipBytes = -1;    // the on-chip RAM for a group's intermediates (-1: no limit)
  int64_t latency = 0;       // the memory's latency (in each stage's cycles alone)
  int64_t chipWordBytes = 0; // the RAM's word as built (chipRamBytes); 0: bytes as they are
};

/// The on-chip RAM that holds tensors of `bytes` as the chain builds it: each tensor in whole
/// words of `wordBytes`, the RAM a power of two of words, at least two (rubick_scratch).
int64_t chipRamBytes(const std::vector<int64_t>& bytes, int64_t wordBytes);

struct FusionGroup {
  size_t first = 0, last = 0; // its stages
  int64_t tiles = 1;          // tiles of rows (1 for a single stage: its own design's tiling)
  bool keepsWhole = false;    // inputs not read by rows are read once (else again every tile)
  int64_t computeCycles = 0;
  int64_t bytes = 0;       // moved to and from memory
  int64_t bufferBytes = 0; // its intermediates' tiles on chip (a single stage: 0)
  int64_t savedBytes = 0;  // its stages' bytes alone less its bytes (negative: fusing costs)
  int64_t cycles = 0;      // as built (fusionGroup); a single stage: its design's
};

struct FusionPlan {
  std::vector<FusionGroup> groups;
  int64_t cycles = 0, bytes = 0; // summed over the groups
};

/// Stages first..last run as one group with `tiles` tiles of rows: its costs, or why it cannot
/// (a non-empty reason: rows that differ, an intermediate not read by rows, a buffer too small).
std::string fusionGroup(const FusionChain& c, size_t first, size_t last, int64_t tiles,
                        const FusionLimits& l, FusionGroup& out);

/// The tile counts tried for a group: every divisor of its stages' rows (1 when they differ).
std::vector<int64_t> fusionTiles(const FusionChain& c, size_t first, size_t last);

/// The group's best way to run (fewest cycles, then fewest bytes, then fewest tiles), or why
/// none can (the reason of its last tile count tried).
std::string bestFusionGroup(const FusionChain& c, size_t first, size_t last, const FusionLimits& l,
                            FusionGroup& out);

/// The best grouping (fewest cycles, then fewest bytes moved): dynamic programming over the
/// chain, best(b) = min over a of best(a - 1) + bestFusionGroup(a..b).
FusionPlan fuseChain(const FusionChain& c, const FusionLimits& l);

/// The same by trying every partition into consecutive groups (2^(n-1) of them): for tests.
FusionPlan fuseChainExhaustively(const FusionChain& c, const FusionLimits& l);

} // namespace rubick::dse
