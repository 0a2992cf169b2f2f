// SPDX-License-Identifier: Apache-2.0
#include "AxiPorts.h"

#include "VerilogText.h"

#include "rubick/emit/MemoryTop.h"

#include <sstream>

namespace rubick::emit::detail {

// Every signal of an AXI4 master port: its name, whether the master drives it, its width (0:
// the address width, -1: the data width, -2: the strobe width).
const PortSignal kAxiMaster[33] = {
    {"awid", true, 1},     {"awaddr", true, 0},  {"awlen", true, 8},    {"awsize", true, 3},
    {"awburst", true, 2},  {"awcache", true, 4}, {"awprot", true, 3},   {"awvalid", true, 1},
    {"awready", false, 1}, {"wdata", true, -1},  {"wstrb", true, -2},   {"wlast", true, 1},
    {"wvalid", true, 1},   {"wready", false, 1}, {"bid", false, 1},     {"bresp", false, 2},
    {"bvalid", false, 1},  {"bready", true, 1},  {"arid", true, 1},     {"araddr", true, 0},
    {"arlen", true, 8},    {"arsize", true, 3},  {"arburst", true, 2},  {"arcache", true, 4},
    {"arprot", true, 3},   {"arvalid", true, 1}, {"arready", false, 1}, {"rid", false, 1},
    {"rdata", false, -1},  {"rresp", false, 2},  {"rlast", false, 1},   {"rvalid", false, 1},
    {"rready", true, 1}};

int64_t signalWidth(const PortSignal& s, int64_t aw, int64_t dw) {
  return s.width == 0 ? aw : s.width == -1 ? dw : s.width == -2 ? dw / 8 : s.width;
}

// The range of a declaration of `s` and a space; nothing for one bit.
std::string declRange(const PortSignal& s, int64_t aw, int64_t dw) {
  const int64_t w = signalWidth(s, aw, dw);
  return w == 1 ? "" : range(w) + " ";
}

// The top's AXI4 master ports: `m_axi_*`, or with several ports `m00_axi_*`, `m01_axi_*`, ...
// of AXI4's widest data bus each.
std::string axiPortsText(int64_t ways, int64_t aw, int64_t dw) {
  std::ostringstream os;
  const int64_t pw = dw / ways;
  for (int64_t w = 0; w < ways; ++w) {
    os << "  // AXI4 memory master" << (ways > 1 ? " " + axiPortPrefix(w, ways) + "*" : "")
       << ".\n";
    for (const PortSignal& s : kAxiMaster)
      os << "  " << (s.out ? "output" : "input ") << " wire " << declRange(s, aw, pw)
         << axiPortPrefix(w, ways) << s.name << ",\n";
  }
  return os.str();
}

// The AXI4-Lite slave's signals: name, driven by the master (host), width (0: the address).
const PortSignal kAxiLite[17] = {{"awaddr", true, 0},   {"awvalid", true, 1}, {"awready", false, 1},
                                 {"wdata", true, 32},   {"wstrb", true, 4},   {"wvalid", true, 1},
                                 {"wready", false, 1},  {"bresp", false, 2},  {"bvalid", false, 1},
                                 {"bready", true, 1},   {"araddr", true, 0},  {"arvalid", true, 1},
                                 {"arready", false, 1}, {"rdata", false, 32}, {"rresp", false, 2},
                                 {"rvalid", false, 1},  {"rready", true, 1}};

std::string axilPortsText(int64_t regBits) {
  std::ostringstream os;
  for (const PortSignal& sg : kAxiLite)
    os << "  " << (sg.out ? "input " : "output") << " wire " << declRange(sg, regBits, 0)
       << "s_axil_" << sg.name << ",\n";
  return os.str();
}

std::string axilRegsInstance(int64_t regBits, int64_t nt) {
  std::ostringstream os;
  os << "  rubick_axil_regs #(.ADDR_W(" << regBits << "), .N_BASE(" << nt << ")) regs (\n"
     << "    .aclk(aclk), .aresetn(aresetn),\n"
     << "    .s_axil_awaddr(s_axil_awaddr), .s_axil_awvalid(s_axil_awvalid), "
        ".s_axil_awready(s_axil_awready),\n"
     << "    .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb), "
        ".s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready),\n"
     << "    .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid), "
        ".s_axil_bready(s_axil_bready),\n"
     << "    .s_axil_araddr(s_axil_araddr), .s_axil_arvalid(s_axil_arvalid), "
        ".s_axil_arready(s_axil_arready),\n"
     << "    .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp), "
        ".s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready),\n"
     << "    .start(start), .busy_in(seq_busy), .done_in(seq_done), .error_in(dma_error), "
        ".irq(irq), .base_addr(base_addr));\n\n";
  return os.str();
}

} // namespace rubick::emit::detail
