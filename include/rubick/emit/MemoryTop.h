#pragma once
// The top of a design whose tensors live in external memory (docs/hardware.md): an AXI4-Lite
// control slave (rubick_axil_regs), an AXI4 master shared by the tensors' DMA engines, the
// buffer-level sequencer and the core (coreModule). Verilog-2005, deterministic.

#include "rubick/arch/MemoryPlan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rubick::emit {

struct MemoryTopOptions {
  int64_t busBytes = 8;    // AXI data width in bytes (a power of two, at least 4)
  int64_t burstBeats = 16; // longest burst the engines issue (1..256)
  int64_t outstanding = 4; // bursts in flight per engine (1..256)
  int64_t addrBits = 32;   // AXI address width
};

/// `<name>_top` for the memory plan `m` (whose core is `<name>_core`).
std::string memoryTopModule(const arch::MemoryPlan& m, const MemoryTopOptions& o);

/// The templates the top instantiates besides the core's (names under rtl_templates/).
std::vector<std::string> memoryTemplatesUsed(const arch::MemoryPlan& m);

} // namespace rubick::emit
