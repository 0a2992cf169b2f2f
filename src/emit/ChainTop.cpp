// SPDX-License-Identifier: Apache-2.0
// The top of a chain built as hardware: the registers of a memory design, the stages one after
// another (each started by the previous one's done pulse), and the AXI4 master routed to the
// stage that runs. Stages never overlap, so routing needs no arbitration: a register set by a
// stage's start names it.

#include "rubick/emit/Chain.h"

#include "AxiPorts.h"
#include "VerilogText.h"

#include "rubick/arch/Plan.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"

#include <sstream>
#include <stdexcept>

namespace rubick::emit {

using namespace detail;

namespace {

// The master's inputs that say a handshake happens: the running stage's alone.
bool handshakeInput(const PortSignal& s) {
  const std::string n = s.name;
  return !s.out &&
         (n == "awready" || n == "wready" || n == "bvalid" || n == "arready" || n == "rvalid");
}

// The router (addresses with the select bit set go to the RAM) and the RAM of the on-chip
// intermediates. Both hold more bursts than the engines issue, so that neither ever stalls them:
// the stages see the RAM's timing alone (arch::OnChip).
std::string onChipRam(const arch::ChainPlan& c, const MemoryTopOptions& o) {
  const int64_t aw = o.addrBits, dw = o.busBytes * 8, most = o.outstanding + 2;
  std::ostringstream os;
  os << "\n  // Intermediates on chip: " << c.chipBytes << " bytes at bit " << c.chipSelectBit
     << " of the address.\n";
  for (const PortSignal& sg : kAxiMaster)
    os << "  wire " << range(signalWidth(sg, aw, dw)) << " r_axi_" << sg.name << ";\n";
  os << "  rubick_axi_route #(.DATA_W(" << dw << "), .ADDR_W(" << aw << "), .ID_W(1), .SEL_BIT("
     << c.chipSelectBit << "), .MAX_OUTSTANDING(" << most << ")) route (\n"
     << "    .aclk(aclk), .aresetn(aresetn)";
  for (const PortSignal& sg : kAxiMaster)
    os << ",\n    .s_axi_" << sg.name << "(c_axi_" << sg.name << "), .m0_axi_" << sg.name
       << "(m_axi_" << sg.name << "), .m1_axi_" << sg.name << "(r_axi_" << sg.name << ")";
  os << ");\n"
     << "  rubick_scratch #(.DATA_BYTES(" << o.busBytes << "), .ADDR_W(" << aw
     << "), .ID_W(1), .DEPTH(" << c.chipBytes / o.busBytes << "), .LATENCY(" << c.chipLatency
     << "), .MAX_OUTSTANDING(" << most << ")) ram (\n"
     << "    .aclk(aclk), .aresetn(aresetn)";
  for (const PortSignal& sg : kAxiMaster)
    os << ",\n    .s_axi_" << sg.name << "(r_axi_" << sg.name << ")";
  os << ");\n";
  return os.str();
}

} // namespace

std::string chainTopModule(const arch::ChainPlan& c, const MemoryTopOptions& o) {
  const int64_t stages = static_cast<int64_t>(c.stages.size());
  if (stages < 2) throw std::logic_error("chainTopModule: a chain of fewer than two stages");
  if (axiPorts(o) > 1)
    throw Unsupported("chain", "a chain is built with one AXI4 port: a bus of at most 128 bytes");
  const std::vector<int> regs = arch::baseRegisters(c);
  const int64_t nt = static_cast<int64_t>(arch::memoryTensors(c).size());
  const int64_t regBits = arch::bitsFor(0x20 + 8 * nt);
  const bool chip = c.chipBytes > 0;
  const bool tiled = c.tiles > 1;
  // With an on-chip RAM the running stage's master goes through a router to it or to m_axi.
  const std::string bus = chip ? "c_axi_" : "m_axi_";
  const int64_t aw = o.addrBits, dw = o.busBytes * 8, sw = arch::bitsFor(stages);
  std::ostringstream os;
  os << generatedBanner() << "// A chain of " << stages
     << " stages run one after another, their tensors in external "
     << "memory" << (chip ? " or, for intermediates that fit, in an on-chip RAM" : "")
     << " (README.md: the register map, the AXI interfaces and the timing).\n"
     << "`default_nettype none\n\n"
     << "module " << c.name << "_top (\n"
     << "  input  wire aclk,\n"
     << "  input  wire aresetn,\n"
     << "  // AXI4-Lite control slave.\n"
     << axilPortsText(regBits) << axiPortsText(1, aw, dw)
     << "  // Level: DONE or ERROR with IE set (ISR register).\n"
     << "  output wire irq\n"
     << ");\n\n"
     << "  wire start, seq_busy, seq_done, dma_error;\n"
     << "  wire [" << (64 * nt - 1) << ":0] base_addr;\n"
     << axilRegsInstance(regBits, nt)
     << "  // Stage k starts on stage k-1's done pulse; the chain is busy from its start to the\n"
     << "  // last stage's done, the cycles between stages included.\n"
     << "  wire " << range(stages) << " st_busy, st_done, st_error;\n";
  const std::string last = "st_done[" + std::to_string(stages - 1) + "]";
  if (tiled) {
    // Tile t + 1 starts on the last stage's done in tile t; the chain is done after the last.
    const int64_t tb = arch::bitsFor(c.tiles);
    os << "  // " << c.tiles << " tiles of rows: the stages run once per tile.\n"
       << "  reg " << range(tb) << " tile;\n"
       << "  wire last_tile = tile == " << ulit(c.tiles - 1, tb) << ";\n"
       << "  always @(posedge aclk)\n"
       << "    if (!aresetn || start) tile <= " << ulit(0, tb) << ";\n"
       << "    else if (" << last << ") tile <= tile + " << ulit(1, tb) << ";\n"
       << "  wire next_tile = " << last << " && !last_tile;\n"
       << "  wire " << range(stages) << " st_start = {st_done[" << stages - 2
       << ":0], start || next_tile};\n"
       << "  assign seq_busy = (|st_busy) | (|st_done[" << stages - 2 << ":0]) | next_tile;\n"
       << "  assign seq_done = " << last << " && last_tile;\n";
  } else
    os << "  wire " << range(stages) << " st_start = {st_done[" << stages - 2 << ":0], start};\n"
       << "  assign seq_busy = (|st_busy) | (|st_done[" << stages - 2 << ":0]);\n"
       << "  assign seq_done = " << last << ";\n";
  os << "  assign dma_error = |st_error;\n\n"
     << "  // The stage that runs (set by its start) drives the AXI4 master.\n"
     << "  reg " << range(sw) << " sel;\n"
     << "  always @(posedge aclk) begin\n"
     << "    if (!aresetn) sel <= " << ulit(0, sw) << ";\n";
  for (int64_t k = 0; k < stages; ++k)
    os << "    else if (st_start[" << k << "]) sel <= " << ulit(k, sw) << ";\n";
  os << "  end\n";
  if (chip) {
    os << "\n  // The running stage's master, before the router.\n";
    for (const PortSignal& sg : kAxiMaster)
      os << "  wire " << range(signalWidth(sg, aw, dw)) << " c_axi_" << sg.name << ";\n";
  }
  for (int64_t k = 0; k < stages; ++k) {
    const arch::ChainStagePlan& st = c.stages[static_cast<size_t>(k)];
    const std::string s = "s" + std::to_string(k);
    os << "\n  // Stage " << k << ": " << st.plan.core.statement << "\n";
    for (const PortSignal& sg : kAxiMaster)
      if (sg.out)
        os << "  wire " << range(signalWidth(sg, aw, dw)) << " " << s << "_" << sg.name << ";\n";
    std::vector<std::string> bases;
    for (size_t i = st.registers.size(); i-- > 0;) {
      const size_t r = st.registers[i];
      const int reg = regs[r];
      std::string b = reg < 0 ? ulit(static_cast<int64_t>(arch::onChipAddress(c, r)), 64)
                              : "base_addr[" + std::to_string(64 * reg + 63) + ":" +
                                    std::to_string(64 * reg) + "]";
      if (reg >= 0 && c.tensors[r].tileBytes) {
        // The stage's tile of this tensor: one tile further after each of its runs, back to
        // the first when the chain is done (the stage is not started again before either).
        const std::string off = s + "_off" + std::to_string(i);
        os << "  reg [63:0] " << off << ";\n"
           << "  always @(posedge aclk)\n"
           << "    if (!aresetn || seq_done) " << off << " <= 64'd0;\n"
           << "    else if (st_done[" << k << "]) " << off << " <= " << off << " + "
           << ulit(static_cast<int64_t>(c.tensors[r].tileBytes), 64) << ";\n";
        b = "(" + b + " + " + off + ")";
      }
      bases.push_back(b);
    }
    os << "  " << st.plan.core.name << "_stage " << s << " (\n"
       << "    .aclk(aclk), .aresetn(aresetn), .start(st_start[" << k << "]), .busy(st_busy[" << k
       << "]), .done(st_done[" << k << "]), .error(st_error[" << k << "]),\n"
       << "    .base_addr(" << concat(bases) << ")";
    for (const PortSignal& sg : kAxiMaster) {
      os << ",\n    .m_axi_" << sg.name << "(";
      if (sg.out)
        os << s << "_" << sg.name;
      else if (handshakeInput(sg))
        os << bus << sg.name << " && (sel == " << ulit(k, sw) << ")";
      else
        os << bus << sg.name;
      os << ")";
    }
    os << ");\n";
  }
  os << "\n";
  for (const PortSignal& sg : kAxiMaster) {
    if (!sg.out) continue;
    os << "  assign " << bus << sg.name << " = ";
    for (int64_t k = 0; k + 1 < stages; ++k)
      os << "(sel == " << ulit(k, sw) << ") ? s" << k << "_" << sg.name << " : ";
    os << "s" << stages - 1 << "_" << sg.name << ";\n";
  }
  if (chip) os << onChipRam(c, o);
  os << "\nendmodule\n\n`default_nettype wire\n";
  return os.str();
}

} // namespace rubick::emit
