// SPDX-License-Identifier: Apache-2.0
#pragma once
// A chain built as hardware (docs/fusion.md, "Chains as hardware"): every stage's memory
// design without its registers (`<stage>_stage`), run one after another by `<name>_top`, which
// has the registers of a memory design (one BASE register per tensor of the chain) and routes
// the one AXI4 master to the running stage.

#include "rubick/arch/ChainPlan.h"
#include "rubick/attn/Pipeline.h"
#include "rubick/dataflow/StatementView.h"
#include "rubick/dse/Explore.h"
#include "rubick/emit/MemoryTop.h"
#include "rubick/emit/Package.h"
#include "rubick/frontend/Program.h"

#include <optional>
#include <string>
#include <vector>

namespace rubick::emit {

/// One stage as the chain builds it: the stage as a program of its own, its statement, the
/// design chosen for it and the options it was explored with (widths, memory, epilogue).
struct ChainStageDesign {
  std::vector<size_t> statements; // in the whole program
  std::vector<int> tensorOf;      // the stage's tensors -> the program's
  tc::Program program;
  size_t statement = 0;
  dataflow::StatementView view;
  dse::DesignPoint point;
  dse::ExploreOptions options;
  // An attention stage: its form and pipeline (with the memory system). `point` then only
  // summarises it (attentionStage): the pipeline's ID, GEMM 1's array, its cycles and MACs.
  std::optional<attn::AttentionForm> attention;
  std::optional<attn::PipelinePoint> pipeline;
  // Its fusion group (consecutive from 0; workload::chainDesigns sets the fusion plan's): an
  // intermediate only one group's stages touch may be kept on chip, and the groups share the
  // on-chip RAM (arch::placeOnChip).
  size_t group = 0;
};

/// Stage `d` of the attention form `f` built as pipeline `p` (explored with `options`'s memory):
/// `point` summarises the pipeline; `statement` and `view` are GEMM 1's.
ChainStageDesign attentionStage(std::vector<size_t> statements, std::vector<int> tensorOf,
                                tc::Program program, const attn::AttentionForm& f,
                                const attn::PipelinePoint& p, dse::ExploreOptions options);

/// What names a stage's design: a statement's dataflow spec, or a pipeline's spec.
std::string stageSpec(const ChainStageDesign& d);

/// The chain's ID: a hash of its stages' designs.
std::string chainId(const std::vector<ChainStageDesign>& stages);

/// The chain's plan; stage k's modules are prefixed `<name>_s<k>`. Intermediates are kept on
/// chip by the stages' groups (ChainStageDesign::group) within the on-chip budget.
arch::ChainPlan chainDesignPlan(const tc::Program& prog, const std::vector<ChainStageDesign>& s,
                                const std::string& name, int64_t busBytes);

/// `<name>_top` of chain `c`: rubick_axil_regs with a BASE register per chain tensor, each
/// stage's `_stage` module started by the one before's done, the AXI4 master routed to the
/// stage that runs. One AXI4 port (the bus no wider than 1024 bits).
std::string chainTopModule(const arch::ChainPlan& c, const MemoryTopOptions& o);

/// Everything `emit` writes for the chain: rtl/ (templates, every stage's modules, the top),
/// filelist.f, design.json (the chain's tensors and registers, each stage's design and
/// timing), README.md.
std::vector<File> packageChain(const tc::Program& prog, const std::vector<ChainStageDesign>& s,
                               const std::string& name);

} // namespace rubick::emit
