// SPDX-License-Identifier: Apache-2.0
#pragma once
// The epilogue stage of a memory design (private to src/emit; docs/hardware.md, "Epilogues"):
// `<name>_epilogue` sits between the output's rubick_dma_gather and rubick_dma_wr. It walks the
// write groups in the gather's order to know each lane's element, reads the operands at that
// element's row or column (rubick_vec_reg read ports), and computes the expression per lane,
// combinationally: the stream passes through with no added cycle.

#include "rubick/arch/MemoryPlan.h"

#include <string>

namespace rubick::emit::detail {

/// `<m.core.name>_epilogue` for `m` (which has an epilogue).
std::string epilogueModule(const arch::MemoryPlan& m);

} // namespace rubick::emit::detail
