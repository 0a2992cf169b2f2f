// SPDX-License-Identifier: Apache-2.0
// The AXI4 slave memory model of sim_templates/rubick_axi_mem.h on its own, driven pin by pin:
// latency, bandwidth, outstanding limit, DRAM row timing and the protocol checks that must
// catch a bad master. Expected cycles are worked out from the configuration in the comments.

#include "rubick_axi_mem.h"

#include "rubick/emit/Templates.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {

using rubick_sim::AxiMasterPins;
using rubick_sim::AxiMem;
using rubick_sim::AxiMemConfig;

AxiMemConfig small(unsigned latency, unsigned bytesPerCycle, unsigned outstanding) {
  AxiMemConfig c;
  c.dataBytes = 8;
  c.bytesPerCycle = bytesPerCycle;
  c.latency = latency;
  c.maxOutstanding = outstanding;
  c.size = 1 << 16;
  return c;
}

void fill(AxiMem& mem, uint64_t base, size_t n) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i)
    bytes[i] = static_cast<uint8_t>(i * 7 + 3);
  mem.store(base, bytes.data(), n);
}

AxiMasterPins readRequest(const AxiMem& mem, uint64_t addr, unsigned len) {
  AxiMasterPins m = mem.masterPins();
  m.arvalid = true;
  m.araddr = addr;
  m.arlen = len;
  m.arsize = 3;
  m.arburst = 1;
  return m;
}

bool mentions(const AxiMem& mem, const std::string& what) {
  for (const std::string& v : mem.violations())
    if (v.find(what) != std::string::npos) return true;
  return false;
}

// Ticks with RREADY high until `beats` R beats were taken; returns the cycle of each.
std::vector<uint64_t> collect(AxiMem& mem, AxiMasterPins m, unsigned beats,
                              std::vector<uint8_t>* data = nullptr) {
  std::vector<uint64_t> at;
  m.rready = true;
  for (int guard = 0; at.size() < beats && guard < 10000; ++guard) {
    if (mem.pins().rvalid) {
      at.push_back(mem.cycle());
      if (data) data->insert(data->end(), mem.pins().rdata.begin(), mem.pins().rdata.end());
      EXPECT_EQ(mem.pins().rlast, at.size() == beats);
    }
    mem.tick(m);
  }
  return at;
}

TEST(AxiMem, FirstBeatComesLatencyCyclesAfterTheAddressAtFullBandwidth) {
  AxiMem mem(small(5, 8, 4));
  fill(mem, 0x100, 64);
  ASSERT_TRUE(mem.pins().arready);
  mem.tick(readRequest(mem, 0x100, 3)); // handshake in cycle 0
  std::vector<uint8_t> data;
  std::vector<uint64_t> at = collect(mem, mem.masterPins(), 4, &data);
  // Latency 5: first beat in cycle 0 + 5; 8 B/cycle on an 8-byte bus: one beat per cycle.
  EXPECT_EQ(at, (std::vector<uint64_t>{5, 6, 7, 8}));
  ASSERT_EQ(data.size(), 32u);
  for (size_t i = 0; i < data.size(); ++i)
    EXPECT_EQ(data[i], static_cast<uint8_t>(i * 7 + 3)) << "byte " << i;
  EXPECT_EQ(mem.stats().bytesRead, 32u);
  // In flight from the cycle after the AR handshake (1) to the last beat's cycle (8).
  EXPECT_EQ(mem.stats().busyCycles, 8u);
  EXPECT_EQ(mem.violationCount(), 0u);
}

TEST(AxiMem, BeatsAreSpacedWhenTheBandwidthIsBelowTheBusWidth) {
  // 4 B/cycle on an 8-byte bus: one beat every 2 cycles; 3 B/cycle: 8/3 cycles on average.
  for (unsigned bpc : {4u, 3u}) {
    AxiMem mem(small(6, bpc, 4));
    mem.tick(readRequest(mem, 0, 15));
    std::vector<uint64_t> at = collect(mem, mem.masterPins(), 16);
    ASSERT_EQ(at.size(), 16u);
    EXPECT_EQ(at.front(), 6u);
    // 15 further beats of 8 bytes at bpc bytes per cycle, within one cycle of rounding.
    const double span = double(at.back() - at.front());
    EXPECT_NEAR(span, 15.0 * 8 / bpc, 1.0) << bpc << " B/cycle";
    for (size_t i = 1; i < at.size(); ++i)
      EXPECT_GE(at[i] - at[i - 1], 8u / bpc) << bpc << " B/cycle";
  }
}

TEST(AxiMem, ArreadyFallsAtTheOutstandingLimit) {
  AxiMem mem(small(20, 8, 2));
  AxiMasterPins m = readRequest(mem, 0, 0); // one-beat bursts, ARVALID held high
  std::vector<uint64_t> accepted;
  for (int c = 0; c < 40 && accepted.size() < 3; ++c) {
    if (mem.pins().arready) accepted.push_back(mem.cycle());
    // The first burst's beat is valid from cycle 0 + 20; it is taken in cycle 25 only.
    m.rready = mem.cycle() == 25;
    mem.tick(m);
  }
  // Two bursts taken in cycles 0 and 1; the third only after the first burst ended.
  ASSERT_EQ(accepted.size(), 3u);
  EXPECT_EQ(accepted[0], 0u);
  EXPECT_EQ(accepted[1], 1u);
  EXPECT_EQ(accepted[2], 26u);
  EXPECT_EQ(mem.stats().peakReads, 2u);
  EXPECT_EQ(mem.violationCount(), 0u);
}

TEST(AxiMem, WriteResponseWaitsForLatencyAndTheLastBeat) {
  AxiMem mem(small(10, 8, 4));
  AxiMasterPins m = mem.masterPins();
  m.awvalid = true;
  m.awaddr = 0x40;
  m.awlen = 1;
  m.awsize = 3;
  mem.tick(m); // AW in cycle 0
  m.awvalid = false;
  m.bready = true;
  uint64_t bAt = 0;
  unsigned sent = 0;
  for (int c = 0; c < 40 && !bAt; ++c) {
    // The beats come late: cycles 12 and 14.
    const bool send = (mem.cycle() == 12 || mem.cycle() == 14) && sent < 2;
    m.wvalid = send;
    m.wlast = sent == 1;
    for (unsigned i = 0; i < 8; ++i) {
      m.wdata[i] = static_cast<uint8_t>(0x10 * sent + i);
      m.wstrb[i] = i != 5; // byte 5 of each beat not written
    }
    if (mem.pins().bvalid) bAt = mem.cycle();
    if (send) {
      ASSERT_TRUE(mem.pins().wready) << "cycle " << mem.cycle();
      ++sent;
    }
    mem.tick(m);
  }
  // Latency alone would allow cycle 10; the last beat in cycle 14 moves it to 15.
  EXPECT_EQ(bAt, 15u);
  for (unsigned k = 0; k < 2; ++k)
    for (unsigned i = 0; i < 8; ++i)
      EXPECT_EQ(mem.byte(0x40 + 8 * k + i), i == 5 ? 0 : 0x10 * k + i);
  EXPECT_EQ(mem.stats().bytesWritten, 14u);
  EXPECT_EQ(mem.violationCount(), 0u);
}

TEST(AxiMem, DramRowHitsMissesAndConflicts) {
  AxiMemConfig c = small(1, 8, 8);
  c.dram = true;
  c.banks = 2;
  c.rowBytes = 64; // rows 0, 1, 2, ... alternate between banks 0 and 1
  c.tRCD = 3;
  c.tRP = 4;
  c.CL = 2;
  AxiMem mem(c);
  auto readOne = [&](uint64_t addr) {
    const uint64_t issued = mem.cycle();
    mem.tick(readRequest(mem, addr, 0));
    std::vector<uint64_t> at = collect(mem, mem.masterPins(), 1);
    EXPECT_EQ(at.size(), 1u);
    return at.empty() ? 0 : at[0] - issued;
  };
  // Closed bank 0: latency 1 + tRCD 3 + CL 2.
  EXPECT_EQ(readOne(0), 6u);
  // Same row: latency 1 + CL 2.
  EXPECT_EQ(readOne(8), 3u);
  // Row 2 is bank 0's second row: a conflict, 1 + tRP 4 + tRCD 3 + CL 2.
  EXPECT_EQ(readOne(128), 10u);
  // Row 1 is in bank 1, still closed: 1 + 3 + 2.
  EXPECT_EQ(readOne(64), 6u);
  EXPECT_EQ(mem.stats().rowHits, 1u);
  EXPECT_EQ(mem.stats().rowMisses, 3u);
  EXPECT_EQ(mem.stats().rowConflicts, 1u);
  EXPECT_EQ(mem.violationCount(), 0u);
}

TEST(AxiMem, DramBurstOverTwoRowsPaysTheSecondActivate) {
  AxiMemConfig c = small(1, 8, 8);
  c.dram = true;
  c.banks = 4;
  c.rowBytes = 32; // 4 beats per row
  c.tRCD = 5;
  c.tRP = 5;
  c.CL = 2;
  AxiMem mem(c);
  mem.tick(readRequest(mem, 0, 7)); // 8 beats: rows 0 and 1 (banks 0 and 1), both closed
  std::vector<uint64_t> at = collect(mem, mem.masterPins(), 8);
  // Both activates start at cycle 0 + 1, data from 1 + 5 + 2 = 8 on, one beat per cycle.
  EXPECT_EQ(at, (std::vector<uint64_t>{8, 9, 10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(mem.stats().rowMisses, 2u);
}

TEST(AxiMem, CatchesABurstCrossingFourKiB) {
  AxiMem mem(small(2, 8, 4));
  mem.tick(readRequest(mem, 4096 - 8, 1)); // two beats: 4088..4103
  collect(mem, mem.masterPins(), 2);
  EXPECT_EQ(mem.violationCount(), 1u);
  EXPECT_TRUE(mentions(mem, "crosses a 4 KiB boundary"));
}

TEST(AxiMem, CatchesBadLengthSizeBurstAlignmentAndRange) {
  struct Case {
    uint64_t addr;
    unsigned len, size, burst;
    const char* message;
  };
  for (const Case& k : {Case{0, 256, 3, 1, "length above 255"}, Case{0, 0, 2, 1, "size 2"},
                        Case{0, 0, 3, 2, "burst type 2"}, Case{4, 0, 3, 1, "not aligned"},
                        Case{1 << 16, 0, 3, 1, "beyond the memory"}}) {
    AxiMem mem(small(1, 8, 4));
    AxiMasterPins m = readRequest(mem, k.addr, k.len);
    m.arsize = k.size;
    m.arburst = k.burst;
    mem.tick(m);
    EXPECT_TRUE(mentions(mem, k.message)) << k.message;
  }
  // The control: a good request is not reported.
  AxiMem mem(small(1, 8, 4));
  mem.tick(readRequest(mem, 4096 - 64, 7));
  collect(mem, mem.masterPins(), 8);
  EXPECT_EQ(mem.violationCount(), 0u);
}

TEST(AxiMem, CatchesAWriteOutsideTheAllowedRegions) {
  AxiMem mem(small(1, 8, 4));
  mem.allowWrites(0x100, 0x100);
  AxiMasterPins m = mem.masterPins();
  m.awvalid = true;
  m.awaddr = 0x1f8; // beat 0 inside, beat 1 (0x200) outside
  m.awlen = 1;
  m.awsize = 3;
  m.bready = true;
  mem.tick(m);
  m.awvalid = false;
  unsigned bresp = 99;
  for (unsigned sent = 0, c = 0; c < 20 && bresp == 99; ++c) {
    m.wvalid = sent < 2;
    m.wlast = sent == 1;
    std::fill(m.wdata.begin(), m.wdata.end(), 0xab);
    std::fill(m.wstrb.begin(), m.wstrb.end(), 1);
    if (mem.pins().bvalid) bresp = mem.pins().bresp;
    if (m.wvalid && mem.pins().wready) ++sent;
    mem.tick(m);
  }
  EXPECT_EQ(bresp, AxiMem::kSlverr);
  EXPECT_TRUE(mentions(mem, "outside the allowed regions"));
  EXPECT_EQ(mem.byte(0x1f8), 0xab);
  EXPECT_EQ(mem.byte(0x200), 0);
}

TEST(AxiMem, CatchesWrongWlastAndValidDroppedBeforeReady) {
  AxiMem mem(small(1, 8, 1));
  AxiMasterPins m = mem.masterPins();
  m.awvalid = true;
  m.awlen = 1;
  m.awsize = 3;
  mem.tick(m); // AW taken
  m.awvalid = false;
  m.wvalid = true;
  m.wlast = true; // on the first of two beats
  std::fill(m.wstrb.begin(), m.wstrb.end(), 1);
  while (!mem.pins().wready)
    mem.tick(m);
  mem.tick(m);
  EXPECT_TRUE(mentions(mem, "WLAST high before the last beat"));

  // One outstanding write left open: AWREADY is low, so dropping AWVALID is a violation.
  AxiMasterPins drop = mem.masterPins();
  drop.awvalid = true;
  drop.awaddr = 0x80;
  drop.awsize = 3;
  ASSERT_FALSE(mem.pins().awready);
  mem.tick(drop);
  drop.awvalid = false;
  mem.tick(drop);
  EXPECT_TRUE(mentions(mem, "AWVALID dropped"));
}

TEST(AxiMem, SharedBandwidthIsSplitBetweenReadsAndWrites) {
  AxiMemConfig c = small(2, 8, 8);
  c.sharedBandwidth = true;
  c.size = 1 << 20;
  AxiMem mem(c);
  AxiMasterPins m = mem.masterPins();
  std::fill(m.wstrb.begin(), m.wstrb.end(), 1);
  m.rready = m.bready = true;
  unsigned rBursts = 0, wBursts = 0, wBeat = 0;
  const int cycles = 2000;
  for (int t = 0; t < cycles; ++t) {
    m.arvalid = true;
    m.araddr = 128 * (rBursts % 64);
    m.arlen = 15;
    m.arsize = 3;
    m.awvalid = true;
    m.awaddr = 0x10000 + 128 * (wBursts % 64);
    m.awlen = 15;
    m.awsize = 3;
    m.wvalid = true;
    m.wlast = wBeat % 16 == 15;
    const bool ar = mem.pins().arready, aw = mem.pins().awready;
    const bool w = mem.pins().wready;
    mem.tick(m);
    rBursts += ar;
    wBursts += aw;
    wBeat += w;
  }
  const double bytes = double(mem.stats().bytesRead + mem.stats().bytesWritten);
  // 8 B/cycle in all, both directions busy: each gets about half.
  EXPECT_LE(bytes, 8.0 * cycles + 16);
  EXPECT_GE(bytes, 8.0 * (cycles - 40));
  EXPECT_NEAR(double(mem.stats().bytesRead), double(mem.stats().bytesWritten), 8.0 * 40);
  EXPECT_EQ(mem.violationCount(), 0u);
}

TEST(AxiMem, IsEmbeddedInTheLibrary) {
  std::ifstream in(std::string(RUBICK_SOURCE_DIR) + "/sim_templates/rubick_axi_mem.h",
                   std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty());
  EXPECT_EQ(rubick::emit::simTemplates().at("rubick_axi_mem"), text.str());
}

} // namespace
