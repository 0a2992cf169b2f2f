// SPDX-License-Identifier: Apache-2.0
#pragma once
// The top of a design whose tensors live in external memory (docs/hardware.md): an AXI4-Lite
// control slave (rubick_axil_regs), an AXI4 master shared by the tensors' DMA engines (split
// over several ports in lock-step when the bus is wider than AXI4 allows), the
// buffer-level sequencer and the core (coreModule). Verilog-2005, deterministic.

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/MemoryPlan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rubick::emit {

// The AXI parameters (arch::axiOptions gives them for a memory).
using MemoryTopOptions = arch::AxiOptions;

/// `<name>_top` for the memory plan `m` (whose core is `<name>_core`).
std::string memoryTopModule(const arch::MemoryPlan& m, const MemoryTopOptions& o);

/// `<name>_stage`: the top without its registers, for a chain's top to run (emit/ChainTop.h):
/// ports aclk, aresetn, start (a pulse), base_addr (64 bits per tensor, valid from start to
/// done), busy, done (a pulse after the run), error (a pulse per AXI error response) and the
/// AXI4 master port(s). Its cycles are the top's: busy in the cycles CYCLES counts.
std::string memoryStageModule(const arch::MemoryPlan& m, const MemoryTopOptions& o);

/// The templates the top instantiates besides the core's (names under rtl_templates/).
std::vector<std::string> memoryTemplatesUsed(const arch::MemoryPlan& m, const MemoryTopOptions& o);

/// The top's AXI4 master ports: one, or for a bus wider than AXI4's widest (1024 bits) that
/// many ports of 1024 bits in lock-step (rubick_axi_split).
int64_t axiPorts(const MemoryTopOptions& o);

/// `<name>_pim`: `units` instances of `<name>_top` (PIM units with a DMA, each on its own
/// banks) behind one AXI4-Lite control slave (rubick_axil_fan: every unit's registers written
/// together), each unit's AXI4 port(s) as unitPortPrefix names them, irq when every unit's.
std::string memoryUnitsModule(const arch::MemoryPlan& m, const MemoryTopOptions& o, int64_t units);

/// The prefix of unit `unit`'s port `port` in memoryUnitsModule: "u00_m_axi_", "u01_m00_axi_",
/// ...; axiPortPrefix's for one unit.
std::string unitPortPrefix(int64_t unit, int64_t units, int64_t port, int64_t ports);

/// The prefix of port `port`'s signals of `ports`: "m_axi_" for one, else "m00_axi_", ...
std::string axiPortPrefix(int64_t port, int64_t ports);

} // namespace rubick::emit
