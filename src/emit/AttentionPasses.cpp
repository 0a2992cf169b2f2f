// SPDX-License-Identifier: Apache-2.0
// The attention top's passes: query and copy (stores into the arrays' banks), row max and exp
// (scores to the vector unit, E into GEMM 2), accumulate (U to the vector unit), normalise
// (the vector unit's U_acc / l into the O store).

#include "AttentionTopWriter.h"

#include "VerilogText.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <vector>

namespace rubick::emit::detail {
namespace {

// The memories of split `s` that lane `lane` of `rom` reads: those of its valid rows' offsets
// (at least one: an unused lane reads offset 0).
std::set<int64_t> laneMemories(const Rom& rom, const BufferSplit& s, int64_t lane) {
  size_t v = rom.fields.size(), off = v;
  for (size_t f = 0; f < rom.fields.size(); ++f) {
    if (rom.fields[f].first == "v" + std::to_string(lane)) v = f;
    if (rom.fields[f].first == "off" + std::to_string(lane)) off = f;
  }
  if (v == rom.fields.size() || off == rom.fields.size())
    throw std::logic_error("attention: a copy table without the lane's fields");
  std::set<int64_t> ids;
  for (const auto& row : rom.rows)
    if (row[v]) ids.insert(s.idOf(row[off]));
  if (ids.empty()) ids.insert(s.idOf(0));
  return ids;
}

} // namespace

void TopWriter::copyPasses() {
  // The element lane x of a pass reads: from the store of the whole tensor at the head's and
  // block's offset, or with a memory from the buffer that holds the tile (offsets in the tile).
  // A split store's part x holds the offsets x mod W: lane x reads it at the offset's high bits.
  auto read = [&](const std::string& pass, const std::string& x) -> std::string {
    const std::string off = pass + "_off" + x;
    if (!p.memory) {
      const std::string at = pass == "q"   ? "qhb + " + off
                             : pass == "k" ? "khb + kofs + " + off
                                           : "vhb + vofs + " + off;
      const bool split = pass == "q" ? t.splitQuery : pass == "k" ? t.splitKey : t.splitValue;
      if (!split) return pass + "mem[" + at + "]";
      const int64_t a = pass == "q" ? qa : pass == "k" ? ka : va;
      os << "  wire " << range(a) << " " << pass << "_at" << x << " = " << at << ";\n";
      unused.push_back(pass + "_at" + x + "[" + std::to_string(arch::bitsFor(W) - 1) + ":0]");
      return pass + "mem" + x + "[" + pass + "_at" + x + "[" + std::to_string(a - 1) + ":" +
             std::to_string(arch::bitsFor(W)) + "]]";
    }
    // With a memory: the buffer's memories this lane reaches, read into <pass>_data1_<x>.
    const Rom& rom = pass == "q" ? t.query : pass == "k" ? t.key : t.value;
    const BufferPort& b = pass == "q" ? p.qBuf : pass == "k" ? p.kBuf : p.vBuf;
    const int64_t bits = pass == "q" ? p.qBits : pass == "k" ? p.kBits : p.vBits;
    if (b.bits != bits) throw std::logic_error("attention: a buffer's word is not its element");
    const BufferSplit s = split(b);
    if (fieldBits(rom, "off" + x) > s.indexBits - 1)
      throw std::logic_error("attention: a tile offset wider than its buffer");
    const std::string ix = pass + "_ix" + x;
    os << "  wire " << range(s.indexBits) << " " << ix << " = {" << b.id << "_half, "
       << zext(off, fieldBits(rom, "off" + x), s.indexBits - 1) << "};\n";
    splitRead(s, pass + "_go", ix, laneMemories(rom, s, std::stoll(x)), pass + "_rd1_" + x,
              "wire " + range(bits) + " " + pass + "_data1_" + x);
    return std::string();
  };
  // Query and copy passes.
  os << "  // Query and copy: store reads, then the GEMM bank writes (masked keys as 0); " << W
     << " lane(s).\n";
  go("q_go", "PH_Q", qItems);
  go("k_go", "PH_KV", kItems);
  go("v_go", "PH_KV", vItems);
  for (int64_t l = 0; l < W; ++l) {
    const std::string x = std::to_string(l);
    // First: a split store's read declares its address wire.
    const std::string rq = read("q", x), rk = read("k", x), rv = read("v", x);
    os << "  reg q_go1_" << x << ", k_go1_" << x << ", v_go1_" << x << ", k_keep1_" << x
       << ", v_keep1_" << x << ";\n"
       << "  reg " << range(h1.bankBits) << " q_bank1_" << x << ", k_bank1_" << x << ";\n"
       << "  reg " << range(h1.addressBits) << " q_addr1_" << x << ", k_addr1_" << x << ";\n"
       << "  reg " << range(h2.bankBits) << " v_bank1_" << x << ";\n"
       << "  reg " << range(h2.addressBits) << " v_addr1_" << x << ";\n";
    // Without a memory the data registers are here; with one, after the memories' reads.
    if (!p.memory)
      os << "  reg " << range(p.qBits) << " q_data1_" << x << ";\n"
         << "  reg " << range(p.kBits) << " k_data1_" << x << ";\n"
         << "  reg " << range(p.vBits) << " v_data1_" << x << ";\n";
    os << "  always @(posedge clk) begin\n"
       << "    q_go1_" << x << " <= q_go && q_v" << x << ";\n"
       << "    q_bank1_" << x << " <= q_bank" << x << ";\n"
       << "    q_addr1_" << x << " <= q_addr" << x << ";\n"
       << (p.memory ? "" : "    if (q_go) q_data1_" + x + " <= " + rq + ";\n") << "    k_go1_" << x
       << " <= k_go && k_v" << x << ";\n"
       << "    k_bank1_" << x << " <= k_bank" << x << ";\n"
       << "    k_addr1_" << x << " <= k_addr" << x << ";\n"
       << "    k_keep1_" << x << " <= " << keep("k_key" + x) << ";\n"
       << (p.memory ? "" : "    if (k_go) k_data1_" + x + " <= " + rk + ";\n") << "    v_go1_" << x
       << " <= v_go && v_v" << x << ";\n"
       << "    v_bank1_" << x << " <= v_bank" << x << ";\n"
       << "    v_addr1_" << x << " <= v_addr" << x << ";\n"
       << "    v_keep1_" << x << " <= " << keep("v_key" + x) << ";\n"
       << (p.memory ? "" : "    if (v_go) v_data1_" + x + " <= " + rv + ";\n") << "  end\n";
  }
  os << "\n";
}

void TopWriter::scorePasses() {
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
}

void TopWriter::accumulatePass() {
  // Accumulate pass.
  os << "  // Accumulate: U read from GEMM 2; its row-major index is U_acc's.\n";
  go("u_go", "PH_ACC", uItems);
  for (int64_t l = 0; l < W; ++l) {
    const std::string x = std::to_string(l);
    os << "  reg u_go1_" << x << ";\n"
       << "  reg " << range(rb) << " u_i1_" << x << ";\n"
       << "  reg " << range(kb) << " u_k1_" << x << ";\n"
       << "  always @(posedge clk) begin\n"
       << "    u_go1_" << x << " <= u_go && u_v" << x << ";\n"
       << "    u_i1_" << x << " <= u_i" << x << ";\n"
       << "    u_k1_" << x << " <= u_k" << x << ";\n"
       << "  end\n";
  }
  os << "\n";
}

void TopWriter::normalisePass() {
  // Normalise.
  os << "  // Normalise, " << N << " lane(s): lane l normalises rows l, l + " << N
     << ", ...; a group's reciprocals every " << period
     << " cycles;\n  // when they are ready, each lane's row outputs, one per cycle.\n"
     << "  reg " << range(nrw) << " n_row;  // the group's first row\n"
     << "  reg " << range(pcw) << " n_col;\n"
     << "  reg " << range(nkw) << " n_k;    // lane 0's element, row-major (U_acc and O)\n"
     << "  reg " << range(nkw) << " n_base; // the next group's first element\n"
     << "  reg " << range(npw) << " n_pk;   // every lane's word in its U_acc part\n"
     << "  reg " << range(npw) << " n_pbase;\n"
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
     << "      n_pk <= " << ulit(0, npw) << ";\n"
     << "      n_pbase <= " << ulit(0, npw) << ";\n"
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
     << "        n_pk <= n_pbase;\n"
     << "        n_pbase <= n_pbase + " << ulit(p.dv, npw) << ";\n"
     << "      end else if (n_valid) begin\n"
     << "        n_left <= n_left - " << ulit(1, nlw) << ";\n"
     << "        n_k <= n_k + " << ulit(1, nkw) << ";\n"
     << "        n_pk <= n_pk + " << ulit(1, npw) << ";\n"
     << "      end\n"
     << "    end\n"
     << "  end\n";
  // Per lane: its row (0 past the last row) and element (0 when not valid), so that the vector
  // unit's memories are never read out of range. O goes to the store at the head's offset, or
  // with a memory to the half of O's buffer the pipeline owns.
  // A split O store's part n is written by lane n at the head's part offset plus the lane's
  // word in its U_acc part (the same rows).
  const int64_t oab = p.memory ? bufferIndexBits(p.oBuf) : splitO ? opw : oa;
  auto oMem = [&](const std::string& x) { return splitO ? "omem" + x : "omem"; };
  // With a memory, lane n writes the memories of O's split that hold its rows (its part).
  const BufferSplit oSplit = p.memory ? split(p.oBuf) : BufferSplit{};
  auto oLane = [&](int64_t n) {
    std::set<int64_t> ids;
    for (int64_t k = 0; k < oSplit.memories(); ++k)
      if (!oSplit.partBits || (k >> oSplit.bankBits) == n % (int64_t(1) << oSplit.partBits))
        ids.insert(k);
    return ids;
  };
  // The lanes of a group write elements row * Dv + t of their rows in the same cycle t: when no
  // two of them ever reach the same memory, a memory several lanes reach needs one write port.
  bool oExclusive = true;
  for (int64_t row0 = 0; p.memory && row0 < p.l; row0 += N)
    for (int64_t t = 0; t < p.dv; ++t) {
      std::set<int64_t> seen;
      for (int64_t row = row0; row < std::min(p.l, row0 + N); ++row)
        if (!seen.insert(oSplit.idOf(row * p.dv + t)).second) oExclusive = false;
    }
  auto oIndex = [&](const std::string& x) {
    const std::string k = "n_kv" + x;
    if (p.memory) return "{" + p.oBuf.id + "_half, " + zext(k, eb, oab - 1) + "}";
    if (splitO)
      return "ohb[" + std::to_string(oa - 1) + ":" + std::to_string(onb) + "] + " +
             zext("n_pkv" + x, kb, opw);
    return "ohb + " + zext(k, eb, oa);
  };
  std::string oWrites;
  std::vector<BufferWriter> oWriters;
  for (int64_t n = 0; n < N; ++n) {
    const std::string x = std::to_string(n);
    os << "  wire " << range(nrw) << " n_row" << x << " = n_row + " << ulit(n, nrw) << ";\n"
       << "  wire " << range(rb) << " n_i" << x << " = (n_row" << x << " < " << ulit(p.l, nrw)
       << ") ? n_row" << x << "[" << rb - 1 << ":0] : " << ulit(0, rb) << ";\n"
       << "  wire " << range(nkw) << " n_k" << x << " = n_k + " << ulit(n * p.dv, nkw) << ";\n"
       << "  wire n_v" << x << " = n_valid && (n_k" << x << " < " << ulit(p.l * p.dv, nkw) << ");\n"
       << (splitO ? ""
                  : "  wire " + range(eb) + " n_kv" + x + " = n_v" + x + " ? n_k" + x + "[" +
                        std::to_string(eb - 1) + ":0] : " + ulit(0, eb) + ";\n")
       << "  wire " << range(kb) << " n_pkv" << x << " = n_v" << x << " ? n_pk[" << kb - 1
       << ":0] : " << ulit(0, kb) << ";\n"
       << "  reg " << range(oab) << " o_addr1_" << x << ";\n"
       << "  always @(posedge clk) o_addr1_" << x << " <= " << oIndex(x) << ";\n";
    const std::string value = slice("o_value", n, p.oBits, p.oBits);
    if (p.memory)
      oWriters.push_back({"o_valid[" + x + "]", "o_addr1_" + x, value, oLane(n)});
    else
      oWrites +=
          "    if (o_valid[" + x + "]) " + oMem(x) + "[o_addr1_" + x + "] <= " + value + ";\n";
    unused.push_back("n_row" + x);
    unused.push_back("n_k" + x);
  }
  os << "  wire " << range(N) << " o_valid;\n"
     << "  wire " << range(N * p.oBits) << " o_value;\n";
  if (p.memory) {
    splitWrites(oSplit, oWriters, oExclusive);
    os << "\n";
    return;
  }
  os << "  // One process for all lanes: a memory written from several is not synthesisable.\n"
     << "  always @(posedge clk) begin\n"
     << oWrites << "  end\n\n";
}

} // namespace rubick::emit::detail
