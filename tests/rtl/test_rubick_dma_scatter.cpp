// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_dma_scatter.v with the DMA maps of real designs
// (tests/rtl/dma_maps.h, tb_rubick_dma_scatter.v):
//  1. the tables and shape compiled into each instance are what rubick derives today;
//  2. every group of the tile, driven in order with random data, random gaps and either half:
//     the writes of the cycle after each group are exactly the places of its elements in the
//     host map (every copy, in the chosen half, with the element's value; lanes past the edge
//     and every other bank write nothing); done pulses two cycles after the last group; and in
//     the end the banks hold every element at every place and the other half is untouched.
#include "Vtb_rubick_dma_scatter.h"
#include "dma_maps.h"
#include "rtl_test.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace {

using Vtb = Vtb_rubick_dma_scatter;
const char* kTest = "test_rubick_dma_scatter";

struct Ports {
  std::function<void(Vtb&, bool, bool, bool, const std::vector<uint64_t>&, uint64_t)> drive;
  std::function<bool(Vtb&)> busy, done, inReady;
  std::function<uint64_t(Vtb&, int, int)> we, addr, data, cellBank, cellAddr, shape;
};

#define SC_PORTS(P)                                                                                \
  Ports {                                                                                          \
    [](Vtb& m, bool start, bool half, bool valid, const std::vector<uint64_t>& lanes,              \
       uint64_t mask) {                                                                            \
      m.P##_start = start;                                                                         \
      m.P##_half = half;                                                                           \
      m.P##_in_valid = valid;                                                                      \
      for (size_t l = 0; l < lanes.size(); ++l)                                                    \
        rtl::setBits(m.P##_in_data, int(8 * l), 8, lanes[l]);                                      \
      m.P##_in_mask = mask;                                                                        \
    },                                                                                             \
        [](Vtb& m) -> bool { return m.P##_busy; }, [](Vtb& m) -> bool { return m.P##_done; },      \
        [](Vtb& m) -> bool { return m.P##_in_ready; },                                             \
        [](Vtb& m, int lo, int w) { return rtl::getBits(m.P##_bank_we, lo, w); },                  \
        [](Vtb& m, int lo, int w) { return rtl::getBits(m.P##_bank_addr, lo, w); },                \
        [](Vtb& m, int lo, int w) { return rtl::getBits(m.P##_bank_data, lo, w); },                \
        [](Vtb& m, int lo, int w) { return rtl::getBits(m.P##_cell_bank, lo, w); },                \
        [](Vtb& m, int lo, int w) { return rtl::getBits(m.P##_cell_addr, lo, w); },                \
        [](Vtb& m, int lo, int w) { return rtl::getBits(m.P##_shape, lo, w); }                     \
  }

int bitsFor(int64_t n) { // clog2
  int b = 0;
  while ((int64_t(1) << b) < n)
    ++b;
  return b;
}

// 1. The parameters on the instance's ports against the fresh derivation.
void checkTables(Vtb& m, const Ports& io, const dma::MapCase& c) {
  const rubick::arch::DmaMap& d = c.map;
  const std::string who = c.name + " (" + c.what + "): ";
  const int64_t want[] = {d.lanes,     d.copies,  c.banks,   c.addressBits, d.rowPeriod,
                          d.colPeriod, d.rowStep, d.colStep, d.groupRows(), d.groupCols()};
  const char* names[] = {"LANES",      "COPIES",   "BANKS",    "ADDR_BITS",  "ROW_PERIOD",
                         "COL_PERIOD", "ROW_STEP", "COL_STEP", "GROUP_ROWS", "GROUP_COLS"};
  for (int i = 0; i < 10; ++i) {
    const int64_t got = rtl::sext(io.shape(m, 32 * i, 32), 32);
    if (got != want[i])
      rtl::fail(kTest, 0,
                who + rtl::mismatch(std::string(names[i]) + " in the test top", got, want[i]) +
                    " (regenerate the top)");
  }
  const int bw = bitsFor(c.banks + 1), aw = int(c.addressBits);
  int k = 0;
  for (const auto& phase : d.cells)
    for (const rubick::arch::Location& l : phase) {
      const uint64_t bank = l.bank < 0 ? rtl::mask(bw) : uint64_t(l.bank);
      const uint64_t addr = uint64_t(l.address) & rtl::mask(aw);
      if (io.cellBank(m, k * bw, bw) != bank || io.cellAddr(m, k * aw, aw) != addr)
        rtl::fail(kTest, 0,
                  who + "cell " + std::to_string(k) + " of the test top differs from " +
                      "the derived map (regenerate the top)");
      ++k;
    }
}

using Write = std::tuple<int, uint64_t, uint64_t>; // bank, address with the half, data

// 2. One tile through the scatter.
void runTile(Vtb& m, const Ports& io, const dma::MapCase& c, rtl::Rng& rng, bool half,
             double pValid, long& cycle) {
  const rubick::arch::DmaMap& d = c.map;
  const std::string who = c.name + " (half " + std::to_string(half) + "): ";
  const int aw = int(c.addressBits);
  const uint64_t words = uint64_t(1) << (aw + 1);
  // Banks: [bank][half:address], random contents to start with.
  std::vector<std::vector<uint64_t>> banks(size_t(c.banks), std::vector<uint64_t>(words)), before;
  for (auto& b : banks)
    for (auto& w : b)
      w = rng.bits(8);
  before = banks;
  std::vector<uint64_t> value(c.host.elements.size());
  for (auto& v : value)
    v = rng.bits(8);

  const int64_t groups = d.groupRows() * d.groupCols();
  std::vector<uint64_t> lanes(size_t(d.lanes));
  std::multiset<Write> expected; // the writes of the next cycle
  int64_t g = 0;
  long lastTake = -1, doneAt = -1;
  auto expect = [&](int64_t gr, int64_t gc, uint64_t& mask) {
    expected.clear();
    mask = 0;
    for (int64_t l = 0; l < d.lanes; ++l) {
      auto [r, col] = d.element(gr, gc, l);
      lanes[size_t(l)] = rng.bits(8); // outside the tile: anything
      if (r >= d.rows || col >= d.cols) continue;
      mask |= uint64_t(1) << l;
      const size_t e = size_t(r * d.cols + col);
      lanes[size_t(l)] = value[e];
      for (const rubick::arch::Location& p : c.host.elements[e])
        expected.insert({p.bank, (uint64_t(half) << aw) | uint64_t(p.address), value[e]});
    }
  };
  // Start, then the groups; a few idle cycles after done.
  bool started = false;
  std::multiset<Write> pending; // writes due this cycle
  for (long t = 0; t < 4 * groups + 40; ++t, ++cycle) {
    const bool start = !started;
    bool valid = false;
    uint64_t mask = 0;
    std::multiset<Write> next;
    if (started && g < groups && rng.chance(pValid)) {
      valid = true;
      expect(g / d.groupCols(), g % d.groupCols(), mask);
      next = expected;
    }
    io.drive(m, start, start ? half : !half, valid, lanes, mask); // half sampled with start
    m.aclk = 0;
    m.eval();
    // This cycle's bank writes.
    std::multiset<Write> got;
    for (int b = 0; b < c.banks; ++b)
      if (io.we(m, b, 1)) got.insert({b, io.addr(m, b * (aw + 1), aw + 1), io.data(m, b * 8, 8)});
    if (got != pending) {
      std::string s;
      for (auto& [b, a, v] : got)
        s += " (bank " + std::to_string(b) + " addr " + std::to_string(a) + ")";
      s += " expected";
      for (auto& [b, a, v] : pending)
        s += " (bank " + std::to_string(b) + " addr " + std::to_string(a) + ")";
      rtl::fail(kTest, cycle, who + "writes" + s);
    }
    for (auto& [b, a, v] : got)
      banks[size_t(b)][a] = v;
    if (io.inReady(m) != io.busy(m)) rtl::fail(kTest, cycle, who + "in_ready differs from busy");
    if (start && io.busy(m)) rtl::fail(kTest, cycle, who + "busy at start");
    if (io.done(m)) {
      if (doneAt >= 0) rtl::fail(kTest, cycle, who + "done twice");
      doneAt = t;
    }
    pending.clear();
    if (valid) {
      if (!io.inReady(m)) rtl::fail(kTest, cycle, who + "in_ready low while the tile is open");
      pending = next;
      lastTake = t;
      ++g;
    }
    started = true;
    m.aclk = 1;
    m.eval();
  }
  if (g != groups) rtl::fail(kTest, cycle, who + "not every group was taken");
  if (doneAt != lastTake + 2)
    rtl::fail(kTest, cycle,
              who + rtl::mismatch("done, cycles after the last group", doneAt - lastTake, 2));
  // Every element at every place; the other half as it was.
  for (size_t e = 0; e < value.size(); ++e)
    for (const rubick::arch::Location& p : c.host.elements[e]) {
      const uint64_t a = (uint64_t(half) << aw) | uint64_t(p.address);
      if (banks[size_t(p.bank)][a] != value[e])
        rtl::fail(kTest, cycle,
                  who + "element " + std::to_string(e) + " missing in bank " +
                      std::to_string(p.bank) + " at " + std::to_string(a));
    }
  for (int64_t b = 0; b < c.banks; ++b)
    for (uint64_t a = 0; a < words; ++a)
      if ((a >> aw) != uint64_t(half) && banks[size_t(b)][a] != before[size_t(b)][a])
        rtl::fail(kTest, cycle, who + "the other half changed");
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(99);
  std::vector<dma::MapCase> cases = dma::scatterCases();
  std::vector<Ports> ports = {SC_PORTS(rl), SC_PORTS(r3), SC_PORTS(c3),
                              SC_PORTS(cv), SC_PORTS(rn), SC_PORTS(cp)};
  if (cases.size() != ports.size()) rtl::fail(kTest, 0, "dma_maps.h and the test top differ");

  m.aresetn = 0;
  for (size_t i = 0; i < cases.size(); ++i)
    ports[i].drive(m, true, false, true, std::vector<uint64_t>(size_t(cases[i].map.lanes)), 0);
  for (int i = 0; i < 3; ++i) {
    m.aclk = 0;
    m.eval();
    m.aclk = 1;
    m.eval();
    for (size_t k = 0; k < cases.size(); ++k)
      if (i > 0 && (ports[k].busy(m) || ports[k].we(m, 0, int(cases[k].banks)) != 0))
        rtl::fail(kTest, i, cases[k].name + ": busy or a write in reset");
  }
  m.aresetn = 1;
  for (size_t i = 0; i < cases.size(); ++i)
    ports[i].drive(m, false, false, false, std::vector<uint64_t>(size_t(cases[i].map.lanes)), 0);

  long cycle = 0, tiles = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    checkTables(m, ports[i], cases[i]);
    for (bool half : {false, true})
      for (double pValid : {1.0, 0.5}) {
        runTile(m, ports[i], cases[i], rng, half, pValid, cycle);
        ++tiles;
      }
    std::printf("%s: %s %s (%s): %lld groups, %zu elements\n", kTest, cases[i].name.c_str(),
                cases[i].what.c_str(), rubick::arch::toString(cases[i].map).c_str(),
                static_cast<long long>(cases[i].map.groupRows() * cases[i].map.groupCols()),
                cases[i].host.elements.size());
  }
  std::printf("%s: OK (%zu maps, %ld tiles, %ld cycles)\n", kTest, cases.size(), tiles, cycle);
  return 0;
}
