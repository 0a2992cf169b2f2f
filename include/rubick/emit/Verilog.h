// SPDX-License-Identifier: Apache-2.0
#pragma once
// Verilog text for one design: the generated PE array and top modules (Verilog-2005, lint-clean
// under verilator -Wall, readable by Yosys and Icarus). Deterministic: the same plan gives the
// same bytes; no dates or paths.

#include "rubick/arch/Plan.h"

#include <string>

namespace rubick::emit {

/// `<name>_array`: PEs with their valid masks and multipliers, the input networks (held,
/// broadcast, shifted) and the output networks (adder trees, partial-sum chains, accumulators).
std::string arrayModule(const arch::Plan& plan);

/// `<name>_top`: controller, address generators, banks, host ports, read-modify-write, and the
/// array. `lanes` > 1 (only the attention pipeline asks for it) widens the host port into that
/// many independent (tensor, bank, address, data) lanes per cycle, packed lane 0 lowest; the
/// lanes of one cycle must touch distinct banks (or read one bank at one address). With one
/// lane the text is the single design's, byte for byte.
std::string topModule(const arch::Plan& plan, int64_t lanes = 1);

/// `<name>_core`: the same controller, address generators and array for one buffer tile of a
/// design with a memory system, its banks ping-pong pairs reached by DMA ports instead of host
/// ports (src/emit/VerilogMemoryCore.h). `reload` (per tensor of the plan): outputs whose
/// partial sums come back from memory, which get DMA write ports too.
std::string coreModule(const arch::Plan& core, const std::vector<char>& reload);

/// `<name>_core` of a processing-in-memory stream unit (docs/pim.md): the top's controller,
/// address generators, banks and array, except that the inputs flagged in `streamed` (per
/// tensor of the plan) have no banks: their reads come from a stream port outside, through
/// `stream_need` (one read enable a bank, those tensors' banks in plan order, bank 0 lowest)
/// and `stream_rdata` (the words, W bits each in the same order, the cycle after the read).
/// The streamed tensors must share one element width.
std::string streamCoreModule(const arch::Plan& plan, const std::vector<char>& streamed);

/// The templates the design instantiates (file names under rtl_templates/, without ".v").
std::vector<std::string> templatesUsed(const arch::Plan& plan);

} // namespace rubick::emit
