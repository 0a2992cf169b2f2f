// SPDX-License-Identifier: Apache-2.0
#pragma once
// The AXI4 master and AXI4-Lite slave signals as the memory-system tops declare and wire them
// (private to src/emit: MemoryTop.cpp, ChainTop.cpp).

#include <cstdint>
#include <string>

namespace rubick::emit::detail {

struct PortSignal {
  const char* name;
  bool out; // driven by the master
  int64_t width;
};

// Every signal of an AXI4 master port: its name, whether the master drives it, its width (0:
// the address width, -1: the data width, -2: the strobe width).
extern const PortSignal kAxiMaster[33];

// The AXI4-Lite slave's signals: name, driven by the master (host), width (0: the address).
extern const PortSignal kAxiLite[17];

int64_t signalWidth(const PortSignal& s, int64_t aw, int64_t dw);

/// The range of a declaration of `s` and a space; nothing for one bit.
std::string declRange(const PortSignal& s, int64_t aw, int64_t dw);

/// The top's AXI4 master ports: `m_axi_*`, or with several ports `m00_axi_*`, `m01_axi_*`, ...
/// of AXI4's widest data bus each (`ways` of them on a `dw`-bit bus), one per line ending ",".
std::string axiPortsText(int64_t ways, int64_t aw, int64_t dw);

/// The AXI4-Lite control slave's ports (`s_axil_*`, `regBits` address bits), one per line
/// ending ",".
std::string axilPortsText(int64_t regBits);

/// A `rubick_axil_regs` instance `regs` on the top's `s_axil_*` ports with `nt` base registers,
/// driving start, irq and base_addr from seq_busy, seq_done and dma_error.
std::string axilRegsInstance(int64_t regBits, int64_t nt);

} // namespace rubick::emit::detail
