// SPDX-License-Identifier: Apache-2.0
#pragma once
// Costing one attention pipeline (block size, lanes, two GEMM designs), shared by the explorer
// (Pipeline.cpp), which costs every combination, and the lookup by spec (SelectPipeline.cpp),
// which costs one. Private to src/attn.

#include "rubick/arch/HostMap.h"
#include "rubick/arch/MemoryPlan.h"
#include "rubick/attn/LaneSchedule.h"
#include "rubick/attn/Pipeline.h"

#include <optional>
#include <utility>
#include <vector>

namespace rubick::attn::detail {

/// What every pipeline of one program shares: the GEMMs' explore options (no buffer budget:
/// it applies to the whole pipeline) and the parts outside the two arrays.
struct PipelineContext {
  const tc::Program& prog;
  const AttentionForm& form;
  const PipelineOptions& options;
  dse::ExploreOptions gemm;   // for each GEMM's search: no budget, no memory, no progress
  int64_t budget = 0;         // the whole pipeline's buffer budget in bytes; 0: none
  dse::MemorySystem memory{}; // enabled: the tensors live in external memory
  int64_t storeBytes = 0;     // query, key/value and output stores (all heads; none with a memory)
  int64_t stateBytes = 0;     // the row state and U_acc
  int64_t accBits = 0;        // U_acc's width
};

/// Bits of the running sum: at most S values below 2^15.
int64_t sumBits(const AttentionForm& f);

/// Throws rubick::Error when the program cannot be pipelined (multi-head without a size
/// symbol for the heads).
PipelineContext makeContext(const tc::Program& prog, const AttentionForm& form,
                            const PipelineOptions& o);

/// Throws rubick::Error (origin `origin`) when no pipeline can use key blocks of `b` keys.
void checkBlock(const AttentionForm& f, int64_t b, const std::string& origin);
/// The key-block sizes to consider (--block-keys, checked; or the defaults).
std::vector<int64_t> blockCandidates(const AttentionForm& f, const PipelineOptions& o);
/// Throws rubick::Error (origin `origin`) for a vector unit width outside 1..64.
void checkLanes(int64_t w, const std::string& origin);
/// The vector unit widths to consider (--vector-lanes, checked; or kLaneChoices).
std::vector<int64_t> laneCandidates(const PipelineOptions& o);

/// The two GEMM stages for blocks of `blockKeys` keys (the program rebound), without designs.
std::pair<GemmStage, GemmStage> baseStages(const PipelineContext& c, int64_t blockKeys);

/// A GEMM stage with its design and the host maps the lane schedules need.
struct StageWithMaps {
  GemmStage stage;
  std::vector<arch::TensorMap> maps;
};
StageWithMaps withDesign(const GemmStage& base, const dse::DesignPoint& d);

/// With a memory, the memory plan of blocks of `blockKeys` keys (pipelineMemoryPlan), shared by
/// the pipelines of that block size; nullopt without one.
std::optional<arch::MemoryPlan> blockMemoryPlan(const PipelineContext& c, int64_t blockKeys);

/// The pipeline of these stages with `lanes` vector lanes, costed, with its ID; not yet checked
/// against widthProblem or the budget. `items` are passItems of the two stages (shared by
/// every lane count); `plan` is blockMemoryPlan's for this block size.
PipelinePoint costPipeline(const PipelineContext& c, int64_t blockKeys, int64_t lanes,
                           const StageWithMaps& g1, const StageWithMaps& g2, const PassItems& items,
                           const std::optional<arch::MemoryPlan>& plan);

} // namespace rubick::attn::detail
