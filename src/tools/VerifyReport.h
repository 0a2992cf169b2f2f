// SPDX-License-Identifier: Apache-2.0
#pragma once
// The lines `rubick verify` prints about a verified design, shared by single designs and
// attention pipelines.

#include "rubick/verify/Verify.h"

#include <string>

namespace rubick::cli {

/// The --timing column headers (build_s, sim_cycles, sim_s, cycles/s).
void printTimingHeader();

/// The --timing columns of one design, from its first trial `t` (null when none ran).
void printTiming(const verify::Result& res, const verify::Trial* t);

/// The design's build error and every failing trial: counts, mismatches, waveform.
void printProblems(const verify::Result& res);

/// "+0.41%": measured / predicted - 1, the farthest from 0 over the design's trials ("-": none).
std::string relativeDifference(const verify::Result& res);

/// With --dram, the first trial's row accesses ("  DRAM rows: ..."; nothing when not counted).
void printDramRows(const verify::Trial* t);

/// The --timing line about the shared runtime (built in N s, or reused).
void printRuntime(double runtimeSeconds);

} // namespace rubick::cli
