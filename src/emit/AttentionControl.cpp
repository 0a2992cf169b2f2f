// SPDX-License-Identifier: Apache-2.0
// The attention top's control and storage: the sequencer of fixed-length phases, the Q, K, V
// and O stores with the host port, and the ROM tables of the passes' lane schedules.

#include "AttentionTopWriter.h"

#include "VerilogText.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace rubick::emit::detail {
namespace {

// The rows of `rom` as an initialised memory, read into <prefix>_row at cnt (a cycle ahead, at
// cnt_next), and one wire per field.
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
  // Read at the next cycle's cnt into a register, so that synthesis can put the table in a
  // block RAM (an asynchronous read of a table is logic).
  os << "  end\n"
     << "  reg " << range(w) << " " << prefix << "_row;\n"
     << "  always @(posedge clk) " << prefix << "_row <= " << rom.name << "[cnt_next[" << rw - 1
     << ":0]];\n";
  int64_t hi = w;
  for (const auto& [name, fw] : rom.fields) {
    os << "  wire " << range(fw) << " " << prefix << "_" << name << " = " << prefix << "_row["
       << hi - 1 << ":" << hi - fw << "];\n";
    hi -= fw;
  }
  if (rw < cntBits) unused.push_back("cnt_next");
}

std::string modLit(int64_t v, int64_t w) {
  return ulit(w >= 62 ? v : v % (int64_t(1) << w), w);
}

} // namespace

void TopWriter::sequencer() {
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
     << "  // The ROM tables are read a cycle ahead, at cnt_next.\n"
     << "  wire " << range(cw) << " cnt_next = (!busy || last) ? " << ulit(0, cw) << " : cnt + "
     << ulit(1, cw) << ";\n"
     << "  always @(posedge clk) cnt <= cnt_next;\n"
     << "  always @(posedge clk) begin\n"
     << "    if (!busy) begin\n"
     << "      phase <= PH_Q;\n"
     << "      head <= " << ulit(0, hw) << ";\n"
     << "      blk <= " << ulit(0, bw) << ";\n"
     << "      qhb <= " << ulit(0, qa) << ";\n"
     << "      khb <= " << ulit(0, ka) << ";\n"
     << "      kofs <= " << ulit(0, ka) << ";\n"
     << "      vhb <= " << ulit(0, va) << ";\n"
     << "      vofs <= " << ulit(0, va) << ";\n"
     << "      ohb <= " << ulit(0, oa) << ";\n"
     << "      kleft <= " << ulit(p.s, jl) << ";\n"
     << "    end else if (last) begin\n";
  std::ostringstream next, norm;
  next << "            kofs <= kofs + " << modLit(t.keyStep, ka) << ";\n"
       << "            vofs <= vofs + " << modLit(t.valueStep, va) << ";\n";
  norm << " // PH_NORM: the next head\n"
       << "          phase <= PH_Q;\n"
       << "          head <= head + " << ulit(1, hw) << ";\n"
       << "          blk <= " << ulit(0, bw) << ";\n"
       << "          kofs <= " << ulit(0, ka) << ";\n"
       << "          vofs <= " << ulit(0, va) << ";\n"
       << "          kleft <= " << ulit(p.s, jl) << ";\n"
       << "          qhb <= qhb + " << modLit(p.qSize / p.heads, qa) << ";\n"
       << "          khb <= khb + " << modLit(p.kSize / p.heads, ka) << ";\n"
       << "          vhb <= vhb + " << modLit(p.vSize / p.heads, va) << ";\n"
       << "          ohb <= ohb + " << modLit(p.oSize / p.heads, oa) << ";\n";
  phaseChain(next.str(), norm.str());
  os << "    end\n"
     << "  end\n\n";
}

void TopWriter::phaseChain(const std::string& nextBlock, const std::string& afterNorm) {
  os << "      case (phase)\n"
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
     << nextBlock << "            kleft <= kleft - " << ulit(p.blockKeys, jl) << ";\n"
     << "          end\n"
     << "        end\n"
     << "        default: begin" << afterNorm << "        end\n"
     << "      endcase\n";
}

void TopWriter::stores() {
  // Stores and the host port. A split store is W parts, part l holding the words at offsets
  // l mod W (AttentionTables::splitQuery): the host writes the part its address's low bits name.
  os << "  // Stores, row-major as the program declares the tensors (all heads).\n"
     << "  wire host_write = host_we && !busy;\n";
  auto store = [&](const std::string& mem, bool split, int64_t bits, int64_t size, int64_t a,
                   int tensor) {
    const std::string we = "host_write && (host_wtensor == 2'd" + std::to_string(tensor) + ")";
    const std::string data = "host_wdata[" + std::to_string(bits - 1) + ":0]";
    if (!split) {
      os << "  reg " << range(bits) << " " << mem << " [0:" << size - 1 << "];\n"
         << "  always @(posedge clk)\n"
         << "    if (" << we << ") " << mem << "[host_waddr[" << a - 1 << ":0]] <= " << data
         << ";\n";
      return;
    }
    const int64_t s = arch::bitsFor(W);
    os << "  // " << mem << " in " << W << " parts by offset mod " << W << ".\n";
    for (int64_t l = 0; l < W; ++l)
      os << "  reg " << range(bits) << " " << mem << l << " [0:" << size / W - 1 << "];\n"
         << "  always @(posedge clk)\n"
         << "    if (" << we << " && (host_waddr[" << s - 1 << ":0] == " << ulit(l, s) << ")) "
         << mem << l << "[host_waddr[" << a - 1 << ":" << s << "]] <= " << data << ";\n";
  };
  store("qmem", t.splitQuery, p.qBits, p.qSize, qa, 1);
  store("kmem", t.splitKey, p.kBits, p.kSize, ka, 2);
  store("vmem", t.splitValue, p.vBits, p.vSize, va, 3);
  // O: element a (row a / Dv of all heads' rows) in part row mod N at word
  // (row / N) x Dv + a mod Dv, when split (TopWriter::splitO).
  std::string oRead = "      o_rd <= omem[host_raddr[" + std::to_string(oa - 1) + ":0]];\n";
  if (!splitO) {
    os << "  reg " << range(p.oBits) << " omem [0:" << p.oSize - 1 << "];\n";
  } else {
    os << "  // omem in " << N << " parts by row mod " << N << ".\n";
    for (int64_t n = 0; n < N; ++n)
      os << "  reg " << range(p.oBits) << " omem" << n << " [0:" << p.oSize / N - 1 << "];\n";
    std::string word = "{";
    if (oa > odb + onb)
      word += "host_raddr[" + std::to_string(oa - 1) + ":" + std::to_string(odb + onb) + "]";
    if (odb > 0)
      word += std::string(word.size() > 1 ? ", " : "") + "host_raddr[" + std::to_string(odb - 1) +
              ":0]";
    os << "  wire " << range(onb) << " o_rpart = host_raddr[" << odb + onb - 1 << ":" << odb
       << "];\n"
       << "  wire " << range(opw) << " o_rword = " << word << "};\n";
    oRead = "      case (o_rpart)\n";
    for (int64_t n = 0; n < N; ++n)
      oRead += "        " + ulit(n, onb) + ": o_rd <= omem" + std::to_string(n) + "[o_rword];\n";
    oRead += "      endcase\n";
  }
  os << "  // Host reads: O only; the word arrives the cycle after host_re.\n"
     << "  reg " << range(p.oBits) << " o_rd;\n"
     << "  reg o_sel;\n"
     << "  always @(posedge clk) begin\n"
     << "    if (host_re && !busy) begin\n"
     << oRead << "      o_sel <= (host_rtensor == 2'd0);\n"
     << "    end\n"
     << "  end\n"
     << "  assign host_rdata = o_sel ? " << zext("o_rd", p.oBits, hd) << " : " << ulit(0, hd)
     << ";\n\n";
}

void TopWriter::roms() {
  // ROM tables.
  writeRom(os, t.query, "q", cw, unused);
  writeRom(os, t.key, "k", cw, unused);
  writeRom(os, t.value, "v", cw, unused);
  writeRom(os, t.score, "s", cw, unused);
  writeRom(os, t.expo, "e", cw, unused);
  writeRom(os, t.result, "u", cw, unused);
  os << "\n";
}

} // namespace rubick::emit::detail
