// SPDX-License-Identifier: Apache-2.0
// End-to-end test of a PIM stream unit's read path (tb_rubick_pim_chain.v): the AiM-like
// rubick_bank_stream reads a region out of the bank model of sim_templates/rubick_pim_bank.h,
// rubick_stream_port hands its int8 words to a toy core's 16 ports by a fixed pattern of need
// masks, and the core runs on rubick_clock_gate's clock, stopped while its words are missing.
// Each run (random region start, random core length, starts back to back or after a gap):
//  - the core's sum after every one of its edges is the sum of the words it read at the edges
//    before, taken from the banks' contents in the region's order (signed int8, 32 bits);
//  - gclk has an edge exactly at the clk edges where go (or rst) was high, and the core's edge
//    counter equals their number; the core takes core_len read cycles, whatever the stops;
//  - need follows the pattern of the core's cycle; go is low only while the port lacks words;
//  - the bank model sees no timing or protocol violation, the reader finishes every run.
#include "Vtb_rubick_pim_chain.h"
#include "rtl_test.h"
#include "rubick_pim_bank.h"

#include <memory>
#include <string>
#include <vector>

namespace {

using Vtb = Vtb_rubick_pim_chain;
using rubick_sim::PimBankConfig;
using rubick_sim::PimBanks;
const char* kTest = "test_rubick_pim_chain";

// Must match tb_rubick_pim_chain.v.
constexpr unsigned kNP = 16, kWords = 32, kRowCols = 64, kRows = 1024;
const uint16_t kPattern[8] = {0xffff, 0xffff, 0x00ff, 0x8001, 0x0000, 0xffff, 0x0f0f, 0xfffe};

int popcount(uint64_t x) {
  int n = 0;
  for (; x; x &= x - 1)
    ++n;
  return n;
}

struct Bench {
  Vtb& m;
  PimBanks& banks;
  long cycle = 0;
  long gatedEdges = 0; // counted here: clk edges with go | rst high
  long stops = 0;

  // One clk cycle with the bank model in the loop; returns whether the edge was a gated one.
  bool step() {
    m.clk = 0;
    m.eval();
    if (m.row_valid) {
      if (m.row_act)
        banks.activate(m.row_bank, m.row_addr);
      else
        banks.precharge(m.row_bank);
    }
    if (m.col_valid) banks.read(m.col_bank, m.col_addr);
    m.rd_valid = banks.dataValid();
    const std::vector<uint8_t>& d = banks.data();
    rtl::Value v(256);
    for (unsigned i = 0; i < 32; ++i)
      v.chunk[i / 8] |= uint64_t(d[i]) << (8 * (i % 8));
    rtl::put(m.rd_data, v);
    m.eval();
    const bool gated = m.go || m.rst;
    if (!m.go) ++stops;
    m.clk = 1;
    m.eval();
    banks.tick();
    if (banks.violationCount()) rtl::fail(kTest, cycle, "bank model: " + banks.violations()[0]);
    if (bool(m.gclk) != gated)
      rtl::fail(kTest, cycle, rtl::mismatch("gclk after the edge", m.gclk, gated));
    gatedEdges += gated;
    ++cycle;
    return gated;
  }
};

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(2029);
  PimBankConfig pc;
  pc.banks = 1;
  pc.rows = kRows;
  pc.rowCols = kRowCols;
  pc.colBytes = 32;
  pc.tRCD = 18;
  pc.tRP = 18;
  pc.tRAS = 35;
  pc.CL = 14;
  PimBanks banks(pc);
  for (uint64_t r = 0; r < kRows; ++r)
    for (unsigned c = 0; c < kRowCols; ++c)
      for (unsigned i = 0; i < 32; ++i)
        banks.column(0, r, c)[i] = uint8_t(rng.bits(8));
  Bench b{m, banks};

  m.rst = 1;
  m.start = 0;
  for (int i = 0; i < 3; ++i)
    b.step();
  m.rst = 0;
  const long edges0 = b.gatedEdges;
  const uint32_t coreEdges0 = m.core_edges;

  long runs = 0, coreCycles = 0, clkCycles = 0, stops = 0, words = 0;
  for (int run = 0; run < 60; ++run) {
    // The run: core_len core cycles of the pattern, the columns holding their words.
    const uint32_t coreLen = uint32_t(rng.chance(0.1) ? rng.range(0, 8) : rng.range(1, 3000));
    long need = 0;
    for (uint32_t t = 0; t < coreLen; ++t)
      need += popcount(kPattern[t % 8]);
    const uint64_t cols = (uint64_t(need) + kWords - 1) / kWords;
    const uint64_t space = kRows * kRowCols;
    const uint64_t lin = uint64_t(rng.range(0, int(space - cols)));
    std::vector<int8_t> stream; // the region's words in order
    for (uint64_t k = 0; k < cols; ++k) {
      const uint64_t a = lin + k;
      const uint8_t* col = banks.column(0, a / kRowCols, unsigned(a % kRowCols));
      for (unsigned i = 0; i < kWords; ++i)
        stream.push_back(int8_t(col[i]));
    }
    m.start = 1;
    m.start_row = uint32_t(lin / kRowCols);
    m.start_col = uint32_t(lin % kRowCols);
    m.start_len = uint32_t(cols);
    m.core_len = coreLen;
    const long runStart = b.cycle, stops0 = b.stops;
    if (!b.step()) rtl::fail(kTest, b.cycle, "the idle core's clock did not run at start");
    m.start = 0;
    size_t next = 0;        // next word of the stream to read
    int32_t expectSum = 0;  // the core's sum after its next edge
    int32_t pendingAdd = 0; // the words read at the core's last edge
    long readCycles = 0, endAt = -1;
    const long limit = b.cycle + 20 * long(coreLen) + 10'000;
    while (m.core_running || m.stream_busy) {
      if (b.cycle > limit) rtl::fail(kTest, b.cycle, "run " + std::to_string(run) + " hangs");
      m.clk = 0;
      m.eval();
      const uint16_t needNow = m.need;
      const bool running = m.core_running;
      const uint32_t t = m.core_t;
      if (running && needNow != kPattern[t % 8])
        rtl::fail(kTest, b.cycle, rtl::mismatch("need", needNow, kPattern[t % 8]));
      if (!running && needNow) rtl::fail(kTest, b.cycle, "need while the core is idle");
      const long edgesBefore = b.gatedEdges;
      const uint32_t coreEdgesBefore = m.core_edges;
      const bool gated = b.step();
      if (long(m.core_edges - coreEdgesBefore) != b.gatedEdges - edgesBefore)
        rtl::fail(kTest, b.cycle, "the core's edge counter moved without a gated edge");
      if (!gated) continue;
      if (running) ++readCycles;
      expectSum += pendingAdd;
      pendingAdd = 0;
      for (unsigned p = 0; p < kNP; ++p)
        if ((needNow >> p) & 1) {
          if (next >= stream.size()) rtl::fail(kTest, b.cycle, "read past the region");
          pendingAdd += stream[next++];
        }
      if (int32_t(m.core_sum) != expectSum)
        rtl::fail(kTest, b.cycle,
                  rtl::mismatch("core_sum", int64_t(int32_t(m.core_sum)), int64_t(expectSum)));
      if (running && !m.core_running) endAt = b.cycle;
    }
    // One more core edge adds the last reads (the idle core's clock runs).
    b.step();
    expectSum += pendingAdd;
    if (int32_t(m.core_sum) != expectSum)
      rtl::fail(kTest, b.cycle,
                rtl::mismatch("final core_sum", int64_t(int32_t(m.core_sum)), int64_t(expectSum)));
    if (long(next) != need || readCycles != long(coreLen) || m.core_t != coreLen)
      rtl::fail(kTest, b.cycle,
                "run " + std::to_string(run) + ": " + std::to_string(next) + " words in " +
                    std::to_string(readCycles) + " core cycles, expected " + std::to_string(need) +
                    " in " + std::to_string(coreLen));
    if (!banks.allClosed()) rtl::fail(kTest, b.cycle, "a bank left open after the run");
    ++runs;
    coreCycles += coreLen;
    words += need;
    stops += b.stops - stops0;
    if (endAt >= 0) clkCycles += endAt - runStart;
    if (run % 20 == 0)
      std::printf("%s: run %d: %u core cycles, %ld words (%llu columns from row %llu col %llu), "
                  "core done %ld cycles after start, %ld stopped\n",
                  kTest, run, coreLen, need, static_cast<unsigned long long>(cols),
                  static_cast<unsigned long long>(lin / kRowCols),
                  static_cast<unsigned long long>(lin % kRowCols), endAt - runStart,
                  b.stops - stops0);
    // Back to back (the next start in the next cycle) or after a gap.
    for (int g = rng.range(0, 1) ? rng.range(1, 40) : 0; g > 0; --g)
      b.step();
  }
  if (long(m.core_edges - coreEdges0) != b.gatedEdges - edges0)
    rtl::fail(kTest, b.cycle,
              rtl::mismatch("core edges", int64_t(m.core_edges - coreEdges0),
                            int64_t(b.gatedEdges - edges0)));
  std::printf("%s: OK (%ld runs, %ld words, %ld core read cycles in %ld clk cycles, %ld "
              "stopped; %ld gated edges of %ld)\n",
              kTest, runs, words, coreCycles, clkCycles, stops, b.gatedEdges - edges0, b.cycle);
  return 0;
}
