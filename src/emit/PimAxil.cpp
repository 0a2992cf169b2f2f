// SPDX-License-Identifier: Apache-2.0
// `<top>_axil`: a PIM top behind AXI4-Lite control and a host window (src/emit/PimTop.h).

#include "PimTop.h"

#include "VerilogText.h"

#include <sstream>

namespace rubick::emit::detail {

namespace {

// An AXI4-Lite slave's ports, named `<prefix>_*`, of `addrBits` byte address bits.
std::string axilPorts(const std::string& prefix, int64_t addrBits) {
  std::ostringstream os;
  os << "  input  wire " << range(addrBits) << " " << prefix << "_awaddr,\n"
     << "  input  wire " << prefix << "_awvalid,\n"
     << "  output wire " << prefix << "_awready,\n"
     << "  input  wire [31:0] " << prefix << "_wdata,\n"
     << "  input  wire [3:0] " << prefix << "_wstrb,\n"
     << "  input  wire " << prefix << "_wvalid,\n"
     << "  output wire " << prefix << "_wready,\n"
     << "  output wire [1:0] " << prefix << "_bresp,\n"
     << "  output wire " << prefix << "_bvalid,\n"
     << "  input  wire " << prefix << "_bready,\n"
     << "  input  wire " << range(addrBits) << " " << prefix << "_araddr,\n"
     << "  input  wire " << prefix << "_arvalid,\n"
     << "  output wire " << prefix << "_arready,\n"
     << "  output wire [31:0] " << prefix << "_rdata,\n"
     << "  output wire [1:0] " << prefix << "_rresp,\n"
     << "  output wire " << prefix << "_rvalid,\n"
     << "  input  wire " << prefix << "_rready,\n";
  return os.str();
}

// The same ports connected to an instance whose slave is named s_axil_*.
std::string axilConnect(const std::string& prefix) {
  std::string s;
  for (const char* sig :
       {"awaddr", "awvalid", "awready", "wdata", "wstrb", "wvalid", "wready", "bresp", "bvalid",
        "bready", "araddr", "arvalid", "arready", "rdata", "rresp", "rvalid", "rready"})
    s += std::string(s.empty() ? "    " : ", ") + ".s_axil_" + sig + "(" + prefix + "_" + sig + ")";
  return s;
}

} // namespace

int64_t axilHostAddressBits(const PimTopPorts& p) {
  return 3 + p.addressBits + p.bankBits + p.tensorBits + p.unitBits + 1;
}

std::string pimAxilModule(const std::string& top, const PimTopPorts& p) {
  const int64_t hw = axilHostAddressBits(p);
  std::ostringstream os;
  os << generatedBanner() << "// " << top
     << " behind the memory system's host interface: AXI4-Lite control (start, status, "
        "interrupt, cycle counter) and an AXI4-Lite window onto its host port.\n"
     << "`default_nettype none\n\n"
     << "module " << top << "_axil (\n"
     << "  input  wire aclk,\n  input  wire aresetn,\n"
     << "  // Control: rtl/rubick_axil_regs.v (CTRL 0x00, STATUS 0x04, ISR 0x08, CYCLES 0x10; "
        "BASE_0 0x20 is not used: the units' data is in their banks).\n"
     << axilPorts("s_axil", 8)
     << "  // The host port: rtl/rubick_axil_host.v (host word {all, unit, tensor, bank, address} "
        "at byte 8 x word, low half first).\n"
     << axilPorts("s_axil_host", hw) << "  output wire irq,\n"
     << pimDramPorts(p);
  os << "  wire rst = ~aresetn;\n"
     << "  wire start, busy, done;\n"
     << "  // DONE is set when the run ends: done rising (a level from the previous run would\n"
     << "  // set it again at the start that clears it).\n"
     << "  reg done_q;\n"
     << "  always @(posedge aclk) done_q <= aresetn & done;\n"
     << "  wire [63:0] base_unused;\n"
     << "  rubick_axil_regs #(.ADDR_W(8), .N_BASE(1)) regs (\n"
     << "    .aclk(aclk), .aresetn(aresetn),\n"
     << axilConnect("s_axil") << ",\n"
     << "    .start(start), .busy_in(busy), .done_in(done & ~done_q), .error_in(1'b0), "
        ".irq(irq), .base_addr(base_unused));\n\n"
     << "  wire host_we, host_wall, host_re;\n"
     << "  wire " << range(p.unitBits) << " host_wunit, host_runit;\n"
     << "  wire " << range(p.tensorBits) << " host_wtensor, host_rtensor;\n"
     << "  wire " << range(p.bankBits) << " host_wbank, host_rbank;\n"
     << "  wire " << range(p.addressBits) << " host_waddr, host_raddr;\n"
     << "  wire " << range(p.dataBits) << " host_wdata, host_rdata;\n"
     << "  rubick_axil_host #(.ADDR_W(" << hw << "), .UNIT_W(" << p.unitBits << "), .TENSOR_W("
     << p.tensorBits << "), .BANK_W(" << p.bankBits << "), .AW(" << p.addressBits << "), .DATA_W("
     << p.dataBits << ")) window (\n"
     << "    .aclk(aclk), .aresetn(aresetn),\n"
     << axilConnect("s_axil_host") << ",\n"
     << "    .busy_in(busy),\n"
     << "    .host_we(host_we), .host_wunit(host_wunit), .host_wall(host_wall), "
        ".host_wtensor(host_wtensor), .host_wbank(host_wbank), .host_waddr(host_waddr), "
        ".host_wdata(host_wdata),\n"
     << "    .host_re(host_re), .host_runit(host_runit), .host_rtensor(host_rtensor), "
        ".host_rbank(host_rbank), .host_raddr(host_raddr), .host_rdata(host_rdata));\n\n"
     << "  " << top << " core (\n"
     << "    .clk(aclk), .rst(rst), .start(start), .busy(busy), .done(done),\n"
     << "    .host_we(host_we), .host_wunit(host_wunit), .host_wall(host_wall), "
        ".host_wtensor(host_wtensor), .host_wbank(host_wbank), .host_waddr(host_waddr), "
        ".host_wdata(host_wdata),\n"
     << "    .host_re(host_re), .host_runit(host_runit), .host_rtensor(host_rtensor), "
        ".host_rbank(host_rbank), .host_raddr(host_raddr), .host_rdata(host_rdata),\n";
  std::string dram;
  for (const char* sig : {"row_valid", "row_act", "row_bank", "row_addr", "col_valid", "col_bank",
                          "col_addr", "col_write", "wr_data", "rd_valid", "rd_data"})
    dram += std::string(dram.empty() ? "    " : ", ") + ".dram_" + sig + "(dram_" + sig + ")";
  os << dram << ");\n\n"
     << "  wire unused_ok = &{1'b0, base_unused};\n"
     << "endmodule\n\n`default_nettype wire\n";
  return os.str();
}

std::string axilReadme(const std::string& top, const PimTopPorts& p) {
  std::ostringstream os;
  os << "## The host interface: `" << top << "_axil`\n\n"
     << "`" << top
     << "` in the memory system's conventions: `aclk`, active-low `aresetn`, the "
        "AXI4-Lite control slave `s_axil_*` (8 address bits), the AXI4-Lite host window "
        "`s_axil_host_*` ("
     << axilHostAddressBits(p)
     << " address bits), `irq`, and the same "
        "command ports.\n\n"
     << "| offset | control register |\n|---|---|\n"
     << "| 0x00 | CTRL: bit 0 START (write 1: start), bit 1 IE (interrupt enable) |\n"
     << "| 0x04 | STATUS: bit 0 DONE (set when the run ends, cleared by START or writing 1), bit "
        "1 BUSY |\n"
     << "| 0x08 | ISR: bit 0 done interrupt (write 1 to clear); irq = IE and ISR |\n"
     << "| 0x10, 0x14 | CYCLES: cycles of the last run (reading 0x10 latches the high half) |\n"
     << "| 0x20, 0x24 | BASE_0: not used (the units' data is in their banks) |\n\n"
     << "Host window: host word {all units, unit, tensor, bank, address} (" << 1 << ", "
     << p.unitBits << ", " << p.tensorBits << ", " << p.bankBits << ", " << p.addressBits
     << " bits) at byte address 8 x word, its bits 31..0 at +0 and 63..32 at +4 (a word wider "
        "than 32 bits: write +0, then +4, which writes it). The all-units bit writes the word "
        "into every unit. Accesses while the units run answer SLVERR and change nothing.\n\n"
     << "A run: write the on-chip inputs through the window, write CTRL = 3, wait for irq (one "
        "cycle after the run's done), read the outputs through the window.\n\n";
  return os.str();
}

} // namespace rubick::emit::detail
