// SPDX-License-Identifier: Apache-2.0
// `<name>_decode`: an attention decode on PIM units (src/emit/PimDecodeTop.h).

#include "PimDecodeTop.h"

#include "PimTop.h"
#include "VerilogText.h"

#include "rubick/arch/Plan.h"

#include <algorithm>
#include <sstream>

namespace rubick::emit::detail {

namespace {

using arch::bitsFor;

enum Phase {
  kIdle,
  kScoresStart,
  kScores,
  kMax,
  kAlpha,
  kExp,
  kRescale,
  kValuesStart,
  kValues,
  kAcc,
  kRecipStart,
  kRecip,
  kNorm
};

// The sequencer's counter: every phase counts its steps in it.
int64_t stepBits(const DecodeTop& t) {
  const int64_t most = std::max<int64_t>({static_cast<int64_t>(t.scorePlaces.size()),
                                          static_cast<int64_t>(t.expWrites.size()) + 1,
                                          static_cast<int64_t>(t.valueParts.size()), t.d + 1});
  return bitsFor(most + 1);
}

// "{f0, f1, ...}" of unsigned fields, most significant first.
std::string fields(const std::vector<std::pair<int64_t, int64_t>>& f) {
  std::vector<std::string> items;
  for (const auto& [v, w] : f)
    items.push_back(ulit(v, w));
  return concat(items);
}

// A ROM as a function of its index: `entries[i]` (already packed text) of width `w`.
std::string rom(const std::string& fname, int64_t w, int64_t iw,
                const std::vector<std::string>& entries) {
  std::ostringstream os;
  os << "  function automatic " << range(w) << " " << fname << "(input " << range(iw)
     << " i);\n    begin\n      case (i)\n";
  for (size_t i = 0; i < entries.size(); ++i)
    os << "        " << ulit(static_cast<int64_t>(i), iw) << ": " << fname << " = " << entries[i]
       << ";\n";
  os << "        default: " << fname << " = " << ulit(0, w) << ";\n      endcase\n    end\n"
     << "  endfunction\n";
  return os.str();
}

// A sub-top's command port wires, prefixed `p`.
std::string commandWires(const std::string& p, int64_t n, int64_t bkw, int64_t rw, int64_t caw,
                         int64_t colW) {
  std::ostringstream os;
  os << "  wire " << range(n) << " " << p << "row_valid, " << p << "row_act, " << p << "col_valid, "
     << p << "col_write;\n"
     << "  wire " << range(n * bkw) << " " << p << "row_bank, " << p << "col_bank;\n"
     << "  wire " << range(n * rw) << " " << p << "row_addr;\n"
     << "  wire " << range(n * caw) << " " << p << "col_addr;\n"
     << "  wire " << range(n * colW) << " " << p << "wr_data;\n";
  return os.str();
}

std::string commandPorts(const std::string& p, const std::string& rdValid) {
  return "    .dram_row_valid(" + p + "row_valid), .dram_row_act(" + p +
         "row_act), .dram_row_bank(" + p + "row_bank), .dram_row_addr(" + p +
         "row_addr),\n    .dram_col_valid(" + p + "col_valid), .dram_col_bank(" + p +
         "col_bank), .dram_col_addr(" + p + "col_addr), .dram_col_write(" + p +
         "col_write), .dram_wr_data(" + p + "wr_data),\n    .dram_rd_valid(" + rdValid +
         "), .dram_rd_data(dram_rd_data));\n";
}

// `value` (of `from` bits) as `to` bits, zero-extended.
std::string widen(const std::string& value, int64_t from, int64_t to) {
  if (from >= to) return value;
  return "{" + ulit(0, to - from) + ", " + value + "}";
}

} // namespace

DecodePhases decodeCycles(const DecodeTop& t, int64_t scoreRun, int64_t valueRun) {
  // Cycle c follows the c-th clock edge after the one that samples start. A PIM top started in
  // cycle x shows done in cycle x + 1 + its run; the sequencer leaves a phase on the edge after
  // its last cycle; the guard keeps tRP cycles between one top's done and the other's start,
  // so that the first top's last precharge is over before the next activate.
  const int64_t keys = static_cast<int64_t>(t.scorePlaces.size());
  const int64_t NE = static_cast<int64_t>(t.expWrites.size());
  const int64_t NU = static_cast<int64_t>(t.valueParts.size());
  DecodePhases p;
  int64_t c = 0, guardFree = 0;
  auto run = [&](int64_t cycles) {
    const int64_t x = std::max(c, guardFree); // the cycle start goes to the units
    const int64_t took = x + 2 + cycles - c;
    c = x + 2 + cycles;
    guardFree = c + t.tRP;
    return took;
  };
  for (int64_t b = 0; b < t.blocks; ++b) {
    p.scores += run(scoreRun);
    p.max += keys + 1;
    p.exp += 1 + NE + 2;
    p.accumulate += t.d + 2;
    c += keys + 1 + 1 + NE + 2 + t.d + 2;
    p.values += run(valueRun);
    p.accumulate += NU + 1;
    c += NU + 1;
  }
  // The reciprocal: a cycle to start it, 34 until its done shows (rtl_templates/rubick_recip.v);
  // then one word of O a cycle and a cycle for the last one; done shows the cycle after.
  p.normalise = 1 + 34 + t.d + 1;
  c += p.normalise;
  p.total = c;
  return p;
}

PimTopPorts decodePorts(const DecodeTop& t) {
  return {t.units,          t.unitBits, t.tensorBits, t.bankBits,     t.addressBits, t.dataBits,
          t.bankSelectBits, t.rowBits,  t.columnBits, t.colBytes * 8, false};
}

std::string decodeTopModule(const DecodeTop& t) {
  const int64_t n = t.units, uw = t.unitBits;
  const int64_t bkw = t.bankSelectBits, rw = t.rowBits, caw = t.columnBits, colW = t.colBytes * 8;
  const int64_t keys = static_cast<int64_t>(t.scorePlaces.size());
  const int64_t NE = static_cast<int64_t>(t.expWrites.size());
  const int64_t NU = static_cast<int64_t>(t.valueParts.size());
  const int64_t kw = stepBits(t);
  const int64_t blkw = bitsFor(t.blocks);
  const int64_t dw = bitsFor(t.d + 1); // d, and the row sum's turn at d = D in the rescale
  const int64_t di = bitsFor(t.d);     // an index of U or O
  const int64_t guardw = bitsFor(t.tRP + 1);
  const SubTop& sc = t.scores;
  const SubTop& vu = t.values;
  const int64_t scb = sc.readBits, ub = vu.readBits, acc = t.accBits, ob = t.outBits;
  Unused unused;
  std::ostringstream os;
  os << generatedBanner() << "// Attention decode on " << n << " PIM units, " << t.blocks
     << " block(s) of " << keys << " keys: per block the scores' units (" << sc.module
     << "), the online softmax on a "
     << "one-lane vector unit, the values' units (" << vu.module
     << "); the same banks for "
        "both.\n"
     << "`default_nettype none\n\n"
     << "module " << t.name << "_decode (\n"
     << pimTopPorts(decodePorts(t));

  // The tables of one block (every block's places are the same).
  const int64_t spw = uw + sc.bankBits + sc.addressBits;
  std::vector<std::string> entries;
  for (const UnitPlace& p : t.scorePlaces)
    entries.push_back(fields({{p.unit, uw}, {p.bank, sc.bankBits}, {p.addr, sc.addressBits}}));
  os << "  // Score j's place in the scores' units: {unit, bank, address}.\n"
     << rom("score_place", spw, kw, entries);
  const int64_t ewt = 1 + uw + vu.bankBits + vu.addressBits + 1;
  entries.clear();
  for (const ExpWrite& e : t.expWrites)
    entries.push_back(fields({{e.score.unit, uw},
                              {e.score.bank, sc.bankBits},
                              {e.score.addr, sc.addressBits},
                              {e.all ? 1 : 0, 1},
                              {e.to.unit, uw},
                              {e.to.bank, vu.bankBits},
                              {e.to.addr, vu.addressBits},
                              {e.first ? 1 : 0, 1}}));
  os << "  // Exponential write k: its score's place, then {all units, unit, bank, address, "
        "first write of E(j)} in the values' units.\n"
     << rom("exp_write", spw + ewt, kw, entries);
  const int64_t vpw = uw + vu.bankBits + vu.addressBits + di;
  entries.clear();
  for (const ValuePart& v : t.valueParts)
    entries.push_back(fields(
        {{v.at.unit, uw}, {v.at.bank, vu.bankBits}, {v.at.addr, vu.addressBits}, {v.d, di}}));
  os << "  // Part k of U in the values' units: {unit, bank, address, d}.\n"
     << rom("value_part", vpw, kw, entries) << "\n";

  auto st = [](Phase p) { return ulit(p, 4); };
  os << "  localparam [3:0] IDLE = " << st(kIdle) << ", SSTART = " << st(kScoresStart)
     << ", SCORES = " << st(kScores) << ", MAX = " << st(kMax) << ", ALPHA = " << st(kAlpha)
     << ",\n                   EXP = " << st(kExp) << ", RESCALE = " << st(kRescale)
     << ", VSTART = " << st(kValuesStart) << ", VALUES = " << st(kValues) << ", ACC = " << st(kAcc)
     << ",\n                   RSTART = " << st(kRecipStart) << ", RECIP = " << st(kRecip)
     << ", NORM = " << st(kNorm) << ";\n"
     << "  reg [3:0] state;\n"
     << "  reg done_r, on_values;\n"
     << "  reg " << range(kw) << " k;\n"
     << "  reg " << range(blkw) << " blk;\n"
     << "  reg " << range(rw) << " row_base; // the block's first row\n"
     << "  reg " << range(guardw) << " guard;\n"
     << "  assign busy = state != IDLE;\n"
     << "  assign done = done_r;\n\n";

  // Table reads.
  const int64_t scBankLo = sc.addressBits, scUnitLo = sc.addressBits + sc.bankBits;
  os << "  wire " << range(spw) << " sp = score_place(k);\n"
     << "  wire " << range(spw + ewt) << " ew = exp_write(k);\n"
     << "  wire " << range(vpw) << " vp = value_part(k);\n"
     << "  wire in_max = state == MAX;\n"
     << "  wire " << range(spw) << " sread = in_max ? sp : ew[" << spw + ewt - 1 << ":" << ewt
     << "];\n\n";

  // The scores' units.
  const bool hostQ = sc.writeSelect >= 0;
  os << "  // The scores' units: started once per block; Q written by the host while idle; the\n"
     << "  // sequencer reads their scores.\n"
     << "  wire sc_start = (state == SSTART) && (guard == " << ulit(0, guardw) << ");\n"
     << "  wire sc_busy, sc_done;\n"
     << "  wire " << range(sc.dataBits) << " sc_rdata;\n"
     << "  wire sc_read = (in_max && k < " << ulit(keys, kw) << ") || (state == EXP && k < "
     << ulit(NE, kw) << ");\n"
     << commandWires("sc_", n, bkw, sc.rowBits, caw, colW) << "  " << sc.module << " sc (\n"
     << "    .clk(clk), .rst(rst), .start(sc_start), .busy(sc_busy), .done(sc_done),\n"
     << "    .host_we("
     << (hostQ ? "host_we && !busy && (host_wtensor == " + ulit(1, t.tensorBits) + ")"
               : std::string("1'b0"))
     << "), .host_wunit(host_wunit), .host_wall(host_wall), .host_wtensor("
     << ulit(std::max<int64_t>(sc.writeSelect, 0), sc.tensorBits) << "),\n"
     << "    .host_wbank(host_wbank[" << sc.bankBits - 1 << ":0]), .host_waddr(host_waddr["
     << sc.addressBits - 1 << ":0]), .host_wdata(host_wdata[" << sc.dataBits - 1 << ":0]),\n"
     << "    .host_re(sc_read), .host_runit(sread[" << scUnitLo + uw - 1 << ":" << scUnitLo
     << "]), .host_rtensor(" << ulit(sc.readSelect, sc.tensorBits) << "), .host_rbank(sread["
     << scUnitLo - 1 << ":" << scBankLo << "]), .host_raddr(sread[" << scBankLo - 1
     << ":0]), .host_rdata(sc_rdata),\n"
     << commandPorts("sc_", "on_values ? " + ulit(0, n) + " : dram_rd_valid") << "\n";
  unused.add("sc_busy");
  if (sc.dataBits > scb)
    unused.add("sc_rdata[" + std::to_string(sc.dataBits - 1) + ":" + std::to_string(scb) + "]");

  // The softmax datapath.
  auto distance = [&](const std::string& diff) {
    if (scb + 1 >= 32) {
      if (scb + 1 > 32) unused.add(diff + "[" + std::to_string(scb) + ":32]");
      return diff + "[31:0]";
    }
    return widen(diff, scb + 1, 32);
  };
  os << "  // The running maximum, alpha = exp(old max - new max), then per write\n"
     << "  // exp(max - score) into the values' units, summed.\n"
     << "  wire signed " << range(scb) << " score = sc_rdata[" << scb - 1 << ":0];\n"
     << "  reg signed " << range(scb) << " max_r, max_old;\n"
     << "  wire " << range(scb + 1) << " diff = {max_r[" << scb - 1 << "], max_r} - {score["
     << scb - 1 << "], score};\n"
     << "  wire " << range(scb + 1) << " rise = {max_r[" << scb - 1 << "], max_r} - {max_old["
     << scb - 1 << "], max_old};\n";
  const std::string dist = distance("diff"), riseDist = distance("rise");
  os << "  reg exp_in;\n"
     << "  wire exp_valid;\n"
     << "  wire [15:0] exp_out;\n"
     << "  rubick_exp #(.EXP_FRAC(" << t.expFrac << ")) exp_unit (.clk(clk), .in_valid(exp_in), "
     << ".d(" << dist << "), .out_valid(exp_valid), .out(exp_out));\n"
     << "  wire alpha_valid;\n"
     << "  wire [15:0] alpha_exp;\n"
     << "  rubick_exp #(.EXP_FRAC(" << t.expFrac << ")) alpha_unit (.clk(clk), .in_valid(state "
     << "== ALPHA), .d(" << riseDist << "), .out_valid(alpha_valid), .out(alpha_exp));\n"
     << "  // The first block has no earlier sum to rescale.\n"
     << "  wire [15:0] alpha = blk == " << ulit(0, blkw) << " ? 16'd0 : alpha_exp;\n"
     << "  reg " << range(ewt) << " ew1, ew2; // the write's fields, as its exponential moves on\n"
     << "  reg [31:0] sum_r, sum_blk;\n\n";
  unused.add("alpha_valid");
  const int64_t eFirst = 0, eAddrLo = 1, eBankLo = 1 + vu.addressBits,
                eUnitLo = eBankLo + vu.bankBits, eAll = eUnitLo + uw;

  // The values' units.
  os << "  // The values' units: E written by the sequencer, started once per block, U read back.\n"
     << "  wire vu_start = (state == VSTART) && (guard == " << ulit(0, guardw) << ");\n"
     << "  wire vu_busy, vu_done;\n"
     << "  wire " << range(vu.dataBits) << " vu_rdata;\n"
     << "  wire vu_read = (state == ACC) && (k < " << ulit(NU, kw) << ");\n"
     << commandWires("vu_", n, bkw, vu.rowBits, caw, colW) << "  " << vu.module << " vu (\n"
     << "    .clk(clk), .rst(rst), .start(vu_start), .busy(vu_busy), .done(vu_done),\n"
     << "    .host_we(exp_valid), .host_wunit(ew2[" << eUnitLo + uw - 1 << ":" << eUnitLo
     << "]), .host_wall(ew2[" << eAll << "]), .host_wtensor(" << ulit(vu.writeSelect, vu.tensorBits)
     << "),\n"
     << "    .host_wbank(ew2[" << eUnitLo - 1 << ":" << eBankLo << "]), .host_waddr(ew2["
     << eBankLo - 1 << ":" << eAddrLo << "]), .host_wdata(" << widen("exp_out", 16, vu.dataBits)
     << "),\n"
     << "    .host_re(vu_read), .host_runit(vp[" << vpw - 1 << ":" << vpw - uw
     << "]), .host_rtensor(" << ulit(vu.readSelect, vu.tensorBits) << "), .host_rbank(vp["
     << vpw - uw - 1 << ":" << di + vu.addressBits << "]), .host_raddr(vp["
     << di + vu.addressBits - 1 << ":" << di << "]), .host_rdata(vu_rdata),\n"
     << commandPorts("vu_", "on_values ? dram_rd_valid : " + ulit(0, n)) << "\n";
  unused.add("vu_busy");
  if (vu.dataBits > ub)
    unused.add("vu_rdata[" + std::to_string(vu.dataBits - 1) + ":" + std::to_string(ub) + "]");

  // The banks: the running units drive them, in the block's rows.
  os << "  // Each unit's banks: the units that run drive them; a block's K rows lie from "
        "row_base, its V rows after them.\n"
     << "  assign dram_row_valid = on_values ? vu_row_valid : sc_row_valid;\n"
     << "  assign dram_row_act = on_values ? vu_row_act : sc_row_act;\n"
     << "  assign dram_row_bank = on_values ? vu_row_bank : sc_row_bank;\n"
     << "  assign dram_col_valid = on_values ? vu_col_valid : sc_col_valid;\n"
     << "  assign dram_col_bank = on_values ? vu_col_bank : sc_col_bank;\n"
     << "  assign dram_col_addr = on_values ? vu_col_addr : sc_col_addr;\n"
     << "  assign dram_col_write = on_values ? vu_col_write : sc_col_write;\n"
     << "  assign dram_wr_data = on_values ? vu_wr_data : sc_wr_data;\n";
  for (int64_t u = 0; u < n; ++u) {
    auto slice = [u](const std::string& w, int64_t width) {
      return w + "[" + std::to_string((u + 1) * width - 1) + ":" + std::to_string(u * width) + "]";
    };
    os << "  assign " << slice("dram_row_addr", rw) << " = row_base + (on_values ? "
       << widen(slice("vu_row_addr", vu.rowBits), vu.rowBits, rw) << " + " << ulit(t.scoreRows, rw)
       << " : " << widen(slice("sc_row_addr", sc.rowBits), sc.rowBits, rw) << ");\n";
  }
  os << "\n";

  // U and the sum rescaled per block, U's parts added, then O = U / sum.
  os << "  // U and the sum: rescaled by alpha (d = D: the sum), the block's U added; at the end\n"
     << "  // O = U / sum, one reciprocal, one scale a word. The first block's alpha is 0, which\n"
     << "  // clears them.\n"
     << "  reg signed " << range(acc) << " uacc [0:" << t.d - 1 << "];\n"
     << "  reg acc_in;\n"
     << "  reg " << range(di) << " acc_d;\n"
     << "  reg " << range(dw) << " out_d;\n"
     << "  wire signed " << range(ub) << " part = vu_rdata[" << ub - 1 << ":0];\n"
     << "  wire in_rescale = (state == RESCALE) && (k <= " << ulit(t.d, kw) << ");\n"
     << "  wire signed " << range(acc) << " old = k == " << ulit(t.d, kw) << " ? {"
     << ulit(0, acc - 32) << ", sum_r} : uacc[k[" << di - 1 << ":0]];\n"
     << "  wire rs_valid;\n"
     << "  wire signed " << range(acc) << " rs_val;\n"
     << "  rubick_scale #(.A_W(" << acc << "), .B_W(16), .SHIFT(15), .OUT_W(" << acc
     << ")) rescale (.clk(clk), .in_valid(in_rescale), .a(old), .b(alpha), .out_valid(rs_valid), "
        ".out(rs_val));\n"
     << "  wire r_busy, r_done;\n"
     << "  wire [32:0] r_val;\n"
     << "  rubick_recip reciprocal (.clk(clk), .rst(rst), .start(state == RSTART), .b(sum_r), "
        ".busy(r_busy), .done(r_done), .recip(r_val));\n"
     << "  wire o_valid;\n"
     << "  wire signed " << range(ob) << " o_val;\n"
     << "  rubick_scale #(.A_W(" << acc << "), .B_W(33), .SHIFT(32), .OUT_W(" << ob
     << ")) normalise (.clk(clk), .in_valid((state == NORM) && (k < " << ulit(t.d, kw)
     << ")), .a(old), .b(r_val), .out_valid(o_valid), .out(o_val));\n"
     << "  reg " << range(ob) << " obuf [0:" << t.d - 1 << "];\n"
     << "  reg " << range(ob) << " o_read;\n"
     << "  always @(posedge clk) begin\n"
     << "    if (o_valid) obuf[out_d[" << di - 1 << ":0]] <= o_val;\n"
     << "    if (host_re && !busy) o_read <= obuf[host_raddr[" << di - 1 << ":0]];\n"
     << "  end\n"
     << "  // The host reads O (unit 0, bank 0, address d) the cycle after host_re.\n"
     << "  assign host_rdata = " << widen("o_read", ob, t.dataBits) << ";\n\n";
  unused.add("r_busy");
  unused.add("host_runit");
  unused.add("host_rtensor");
  unused.add("host_rbank");
  if (t.addressBits > di)
    unused.add("host_raddr[" + std::to_string(t.addressBits - 1) + ":" + std::to_string(di) + "]");
  if (t.bankBits > sc.bankBits)
    unused.add("host_wbank[" + std::to_string(t.bankBits - 1) + ":" + std::to_string(sc.bankBits) +
               "]");
  if (t.addressBits > sc.addressBits)
    unused.add("host_waddr[" + std::to_string(t.addressBits - 1) + ":" +
               std::to_string(sc.addressBits) + "]");
  if (t.dataBits > sc.dataBits)
    unused.add("host_wdata[" + std::to_string(t.dataBits - 1) + ":" + std::to_string(sc.dataBits) +
               "]");
  if (!hostQ) {
    unused.add("host_we");
    unused.add("host_wtensor");
  }

  // The sequencer.
  const std::string k0 = ulit(0, kw), k1 = ulit(1, kw);
  os << "  // The sequencer: each phase takes one step a cycle; k counts them.\n"
     << "  always @(posedge clk) begin\n"
     << "    exp_in <= (state == EXP) && (k < " << ulit(NE, kw) << ");\n"
     << "    ew1 <= ew[" << ewt - 1 << ":0];\n"
     << "    ew2 <= ew1;\n"
     << "    acc_in <= vu_read;\n"
     << "    acc_d <= vp[" << di - 1 << ":0];\n"
     << "    out_d <= k[" << dw - 1 << ":0];\n"
     << "    if (exp_valid && ew2[" << eFirst << "]) sum_blk <= sum_blk + {16'd0, exp_out};\n"
     << "    if (acc_in) uacc[acc_d] <= uacc[acc_d] + {{" << acc - ub << "{part[" << ub - 1
     << "]}}, part};\n"
     << "    if (rs_valid) begin\n"
     << "      if (out_d == " << ulit(t.d, dw) << ") sum_r <= rs_val[31:0] + sum_blk;\n"
     << "      else uacc[out_d[" << di - 1 << ":0]] <= rs_val;\n"
     << "    end\n"
     << "    if (rst) begin\n"
     << "      state <= IDLE;\n      done_r <= 1'b0;\n      on_values <= 1'b0;\n"
     << "      k <= " << k0 << ";\n      blk <= " << ulit(0, blkw) << ";\n"
     << "      row_base <= " << ulit(0, rw) << ";\n      guard <= " << ulit(0, guardw) << ";\n"
     << "    end else begin\n"
     << "      if (guard != " << ulit(0, guardw) << ") guard <= guard - " << ulit(1, guardw)
     << ";\n"
     << "      case (state)\n"
     << "        IDLE: if (start) begin\n"
     << "          state <= SSTART;\n          done_r <= 1'b0;\n"
     << "          blk <= " << ulit(0, blkw) << ";\n          row_base <= " << ulit(0, rw) << ";\n"
     << "          sum_r <= 32'd0;\n"
     << "        end\n"
     << "        SSTART: if (guard == " << ulit(0, guardw) << ") begin\n"
     << "          state <= SCORES;\n          on_values <= 1'b0;\n        end\n"
     << "        SCORES: if (sc_done) begin\n"
     << "          state <= MAX;\n          k <= " << k0 << ";\n"
     << "          max_old <= max_r;\n          sum_blk <= 32'd0;\n"
     << "          guard <= " << ulit(t.tRP, guardw) << ";\n        end\n"
     << "        MAX: begin\n"
     << "          k <= k + " << k1 << ";\n"
     << "          if (k != " << k0 << " && ((k == " << k1 << " && blk == " << ulit(0, blkw)
     << ") || score > max_r)) max_r <= score;\n"
     << "          if (k == " << ulit(keys, kw) << ") state <= ALPHA;\n"
     << "        end\n"
     << "        ALPHA: begin\n          state <= EXP;\n          k <= " << k0 << ";\n        end\n"
     << "        EXP: begin\n"
     << "          k <= k + " << k1 << ";\n"
     << "          if (k == " << ulit(NE + 1, kw) << ") begin\n"
     << "            state <= RESCALE;\n            k <= " << k0 << ";\n          end\n"
     << "        end\n"
     << "        RESCALE: begin\n"
     << "          k <= k + " << k1 << ";\n"
     << "          if (k == " << ulit(t.d + 1, kw) << ") state <= VSTART;\n"
     << "        end\n"
     << "        VSTART: if (guard == " << ulit(0, guardw) << ") begin\n"
     << "          state <= VALUES;\n          on_values <= 1'b1;\n        end\n"
     << "        VALUES: if (vu_done) begin\n"
     << "          state <= ACC;\n          k <= " << k0 << ";\n"
     << "          guard <= " << ulit(t.tRP, guardw) << ";\n        end\n"
     << "        ACC: begin\n"
     << "          k <= k + " << k1 << ";\n"
     << "          if (k == " << ulit(NU, kw) << ") begin\n"
     << "            k <= " << k0 << ";\n"
     << "            if (blk == " << ulit(t.blocks - 1, blkw) << ") begin\n"
     << "              state <= RSTART;\n"
     << "            end else begin\n"
     << "              state <= SSTART;\n              blk <= blk + " << ulit(1, blkw) << ";\n"
     << "              row_base <= row_base + " << ulit(t.scoreRows + t.valueRows, rw) << ";\n"
     << "            end\n          end\n        end\n"
     << "        RSTART: state <= RECIP;\n"
     << "        RECIP: if (r_done) begin\n"
     << "          state <= NORM;\n          k <= " << k0 << ";\n        end\n"
     << "        NORM: begin\n"
     << "          k <= k + " << k1 << ";\n"
     << "          if (k == " << ulit(t.d, kw) << ") begin\n"
     << "            state <= IDLE;\n            done_r <= 1'b1;\n          end\n"
     << "        end\n"
     << "        default: state <= IDLE;\n"
     << "      endcase\n"
     << "    end\n"
     << "  end\n\n"
     << unused.declaration() << "endmodule\n\n`default_nettype wire\n";
  return os.str();
}

} // namespace rubick::emit::detail
