// SPDX-License-Identifier: Apache-2.0
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

#include "AttentionTopWriter.h"

#include "VerilogText.h"

#include "rubick/attn/LaneSchedule.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace rubick::emit::detail {

// `v` (w bits) zero-extended to `to` bits.
std::string zext(const std::string& v, int64_t w, int64_t to) {
  if (w == to) return v;
  return "{" + std::to_string(to - w) + "'d0, " + v + "}";
}

TopWriter::TopWriter(const TopParams& p, const AttentionTables& t, std::ostream& os)
    : p(p), t(t), os(os), tm(p.timing), h1(p.g1), h2(p.g2) {
  qItems = int64_t(t.query.rows.size());
  kItems = int64_t(t.key.rows.size());
  vItems = int64_t(t.value.rows.size());
  sItems = int64_t(t.score.rows.size());
  eItems = int64_t(t.expo.rows.size());
  uItems = int64_t(t.result.rows.size());
  W = t.lanes;
  // A divider per normalise lane: a group of N rows starts its reciprocals every `period`
  // cycles; each result is held while its row's Dv outputs use it.
  N = attn::normaliseLanes(W, p.l);
  const int64_t groups = (p.l + N - 1) / N;
  period = std::max(attn::kRecipCycles, p.dv);
  // The model the explorer ranks by must be this hardware, phase by phase.
  if (tm.query != qItems + 1 || tm.copy != std::max(kItems, vItems) + 1 ||
      tm.rowMax != sItems + 2 || tm.exp != eItems + 3 || tm.accumulate != uItems + 2 ||
      tm.normalise != (groups - 1) * period + attn::kRecipCycles + 2 + p.dv)
    throw std::logic_error("attention: the pipeline timing model differs from the hardware");
  lens = {tm.query, tm.copy, tm.gemm1, tm.rowMax, tm.exp, tm.gemm2, tm.accumulate, tm.normalise};
  cw = arch::bitsFor(*std::max_element(lens.begin(), lens.end()) + 1);
  qa = arch::bitsFor(p.qSize);
  ka = arch::bitsFor(p.kSize);
  va = arch::bitsFor(p.vSize);
  oa = arch::bitsFor(p.oSize);
  ha = std::max({qa, ka, va, oa});
  hd = std::max({p.qBits, p.kBits, p.vBits, p.oBits});
  hw = arch::bitsFor(p.heads);
  bw = arch::bitsFor(p.blocks);
  jb = arch::bitsFor(p.blockKeys);
  jl = arch::bitsFor(p.s + 1);
  rb = p.vec.rowBits;
  eb = p.vec.elemBits;
  pcw = arch::bitsFor(period);
  // n_row steps by N once a period until the phase ends: at most L + 2N, lanes add N - 1;
  // n_k (lane 0's element) and the lanes' elements stay below (L + 2N) x Dv.
  nrw = arch::bitsFor(p.l + 3 * N + 1);
  nlw = arch::bitsFor(p.dv + 1);
  nkw = arch::bitsFor((p.l + 2 * N) * p.dv + 1);
  // A U_acc part's word (attn::accPartWords); its counter n_pk stays below (L / N + 3) x Dv.
  kb = arch::bitsFor(attn::accPartWords(p.l, p.dv, N));
  npw = arch::bitsFor(((p.l + N - 1) / N + 3) * p.dv + 1);
  auto log2 = [](int64_t x) { return x & (x - 1) ? -1 : arch::bitsFor(x) - (x == 1); };
  onb = log2(N);
  odb = log2(p.dv);
  opw = oa - onb;
  splitO = !p.memory && N >= 2 && onb > 0 && odb >= 0 && p.l % N == 0 && p.oSize / N >= 2 &&
           arch::bitsFor(p.oSize / N) == opw && kb <= opw;
  unused = {"g1_busy", "g1_done", "g2_busy", "g2_done"};
  if (!p.memory)
    unused.insert(unused.end(), {"host_wbank", "host_rbank", "host_raddr", "host_wdata"});
}

std::string TopWriter::slice(const std::string& v, int64_t l, int64_t per, int64_t w) {
  return v + "[" + std::to_string(l * per + w - 1) + ":" + std::to_string(l * per) + "]";
}

std::string TopWriter::packed(const std::function<std::string(int64_t)>& x) const {
  std::string s = "{";
  for (int64_t l = W; l-- > 0;)
    s += x(l) + (l ? ", " : "}");
  return s;
}

void TopWriter::go(const std::string& n, const std::string& ph, int64_t items) {
  os << "  wire " << n << " = busy && (phase == " << ph << ") && (cnt < " << ulit(items, cw)
     << ");\n";
}

std::string TopWriter::keep(const std::string& key) const {
  return "(" + zext(key, jb, jl) + " < kleft)";
}

void TopWriter::moduleHeader() {
  os << generatedBanner() << "// Fused attention pipeline " << p.name << ": " << p.heads
     << " head(s), L=" << p.l << " S=" << p.s << " Dv=" << p.dv << ", " << p.blocks
     << " key block(s) of " << p.blockKeys << ".\n"
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
}

void TopWriter::finish() {
  std::sort(unused.begin(), unused.end());
  unused.erase(std::unique(unused.begin(), unused.end()), unused.end());
  os << "  // Bits that are deliberately unused (named *unused* for the linter).\n"
     << "  wire unused_ok = &{1'b0";
  for (const std::string& u : unused)
    os << ", " << u;
  os << "};\n"
     << "endmodule\n\n`default_nettype wire\n";
}

std::string attentionTop(const TopParams& p, const AttentionTables& t) {
  std::ostringstream os;
  TopWriter w(p, t, os);
  if (p.memory) {
    w.coreHeader();
    w.coreSequencer();
    w.buffers();
  } else {
    w.moduleHeader();
    w.sequencer();
    w.stores();
  }
  w.roms();
  w.copyPasses();
  w.scorePasses();
  w.accumulatePass();
  w.normalisePass();
  w.gemmPorts();
  w.vectorUnit();
  w.finish();
  return os.str();
}

} // namespace rubick::emit::detail
