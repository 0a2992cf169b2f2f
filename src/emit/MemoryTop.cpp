// SPDX-License-Identifier: Apache-2.0
// The top of a design with a memory system: AXI4-Lite registers, the buffer-level sequencer,
// per tensor its DMA engines (memory to banks for inputs and reloaded partial sums, banks to
// memory for outputs), the AXI4 master shared by the engines, and the core.
//
// The sequencer runs one load and one store at a time, so the shared AXI channels need no
// arbitration: a register remembers which engine the current load (store) belongs to and routes
// the channels to it.

#include "rubick/emit/MemoryTop.h"

#include "rubick/emit/Verilog.h"

#include "AxiPorts.h"
#include "MemorySequencer.h"
#include "VerilogText.h"

#include <algorithm>
#include <array>
#include <sstream>

namespace rubick::emit {

using namespace detail;
using arch::MemoryPlan;
using arch::TensorPlan;
using arch::TensorTransfer;

namespace {

// A packed parameter vector of `width`-bit fields, field 0 lowest, as one hex literal.
std::string packedFields(const std::vector<int64_t>& fields, int64_t width) {
  const int64_t bits = std::max<int64_t>(1, static_cast<int64_t>(fields.size()) * width);
  std::vector<int> bit(static_cast<size_t>(bits), 0);
  for (size_t f = 0; f < fields.size(); ++f)
    for (int64_t b = 0; b < width; ++b)
      bit[static_cast<size_t>(static_cast<int64_t>(f) * width + b)] =
          b < 63 ? static_cast<int>((static_cast<uint64_t>(fields[f]) >> b) & 1U)
                 : static_cast<int>(fields[f] < 0);
  std::string hex;
  for (int64_t d = (bits + 3) / 4; d-- > 0;) {
    int v = 0;
    for (int b = 3; b >= 0; --b) {
      const int64_t i = d * 4 + b;
      v = v * 2 + (i < bits ? bit[static_cast<size_t>(i)] : 0);
    }
    hex += "0123456789abcdef"[v];
  }
  return std::to_string(bits) + "'h" + hex;
}

// The DMA map's tables and walk as the scatter and gather take them.
std::string mapParameters(const arch::DmaMap& d, int64_t banks, int64_t addressBits) {
  const int64_t bankBits = arch::bitsFor(banks + 1);
  std::vector<int64_t> bank, addr;
  for (const auto& phase : d.cells)
    for (const arch::Location& c : phase) {
      bank.push_back(c.bank < 0 ? (int64_t(1) << bankBits) - 1 : c.bank);
      addr.push_back(c.bank < 0 ? 0 : c.address);
    }
  std::ostringstream os;
  os << ".LANES(" << d.lanes << "), .COPIES(" << d.copies << "), .BANKS(" << banks
     << "), .ADDR_BITS(" << addressBits << "), .ROW_PERIOD(" << d.rowPeriod << "), .COL_PERIOD("
     << d.colPeriod << "), .ROW_STEP(" << d.rowStep << "), .COL_STEP(" << d.colStep
     << "), .CELL_BANK(" << packedFields(bank, bankBits) << "), .CELL_ADDR("
     << packedFields(addr, addressBits) << ")";
  return os.str();
}

// The master's outputs on the read channels (AR and RREADY) or the write channels (AW, W and
// BREADY), which the engines share.
std::vector<PortSignal> engineOutputs(bool read) {
  std::vector<PortSignal> v;
  for (const PortSignal& sg : kAxiMaster) {
    const std::string n = sg.name;
    const bool isRead = n.rfind("ar", 0) == 0 || n == "rready";
    if (sg.out && isRead == read) v.push_back(sg);
  }
  return v;
}

// The channel's outputs of every engine, and the shared outputs driven by the one `sel` names
// (set by that engine's start).
void channelMux(std::ostream& os, const std::vector<PortSignal>& signals, const std::string& prefix,
                const std::string& sel, const std::vector<std::string>& engines,
                const std::string& startSuffix, int64_t aw, int64_t dw) {
  const int64_t n = static_cast<int64_t>(engines.size()), sw = arch::bitsFor(n);
  os << "\n  // The " << (prefix == "rd" ? "read" : "write")
     << " channels, routed to the engine of the current " << (prefix == "rd" ? "load" : "store")
     << ".\n";
  for (int64_t k = 0; k < n; ++k)
    for (const PortSignal& s : signals)
      os << "  wire " << range(signalWidth(s, aw, dw)) << " " << prefix << k << "_" << s.name
         << ";\n";
  os << "  reg " << range(sw) << " " << sel << ";\n"
     << "  always @(posedge aclk) begin\n"
     << "    if (!aresetn) " << sel << " <= " << ulit(0, sw) << ";\n";
  for (int64_t k = 0; k < n; ++k)
    os << "    else if (" << engines[static_cast<size_t>(k)] << startSuffix << ") " << sel
       << " <= " << ulit(k, sw) << ";\n";
  os << "  end\n";
  for (const PortSignal& s : signals) {
    os << "  assign m_axi_" << s.name << " = ";
    for (int64_t k = 0; k + 1 < n; ++k)
      os << "(" << sel << " == " << ulit(k, sw) << ") ? " << prefix << k << "_" << s.name << " : ";
    os << prefix << (n - 1) << "_" << s.name << ";\n";
  }
}

// With several ports: the engines' bus (the wires m_axi_*) split over them in lock-step.
std::string axiSplitText(int64_t ways, int64_t aw, int64_t dw) {
  std::ostringstream os;
  os << "  // The engines' " << dw << "-bit bus, split over " << ways
     << " AXI4 ports in lock-step (byte b of the memory is at port (b / " << dw / ways / 8
     << ") mod " << ways << ").\n";
  for (const PortSignal& s : kAxiMaster)
    os << "  wire " << declRange(s, aw, dw) << "m_axi_" << s.name << ";\n";
  os << "  rubick_axi_split #(.WAYS(" << ways << "), .PORT_W(" << dw / ways << "), .ADDR_W(" << aw
     << "), .ID_W(1)) axi_split (\n"
     << "    .aclk(aclk), .aresetn(aresetn)";
  for (const PortSignal& s : kAxiMaster) {
    os << ",\n    .s_axi_" << s.name << "(m_axi_" << s.name << "), .m_axi_" << s.name << "({";
    for (int64_t w = ways; w-- > 0;)
      os << axiPortPrefix(w, ways) << s.name << (w ? ", " : "");
    os << "})";
  }
  os << ");\n\n";
  return os.str();
}

// A DMA engine's tile and element parameters.
std::string engineGeometry(int64_t aw, int64_t dw, int64_t ew, int64_t lanes, bool rowLanes,
                           int64_t rows, int64_t cols) {
  return ".ADDR_W(" + std::to_string(aw) + "), .DATA_W(" + std::to_string(dw) + "), .ELEM_W(" +
         std::to_string(ew) + "), .LANES(" + std::to_string(lanes) + "), .ROW_LANES(" +
         (rowLanes ? "1" : "0") + "), .ROWS(" + std::to_string(rows) + "), .COLS(" +
         std::to_string(cols) + ")";
}

// The epilogue between output `id`'s gather (<id>_o_*) and its writer (<id>_e_*), reading the
// operands' register files (op<k>_idx, op<k>_val); the output is tensor 0 of the sequencer.
std::string epilogueInstance(const MemoryPlan& m, const std::string& id, int64_t lanes,
                             int64_t outBits) {
  std::ostringstream os;
  os << "  wire " << id << "_e_valid, " << id << "_e_ready;\n"
     << "  wire " << range(lanes * outBits) << " " << id << "_e_data;\n";
  for (size_t k = 0; k < m.operands.size(); ++k) {
    if (!m.operands[k].operand.full())
      os << "  wire " << range(lanes * 32) << " " << operandId(k) << "_idx;\n";
    os << "  wire " << range(lanes * m.operands[k].operand.bits) << " " << operandId(k)
       << "_val;\n";
  }
  os << "  " << m.core.name << "_epilogue " << id << "_epilogue (\n"
     << "    .aclk(aclk), .aresetn(aresetn), .start(" << id
     << "_st_start), .row0(st_row0[31:0]), .col0(st_col0[31:0]),\n"
     << "    .in_valid(" << id << "_o_valid), .in_ready(" << id << "_o_ready), .in_data(" << id
     << "_o_data),\n"
     << "    .out_valid(" << id << "_e_valid), .out_ready(" << id << "_e_ready), .out_data(" << id
     << "_e_data)";
  for (size_t k = 0; k < m.operands.size(); ++k) {
    if (!m.operands[k].operand.full())
      os << ",\n    ." << operandId(k) << "_idx(" << operandId(k) << "_idx)";
    os << ",\n    ." << operandId(k) << "_val(" << operandId(k) << "_val)";
  }
  os << ");\n";
  return os.str();
}

// A DMA map's scatter: write groups <id>_g_* into banks <bank>we/waddr/wdata, in half `half`.
std::string scatterInstance(const arch::DmaMap& d, int64_t banks, int64_t addressBits, int64_t ew,
                            const std::string& id, const std::string& bank, const std::string& half,
                            const std::string& busy) {
  std::ostringstream os;
  os << "  rubick_dma_scatter #(" << mapParameters(d, banks, addressBits) << ", .ELEM_W(" << ew
     << "), .GROUP_ROWS(" << d.groupRows() << "), .GROUP_COLS(" << d.groupCols() << ")) " << id
     << "_scatter (\n"
     << "    .aclk(aclk), .aresetn(aresetn), .start(" << id << "_ld_start), .half(" << half
     << "), .busy(" << busy << "), .done(" << id << "_ld_done),\n"
     << "    .in_valid(" << id << "_g_valid), .in_ready(" << id << "_g_ready), .in_data(" << id
     << "_g_data), .in_mask(" << id << "_g_mask),\n"
     << "    .bank_we(" << bank << "we), .bank_addr(" << bank << "waddr), .bank_data(" << bank
     << "wdata));\n";
  return os.str();
}

// A DMA map's gather `<id>_gather`, started by `start`: banks <bank>re/raddr/rdata in half
// `half`, groups out on the `out` signals (valid, ready, data, mask).
std::string gatherInstance(const arch::DmaMap& d, int64_t banks, int64_t addressBits, int64_t ew,
                           const std::string& id, const std::string& bank, const std::string& start,
                           const std::string& half, const std::string& busy,
                           const std::string& done, const std::array<std::string, 4>& out) {
  std::ostringstream os;
  os << "  rubick_dma_gather #(" << mapParameters(d, banks, addressBits) << ", .ELEM_W(" << ew
     << "), .ROW_LANES(" << (d.rowLanes ? 1 : 0) << "), .ROWS(" << d.rows << "), .COLS(" << d.cols
     << ")) " << id << "_gather (\n"
     << "    .aclk(aclk), .aresetn(aresetn), .start(" << start << "), .half(" << half << "), .busy("
     << busy << "), .done(" << done << "),\n"
     << "    .bank_rd_en(" << bank << "re), .bank_rd_addr(" << bank << "raddr), .bank_rd_data("
     << bank << "rdata),\n"
     << "    .out_valid(" << out[0] << "), .out_ready(" << out[1] << "), .out_data(" << out[2]
     << "), .out_mask(" << out[3] << "));\n";
  return os.str();
}

// A full epilogue operand's banks (as the output's: its map, bank count and depth), filled by
// its scatter into the half the sequencer names (a late load) and read by a gather started with
// the output's store and stalled with it, so that its groups come beside the output's.
std::string fullOperandBanks(const arch::OperandTransfer& op, const std::string& id,
                             const std::string& out, const std::string& scBusy,
                             const std::string& gaBusy, const std::string& gaDone,
                             const std::string& gaValid, const std::string& gaMask) {
  const arch::DmaMap& d = op.dma;
  const int64_t banks = op.banks, ab = op.addressBits + 1, w = op.operand.bits;
  std::ostringstream os;
  os << "  wire " << range(banks) << " " << id << "_we, " << id << "_re;\n"
     << "  wire " << range(banks * ab) << " " << id << "_waddr, " << id << "_raddr;\n"
     << "  wire " << range(banks * w) << " " << id << "_wdata, " << id << "_rdata;\n"
     << scatterInstance(d, banks, op.addressBits, w, id, id + "_", id + "_half", scBusy)
     << gatherInstance(d, banks, op.addressBits, w, id, id + "_", out + "_st_start",
                       "!" + id + "_half", gaBusy, gaDone,
                       {gaValid, out + "_o_ready", id + "_val", gaMask});
  for (int64_t b = 0; b < banks; ++b) {
    const std::string bank = id + "_b" + std::to_string(b);
    const std::string msbW = id + "_waddr[" + std::to_string(b * ab + ab - 1) + "]";
    const std::string msbR = id + "_raddr[" + std::to_string(b * ab + ab - 1) + "]";
    auto low = [&](const std::string& v) {
      return v + "[" + std::to_string(b * ab + ab - 2) + ":" + std::to_string(b * ab) + "]";
    };
    const std::string we = id + "_we[" + std::to_string(b) + "]";
    const std::string re = id + "_re[" + std::to_string(b) + "]";
    os << "  wire " << range(w) << " " << bank << "_q0, " << bank << "_q1;\n";
    for (int h = 0; h < 2; ++h)
      os << "  rubick_bank #(.WIDTH(" << w << "), .DEPTH(" << op.depth << "), .AW("
         << op.addressBits << ")) " << bank << "_h" << h << " (\n"
         << "    .clk(aclk), .rd_en(" << re << " && " << (h ? "" : "!") << msbR << "), .rd_addr("
         << low(id + "_raddr") << "), .rd_data(" << bank << "_q" << h << "),\n"
         << "    .wr_en(" << we << " && " << (h ? "" : "!") << msbW << "), .wr_addr("
         << low(id + "_waddr") << "), .wr_data(" << id << "_wdata[" << b * w + w - 1 << ":" << b * w
         << "]));\n";
    os << "  reg " << bank << "_dsel;\n"
       << "  always @(posedge aclk) if (" << re << ") " << bank << "_dsel <= " << msbR << ";\n"
       << "  assign " << id << "_rdata[" << b * w + w - 1 << ":" << b * w << "] = " << bank
       << "_dsel ? " << bank << "_q1 : " << bank << "_q0;\n";
  }
  return os.str();
}

} // namespace

std::string unitPortPrefix(int64_t unit, int64_t units, int64_t port, int64_t ports) {
  if (units == 1) return axiPortPrefix(port, ports);
  return std::string("u") + (unit < 10 ? "0" : "") + std::to_string(unit) + "_" +
         axiPortPrefix(port, ports);
}

std::string memoryUnitsModule(const MemoryPlan& m, const MemoryTopOptions& o, int64_t units) {
  const std::string name = m.core.name;
  const int64_t nt = static_cast<int64_t>(m.tensors.size() + m.operands.size());
  const int64_t regBits = arch::bitsFor(0x20 + 8 * nt);
  const int64_t ways = axiPorts(o), aw = o.addrBits, pw = o.busBytes * 8 / ways;
  std::ostringstream os;
  os << generatedBanner() << "// " << units << " units of " << name
     << "_top side by side, their registers written "
     << "together (README.md).\n"
     << "`default_nettype none\n\n"
     << "module " << name << "_pim (\n"
     << "  input  wire aclk,\n"
     << "  input  wire aresetn,\n"
     << "  // AXI4-Lite control slave: every unit's registers at once.\n";
  for (const PortSignal& sg : kAxiLite)
    os << "  " << (sg.out ? "input " : "output") << " wire " << declRange(sg, regBits, 0)
       << "s_axil_" << sg.name << ",\n";
  for (int64_t u = 0; u < units; ++u)
    for (int64_t w = 0; w < ways; ++w) {
      os << "  // Unit " << u << "'s AXI4 port" << (ways > 1 ? " " + std::to_string(w) : "")
         << " onto its banks.\n";
      for (const PortSignal& sg : kAxiMaster)
        os << "  " << (sg.out ? "output" : "input ") << " wire " << declRange(sg, aw, pw)
           << unitPortPrefix(u, units, w, ways) << sg.name << ",\n";
    }
  os << "  // Level: every unit's irq (they finish together).\n"
     << "  output wire irq\n"
     << ");\n\n";
  // The fan's master side, unit u's fields in [u*W +: W].
  for (const PortSignal& sg : kAxiLite) {
    const int64_t w = signalWidth(sg, regBits, 0);
    os << "  wire " << range(units * w) << " f_" << sg.name << ";\n";
  }
  os << "  wire " << range(units) << " unit_irq;\n"
     << "  rubick_axil_fan #(.N(" << units << "), .ADDR_W(" << regBits << ")) fan (\n"
     << "    .aclk(aclk), .aresetn(aresetn)";
  for (const PortSignal& sg : kAxiLite)
    os << ",\n    .s_axil_" << sg.name << "(s_axil_" << sg.name << "), .m_axil_" << sg.name << "(f_"
       << sg.name << ")";
  os << ");\n";
  for (int64_t u = 0; u < units; ++u) {
    os << "\n  " << name << "_top unit" << u << " (\n"
       << "    .aclk(aclk), .aresetn(aresetn)";
    for (const PortSignal& sg : kAxiLite) {
      const int64_t w = signalWidth(sg, regBits, 0);
      os << ",\n    .s_axil_" << sg.name << "(f_" << sg.name << "[" << u * w + w - 1 << ":" << u * w
         << "])";
    }
    for (int64_t w = 0; w < ways; ++w)
      for (const PortSignal& sg : kAxiMaster)
        os << ",\n    ." << axiPortPrefix(w, ways) << sg.name << "("
           << unitPortPrefix(u, units, w, ways) << sg.name << ")";
    os << ",\n    .irq(unit_irq[" << u << "]));\n";
  }
  os << "\n  assign irq = &unit_irq;\n\nendmodule\n\n`default_nettype wire\n";
  return os.str();
}

int64_t axiPorts(const MemoryTopOptions& o) {
  return o.busBytes > arch::kMaxAxiBusBytes ? o.busBytes / arch::kMaxAxiBusBytes : 1;
}

std::string axiPortPrefix(int64_t port, int64_t ports) {
  if (ports == 1) return "m_axi_";
  return std::string("m") + (port < 10 ? "0" : "") + std::to_string(port) + "_axi_";
}

namespace {

// `<name>_top` behind its AXI4-Lite registers, or for a chain's stage `<name>_stage` with the
// registers' signals as ports (start, base_addr in, busy, done, error out).
std::string topModule(const MemoryPlan& m, const MemoryTopOptions& o, bool stage) {
  const arch::Plan& core = m.core;
  const std::string name = core.name;
  const int64_t aw = o.addrBits, dw = o.busBytes * 8;
  const int64_t nt = static_cast<int64_t>(m.tensors.size() + m.operands.size());
  const int64_t ways = axiPorts(o);
  const int64_t regBits = arch::bitsFor(0x20 + 8 * nt);
  std::ostringstream os;
  Unused unused;
  // Outputs the top leaves alone: declared and listed as intentionally unused.
  std::ostringstream spares;
  auto spare = [&](const std::string& wire, int64_t width) {
    spares << "  wire " << range(width) << " " << wire << ";\n";
    unused.add(wire);
    return wire;
  };

  os << generatedBanner() << "// " << core.statement
     << " with its tensors in external memory (README.md: the register"
     << " map, the AXI interfaces and the timing).\n"
     << "`default_nettype none\n\n"
     << "module " << name << (stage ? "_stage" : "_top") << " (\n"
     << "  input  wire aclk,\n"
     << "  input  wire aresetn,\n";
  if (stage) {
    os << "  // Control: start pulses a run (base_addr valid from start to done); done pulses "
          "once after it.\n"
       << "  input  wire start,\n"
       << "  input  wire [" << (64 * nt - 1) << ":0] base_addr,\n"
       << "  output wire busy,\n"
       << "  output wire done,\n"
       << "  // A pulse for every AXI response that was not OKAY.\n"
       << "  output wire error,\n"
       << axiPortsText(ways, aw, dw);
    os.seekp(-2, std::ios_base::end);
    os << "\n);\n\n";
  } else
    os << "  // AXI4-Lite control slave.\n"
       << axilPortsText(regBits) << axiPortsText(ways, aw, dw)
       << "  // Level: DONE or ERROR with IE set (ISR register).\n"
       << "  output wire irq\n"
       << ");\n\n";

  // The body follows the declarations of the spare outputs.
  std::string head = os.str();
  os.str("");
  if (ways > 1) os << axiSplitText(ways, aw, dw);

  if (stage)
    os << "  wire seq_busy, seq_done, dma_error;\n"
       << "  assign busy = seq_busy;\n  assign done = seq_done;\n  assign error = dma_error;\n";
  else
    // Registers.
    os << "  wire start, seq_busy, seq_done, dma_error;\n"
       << "  wire [" << (64 * nt - 1) << ":0] base_addr;\n"
       << axilRegsInstance(regBits, nt);
  if (aw < 64) unused.add("base_addr");

  // Which tensors load (inputs, reloaded partial sums) and store (outputs), in tensor order.
  std::vector<std::string> readers, writers;
  for (size_t ti = 0; ti < m.tensors.size(); ++ti) {
    const TensorPlan& t = core.tensors[ti];
    if (!t.output || m.tensors[ti].reload) readers.push_back(t.id);
    if (t.output) writers.push_back(t.id);
  }
  for (size_t k = 0; k < m.operands.size(); ++k)
    readers.push_back(operandId(k));
  auto is = [](const std::string& sel, size_t k, const std::vector<std::string>& engines) {
    return "(" + sel + " == " +
           ulit(static_cast<int64_t>(k), arch::bitsFor(static_cast<int64_t>(engines.size()))) + ")";
  };

  // Core.
  if (core.chain)
    os << "\n  // The core: one buffer tile per core_start, its runs chained: core_next where the "
          "next run may\n  // start, core_done the cycle after the run's last array tile ends.\n"
       << "  wire core_start, core_done, core_next, core_busy;\n";
  else
    os << "\n  // The core: one buffer tile per core_start; core_done is the cycle after its last "
          "busy one.\n"
       << "  wire core_start, core_done, core_next, core_busy;\n"
       << "  reg core_busy_q;\n"
       << "  always @(posedge aclk) core_busy_q <= aresetn && core_busy;\n"
       << "  assign core_done = core_busy_q && !core_busy;\n"
       << "  assign core_next = 1'b0;\n";
  if (core.chain) unused.add("core_busy");
  os << sequencerInstance(m, o, unused);
  channelMux(os, engineOutputs(true), "rd", "rsel", readers, "_ld_start", aw, dw);
  channelMux(os, engineOutputs(false), "wr", "wsel", writers, "_st_start", aw, dw);
  std::vector<std::string> corePorts;
  std::vector<std::string> errors;
  const std::string axi = ".MAX_BURST(" + std::to_string(o.burstBeats) + "), .MAX_OUTSTANDING(" +
                          std::to_string(o.outstanding) + ")";
  // The DMA reader `<id>_rd` of `lanes` elements of `ew` bits a group (<id>_g_*), on the read
  // channel's engine of `id`.
  auto reader = [&](const std::string& id, int64_t lanes, int64_t ew, const std::string& geometry,
                    const std::string& pitch) {
    const size_t k =
        static_cast<size_t>(std::find(readers.begin(), readers.end(), id) - readers.begin());
    std::ostringstream r;
    r << "  wire " << id << "_g_valid, " << id << "_g_ready;\n"
      << "  wire " << range(lanes * ew) << " " << id << "_g_data;\n"
      << "  wire " << range(lanes) << " " << id << "_g_mask;\n"
      << "  wire " << id << "_rd_error;\n"
      << "  rubick_dma_rd #(" << geometry << ", " << axi << ") " << id << "_rd (\n"
      << "    .aclk(aclk), .aresetn(aresetn), .start(" << id << "_ld_start), .base(" << id
      << "_ld_addr), .pitch(" << pitch << "),\n"
      << "    .rows_valid(" << id << "_ld_rows), .cols_valid(" << id << "_ld_cols), .busy("
      << spare(id + "_rd_busy", 1) << "), .done(" << spare(id + "_rd_done", 1) << "), .error(" << id
      << "_rd_error),\n"
      << "    .out_valid(" << id << "_g_valid), .out_ready(" << id << "_g_ready), .out_data(" << id
      << "_g_data), .out_mask(" << id << "_g_mask),\n";
    for (const PortSignal& c : engineOutputs(true))
      r << "    .m_axi_" << c.name << "(rd" << k << "_" << c.name << "),\n";
    r << "    .m_axi_arready(m_axi_arready && " << is("rsel", k, readers)
      << "), .m_axi_rid(m_axi_rid), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp),\n"
      << "    .m_axi_rlast(m_axi_rlast), .m_axi_rvalid(m_axi_rvalid && " << is("rsel", k, readers)
      << "));\n";
    errors.push_back(id + "_rd_error");
    return r.str();
  };
  for (size_t ti = 0; ti < m.tensors.size(); ++ti) {
    const TensorTransfer& x = m.tensors[ti];
    const TensorPlan& t = core.tensors[ti];
    const arch::DmaMap& d = x.dma;
    const std::string& id = t.id;
    const int64_t banks = static_cast<int64_t>(t.ports.size()), ab = t.addressBits + 1;
    const int64_t ew = t.elementBits, lanes = d.lanes;
    // In memory: the epilogue's width for an output with one.
    const bool epilogue = t.output && m.epilogue;
    const int64_t mw = epilogue ? m.epilogueBits : ew;
    const std::string geometry = engineGeometry(aw, dw, mw, lanes, d.rowLanes, d.rows, d.cols);
    // The tile's rows lie its box's pitch apart (the tensor's row for a matrix).
    const std::string pitch = ulit(x.box.pitch * (mw / 8), aw);
    os << "\n  // " << t.name << ": " << (t.output ? "output" : "input") << ", tile " << d.rows
       << " x " << d.cols << ", " << arch::toString(d) << "\n"
       << "  wire " << id << "_dma_half = !" << id << "_half;\n";
    corePorts.push_back("." + id + "_half(" + id + "_half)");
    if (t.bufferRecurs) corePorts.push_back("." + id + "_acc_zero(" + id + "_acc_zero)");
    if (!t.output || x.reload) {
      os << "  wire " << range(banks) << " " << id << "_dma_we;\n"
         << "  wire " << range(banks * ab) << " " << id << "_dma_waddr;\n"
         << "  wire " << range(banks * ew) << " " << id << "_dma_wdata;\n"
         << reader(id, lanes, ew, geometry, pitch)
         << scatterInstance(d, banks, t.addressBits, ew, id, id + "_dma_", id + "_dma_half",
                            spare(id + "_sc_busy", 1));
      corePorts.push_back("." + id + "_dma_we(" + id + "_dma_we)");
      corePorts.push_back("." + id + "_dma_waddr(" + id + "_dma_waddr)");
      corePorts.push_back("." + id + "_dma_wdata(" + id + "_dma_wdata)");
    }
    if (t.output) {
      const size_t k =
          static_cast<size_t>(std::find(writers.begin(), writers.end(), id) - writers.begin());
      // Named in this order (their declarations follow it; arguments have no order).
      const std::string gaBusy = spare(id + "_ga_busy", 1), gaDone = spare(id + "_ga_done", 1);
      const std::string oMask = spare(id + "_o_mask", lanes);
      os << "  wire " << id << "_o_valid, " << id << "_o_ready;\n"
         << "  wire " << range(lanes * ew) << " " << id << "_o_data;\n"
         << "  wire " << range(banks) << " " << id << "_dma_re;\n"
         << "  wire " << range(banks * ab) << " " << id << "_dma_raddr;\n"
         << "  wire " << range(banks * ew) << " " << id << "_dma_rdata;\n"
         << "  wire " << id << "_wr_error;\n"
         << gatherInstance(d, banks, t.addressBits, ew, id, id + "_dma_", id + "_st_start",
                           id + "_dma_half", gaBusy, gaDone,
                           {id + "_o_valid", id + "_o_ready", id + "_o_data", oMask})
         << (epilogue ? epilogueInstance(m, id, lanes, mw) : "") << "  rubick_dma_wr #(" << geometry
         << ", " << axi << ") " << id << "_wr (\n"
         << "    .aclk(aclk), .aresetn(aresetn), .start(" << id << "_st_start), .base(" << id
         << "_st_addr), .pitch(" << pitch << "),\n"
         << "    .rows_valid(" << id << "_st_rows), .cols_valid(" << id << "_st_cols), .busy("
         << spare(id + "_wr_busy", 1) << "), "
         << ".done(" << id << "_st_done), .error(" << id << "_wr_error),\n";
      const std::string into = id + (epilogue ? "_e" : "_o");
      os << "    .in_valid(" << into << "_valid), .in_ready(" << into << "_ready), .in_data("
         << into << "_data),\n";
      for (const PortSignal& c : engineOutputs(false))
        os << "    .m_axi_" << c.name << "(wr" << k << "_" << c.name << "),\n";
      os << "    .m_axi_awready(m_axi_awready && " << is("wsel", k, writers)
         << "), .m_axi_wready(m_axi_wready && " << is("wsel", k, writers) << "),\n"
         << "    .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid && "
         << is("wsel", k, writers) << "));\n";
      errors.push_back(id + "_wr_error");
      corePorts.push_back("." + id + "_dma_re(" + id + "_dma_re)");
      corePorts.push_back("." + id + "_dma_raddr(" + id + "_dma_raddr)");
      corePorts.push_back("." + id + "_dma_rdata(" + id + "_dma_rdata)");
    }
  }

  for (size_t k = 0; k < m.operands.size(); ++k) {
    const arch::OperandTransfer& op = m.operands[k];
    const std::string id = operandId(k);
    const int64_t w = op.operand.bits, n = op.operand.extent, ol = op.lanes;
    const bool full = op.operand.full();
    const arch::DmaMap& od = op.dma;
    const std::string geometry = full ? engineGeometry(aw, dw, w, ol, od.rowLanes, od.rows, od.cols)
                                      : engineGeometry(aw, dw, w, ol, false, 1, n);
    const int64_t pitch = (full ? op.box.pitch : n) * (w / 8);
    os << "\n  // " << op.operand.name << ": epilogue operand, "
       << (full ? "a tile at a time, loaded while the core computes it into banks laid out as "
                  "the output's.\n"
                : std::to_string(n) + " elements of " + std::to_string(w) +
                      " bits, loaded whole before the first buffer tile into a register file.\n")
       << reader(id, ol, w, geometry, ulit(pitch, aw));
    if (!full) {
      os << "  rubick_vec_reg #(.N(" << n << "), .W(" << w << "), .LANES(" << ol << "), .NR("
         << m.tensors.front().dma.lanes << "), .IDX_W(32)) " << id << "_reg (\n"
         << "    .aclk(aclk), .aresetn(aresetn), .start(" << id << "_ld_start), .busy("
         << spare(id + "_reg_busy", 1) << "), .done(" << id << "_ld_done),\n"
         << "    .in_valid(" << id << "_g_valid), .in_ready(" << id << "_g_ready), .in_data(" << id
         << "_g_data), .in_mask(" << id << "_g_mask),\n"
         << "    .rd_idx(" << id << "_idx), .rd_data(" << id << "_val));\n";
    } else {
      const std::string scBusy = spare(id + "_sc_busy", 1), gaBusy = spare(id + "_ga_busy", 1);
      const std::string gaDone = spare(id + "_ga_done", 1), gaValid = spare(id + "_ga_valid", 1);
      const std::string gaMask = spare(id + "_ga_mask", ol);
      os << fullOperandBanks(op, id, m.core.tensors.front().id, scBusy, gaBusy, gaDone, gaValid,
                             gaMask);
    }
  }

  os << "\n  assign dma_error = " << (errors.empty() ? "1'b0" : "");
  for (size_t i = 0; i < errors.size(); ++i)
    os << (i ? " | " : "") << errors[i];
  os << ";\n\n  " << name << "_core core (\n"
     << "    .clk(aclk), .rst(!aresetn), .start(core_start), .busy(core_busy), .done("
     << spare("core_done_level", 1) << ")";
  if (core.chain) os << ",\n    .run_next(core_next), .run_done(core_done)";
  for (const std::string& c : corePorts)
    os << ",\n    " << c;
  os << ");\n\n" << unused.declaration() << "endmodule\n\n`default_nettype wire\n";
  return head + spares.str() + os.str();
}

} // namespace

std::string memoryTopModule(const MemoryPlan& m, const MemoryTopOptions& o) {
  return topModule(m, o, false);
}

std::string memoryStageModule(const MemoryPlan& m, const MemoryTopOptions& o) {
  return topModule(m, o, true);
}

} // namespace rubick::emit

namespace rubick::emit {

std::vector<std::string> memoryTemplatesUsed(const arch::MemoryPlan& m, const MemoryTopOptions& o) {
  std::vector<std::string> t = {"rubick_axil_regs", "rubick_buf_seq",  "rubick_dma_gather",
                                "rubick_dma_wr",    "rubick_dma_pack", "rubick_dma_turn",
                                "rubick_axi_wr"};
  if (axiPorts(o) > 1) t.push_back("rubick_axi_split");
  bool reads = false;
  for (size_t i = 0; i < m.tensors.size(); ++i)
    reads |= !m.core.tensors[i].output || m.tensors[i].reload;
  bool vectors = false, full = false;
  for (const arch::OperandTransfer& op : m.operands)
    (op.operand.full() ? full : vectors) = true;
  if (vectors) t.push_back("rubick_vec_reg");
  if (full) t.push_back("rubick_bank");
  if (reads || !m.operands.empty())
    t.insert(t.end(), {"rubick_dma_rd", "rubick_dma_rd_cols", "rubick_dma_rd_rows", "rubick_axi_rd",
                       "rubick_dma_scatter"});
  std::sort(t.begin(), t.end());
  return t;
}

} // namespace rubick::emit
