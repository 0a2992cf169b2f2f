// SPDX-License-Identifier: Apache-2.0
#include "PimTop.h"

#include "VerilogHostPorts.h"
#include "VerilogText.h"

#include <algorithm>
#include <sstream>

namespace rubick::emit::detail {

namespace {

struct SharedWidths {
  int64_t ports = 0, aw = 1, w = 1;
};

// $clog2(n), at least 1: the width rubick_bank_stream gives a bank or column number.
int64_t clog2Min1(int64_t n) {
  int64_t b = 0;
  while ((int64_t(1) << b) < n)
    ++b;
  return std::max<int64_t>(1, b);
}

std::string header(const arch::Plan& pl, const std::string& what) {
  return generatedBanner() + "// " + pl.statement + "\n// " + what + "\n`default_nettype none\n\n";
}

} // namespace

int64_t bankSelectBits(const PimShape& s) {
  return clog2Min1(s.banks);
}
int64_t rowBits(const PimShape& s) {
  return arch::bitsFor(s.rows);
}
int64_t columnBits(const PimShape& s) {
  return clog2Min1(s.rowCols);
}
int64_t writeDepth(const PimShape& s) {
  return s.colBytes * 8 / s.outWordBits + 2 * s.writePorts - 1;
}

int64_t unitBits(const PimShape& s) {
  return arch::bitsFor(s.units);
}

// The shared banks' ports of a unit or the top (`out`/`in`: their direction words), or none.
SharedWidths sharedWidths(const arch::Plan& pl, const PimShape& s) {
  SharedWidths w;
  for (int t : s.shared) {
    const arch::TensorPlan& tp = pl.tensors[static_cast<size_t>(t)];
    w.ports += static_cast<int64_t>(tp.ports.size());
    w.aw = std::max(w.aw, tp.addressBits);
    w.w = std::max(w.w, tp.elementBits);
  }
  return w;
}

std::string sharedPorts(const arch::Plan& pl, const PimShape& s, const std::string& out,
                        const std::string& in) {
  const SharedWidths w = sharedWidths(pl, s);
  if (!w.ports) return "";
  return out + range(w.ports) + " shared_rd,\n" + out + range(w.ports * w.aw) + " shared_raddr,\n" +
         in + range(w.ports * w.w) + " shared_rdata,\n";
}

// The write port of a unit whose outputs go to its banks, or the tie-offs of one without.
std::string writePort(const PimShape& s, int64_t colW) {
  std::ostringstream os;
  if (!s.writePorts) {
    os << "  // No output in the banks: nothing to write.\n"
       << "  assign wgo = 1'b1;\n"
       << "  assign wcol_ok = 1'b0;\n"
       << "  assign wcol_data = " << ulit(0, colW) << ";\n"
       << "  wire unused_wcol = wcol_take;\n\n";
    return os.str();
  }
  const int64_t np = s.writePorts, w = s.outWordBits;
  os << "  // The write port: the core's output words, in the order it writes them, into columns.\n"
     << "  wire " << range(np) << " wvalid;\n"
     << "  wire " << range(np * w) << " wwords;\n"
     << "  rubick_stream_wport #(.NP(" << np << "), .W(" << w << "), .WORDS(" << colW / w
     << "), .TOTAL(" << s.totalWrites << "), .DEPTH(" << writeDepth(s) << ")) wport (\n"
     << "    .clk(clk), .rst(rst), .start(accept), .valid(wvalid), .data(wwords), .go(wgo), "
        ".step(step),\n"
     << "    .out_valid(wcol_ok), .out_ready(wcol_take), .out_data(wcol_data));\n\n";
  return os.str();
}

std::string pimUnitModule(const arch::Plan& pl, const PimShape& s) {
  const HostPort h = hostPort(pl);
  const int64_t bkw = bankSelectBits(s), rw = rowBits(s), caw = columnBits(s);
  const int64_t colW = s.colBytes * 8, lenW = arch::bitsFor(s.columns + 1);
  const int64_t np = s.streamPorts, w = s.wordBits;
  std::ostringstream os;
  os << header(pl, "One PIM stream unit: the core on a gated clock, fed by its banks through "
                   "a reader and a stream port.")
     << "module " << pl.name << "_unit (\n"
     << "  input  wire clk,\n  input  wire rst,\n  input  wire start,\n"
     << "  output wire busy,\n  output wire done,\n"
     << "  input  wire host_we,\n"
     << "  input  wire " << range(h.tensorBits) << " host_wtensor,\n"
     << "  input  wire " << range(h.bankBits) << " host_wbank,\n"
     << "  input  wire " << range(h.addressBits) << " host_waddr,\n"
     << "  input  wire " << range(h.dataBits) << " host_wdata,\n"
     << "  input  wire host_re,\n"
     << "  input  wire " << range(h.tensorBits) << " host_rtensor,\n"
     << "  input  wire " << range(h.bankBits) << " host_rbank,\n"
     << "  input  wire " << range(h.addressBits) << " host_raddr,\n"
     << "  output wire " << range(h.dataBits) << " host_rdata,\n"
     << "  output wire row_valid,\n  output wire row_act,\n"
     << "  output wire " << range(bkw) << " row_bank,\n"
     << "  output wire " << range(rw) << " row_addr,\n"
     << "  output wire col_valid,\n"
     << "  output wire " << range(bkw) << " col_bank,\n"
     << "  output wire " << range(caw) << " col_addr,\n"
     << "  output wire col_write,\n"
     << "  output wire " << range(colW) << " wr_data,\n"
     << "  input  wire rd_valid,\n"
     << "  input  wire " << range(colW) << " rd_data,\n"
     << sharedPorts(pl, s, "  output wire ", "  input  wire ")
     << "  // The core's clock: gated in the top, where every unit's ready meets (lock-step).\n"
     << "  output wire ready,\n  input  wire step,\n  input  wire gclk\n);\n\n"
     << "  wire core_busy, core_done, reader_busy, reader_done;\n"
     << "  assign busy = core_busy | reader_busy;\n"
     << "  // Done once the core has finished and the reader has closed every row it opened.\n"
     << "  assign done = core_done & ~reader_busy;\n"
     << "  wire accept = start & ~busy;\n\n"
     << "  // The banks' reader: the unit's " << s.columns << " stream columns from column 0 of "
     << "row 0 of bank 0, rows in the banks in turn.\n"
     << "  wire col_ok, col_take;\n"
     << "  wire " << range(colW) << " col_data;\n"
     << "  wire wcol_ok, wcol_take;\n"
     << "  wire " << range(colW) << " wcol_data;\n";
  std::string runs;
  if (!s.runs.empty()) {
    // Run i: {writes, reads} in bits [i*64 +: 64], the first run lowest.
    std::vector<std::string> fields;
    for (size_t i = s.runs.size(); i-- > 0;)
      fields.push_back("32'd" + std::to_string(s.runs[i].second) + ", 32'd" +
                       std::to_string(s.runs[i].first));
    runs = ", .NRUNS(" + std::to_string(s.runs.size()) + "), .RUNS({";
    for (size_t i = 0; i < fields.size(); ++i)
      runs += (i ? ", " : "") + fields[i];
    runs += "})";
  }
  os << "  rubick_bank_stream #(.BANKS(" << s.banks << "), .COL_W(" << colW << "), .ROW_COLS("
     << s.rowCols << "), .ROW_W(" << rw << "), .LEN_W(" << lenW << "), .TRCD(" << s.tRCD
     << "), .TRP(" << s.tRP << "), .TRAS(" << s.tRAS << "), .CL(" << s.tCL << "), .DEPTH("
     << s.readerDepth << ")" << runs << ") reader (\n"
     << "    .clk(clk), .rst(rst), .start(accept), .start_bank(" << ulit(0, bkw) << "), .start_row("
     << ulit(0, rw) << "), .start_col(" << ulit(0, caw) << "),\n"
     << "    .start_len(" << ulit(s.columns, lenW) << "), .busy(reader_busy), .done(reader_done),\n"
     << "    .out_valid(col_ok), .out_ready(col_take), .out_data(col_data),\n"
     << "    .row_valid(row_valid), .row_act(row_act), .row_bank(row_bank), "
        ".row_addr(row_addr),\n"
     << "    .col_valid(col_valid), .col_bank(col_bank), .col_addr(col_addr), "
        ".col_write(col_write), .wr_data(wr_data),\n"
     << "    .rd_valid(rd_valid), .rd_data(rd_data),\n"
     << "    .win_valid(wcol_ok), .win_ready(wcol_take), .win_data(wcol_data));\n\n"
     << "  // The stream port: each core cycle's reading banks take the next words in order; "
        "the core steps only when they are there (or in reset).\n"
     << "  wire " << range(np) << " need;\n"
     << "  wire " << range(np * w) << " words;\n"
     << "  wire go, wgo;\n"
     << "  assign ready = go & wgo;\n"
     << "  rubick_stream_port #(.NP(" << np << "), .W(" << w << "), .WORDS(" << colW / w
     << ")) port (\n"
     << "    .clk(clk), .rst(rst), .start(accept), .in_valid(col_ok), .in_ready(col_take), "
        ".in_data(col_data),\n"
     << "    .need(need), .go(go), .step(step), .rdata(words));\n\n"
     << writePort(s, colW) << "  " << pl.name << "_core core (\n"
     << "    .clk(gclk), .rst(rst), .start(accept), .busy(core_busy), .done(core_done),\n"
     << "    .host_we(host_we), .host_wtensor(host_wtensor), .host_wbank(host_wbank), "
        ".host_waddr(host_waddr), .host_wdata(host_wdata),\n"
     << "    .host_re(host_re), .host_rtensor(host_rtensor), .host_rbank(host_rbank), "
        ".host_raddr(host_raddr), .host_rdata(host_rdata),\n"
     << "    .stream_need(need), .stream_rdata(words)"
     << (s.writePorts ? ",\n    .wstream_valid(wvalid), .wstream_data(wwords)" : "")
     << (s.shared.empty() ? ""
                          : ",\n    .shared_rd(shared_rd), .shared_raddr(shared_raddr), "
                            ".shared_rdata(shared_rdata)")
     << ");\n\n"
     << "  wire unused_ok = reader_done;\n"
     << "endmodule\n\n`default_nettype wire\n";
  return os.str();
}

// The broadcast inputs' banks, once for all units, on the cores' clock (a read's word the core
// cycle after, as in a core), written by the host port whatever the unit.
std::string sharedBanks(const arch::Plan& pl, const PimShape& s, const HostPort& h) {
  const SharedWidths sw = sharedWidths(pl, s);
  if (!sw.ports) return "";
  std::ostringstream os;
  os << "\n  // The broadcast buffer: one copy of each broadcast input, read by all units.\n"
     << "  wire " << range(sw.ports) << " shared_rd;\n"
     << "  wire " << range(sw.ports * sw.aw) << " shared_raddr;\n"
     << "  wire " << range(sw.ports * sw.w) << " shared_rdata;\n";
  for (int64_t u = 1; u < s.units; ++u)
    os << "  wire " << range(sw.ports) << " other_rd" << u << ";\n"
       << "  wire " << range(sw.ports * sw.aw) << " other_raddr" << u << ";\n"
       << "  wire unused_other" << u << " = &{1'b0, other_rd" << u << ", other_raddr" << u
       << "};\n";
  int64_t k = 0;
  for (int t : s.shared) {
    const arch::TensorPlan& tp = pl.tensors[static_cast<size_t>(t)];
    const int64_t w = tp.elementBits, aw = tp.addressBits;
    for (size_t p = 0; p < tp.ports.size(); ++p, ++k) {
      const int64_t a0 = k * sw.aw, d0 = k * sw.w;
      if (aw < sw.aw)
        os << "  wire unused_raddr" << k << " = &{1'b0, shared_raddr[" << a0 + sw.aw - 1 << ":"
           << a0 + aw << "]};\n";
      if (w < sw.w)
        os << "  assign shared_rdata[" << d0 + sw.w - 1 << ":" << d0 + w
           << "] = " << ulit(0, sw.w - w) << ";\n";
      os << "  rubick_bank #(.WIDTH(" << w << "), .DEPTH(" << tp.depth << "), .AW(" << aw
         << ")) shared_" << tp.id << "_bank" << p << " (\n"
         << "    .clk(gclk),\n"
         << "    .rd_en(shared_rd[" << k << "]),\n"
         << "    .rd_addr(shared_raddr[" << a0 + aw - 1 << ":" << a0 << "]),\n"
         << "    .rd_data(shared_rdata[" << d0 + w - 1 << ":" << d0 << "]),\n"
         << "    .wr_en(host_we && !busy && (host_wtensor == " << ulit(t, h.tensorBits)
         << ") && (host_wbank == " << ulit(static_cast<int64_t>(p), h.bankBits) << ")),\n"
         << "    .wr_addr(host_waddr[" << aw - 1 << ":0]),\n"
         << "    .wr_data(host_wdata[" << w - 1 << ":0]));\n";
    }
  }
  return os.str();
}

std::string pimTopPorts(const PimTopPorts& p) {
  std::ostringstream os;
  os << "  input  wire clk,\n  input  wire rst,\n  input  wire start,\n"
     << "  output wire busy,\n  output wire done,\n"
     << "  input  wire host_we,\n"
     << "  input  wire " << range(p.unitBits) << " host_wunit,\n"
     << "  input  wire host_wall,\n"
     << "  input  wire " << range(p.tensorBits) << " host_wtensor,\n"
     << "  input  wire " << range(p.bankBits) << " host_wbank,\n"
     << "  input  wire " << range(p.addressBits) << " host_waddr,\n"
     << "  input  wire " << range(p.dataBits) << " host_wdata,\n"
     << "  input  wire host_re,\n"
     << "  input  wire " << range(p.unitBits) << " host_runit,\n"
     << "  input  wire " << range(p.tensorBits) << " host_rtensor,\n"
     << "  input  wire " << range(p.bankBits) << " host_rbank,\n"
     << "  input  wire " << range(p.addressBits) << " host_raddr,\n"
     << "  output " << (p.rdataReg ? "reg " : "wire") << " " << range(p.dataBits)
     << " host_rdata,\n"
     << pimDramPorts(p);
  return os.str();
}

std::string pimDramPorts(const PimTopPorts& p) {
  const int64_t n = p.units;
  std::ostringstream os;
  os << "  output wire " << range(n) << " dram_row_valid,\n"
     << "  output wire " << range(n) << " dram_row_act,\n"
     << "  output wire " << range(n * p.bankSelectBits) << " dram_row_bank,\n"
     << "  output wire " << range(n * p.rowBits) << " dram_row_addr,\n"
     << "  output wire " << range(n) << " dram_col_valid,\n"
     << "  output wire " << range(n * p.bankSelectBits) << " dram_col_bank,\n"
     << "  output wire " << range(n * p.columnBits) << " dram_col_addr,\n"
     << "  output wire " << range(n) << " dram_col_write,\n"
     << "  output wire " << range(n * p.colBits) << " dram_wr_data,\n"
     << "  input  wire " << range(n) << " dram_rd_valid,\n"
     << "  input  wire " << range(n * p.colBits) << " dram_rd_data\n);\n\n";
  return os.str();
}

PimTopPorts pimPorts(const arch::Plan& pl, const PimShape& s) {
  const HostPort h = hostPort(pl);
  return {s.units,           unitBits(s), h.tensorBits,  h.bankBits,     h.addressBits, h.dataBits,
          bankSelectBits(s), rowBits(s),  columnBits(s), s.colBytes * 8, true};
}

std::string pimTopModule(const arch::Plan& pl, const PimShape& s) {
  const HostPort h = hostPort(pl);
  const int64_t n = s.units, uw = unitBits(s);
  const int64_t bkw = bankSelectBits(s), rw = rowBits(s), caw = columnBits(s);
  const int64_t colW = s.colBytes * 8;
  auto field = [](int64_t u, int64_t width) {
    return "[" + std::to_string((u + 1) * width - 1) + ":" + std::to_string(u * width) + "]";
  };
  std::ostringstream os;
  os << header(pl, std::to_string(n) +
                       " PIM stream units in lock-step, one host port, a command port per "
                       "unit's banks (unit u in bits [u*W +: W]).")
     << "module " << pl.name << "_pim (\n"
     << pimTopPorts(pimPorts(pl, s)) << "  wire " << range(n)
     << " unit_busy, unit_done, unit_ready;\n"
     << "  wire " << range(n * h.dataBits) << " unit_rdata;\n"
     << "  assign busy = |unit_busy;\n"
     << "  assign done = &unit_done;\n\n"
     << "  // One clock for every core: a core steps when every unit's words are there, so the\n"
     << "  // units stay in lock-step (and share the broadcast banks).\n"
     << "  wire step = (&unit_ready) | rst;\n"
     << "  wire gclk;\n"
     << "  rubick_clock_gate gate (.clk(clk), .en(step), .test_en(1'b0), .gclk(gclk));\n"
     << sharedBanks(pl, s, h);
  const SharedWidths sw = sharedWidths(pl, s);
  for (int64_t u = 0; u < n; ++u) {
    const std::string us = std::to_string(u);
    const std::string is = "(host_wunit == " + ulit(u, uw) + ")";
    os << "\n  " << pl.name << "_unit unit" << us << " (\n"
       << "    .clk(clk), .rst(rst), .start(start), .busy(unit_busy[" << us
       << "]), .done(unit_done[" << us << "]),\n"
       << "    .host_we(host_we && (host_wall || " << is << ")), .host_wtensor(host_wtensor), "
       << ".host_wbank(host_wbank), .host_waddr(host_waddr), .host_wdata(host_wdata),\n"
       << "    .host_re(host_re && (host_runit == " << ulit(u, uw)
       << ")), .host_rtensor(host_rtensor), .host_rbank(host_rbank), .host_raddr(host_raddr), "
       << ".host_rdata(unit_rdata" << field(u, h.dataBits) << "),\n"
       << "    .row_valid(dram_row_valid[" << us << "]), .row_act(dram_row_act[" << us
       << "]), .row_bank(dram_row_bank" << field(u, bkw) << "), .row_addr(dram_row_addr"
       << field(u, rw) << "),\n"
       << "    .col_valid(dram_col_valid[" << us << "]), .col_bank(dram_col_bank" << field(u, bkw)
       << "), .col_addr(dram_col_addr" << field(u, caw) << "), .col_write(dram_col_write[" << us
       << "]), .wr_data(dram_wr_data" << field(u, colW) << "),\n"
       << "    .rd_valid(dram_rd_valid[" << us << "]), .rd_data(dram_rd_data" << field(u, colW)
       << "),\n";
    // Unit 0 reads the shared banks for all: every unit makes the same reads.
    if (sw.ports)
      os << "    .shared_rd(" << (u ? "other_rd" + us : std::string("shared_rd"))
         << "), .shared_raddr(" << (u ? "other_raddr" + us : std::string("shared_raddr"))
         << "), .shared_rdata(shared_rdata),\n";
    os << "    .ready(unit_ready[" << us << "]), .step(step), .gclk(gclk));\n";
  }
  os << "\n  // Host reads: the unit selected in the previous cycle.\n"
     << "  reg " << range(uw) << " rsel_unit;\n"
     << "  always @(posedge clk) begin\n"
     << "    if (host_re && !busy) rsel_unit <= host_runit;\n"
     << "  end\n"
     << "  always @(*) begin\n"
     << "    case (rsel_unit)\n";
  for (int64_t u = 0; u < n; ++u)
    os << "      " << ulit(u, uw) << ": host_rdata = unit_rdata" << field(u, h.dataBits) << ";\n";
  os << "      default: host_rdata = " << ulit(0, h.dataBits) << ";\n"
     << "    endcase\n  end\n\n"
     << "endmodule\n\n`default_nettype wire\n";
  return os.str();
}

} // namespace rubick::emit::detail
