// SPDX-License-Identifier: Apache-2.0
#pragma once
// The library's entry point for `rubick explore` of a program of several statements: the
// attention form's pipelines (on PIM units, its decode) or a chain's stages and fusion groups,
// as the text explore prints. A single statement's search is dse::explore (or dse::explorePim)
// with statementOptions: its tables, files and progress are the CLI's.

#include "rubick/workload/Request.h"

#include <optional>
#include <string>

namespace rubick::workload {

struct Explored {
  std::string text;                // what explore prints
  std::optional<size_t> pipelines; // attention on an array: the pipelines explored
};

/// The exploration of `prog`, which is `w` (recognise; attention or a chain): the first `top`
/// pipelines; a chain as emit and verify build it (chainStageDesigns and chainBuildText), or,
/// when it cannot be built yet, its statements each alone and fused (dse::exploreChain) with
/// the reason.
Explored exploreProgram(const tc::Program& prog, const Request& r, const Workload& w, size_t top);

} // namespace rubick::workload
