// SPDX-License-Identifier: Apache-2.0
#pragma once
// A chain's stages as hardware builds them (docs/fusion.md, "Chains as hardware"): each
// contraction with the elementwise statements that follow it (its epilogue) is one stage, and
// so are six statements of the attention form (the fused pipeline, attn/); a stage is a program
// of its own whose inputs are what it reads (program inputs, or what an earlier stage wrote to
// memory) and whose output is its last statement's tensor.

#include "rubick/frontend/Program.h"
#include "rubick/support/SourceFile.h"
#include "rubick/workload/Workload.h"

#include <memory>
#include <vector>

namespace rubick::workload {

struct Stage {
  std::vector<size_t> statements; // in the program, consecutive
  tc::Program program;            // the stage alone: named "<program>_s<k>"
  std::vector<int> tensorOf;      // its tensors -> the program's
  int output = -1;                // the program tensor it writes to memory
  Workload workload;              // Statement, Epilogue or Attention, of `program`
};

/// The stages of `prog`, in program order. Where six statements from a stage's start make the
/// attention form (Sc, mx, E, sm, U local to them, O their result) they are one stage; otherwise a
/// stage starts at every statement with a reduction (or one that is not a plain `=`) and the
/// others join the stage before them. Throws Unsupported
/// (pointing into `file` when given) for what a sequence of memory designs cannot build: a
/// first statement without a contraction, a tensor a later stage reads that is not a stage's
/// result (only results reach memory), a tensor written by two stages; and each stage's own
/// epilogue errors (dse/Epilogue.h).
std::vector<Stage> chainStages(const tc::Program& prog,
                               const std::shared_ptr<const SourceFile>& file);

/// The size a chain's tiles of rows divide (docs/fusion.md, "Tiles of rows"): the size of the
/// first dimension of an input the first statement reads along the rows of its result. Throws
/// Unsupported (pointing into `file` when given) when there is none.
std::string rowSize(const tc::Program& prog, const std::shared_ptr<const SourceFile>& file);

/// Why `tile` (the program with its row size divided by the number of tiles) does not compute
/// `whole`'s rows tile by tile, or "": every tensor whose shape the tile changes changes in its
/// first dimension only, and every statement reading such a tensor reads it along the rows of
/// its own result, which has them too (so each tile needs only its own rows).
std::string rowTileProblem(const tc::Program& whole, const tc::Program& tile);

} // namespace rubick::workload
