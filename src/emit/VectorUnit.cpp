// SPDX-License-Identifier: Apache-2.0
// The vector unit of the attention pipeline: everything row-wise between and after the two
// GEMMs, bit-exact with ref::attentionFixed (docs/attention-numerics.md). The top feeds it W
// lanes per cycle (one query row's in row max and exp; in accumulate, lane l the elements of
// the rows i with i mod min(W, L) = l; one element of each of min(W, L) rows in normalise) and
// does all addressing; this module holds the row state and the arithmetic, per lane where each lane
// has its own element, reduced across the lanes where they share a row (max and sum:
// order-independent, so any W gives the same bits). Memories are read combinationally (they are
// small: L or L x Dv words).

#include "VectorUnit.h"

#include "VerilogText.h"

#include "rubick/arch/Plan.h"
#include "rubick/attn/LaneSchedule.h"

#include <sstream>
#include <stdexcept>

namespace rubick::emit::detail {
namespace {

// `v` (w bits, non-negative) zero-extended to 32 bits.
std::string to32(const std::string& v, int64_t w) {
  if (w == 32) return v;
  return "{" + std::to_string(32 - w) + "'d0, " + v + "}";
}

// Lane `l` of a packed vector of `w`-bit lanes.
std::string lane(const std::string& v, int64_t l, int64_t w) {
  return v + "[" + std::to_string((l + 1) * w - 1) + ":" + std::to_string(l * w) + "]";
}

} // namespace

std::string vectorModule(const VectorParams& v) {
  if (v.scoreBits > 32 || v.sumBits > 32 || v.accBits < v.resultBits || v.sumBits < 17)
    throw std::logic_error("vector unit: unsupported widths");
  const int64_t rb = v.rowBits, sb = v.scoreBits, ub = v.resultBits, lb = v.sumBits, ab = v.accBits,
                ob = v.outBits;
  const std::string f = std::to_string(v.expFrac);
  const int64_t W = v.lanes, N = v.normLanes;
  // U_acc in N parts, one per normalise lane: a write and two read ports each, so a RAM.
  const int64_t words = attn::accPartWords(v.rows, v.cols, N), kb = arch::bitsFor(words);
  std::ostringstream os;
  os << generatedBanner() << "// Vector unit of the attention pipeline " << v.name
     << ": per row i the running max\n"
     << "// m, alpha = exp(m_old - m_new), the running sum l and U_acc(i, :), updated " << W
     << " lane(s)\n"
     << "// per cycle, lane l in bits [l*w +: w] of each packed port (docs/attention.md). Every\n"
     << "// input is one cycle after the top's bank read.\n"
     << "//   max pass: the block's row max over the lanes in max_use; at a row's end m and alpha\n"
     << "//     are written 1 cycle later\n"
     << "//   exp pass: exp_e = exp(m - score) (0 for masked keys) per lane 1 cycle after\n"
     << "//     exp_valid; the counted lanes add to the row sum; at a\n"
     << "//     row's end l = rescale(l, alpha) + sum is written 2 cycles after exp_valid\n"
     << "//   accumulate: per lane U_acc = rescale(U_acc, alpha) + U, written 1 cycle after\n"
     << "//     acc_valid; U_acc is in " << N << " part(s): lane l holds the rows i = l mod " << N
     << ",\n"
     << "//     acc_k is the word (i / " << N
     << ") * Dv + column in its lane's part (lanes >= " << N << " idle)\n"
     << "//   normalise, " << N << " lane(s): norm_start starts the reciprocal of each lane's row\n"
     << "//     norm_i; norm_ready pulses when they are held (34 cycles later; the next start may\n"
     << "//     come then); per lane o_value = sat(U_acc(norm_k) * recip / 2^32) 1 cycle after\n"
     << "//     norm_valid, norm_k the word in the lane's part as for acc_k\n"
     << "// first_block: the running values are not read (alpha = 0).\n"
     << "`default_nettype none\n\n"
     << "module " << v.name << "_vector (\n"
     << "  input  wire clk,\n"
     << "  input  wire rst,\n"
     << "  input  wire first_block,\n"
     << "  input  wire max_valid,\n"
     << "  input  wire " << range(W) << " max_use,\n"
     << "  input  wire " << range(rb) << " max_i,\n"
     << "  input  wire max_row_start,\n"
     << "  input  wire max_row_end,\n"
     << "  input  wire " << range(W * sb) << " max_score,\n"
     << "  input  wire exp_valid,\n"
     << "  input  wire " << range(rb) << " exp_i,\n"
     << "  input  wire " << range(W * sb) << " exp_score,\n"
     << "  input  wire " << range(W) << " exp_masked,\n"
     << "  input  wire " << range(W) << " exp_count,\n"
     << "  input  wire exp_row_start,\n"
     << "  input  wire exp_row_end,\n"
     << "  output wire " << range(16 * W) << " exp_e,\n"
     << "  input  wire " << range(W) << " acc_valid,\n"
     << "  input  wire " << range(W * kb) << " acc_k,\n"
     << "  input  wire " << range(W * rb) << " acc_i,\n"
     << "  input  wire " << range(W * ub) << " acc_u,\n"
     << "  input  wire norm_start,\n"
     << "  input  wire " << range(N * rb) << " norm_i,\n"
     << "  output wire norm_ready,\n"
     << "  input  wire " << range(N) << " norm_valid,\n"
     << "  input  wire " << range(N * kb) << " norm_k,\n"
     << "  output wire " << range(N) << " o_valid,\n"
     << "  output wire " << range(N * ob) << " o_value\n"
     << ");\n\n";

  os << "  reg signed " << range(sb) << " m_mem [0:" << v.rows - 1 << "];\n"
     << "  reg [14:0] alpha_mem [0:" << v.rows - 1 << "];\n"
     << "  reg signed " << range(lb) << " l_mem [0:" << v.rows - 1 << "];\n";
  for (int64_t n = 0; n < N; ++n)
    os << "  reg signed " << range(ab) << " uacc_mem" << n << " [0:" << words - 1 << "];\n";
  os << "\n";

  // Row max and alpha.
  os << "  // Row max: the block's maximum over the lanes in use (masked keys are not; every "
        "row's\n"
     << "  // first key is), then m_new = max(m_old, it) and alpha = exp(m_old - m_new).\n"
     << "  reg signed " << range(sb) << " run_max;\n"
     << "  wire signed " << range(sb) << " fold0 = max_row_start ? $signed({1'b1, " << sb - 1
     << "'d0}) : run_max;\n";
  for (int64_t l = 0; l < W; ++l)
    os << "  wire signed " << range(sb) << " max_s" << l << " = " << lane("max_score", l, sb)
       << ";\n"
       << "  wire signed " << range(sb) << " fold" << l + 1 << " = (max_use[" << l << "] && (max_s"
       << l << " > fold" << l << ")) ? max_s" << l << " : fold" << l << ";\n";
  os << "  wire signed " << range(sb) << " seen = fold" << W << ";\n"
     << "  always @(posedge clk) if (max_valid) run_max <= seen;\n"
     << "  wire signed " << range(sb) << " m_old = m_mem[max_i];\n"
     << "  wire signed " << range(sb)
     << " m_new = (first_block || (seen > m_old)) ? seen : m_old;\n"
     << "  wire " << range(sb) << " m_rise = m_new - m_old;\n"
     << "  wire alpha_ready;\n"
     << "  wire [15:0] alpha_q;\n"
     << "  rubick_exp #(.EXP_FRAC(" << f << ")) alpha_exp (.clk(clk), .in_valid(max_valid && "
     << "max_row_end), .d(" << to32("m_rise", sb) << "), .out_valid(alpha_ready), .out(alpha_q));\n"
     << "  reg " << range(rb) << " max_i_q;\n"
     << "  reg signed " << range(sb) << " m_new_q;\n"
     << "  reg first_q;\n"
     << "  always @(posedge clk) begin\n"
     << "    max_i_q <= max_i;\n"
     << "    m_new_q <= m_new;\n"
     << "    first_q <= first_block;\n"
     << "  end\n"
     << "  always @(posedge clk) begin\n"
     << "    if (alpha_ready) begin\n"
     << "      m_mem[max_i_q] <= m_new_q;\n"
     << "      alpha_mem[max_i_q] <= first_q ? 15'd0 : alpha_q[14:0];\n"
     << "    end\n"
     << "  end\n\n";

  // Exponentials and row sum.
  os << "  // Exponentials from the distance to the running max, one exp unit per lane; the row\n"
     << "  // sum counts each element once (exp_count: its first place) and is folded into l at\n"
     << "  // the row's end.\n"
     << "  wire signed " << range(sb) << " m_cur = m_mem[exp_i];\n"
     << "  reg e_start_q, e_end_q;\n"
     << "  reg " << range(W) << " e_masked_q, e_count_q;\n"
     << "  reg " << range(rb) << " e_i_q;\n"
     << "  reg e_ready;\n"
     << "  always @(posedge clk) begin\n"
     << "    e_ready <= exp_valid;\n"
     << "    e_masked_q <= exp_masked;\n"
     << "    e_count_q <= exp_count;\n"
     << "    e_start_q <= exp_row_start;\n"
     << "    e_end_q <= exp_row_end;\n"
     << "    e_i_q <= exp_i;\n"
     << "  end\n";
  std::string sum = ulit(0, lb);
  for (int64_t l = 0; l < W; ++l) {
    const std::string x = std::to_string(l);
    os << "  wire " << range(sb) << " e_dist" << x << " = m_cur - " << lane("exp_score", l, sb)
       << ";\n"
       << "  wire [15:0] e_raw" << x << ";\n"
       << "  wire e_ready" << x << "_unused;\n"
       << "  rubick_exp #(.EXP_FRAC(" << f << ")) e_exp" << x
       << " (.clk(clk), .in_valid(exp_valid), .d(" << to32("e_dist" + x, sb)
       << "), .out_valid(e_ready" << x << "_unused), .out(e_raw" << x << "));\n"
       << "  assign " << lane("exp_e", l, 16) << " = e_masked_q[" << x << "] ? 16'd0 : e_raw" << x
       << ";\n";
    sum += " + (e_count_q[" + x + "] ? {" + std::to_string(lb - 16) + "'d0, " +
           lane("exp_e", l, 16) + "} : " + ulit(0, lb) + ")";
  }
  os << "  reg " << range(lb) << " row_sum;\n"
     << "  wire " << range(lb) << " e_add = " << sum << ";\n"
     << "  wire " << range(lb) << " row_total = (e_start_q ? " << ulit(0, lb)
     << " : row_sum) + e_add;\n"
     << "  always @(posedge clk) if (e_ready) row_sum <= row_total;\n"
     << "  wire l_ready;\n"
     << "  wire signed " << range(lb) << " l_scaled;\n"
     << "  wire signed " << range(lb) << " l_old = first_block ? " << slit(0, lb)
     << " : l_mem[e_i_q];\n"
     << "  rubick_scale #(.A_W(" << lb << "), .B_W(15), .SHIFT(15), .OUT_W(" << lb
     << ")) l_scale (.clk(clk), .in_valid(e_ready && e_end_q), .a(l_old), .b(alpha_mem[e_i_q]), "
        ".out_valid(l_ready), .out(l_scaled));\n"
     << "  reg " << range(lb) << " total_q;\n"
     << "  reg " << range(rb) << " l_i_q;\n"
     << "  always @(posedge clk) begin\n"
     << "    total_q <= row_total;\n"
     << "    l_i_q <= e_i_q;\n"
     << "  end\n"
     << "  always @(posedge clk) if (l_ready) l_mem[l_i_q] <= l_scaled + $signed(total_q);\n\n";

  // Accumulate.
  os << "  // U_acc = rescale(U_acc, alpha) + U, per lane (each lane its own element and part).\n";
  for (int64_t l = 0; l < N; ++l) {
    const std::string x = std::to_string(l);
    const std::string k = lane("acc_k", l, kb);
    const std::string u = "acc_u_q" + x;
    os << "  wire u_ready" << x << ";\n"
       << "  wire signed " << range(ab) << " u_scaled" << x << ";\n"
       << "  wire signed " << range(ab) << " u_old" << x << " = first_block ? " << slit(0, ab)
       << " : uacc_mem" << x << "[" << k << "];\n"
       << "  rubick_scale #(.A_W(" << ab << "), .B_W(15), .SHIFT(15), .OUT_W(" << ab << ")) u_scale"
       << x << " (.clk(clk), .in_valid(acc_valid[" << x << "]), .a(u_old" << x << "), .b(alpha_mem["
       << lane("acc_i", l, rb) << "]), .out_valid(u_ready" << x << "), .out(u_scaled" << x
       << "));\n"
       << "  reg " << range(kb) << " acc_k_q" << x << ";\n"
       << "  reg signed " << range(ub) << " acc_u_q" << x << ";\n"
       << "  always @(posedge clk) begin\n"
       << "    acc_k_q" << x << " <= " << k << ";\n"
       << "    acc_u_q" << x << " <= " << lane("acc_u", l, ub) << ";\n"
       << "  end\n"
       << "  always @(posedge clk)\n"
       << "    if (u_ready" << x << ") uacc_mem" << x << "[acc_k_q" << x << "] <= u_scaled" << x
       << " + "
       << (ab == ub ? u
                    : "{{" + std::to_string(ab - ub) + "{" + u + "[" + std::to_string(ub - 1) +
                          "]}}, " + u + "}")
       << ";\n";
  }
  os << "\n";

  // Normalise.
  os << "  // O = U_acc / l, " << N
     << " row(s) at a time: a reciprocal per lane, held while the lane's next one is\n"
     << "  // computed, then one rounding, saturating multiply per element.\n";
  std::string unusedNorm;
  for (int64_t n = 0; n < N; ++n) {
    const std::string x = std::to_string(n);
    os << "  wire recip_busy" << x << ", recip_done" << x << ";\n"
       << "  wire [32:0] recip" << x << ";\n"
       << "  wire signed " << range(lb) << " l_row" << x << " = l_mem[" << lane("norm_i", n, rb)
       << "];\n"
       << "  rubick_recip recip_unit" << x << " (.clk(clk), .rst(rst), .start(norm_start), .b("
       << to32("l_row" + x, lb) << "), .busy(recip_busy" << x << "), .done(recip_done" << x
       << "), .recip(recip" << x << "));\n"
       << "  reg [32:0] recip_hold" << x << ";\n"
       << "  always @(posedge clk) if (recip_done" << x << ") recip_hold" << x << " <= recip" << x
       << ";\n"
       << "  rubick_scale #(.A_W(" << ab << "), .B_W(33), .SHIFT(32), .OUT_W(" << ob << ")) o_scale"
       << x << " (.clk(clk), .in_valid(norm_valid[" << x << "]), .a(uacc_mem" << x << "["
       << lane("norm_k", n, kb) << "]), .b(recip_hold" << x << "), .out_valid(o_valid[" << x
       << "]), .out(" << lane("o_value", n, ob) << "));\n";
    unusedNorm += ", recip_busy" + x + (n ? ", recip_done" + x : "");
  }
  // The lanes start together and the divider's latency is fixed: lane 0 times them all.
  os << "  reg recip_done_q;\n"
     << "  always @(posedge clk) recip_done_q <= recip_done0;\n"
     << "  assign norm_ready = recip_done0 && !recip_done_q;\n\n";
  // Lanes past the normalise lanes never accumulate (their rows are in no part).
  if (W > N)
    unusedNorm += ", acc_valid[" + std::to_string(W - 1) + ":" + std::to_string(N) + "], acc_k[" +
                  std::to_string(W * kb - 1) + ":" + std::to_string(N * kb) + "], acc_i[" +
                  std::to_string(W * rb - 1) + ":" + std::to_string(N * rb) + "], acc_u[" +
                  std::to_string(W * ub - 1) + ":" + std::to_string(N * ub) + "]";
  os << "  // Bits that are deliberately unused (named *unused* for the linter).\n"
     << "  wire unused_ok = &{1'b0, alpha_q[15]" << unusedNorm <<
      [&] {
        std::string u;
        for (int64_t l = 0; l < W; ++l)
          u += ", e_ready" + std::to_string(l) + "_unused";
        return u;
      }()
     << "};\n"
     << "endmodule\n\n`default_nettype wire\n";
  return os.str();
}

} // namespace rubick::emit::detail
