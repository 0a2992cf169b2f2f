// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fused attention pipeline and its exploration.
//
// Hardware (docs/attention.md): two PE arrays, each an ordinary rubick design, one for the
// scores (GEMM 1: Sc = Q K^T over a block of keys) and one for the weighted values (GEMM 2:
// U = E V over the same block), and a vector unit between them that owns the row state (running
// max, running sum, the accumulated U) and does everything row-wise. Per block of `blockKeys`
// keys the sequencer runs: copy K and V of the block from the key/value store into the two
// arrays' banks, GEMM 1, the row-max pass over its output banks, the exp pass (writes E into
// GEMM 2's input banks and sums it), GEMM 2, the accumulate pass (U_acc = U_acc * alpha + U);
// after the last block, the normalise pass (O = U_acc / sum). Scores and exponentials never leave
// the chip; with one block (blockKeys >= S) this is plain softmax, otherwise the online softmax
// of docs/attention-numerics.md.
//
// Every phase has a fixed length known at compile time, so the pipeline's latency is exact.

#include "rubick/arch/MemoryTiming.h"
#include "rubick/attn/AttentionForm.h"
#include "rubick/dse/Explore.h"
#include "rubick/frontend/Program.h"

#include <functional>
#include <string>
#include <vector>

namespace rubick::attn {

/// A GEMM stage: the program rebound to the block size, the statement, its view and design.
struct GemmStage {
  tc::Program prog;
  size_t stmt = 0;
  dataflow::StatementView view;
  dse::DesignPoint design;
  std::vector<int64_t> elementBits; // per access (write first), as the hardware stores them
};

/// Cycles of each phase, exactly as the emitted sequencer runs them (src/emit/AttentionTop.cpp);
/// block phases run once per block (the last block may be shorter, but the hardware still runs
/// full-length phases: the masked keys cost their cycles), `query` and `normalise` once per head.
struct PipelineTiming {
  int64_t query = 0;                                                           // per head
  int64_t copy = 0, gemm1 = 0, rowMax = 0, exp = 0, gemm2 = 0, accumulate = 0; // per block
  int64_t normalise = 0;                                                       // per head
  int64_t blocks = 1;
  int64_t perBlock() const { return copy + gemm1 + rowMax + exp + gemm2 + accumulate; }
  int64_t perHead() const { return query + blocks * perBlock() + normalise; }
};

/// Element counts the vector unit's sequences walk (places: an element stored in n banks
/// counts n).
struct PipelineCounts {
  int64_t keyPlaces = 0;   // K elements of one block, over GEMM 1's banks
  int64_t valuePlaces = 0; // V elements of one block, over GEMM 2's banks
  int64_t expPlaces = 0;   // E elements of one block, over GEMM 2's banks
  int64_t queryPlaces = 0; // Q elements of one head, over GEMM 1's banks
  /// Rows (cycles) of each pass's lane schedule (attn/LaneSchedule.h); with one lane, one row
  /// per item: the places above, L x block scores, L x Dv results.
  int64_t queryRows = 0, keyRows = 0, valueRows = 0, scoreRows = 0, expRows = 0, resultRows = 0;
  /// Rows normalised at once (normaliseLanes below): one divider and one output per cycle each.
  int64_t normaliseLanes = 1;
};

/// A pipeline whose tensors live in external memory (attn/PipelineMemory.h): its run as the
/// memory system's top makes it, exactly (arch::memoryTiming), for the tensors at 4 KiB-aligned
/// addresses.
struct PipelineTransfers {
  int64_t computeCycles = 0; // the pipeline's phases alone: heads x perHead
  int64_t bufferBytes = 0;   // the ping-pong buffers of O, Q, K and V, both halves
  arch::MemoryTiming timing; // cycles = the latency; the first load, the last store, ...
};

struct PipelinePoint {
  std::string id;
  int64_t blockKeys = 0;
  int64_t heads = 1;
  int64_t lanes = 1; // the vector unit's width W: items per cycle in every pass but normalise
  GemmStage g1, g2;
  PipelineCounts counts;
  PipelineTiming timing;
  dse::MemorySystem memory;    // enabled: the tensors live in external memory
  PipelineTransfers transfers; // with a memory: the run with its transfers
  int64_t latency = 0;         // all heads, start to done (with a memory: transfers included)
  int64_t bufferBytes = 0;     // both arrays' banks + the stores (with a memory: the ping-pong
                               // buffers) + vector unit state
  int64_t scoreBytes = 0;      // of which the score banks (GEMM 1's output)
  int64_t wires = 0;           // both arrays' buffer-to-PE wires + the vector unit's crossbar
  int64_t crossbarWires = 0;   // of which lanes to banks: W x each bank's word width, both arrays
  double area = 0;
  int64_t macs = 0;       // both GEMMs, all heads
  double utilization = 0; // macs / (PEs of both arrays x latency)
  bool pareto = false;
};

struct PipelineOptions {
  dse::ExploreOptions explore; // array shapes and constraints of each GEMM array; the buffer
                               // budget applies to the whole pipeline
  /// Key-block sizes to consider; empty: S and every power of two from 4 below S.
  std::vector<int64_t> blockKeys;
  /// Designs of each GEMM (best by the objective) combined per block size.
  size_t perGemm = 6;
  /// Vector unit widths W to consider; empty: kLaneChoices.
  std::vector<int64_t> lanes;
  /// Rebinds the program to other sizes (the block size replaces the key size).
  std::function<tc::Program(const std::vector<std::pair<std::string, int64_t>>&)> rebind;
};

struct PipelineResult {
  AttentionForm form;
  std::vector<PipelinePoint> points; // ranked by the objective
  size_t combinations = 0;           // (block, GEMM 1 design, GEMM 2 design, lanes) choices costed
  size_t overBudget = 0;             // of which removed by the buffer budget
  size_t tooWide = 0;                // of which the vector unit cannot take (widthProblem)
  std::string tooWideWhy;            // the first such reason
};

/// Explores the pipeline. Throws rubick::Error when no design fits.
PipelineResult explorePipeline(const tc::Program& prog, const AttentionForm& form,
                               const PipelineOptions& o);

/// The timing of one pipeline (exposed for the emitter and the tests).
/// Why the vector unit cannot take this pipeline's numbers, or "" when it can: scores wider than
/// the exp unit's 32 bits or than the score tensor's type, a key block's weighted values wider
/// than their tensor's type, a row sum beyond the reciprocal's 32 bits. The explorer skips such
/// pipelines and the emitter refuses them, with this message.
std::string widthProblem(const tc::Program& prog, const AttentionForm& f, const PipelinePoint& pt);

PipelineTiming pipelineTiming(const AttentionForm& f, const PipelineCounts& c, int64_t blockKeys,
                              int64_t latency1, int64_t latency2);

/// The vector unit widths the explorer tries by default.
inline const std::vector<int64_t> kLaneChoices = {1, 2, 4, 8};

/// Normalise lanes of a W-lane vector unit for L query rows: min(W, L). Lane l normalises rows
/// l, l + lanes, ... with its own divider and output multiplier.
inline int64_t normaliseLanes(int64_t lanes, int64_t rows) {
  return lanes < rows ? lanes : rows;
}

/// Cycles from a reciprocal's start to its result (rtl_templates/rubick_recip.v: start, then
/// 33 quotient bits); the next row's reciprocal can start in the cycle its result appears.
inline constexpr int64_t kRecipCycles = 34;

} // namespace rubick::attn
