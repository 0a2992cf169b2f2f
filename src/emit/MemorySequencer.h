// SPDX-License-Identifier: Apache-2.0
#pragma once
// The buffer-level sequencer's instance in a memory design's top (private to src/emit): it
// declares, per tensor, the wires the top's engines and core use (<id>_half, <id>_acc_zero,
// <id>_ld_start/_addr/_rows/_cols/_done, <id>_st_start/_addr/_rows/_cols/_done; epilogue
// operands op<k>_ld_*; st_row0 and st_col0 for every tensor), and drives
// core_start, seq_busy and seq_done from start and core_done.

#include "rubick/emit/MemoryTop.h"

#include "VerilogText.h"

#include <string>

namespace rubick::emit::detail {

/// The wire prefix of epilogue operand k: "op0", ...
std::string operandId(size_t k);

std::string sequencerInstance(const arch::MemoryPlan& m, const MemoryTopOptions& o, Unused& unused);

} // namespace rubick::emit::detail
