// SPDX-License-Identifier: Apache-2.0
#pragma once
// What `rubick verify` prints of the library's result (workload::Verified): a statement's
// designs, a PIM target's designs, or one design of a program (pipeline, decode, chain).

#include "rubick/workload/VerifyProgram.h"

namespace rubick::cli {

struct PrintOptions {
  bool timing = false; // --timing: build and simulation times
  bool dram = false;   // --dram: the diff column and the DRAM rows
};

/// A statement's designs (`heading`: the statement): a row per design, the window of --skip and
/// --limit, a shard's ranks, and the counts. Returns the exit status as printVerified.
int printDesigns(const std::string& heading, const workload::Verified& v, const dse::Selection& sel,
                 const PrintOptions& o, int trials);

/// Prints the report of `v` (of `prog`; `sel` chose its designs, `trials` ran for each) and
/// returns the exit status: 0 when every simulated design passed (and at least one did), 1
/// otherwise.
int printVerified(const tc::Program& prog, const workload::Verified& v, const dse::Selection& sel,
                  const PrintOptions& o, int trials);

} // namespace rubick::cli
