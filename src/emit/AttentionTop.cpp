// The attention pipeline's top: a sequencer of fixed-length phases (so the latency is exact and
// equals attn::pipelineTiming), per phase a counter `cnt` that issues one row of W items per
// cycle from a ROM table (the pass's lane schedule, attn/LaneSchedule.h: the W lanes of a row
// reach distinct banks through the arrays' W-lane host ports), and a short pipeline behind it:
//   query   cnt: Q store read          +1: write into GEMM 1's Q bank
//   copy    cnt: K and V store reads   +1: write into GEMM 1's K bank and GEMM 2's V bank
//   GEMM    cnt 0: start; the phase lasts the array's latency + 1
//   row max cnt: GEMM 1 score read     +1: vector unit max  +2: m, alpha written
//   exp     cnt: GEMM 1 score read     +1: vector unit exp  +2: E written into GEMM 2's banks,
//                                                                row sum  +3: l written
//   accum.  cnt: GEMM 2 U read         +1: vector unit rescale  +2: U_acc written
//   norm.   N = min(W, L) rows at a time, one divider and one output per lane: the group's
//           reciprocals every max(34, Dv) cycles; when they are ready (34 cycles after their
//           start) each lane's row outputs Dv elements, one per cycle, into the O store
// Items past the end of a block (keys >= S) are masked: K and V are written as 0, the row max
// skips them and their E is 0.

#include "AttentionTop.h"

#include "VerilogText.h"

#include <algorithm>
#include <functional>
#include <sstream>
#include <stdexcept>

namespace rubick::emit::detail {
namespace {

// The rows of `rom` as an initialised memory and one wire per field, indexed by cnt.
void writeRom(std::ostream& os, const Rom& rom, const std::string& prefix, int64_t cntBits,
              std::vector<std::string>& unused) {
  int64_t w = 0;
  for (const auto& f : rom.fields)
    w += f.second;
  const int64_t rw = arch::bitsFor(std::max<int64_t>(2, int64_t(rom.rows.size())));
  if (rw > cntBits) throw std::logic_error("attention: a ROM deeper than its phase");
  os << "  // " << rom.name << ": " << rom.rows.size() << " items of";
  for (const auto& f : rom.fields)
    os << " " << f.first << " (" << f.second << ")";
  os << "\n  reg " << range(w) << " " << rom.name << " [0:" << ((int64_t(1) << rw) - 1) << "];\n"
     << "  initial begin\n";
  for (size_t r = 0; r < rom.rows.size(); ++r) {
    // Packed with the first field in the high bits, written in binary for any width.
    std::string bits;
    for (size_t f = 0; f < rom.fields.size(); ++f) {
      const int64_t fw = rom.fields[f].second, v = rom.rows[r][f];
      if (v < 0 || (fw < 63 && v >= (int64_t(1) << fw)))
        throw std::logic_error("attention: a ROM value does not fit its field");
      for (int64_t b = fw; b-- > 0;)
        bits += ((v >> b) & 1) ? '1' : '0';
    }
    // Hex is shorter; pad the front to a multiple of 4 bits.
    while (bits.size() % 4)
      bits.insert(bits.begin(), '0');
    std::string hex;
    for (size_t i = 0; i < bits.size(); i += 4)
      hex += "0123456789abcdef"[std::stoi(bits.substr(i, 4), nullptr, 2)];
    os << "    " << rom.name << "[" << r << "] = " << w << "'h" << hex << ";\n";
  }
  os << "  end\n"
     << "  wire " << range(w) << " " << prefix << "_row = " << rom.name << "[cnt[" << rw - 1
     << ":0]];\n";
  int64_t hi = w;
  for (const auto& [name, fw] : rom.fields) {
    os << "  wire " << range(fw) << " " << prefix << "_" << name << " = " << prefix << "_row["
       << hi - 1 << ":" << hi - fw << "];\n";
    hi -= fw;
  }
  if (rw < cntBits) unused.push_back("cnt");
}

// `v` (w bits) zero-extended to `to` bits.
std::string zext(const std::string& v, int64_t w, int64_t to) {
  if (w == to) return v;
  return "{" + std::to_string(to - w) + "'d0, " + v + "}";
}

std::string modLit(int64_t v, int64_t w) {
  return ulit(w >= 62 ? v : v % (int64_t(1) << w), w);
}

} // namespace

std::string attentionTop(const TopParams& p, const AttentionTables& t) {
  const attn::PipelineTiming& tm = p.timing;
  const int64_t qItems = int64_t(t.query.rows.size());
  const int64_t kItems = int64_t(t.key.rows.size()), vItems = int64_t(t.value.rows.size());
  const int64_t sItems = int64_t(t.score.rows.size()), eItems = int64_t(t.expo.rows.size());
  const int64_t uItems = int64_t(t.result.rows.size());
  // A divider per normalise lane: a group of N rows starts its reciprocals every `period`
  // cycles; each result is held while its row's Dv outputs use it.
  const int64_t N = attn::normaliseLanes(t.lanes, p.l);
  const int64_t groups = (p.l + N - 1) / N;
  const int64_t period = std::max(attn::kRecipCycles, p.dv);
  // The model the explorer ranks by must be this hardware, phase by phase.
  if (tm.query != qItems + 1 || tm.copy != std::max(kItems, vItems) + 1 ||
      tm.rowMax != sItems + 2 || tm.exp != eItems + 3 || tm.accumulate != uItems + 2 ||
      tm.normalise != (groups - 1) * period + attn::kRecipCycles + 2 + p.dv)
    throw std::logic_error("attention: the pipeline timing model differs from the hardware");
  const std::vector<int64_t> lens = {tm.query, tm.copy,  tm.gemm1,      tm.rowMax,
                                     tm.exp,   tm.gemm2, tm.accumulate, tm.normalise};
  const int64_t cw = arch::bitsFor(*std::max_element(lens.begin(), lens.end()) + 1);
  const int64_t qa = arch::bitsFor(p.qSize), ka = arch::bitsFor(p.kSize),
                va = arch::bitsFor(p.vSize), oa = arch::bitsFor(p.oSize);
  const int64_t ha = std::max({qa, ka, va, oa});
  const int64_t hd = std::max({p.qBits, p.kBits, p.vBits, p.oBits});
  const int64_t hw = arch::bitsFor(p.heads), bw = arch::bitsFor(p.blocks);
  const int64_t jb = arch::bitsFor(p.blockKeys), jl = arch::bitsFor(p.s + 1);
  const int64_t rb = p.vec.rowBits, eb = p.vec.elemBits, pcw = arch::bitsFor(period);
  // n_row steps by N once a period until the phase ends: at most L + 2N, lanes add N - 1;
  // n_k (lane 0's element) and the lanes' elements stay below (L + 2N) x Dv.
  const int64_t nrw = arch::bitsFor(p.l + 3 * N + 1), nlw = arch::bitsFor(p.dv + 1);
  const int64_t nkw = arch::bitsFor((p.l + 2 * N) * p.dv + 1);
  const HostPort& h1 = p.g1;
  const HostPort& h2 = p.g2;
  std::vector<std::string> unused = {"host_wbank", "host_rbank", "host_raddr", "host_wdata",
                                     "g1_busy",    "g1_done",    "g2_busy",    "g2_done"};
  std::ostringstream os;
  os << "// Generated by rubick " << RUBICK_VERSION << ". Do not edit.\n"
     << "// Fused attention pipeline " << p.name << ": " << p.heads << " head(s), L=" << p.l
     << " S=" << p.s << " Dv=" << p.dv << ", " << p.blocks << " key block(s) of " << p.blockKeys
     << ".\n"
     << "// Host: write Q (1), K (2), V (3) and read O (0) while busy is low; done rises "
     << p.heads * tm.perHead() << " cycles\n// after the edge that samples start (README.md).\n"
     << "`default_nettype none\n\n"
     << "module " << p.name << "_top (\n"
     << "  input  wire clk,\n"
     << "  input  wire rst,\n"
     << "  input  wire start,\n"
     << "  output reg  busy,\n"
     << "  output reg  done,\n"
     << "  input  wire host_we,\n"
     << "  input  wire [1:0] host_wtensor,\n"
     << "  input  wire host_wbank,\n"
     << "  input  wire " << range(ha) << " host_waddr,\n"
     << "  input  wire " << range(hd) << " host_wdata,\n"
     << "  input  wire host_re,\n"
     << "  input  wire [1:0] host_rtensor,\n"
     << "  input  wire host_rbank,\n"
     << "  input  wire " << range(ha) << " host_raddr,\n"
     << "  output wire " << range(hd) << " host_rdata\n"
     << ");\n\n";

  // Sequencer.
  os << "  // Sequencer: per head query, then per block copy, GEMM 1, row max, exp, GEMM 2,\n"
     << "  // accumulate, then normalise; every phase has a fixed length.\n"
     << "  localparam [2:0] PH_Q = 3'd0, PH_KV = 3'd1, PH_G1 = 3'd2, PH_MAX = 3'd3, PH_EXP = "
        "3'd4,\n"
     << "                   PH_G2 = 3'd5, PH_ACC = 3'd6, PH_NORM = 3'd7;\n"
     << "  reg [2:0] phase;\n"
     << "  reg " << range(cw) << " cnt;\n"
     << "  reg " << range(hw) << " head;\n"
     << "  reg " << range(bw) << " blk;\n"
     << "  reg " << range(qa) << " qhb;  // store offsets of the head and of the key block\n"
     << "  reg " << range(ka) << " khb, kofs;\n"
     << "  reg " << range(va) << " vhb, vofs;\n"
     << "  reg " << range(oa) << " ohb;\n"
     << "  reg " << range(jl) << " kleft; // keys from the block's first to S\n"
     << "  reg " << range(cw) << " len_m1;\n"
     << "  always @(*) begin\n"
     << "    case (phase)\n";
  const char* names[] = {"PH_Q", "PH_KV", "PH_G1", "PH_MAX", "PH_EXP", "PH_G2", "PH_ACC"};
  for (size_t i = 0; i < 7; ++i)
    os << "      " << names[i] << ": len_m1 = " << ulit(lens[i] - 1, cw) << ";\n";
  os << "      default: len_m1 = " << ulit(lens[7] - 1, cw) << ";\n"
     << "    endcase\n"
     << "  end\n"
     << "  wire last = (cnt == len_m1);\n"
     << "  wire last_block = (blk == " << ulit(p.blocks - 1, bw) << ");\n"
     << "  wire last_head = (head == " << ulit(p.heads - 1, hw) << ");\n"
     << "  always @(posedge clk) begin\n"
     << "    if (rst) begin\n"
     << "      busy <= 1'b0;\n"
     << "      done <= 1'b0;\n"
     << "    end else if (!busy) begin\n"
     << "      if (start) begin\n"
     << "        busy <= 1'b1;\n"
     << "        done <= 1'b0;\n"
     << "      end\n"
     << "    end else if (last && (phase == PH_NORM) && last_head) begin\n"
     << "      busy <= 1'b0;\n"
     << "      done <= 1'b1;\n"
     << "    end\n"
     << "  end\n"
     << "  always @(posedge clk) begin\n"
     << "    if (!busy) begin\n"
     << "      phase <= PH_Q;\n"
     << "      cnt <= " << ulit(0, cw) << ";\n"
     << "      head <= " << ulit(0, hw) << ";\n"
     << "      blk <= " << ulit(0, bw) << ";\n"
     << "      qhb <= " << ulit(0, qa) << ";\n"
     << "      khb <= " << ulit(0, ka) << ";\n"
     << "      kofs <= " << ulit(0, ka) << ";\n"
     << "      vhb <= " << ulit(0, va) << ";\n"
     << "      vofs <= " << ulit(0, va) << ";\n"
     << "      ohb <= " << ulit(0, oa) << ";\n"
     << "      kleft <= " << ulit(p.s, jl) << ";\n"
     << "    end else if (!last) begin\n"
     << "      cnt <= cnt + " << ulit(1, cw) << ";\n"
     << "    end else begin\n"
     << "      cnt <= " << ulit(0, cw) << ";\n"
     << "      case (phase)\n"
     << "        PH_Q: phase <= PH_KV;\n"
     << "        PH_KV: phase <= PH_G1;\n"
     << "        PH_G1: phase <= PH_MAX;\n"
     << "        PH_MAX: phase <= PH_EXP;\n"
     << "        PH_EXP: phase <= PH_G2;\n"
     << "        PH_G2: phase <= PH_ACC;\n"
     << "        PH_ACC: begin\n"
     << "          if (last_block) begin\n"
     << "            phase <= PH_NORM;\n"
     << "          end else begin\n"
     << "            phase <= PH_KV;\n"
     << "            blk <= blk + " << ulit(1, bw) << ";\n"
     << "            kofs <= kofs + " << modLit(t.keyStep, ka) << ";\n"
     << "            vofs <= vofs + " << modLit(t.valueStep, va) << ";\n"
     << "            kleft <= kleft - " << ulit(p.blockKeys, jl) << ";\n"
     << "          end\n"
     << "        end\n"
     << "        default: begin // PH_NORM: the next head\n"
     << "          phase <= PH_Q;\n"
     << "          head <= head + " << ulit(1, hw) << ";\n"
     << "          blk <= " << ulit(0, bw) << ";\n"
     << "          kofs <= " << ulit(0, ka) << ";\n"
     << "          vofs <= " << ulit(0, va) << ";\n"
     << "          kleft <= " << ulit(p.s, jl) << ";\n"
     << "          qhb <= qhb + " << modLit(p.qSize / p.heads, qa) << ";\n"
     << "          khb <= khb + " << modLit(p.kSize / p.heads, ka) << ";\n"
     << "          vhb <= vhb + " << modLit(p.vSize / p.heads, va) << ";\n"
     << "          ohb <= ohb + " << modLit(p.oSize / p.heads, oa) << ";\n"
     << "        end\n"
     << "      endcase\n"
     << "    end\n"
     << "  end\n\n";

  // Stores and the host port.
  os << "  // Stores, row-major as the program declares the tensors (all heads).\n"
     << "  reg " << range(p.qBits) << " qmem [0:" << p.qSize - 1 << "];\n"
     << "  reg " << range(p.kBits) << " kmem [0:" << p.kSize - 1 << "];\n"
     << "  reg " << range(p.vBits) << " vmem [0:" << p.vSize - 1 << "];\n"
     << "  reg " << range(p.oBits) << " omem [0:" << p.oSize - 1 << "];\n"
     << "  wire host_write = host_we && !busy;\n"
     << "  always @(posedge clk) begin\n"
     << "    if (host_write && (host_wtensor == 2'd1)) qmem[host_waddr[" << qa - 1
     << ":0]] <= host_wdata[" << p.qBits - 1 << ":0];\n"
     << "    if (host_write && (host_wtensor == 2'd2)) kmem[host_waddr[" << ka - 1
     << ":0]] <= host_wdata[" << p.kBits - 1 << ":0];\n"
     << "    if (host_write && (host_wtensor == 2'd3)) vmem[host_waddr[" << va - 1
     << ":0]] <= host_wdata[" << p.vBits - 1 << ":0];\n"
     << "  end\n"
     << "  // Host reads: O only; the word arrives the cycle after host_re.\n"
     << "  reg " << range(p.oBits) << " o_rd;\n"
     << "  reg o_sel;\n"
     << "  always @(posedge clk) begin\n"
     << "    if (host_re && !busy) begin\n"
     << "      o_rd <= omem[host_raddr[" << oa - 1 << ":0]];\n"
     << "      o_sel <= (host_rtensor == 2'd0);\n"
     << "    end\n"
     << "  end\n"
     << "  assign host_rdata = o_sel ? " << zext("o_rd", p.oBits, hd) << " : " << ulit(0, hd)
     << ";\n\n";

  // ROM tables.
  writeRom(os, t.query, "q", cw, unused);
  writeRom(os, t.key, "k", cw, unused);
  writeRom(os, t.value, "v", cw, unused);
  writeRom(os, t.score, "s", cw, unused);
  writeRom(os, t.expo, "e", cw, unused);
  writeRom(os, t.result, "u", cw, unused);
  os << "\n";

  const int64_t W = t.lanes;
  auto ls = [](const std::string& n, int64_t l) { return n + std::to_string(l); };
  // Bits [lo + w - 1 : lo] of lane l of a packed vector of `per`-bit lanes.
  auto slice = [](const std::string& v, int64_t l, int64_t per, int64_t w) {
    return v + "[" + std::to_string(l * per + w - 1) + ":" + std::to_string(l * per) + "]";
  };
  // {x_(W-1), ..., x_0}
  auto packed = [&](const std::function<std::string(int64_t)>& x) {
    std::string s = "{";
    for (int64_t l = W; l-- > 0;)
      s += x(l) + (l ? ", " : "}");
    return s;
  };
  auto go = [&](const std::string& n, const std::string& ph, int64_t items) {
    os << "  wire " << n << " = busy && (phase == " << ph << ") && (cnt < " << ulit(items, cw)
       << ");\n";
  };
  auto keep = [&](const std::string& key) { return "(" + zext(key, jb, jl) + " < kleft)"; };
  // Query and copy passes.
  os << "  // Query and copy: store reads, then the GEMM bank writes (masked keys as 0); " << W
     << " lane(s).\n";
  go("q_go", "PH_Q", qItems);
  go("k_go", "PH_KV", kItems);
  go("v_go", "PH_KV", vItems);
  for (int64_t l = 0; l < W; ++l) {
    const std::string x = std::to_string(l);
    os << "  reg q_go1_" << x << ", k_go1_" << x << ", v_go1_" << x << ", k_keep1_" << x
       << ", v_keep1_" << x << ";\n"
       << "  reg " << range(h1.bankBits) << " q_bank1_" << x << ", k_bank1_" << x << ";\n"
       << "  reg " << range(h1.addressBits) << " q_addr1_" << x << ", k_addr1_" << x << ";\n"
       << "  reg " << range(h2.bankBits) << " v_bank1_" << x << ";\n"
       << "  reg " << range(h2.addressBits) << " v_addr1_" << x << ";\n"
       << "  reg " << range(p.qBits) << " q_data1_" << x << ";\n"
       << "  reg " << range(p.kBits) << " k_data1_" << x << ";\n"
       << "  reg " << range(p.vBits) << " v_data1_" << x << ";\n"
       << "  always @(posedge clk) begin\n"
       << "    q_go1_" << x << " <= q_go && q_v" << x << ";\n"
       << "    q_bank1_" << x << " <= q_bank" << x << ";\n"
       << "    q_addr1_" << x << " <= q_addr" << x << ";\n"
       << "    if (q_go) q_data1_" << x << " <= qmem[qhb + q_off" << x << "];\n"
       << "    k_go1_" << x << " <= k_go && k_v" << x << ";\n"
       << "    k_bank1_" << x << " <= k_bank" << x << ";\n"
       << "    k_addr1_" << x << " <= k_addr" << x << ";\n"
       << "    k_keep1_" << x << " <= " << keep("k_key" + x) << ";\n"
       << "    if (k_go) k_data1_" << x << " <= kmem[khb + kofs + k_off" << x << "];\n"
       << "    v_go1_" << x << " <= v_go && v_v" << x << ";\n"
       << "    v_bank1_" << x << " <= v_bank" << x << ";\n"
       << "    v_addr1_" << x << " <= v_addr" << x << ";\n"
       << "    v_keep1_" << x << " <= " << keep("v_key" + x) << ";\n"
       << "    if (v_go) v_data1_" << x << " <= vmem[vhb + vofs + v_off" << x << "];\n"
       << "  end\n";
  }
  os << "\n";

  // Row max and exp passes read the scores.
  os << "  // Row max and exp: score reads from GEMM 1; exp writes E into GEMM 2 two cycles "
        "later.\n";
  go("s_go", "PH_MAX", sItems);
  go("e_go", "PH_EXP", eItems);
  os << "  reg s_go1, s_start1, s_end1;\n"
     << "  reg " << range(rb) << " s_i1;\n"
     << "  reg e_go1, e_rstart1, e_rend1;\n"
     << "  reg " << range(rb) << " e_i1;\n"
     << "  always @(posedge clk) begin\n"
     << "    s_go1 <= s_go;\n"
     << "    s_i1 <= s_i;\n"
     << "    s_start1 <= s_rs;\n"
     << "    s_end1 <= s_re;\n"
     << "    e_go1 <= e_go;\n"
     << "    e_i1 <= e_i;\n"
     << "    e_rstart1 <= e_rs;\n"
     << "    e_rend1 <= e_re;\n"
     << "  end\n";
  for (int64_t l = 0; l < W; ++l) {
    const std::string x = std::to_string(l);
    os << "  reg s_use1_" << x << ", e_keep1_" << x << ", e_count1_" << x << ", e_v1_" << x
       << ", e_v2_" << x << ";\n"
       << "  reg " << range(h2.bankBits) << " e_ebank1_" << x << ", e_ebank2_" << x << ";\n"
       << "  reg " << range(h2.addressBits) << " e_eaddr1_" << x << ", e_eaddr2_" << x << ";\n"
       << "  always @(posedge clk) begin\n"
       << "    s_use1_" << x << " <= s_v" << x << " && " << keep("s_j" + x) << ";\n"
       << "    e_keep1_" << x << " <= " << keep("e_j" + x) << ";\n"
       << "    e_count1_" << x << " <= e_count" << x << ";\n"
       << "    e_v1_" << x << " <= e_v" << x << ";\n"
       << "    e_ebank1_" << x << " <= e_ebank" << x << ";\n"
       << "    e_eaddr1_" << x << " <= e_eaddr" << x << ";\n"
       << "    e_v2_" << x << " <= e_go1 && e_v1_" << x << ";\n"
       << "    e_ebank2_" << x << " <= e_ebank1_" << x << ";\n"
       << "    e_eaddr2_" << x << " <= e_eaddr1_" << x << ";\n"
       << "  end\n";
  }
  os << "\n";

  // Accumulate pass.
  os << "  // Accumulate: U read from GEMM 2; its row-major index is U_acc's.\n";
  go("u_go", "PH_ACC", uItems);
  for (int64_t l = 0; l < W; ++l) {
    const std::string x = std::to_string(l);
    os << "  reg u_go1_" << x << ";\n"
       << "  reg " << range(rb) << " u_i1_" << x << ";\n"
       << "  reg " << range(eb) << " u_k1_" << x << ";\n"
       << "  always @(posedge clk) begin\n"
       << "    u_go1_" << x << " <= u_go && u_v" << x << ";\n"
       << "    u_i1_" << x << " <= u_i" << x << ";\n"
       << "    u_k1_" << x << " <= u_k" << x << ";\n"
       << "  end\n";
  }
  os << "\n";

  // Normalise.
  os << "  // Normalise, " << N << " lane(s): lane l normalises rows l, l + " << N
     << ", ...; a group's reciprocals every " << period
     << " cycles;\n  // when they are ready, each lane's row outputs, one per cycle.\n"
     << "  reg " << range(nrw) << " n_row;  // the group's first row\n"
     << "  reg " << range(pcw) << " n_col;\n"
     << "  reg " << range(nkw) << " n_k;    // lane 0's element, row-major (U_acc and O)\n"
     << "  reg " << range(nkw) << " n_base; // the next group's first element\n"
     << "  reg " << range(nlw) << " n_left;\n"
     << "  wire n_on = busy && (phase == PH_NORM);\n"
     << "  wire n_start = n_on && (n_col == " << ulit(0, pcw) << ") && (n_row < " << ulit(p.l, nrw)
     << ");\n"
     << "  wire n_ready;\n"
     << "  wire n_valid = (n_left != " << ulit(0, nlw) << ");\n"
     << "  always @(posedge clk) begin\n"
     << "    if (!n_on) begin\n"
     << "      n_row <= " << ulit(0, nrw) << ";\n"
     << "      n_col <= " << ulit(0, pcw) << ";\n"
     << "      n_k <= " << ulit(0, nkw) << ";\n"
     << "      n_base <= " << ulit(0, nkw) << ";\n"
     << "      n_left <= " << ulit(0, nlw) << ";\n"
     << "    end else begin\n"
     << "      if (n_col == " << ulit(period - 1, pcw) << ") begin\n"
     << "        n_col <= " << ulit(0, pcw) << ";\n"
     << "        n_row <= n_row + " << ulit(N, nrw) << ";\n"
     << "      end else begin\n"
     << "        n_col <= n_col + " << ulit(1, pcw) << ";\n"
     << "      end\n"
     << "      if (n_ready) begin\n"
     << "        n_left <= " << ulit(p.dv, nlw) << ";\n"
     << "        n_k <= n_base;\n"
     << "        n_base <= n_base + " << ulit(N * p.dv, nkw) << ";\n"
     << "      end else if (n_valid) begin\n"
     << "        n_left <= n_left - " << ulit(1, nlw) << ";\n"
     << "        n_k <= n_k + " << ulit(1, nkw) << ";\n"
     << "      end\n"
     << "    end\n"
     << "  end\n";
  // Per lane: its row (0 past the last row) and element (0 when not valid), so that the vector
  // unit's memories are never read out of range.
  std::string oWrites;
  for (int64_t n = 0; n < N; ++n) {
    const std::string x = std::to_string(n);
    os << "  wire " << range(nrw) << " n_row" << x << " = n_row + " << ulit(n, nrw) << ";\n"
       << "  wire " << range(rb) << " n_i" << x << " = (n_row" << x << " < " << ulit(p.l, nrw)
       << ") ? n_row" << x << "[" << rb - 1 << ":0] : " << ulit(0, rb) << ";\n"
       << "  wire " << range(nkw) << " n_k" << x << " = n_k + " << ulit(n * p.dv, nkw) << ";\n"
       << "  wire n_v" << x << " = n_valid && (n_k" << x << " < " << ulit(p.l * p.dv, nkw) << ");\n"
       << "  wire " << range(eb) << " n_kv" << x << " = n_v" << x << " ? n_k" << x << "[" << eb - 1
       << ":0] : " << ulit(0, eb) << ";\n"
       << "  reg " << range(oa) << " o_addr1_" << x << ";\n"
       << "  always @(posedge clk) o_addr1_" << x << " <= ohb + " << zext("n_kv" + x, eb, oa)
       << ";\n";
    oWrites += "    if (o_valid[" + x + "]) omem[o_addr1_" + x +
               "] <= " + slice("o_value", n, p.oBits, p.oBits) + ";\n";
    unused.push_back("n_row" + x);
    unused.push_back("n_k" + x);
  }
  os << "  wire " << range(N) << " o_valid;\n"
     << "  wire " << range(N * p.oBits) << " o_value;\n"
     << "  // One process for all lanes: a memory written from several is not synthesisable.\n"
     << "  always @(posedge clk) begin\n"
     << oWrites << "  end\n\n";

  // The GEMM arrays' host ports: W lanes each (one lane: the single design's port).
  auto port = [&](const std::string& g, const HostPort& h) {
    os << "  reg " << range(W) << " " << g << "_we, " << g << "_re;\n"
       << "  reg " << range(W * h.tensorBits) << " " << g << "_wtensor, " << g << "_rtensor;\n"
       << "  reg " << range(W * h.bankBits) << " " << g << "_wbank, " << g << "_rbank;\n"
       << "  reg " << range(W * h.addressBits) << " " << g << "_waddr, " << g << "_raddr;\n"
       << "  reg " << range(W * h.dataBits) << " " << g << "_wdata;\n"
       << "  wire " << range(W * h.dataBits) << " " << g << "_rdata;\n"
       << "  wire " << g << "_busy, " << g << "_done;\n"
       << "  always @(*) begin\n"
       << "    " << g << "_we = " << ulit(0, W) << ";\n"
       << "    " << g << "_wtensor = " << ulit(0, W * h.tensorBits) << ";\n"
       << "    " << g << "_wbank = " << ulit(0, W * h.bankBits) << ";\n"
       << "    " << g << "_waddr = " << ulit(0, W * h.addressBits) << ";\n"
       << "    " << g << "_wdata = " << ulit(0, W * h.dataBits) << ";\n"
       << "    " << g << "_re = " << ulit(0, W) << ";\n"
       << "    " << g << "_rtensor = " << ulit(0, W * h.tensorBits) << ";\n"
       << "    " << g << "_rbank = " << ulit(0, W * h.bankBits) << ";\n"
       << "    " << g << "_raddr = " << ulit(0, W * h.addressBits) << ";\n";
  };
  auto write = [&](const std::string& g, const HostPort& h, int64_t l, const std::string& when,
                   int sel, const std::string& bank, const std::string& addr,
                   const std::string& data) {
    os << "    if (" << when << ") begin\n"
       << "      " << g << "_we[" << l << "] = 1'b1;\n"
       << "      " << slice(g + "_wtensor", l, h.tensorBits, h.tensorBits) << " = "
       << ulit(sel, h.tensorBits) << ";\n"
       << "      " << slice(g + "_wbank", l, h.bankBits, h.bankBits) << " = " << bank << ";\n"
       << "      " << slice(g + "_waddr", l, h.addressBits, h.addressBits) << " = " << addr << ";\n"
       << "      " << slice(g + "_wdata", l, h.dataBits, h.dataBits) << " = " << data << ";\n"
       << "    end\n";
  };
  auto read = [&](const std::string& g, const HostPort& h, int64_t l, const std::string& when,
                  int sel, const std::string& bank, const std::string& addr) {
    os << "    if (" << when << ") begin\n"
       << "      " << g << "_re[" << l << "] = 1'b1;\n"
       << "      " << slice(g + "_rtensor", l, h.tensorBits, h.tensorBits) << " = "
       << ulit(sel, h.tensorBits) << ";\n"
       << "      " << slice(g + "_rbank", l, h.bankBits, h.bankBits) << " = " << bank << ";\n"
       << "      " << slice(g + "_raddr", l, h.addressBits, h.addressBits) << " = " << addr << ";\n"
       << "    end\n";
  };
  auto instance = [&](const std::string& g) {
    os << "  end\n"
       << "  wire " << g << "_start = busy && (phase == PH_" << (g == "g1" ? "G1" : "G2")
       << ") && (cnt == " << ulit(0, cw) << ");\n"
       << "  " << p.name << "_" << g << "_top " << g << " (\n"
       << "    .clk(clk), .rst(rst), .start(" << g << "_start), .busy(" << g << "_busy), .done("
       << g << "_done),\n"
       << "    .host_we(" << g << "_we), .host_wtensor(" << g << "_wtensor), .host_wbank(" << g
       << "_wbank),\n"
       << "    .host_waddr(" << g << "_waddr), .host_wdata(" << g << "_wdata),\n"
       << "    .host_re(" << g << "_re), .host_rtensor(" << g << "_rtensor), .host_rbank(" << g
       << "_rbank),\n"
       << "    .host_raddr(" << g << "_raddr), .host_rdata(" << g << "_rdata));\n\n";
  };
  os << "  // GEMM 1: Q and K written, scores read, through its host port while it is idle.\n";
  port("g1", h1);
  for (int64_t l = 0; l < W; ++l) {
    const std::string x = std::to_string(l);
    write("g1", h1, l, "q_go1_" + x, p.g1Query, "q_bank1_" + x, "q_addr1_" + x,
          zext("q_data1_" + x, p.qBits, h1.dataBits));
    write("g1", h1, l, "k_go1_" + x, p.g1Key, "k_bank1_" + x, "k_addr1_" + x,
          "k_keep1_" + x + " ? " + zext("k_data1_" + x, p.kBits, h1.dataBits) + " : " +
              ulit(0, h1.dataBits));
    read("g1", h1, l, "s_go && s_v" + x, p.g1Score, "s_bank" + x, "s_addr" + x);
    read("g1", h1, l, "e_go && e_v" + x, p.g1Score, "e_sbank" + x, "e_saddr" + x);
  }
  instance("g1");
  os << "  // GEMM 2: V and E written, U read.\n";
  os << "  wire " << range(16 * W) << " exp_e;\n";
  port("g2", h2);
  for (int64_t l = 0; l < W; ++l) {
    const std::string x = std::to_string(l);
    write("g2", h2, l, "v_go1_" + x, p.g2Value, "v_bank1_" + x, "v_addr1_" + x,
          "v_keep1_" + x + " ? " + zext("v_data1_" + x, p.vBits, h2.dataBits) + " : " +
              ulit(0, h2.dataBits));
    write("g2", h2, l, "e_v2_" + x, p.g2Exp, "e_ebank2_" + x, "e_eaddr2_" + x,
          zext(slice("exp_e", l, 16, 16), 16, h2.dataBits));
    read("g2", h2, l, "u_go && u_v" + x, p.g2Result, "u_bank" + x, "u_addr" + x);
  }
  instance("g2");

  // Vector unit.
  const int64_t sb = p.vec.scoreBits, ub = p.vec.resultBits;
  if (h1.dataBits > sb) unused.push_back("g1_rdata");
  if (h2.dataBits > ub) unused.push_back("g2_rdata");
  auto packedN = [&](const std::string& n) { // {n(N-1), ..., n0}
    std::string s = "{";
    for (int64_t l = N; l-- > 0;)
      s += n + std::to_string(l) + (l ? ", " : "}");
    return s;
  };
  auto scores = packed([&](int64_t l) { return slice("g1_rdata", l, h1.dataBits, sb); });
  os << "  // Vector unit: the row state and its arithmetic, " << W << " lane(s).\n"
     << "  " << p.name << "_vector vec (\n"
     << "    .clk(clk), .rst(rst), .first_block(blk == " << ulit(0, bw) << "),\n"
     << "    .max_valid(s_go1), .max_use(" << packed([&](int64_t l) { return ls("s_use1_", l); })
     << "), .max_i(s_i1),\n"
     << "    .max_row_start(s_start1), .max_row_end(s_end1), .max_score(" << scores << "),\n"
     << "    .exp_valid(e_go1), .exp_i(e_i1), .exp_score(" << scores << "),\n"
     << "    .exp_masked(" << packed([&](int64_t l) { return "!" + ls("e_keep1_", l); })
     << "), .exp_count(" << packed([&](int64_t l) { return ls("e_count1_", l); }) << "),\n"
     << "    .exp_row_start(e_rstart1), .exp_row_end(e_rend1), .exp_e(exp_e),\n"
     << "    .acc_valid(" << packed([&](int64_t l) { return ls("u_go1_", l); }) << "), .acc_k("
     << packed([&](int64_t l) { return ls("u_k1_", l); }) << "),\n"
     << "    .acc_i(" << packed([&](int64_t l) { return ls("u_i1_", l); }) << "), .acc_u("
     << packed([&](int64_t l) { return slice("g2_rdata", l, h2.dataBits, ub); }) << "),\n"
     << "    .norm_start(n_start), .norm_i(" << packedN("n_i") << "), .norm_ready(n_ready),\n"
     << "    .norm_valid(" << packedN("n_v") << "), .norm_k(" << packedN("n_kv") << "),\n"
     << "    .o_valid(o_valid), .o_value(o_value));\n\n";

  std::sort(unused.begin(), unused.end());
  unused.erase(std::unique(unused.begin(), unused.end()), unused.end());
  os << "  // Bits that are deliberately unused (named *unused* for the linter).\n"
     << "  wire unused_ok = &{1'b0";
  for (const std::string& u : unused)
    os << ", " << u;
  os << "};\n"
     << "endmodule\n\n`default_nettype wire\n";
  return os.str();
}

} // namespace rubick::emit::detail
