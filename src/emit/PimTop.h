// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Verilog of a processing-in-memory stream design above its unit core (private to
// src/emit): `<name>_unit` (the core on a gated clock, its stream port, its banks' reader) and
// `<name>_pim` (the units side by side, one host port, one command port per unit's banks).

#include "rubick/arch/Plan.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rubick::emit::detail {

/// What the unit and top writers need besides the plan: the units, their banks (timings in
/// unit cycles) and the stream.
struct PimShape {
  int64_t units = 1;
  int64_t banks = 1;    // per unit
  int64_t colBytes = 1; // a column, the bank's bytes a unit cycle
  int64_t rowCols = 1;  // columns a row
  int64_t rows = 1;     // rows a bank
  int64_t tRCD = 0, tRP = 0, tRAS = 0, tCL = 0;
  int64_t columns = 0;     // the stream's columns per unit
  int64_t readerDepth = 0; // the reader's FIFO columns
  int64_t streamPorts = 0; // core banks reading the stream
  int64_t wordBits = 8;    // bits of a streamed word
  // Outputs in the banks: the core's banks writing the stream, the bits of their words, the
  // words over a run, and the stream's column kinds (reads, then writes, per run).
  int64_t writePorts = 0;
  int64_t outWordBits = 32;
  int64_t totalWrites = 0;
  std::vector<std::pair<int64_t, int64_t>> runs;
  // Inputs in the broadcast buffer (plan tensors): one copy in the top, read by every unit.
  std::vector<int> shared;
};

/// Widths of a unit's command port fields.
int64_t bankSelectBits(const PimShape& s);
int64_t rowBits(const PimShape& s);
int64_t columnBits(const PimShape& s);
int64_t unitBits(const PimShape& s);
/// The write port's buffer: a column and two cycles of the core's writes, so that a core
/// writing every cycle never waits for the column leaving in the same cycle.
int64_t writeDepth(const PimShape& s);

/// The ports of every PIM top (`<name>_pim`, an attention decode): control, the host port with
/// its unit select, one command port per unit (unit u in bits [u*W +: W]); ends the port list.
struct PimTopPorts {
  int64_t units, unitBits, tensorBits, bankBits, addressBits, dataBits;
  int64_t bankSelectBits, rowBits, columnBits, colBits;
  bool rdataReg; // host_rdata is a reg
};
std::string pimTopPorts(const PimTopPorts& p);
/// The ports of `<plan.name>_pim`.
PimTopPorts pimPorts(const arch::Plan& plan, const PimShape& s);
/// The command ports alone (the end of pimTopPorts').
std::string pimDramPorts(const PimTopPorts& p);

/// The host window's byte address bits: 8 bytes a host word, then the word's address, bank,
/// tensor, unit and an all-units bit (rtl_templates/rubick_axil_host.v).
int64_t axilHostAddressBits(const PimTopPorts& p);
/// `<top>_axil`: the PIM top `top` (a `_pim` or `_decode` module with pimTopPorts' ports)
/// behind the memory system's host interface: `aclk`, `aresetn`, the AXI4-Lite control slave
/// `s_axil_*` (rubick_axil_regs: start, status, interrupt, cycle counter), the AXI4-Lite host
/// window `s_axil_host_*` onto its host port (rubick_axil_host), `irq`, and the command ports.
std::string pimAxilModule(const std::string& top, const PimTopPorts& p);
/// The README section on `<top>_axil`: its register map, host window and a run.
std::string axilReadme(const std::string& top, const PimTopPorts& p);

std::string pimUnitModule(const arch::Plan& plan, const PimShape& s);
std::string pimTopModule(const arch::Plan& plan, const PimShape& s);

} // namespace rubick::emit::detail
