// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a program is, as rubick builds it: the one place that decides which mechanism explores,
// emits and verifies a program (docs/architecture.md, "Workloads"). The CLI asks it and calls
// that mechanism.
//
//   one statement, or --stmt              Statement  its designs (dse::explore, emit::package)
//   a contraction, then elementwise ones  Epilogue   the contraction's designs with the epilogue
//                                                    on the output's way to memory (dse/Epilogue.h)
//   the attention form                    Attention  the fused pipeline (attn/)
//   any other chain (with a memory)       Chain      explore: fusion groups (dse/Chain.h);
//                                                    emit, verify: its stages in turn
//                                                    (workload/Stages.h, emit/Chain.h)

#include "rubick/attn/AttentionForm.h"
#include "rubick/dse/Epilogue.h"
#include "rubick/frontend/Program.h"
#include "rubick/support/SourceFile.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace rubick::workload {

enum class Kind { Statement, Epilogue, Attention, Chain };
const char* toString(Kind k);

struct Workload {
  Kind kind = Kind::Statement;
  size_t statement = 0; // Statement and Epilogue: the statement whose designs are built
  std::shared_ptr<const dse::Epilogue> epilogue; // Epilogue
  std::optional<attn::AttentionForm> attention;  // Attention
};

/// The statement `stmt` names (S0, S1, ... or the tensor it writes), or the only statement when
/// it is empty. Throws rubick::Error listing the statements otherwise.
size_t pickStatement(const tc::Program& prog, const std::string& stmt);

/// What `prog` is. `stmt` is --stmt (one statement alone); `chains` says whether a program of
/// several statements that is neither an epilogue nor attention may be taken as a chain (asked
/// only for such a program: the commands say yes with a memory system). Throws rubick::Error when
/// it is none of these, with the attention form's reason, pointing into `file` when given.
Workload recogniseWorkload(const tc::Program& prog, const std::string& stmt,
                           const std::function<bool()>& chains,
                           const std::shared_ptr<const SourceFile>& file);

} // namespace rubick::workload
