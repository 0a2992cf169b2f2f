// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a user asks of a program, as the library takes it: the CLI turns its flags into a
// Request, and explore, emit and verify hand it to the library's entry points
// (workload/EmitProgram.h, workload/VerifyProgram.h), which recognise the program and run the
// mechanism its kind needs (docs/architecture.md, "Workloads").

#include "rubick/attn/Pipeline.h"
#include "rubick/dse/Explore.h"
#include "rubick/dse/Pim.h"
#include "rubick/dse/Select.h"
#include "rubick/workload/ChainDesigns.h"
#include "rubick/workload/Workload.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rubick::workload {

/// The options statement `v` of `prog` is explored with: the search flags and the target.
/// A PIM target sets `*pim`; with a null `pim` such a target is refused (Unsupported).
using StatementOptions = std::function<dse::ExploreOptions(
    const tc::Program& prog, const dataflow::StatementView& v, dse::PimSystem* pim)>;

struct Request {
  std::shared_ptr<const SourceFile> file; // the source, for errors pointing into it
  std::string stmt;                       // --stmt: one statement alone (empty: the program)
  StatementOptions options;
  Rebind rebind;                    // the program at other sizes (attention blocks, row tiles)
  int64_t rowTiles = 1;             // a chain's tiles of rows (0: auto; ChainSearch::rowTiles)
  std::vector<int64_t> blockKeys;   // attention: key-block sizes to consider (empty: default)
  std::vector<int64_t> vectorLanes; // attention: vector unit widths (empty: default)
  bool dtype = false;               // element types other than the program's were asked for
  /// One design, or designs to verify: --point, --dataflow, --pipeline, --entries T=ENTRY,
  /// --layout, --all, --cover, --skip, --limit.
  dse::Selection selection;
  /// Told what the library chose in the user's place (`from`: the step that chose, such as
  /// "emit" or "chain"; `what`: one line), such as designs passed over because they cannot be
  /// built.
  std::function<void(const std::string& from, const std::string& what)> note;
  /// emit: the command as the user gave it, for the generated files' headers (without paths
  /// outside the output folder; "" leaves it out).
  std::string commandLine;
  /// emit: add the standalone testbench under tb/ (docs/integration.md).
  bool testbench = true;
};

/// What the program is (recogniseWorkload) under r.stmt: a program of several statements is a
/// chain when its options give a memory system. Throws rubick::Error for --row-tiles on
/// anything but a chain.
Workload recognise(const tc::Program& prog, const Request& r);

/// The options of a Statement or Epilogue workload's statement: the epilogue on the output's
/// way to memory (Unsupported without a memory system or on PIM units). `*pim` as
/// StatementOptions.
dse::ExploreOptions statementOptions(const tc::Program& prog, const Request& r, const Workload& w,
                                     dse::PimSystem* pim);

/// An attention program's pipeline options (its GEMMs explored as r.options gives), and on a
/// PIM target its system in `*pim` (the decode, docs/pim.md).
attn::PipelineOptions pipelineOptions(const tc::Program& prog, const attn::AttentionForm& form,
                                      const Request& r, dse::PimSystem* pim);

/// Every stage of a chain with its rank-1 design (chainDesigns) as r gives them; --point must
/// name that chain (emit::chainId). The selectors of one design are refused (rubick::Error
/// naming the flag), and so are PIM targets (Unsupported).
std::vector<emit::ChainStageDesign> chainStageDesigns(const tc::Program& prog, const Request& r,
                                                      std::vector<TileChoice>* tried = nullptr);

} // namespace rubick::workload
