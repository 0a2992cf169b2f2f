// SPDX-License-Identifier: Apache-2.0
// Shared helpers of the AXI tests (test_rubick_axi_rd.cpp, test_rubick_axi_wr.cpp,
// test_rubick_scratch.cpp, test_rubick_axi_route.cpp): ports as byte vectors, the
// burst-splitting rule the engines promise, random commands, and a test top's slave port.
#pragma once

#include "rtl_test.h"
#include "rubick_axi_mem.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace axi {

// A DATA_W-bit port as bytes (byte i = bits [8i+7:8i]) and back.
template <class T>
void getBytes(const T& port, std::vector<uint8_t>& bytes) {
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<uint8_t>(rtl::getBits(port, int(8 * i), 8));
}
template <class T>
void putBytes(T& port, const std::vector<uint8_t>& bytes) {
  for (size_t i = 0; i < bytes.size(); ++i)
    rtl::setBits(port, int(8 * i), 8, bytes[i]);
}

struct Cmd {
  uint64_t addr = 0;
  uint64_t len = 0; // beats
};

struct Burst {
  uint64_t addr;
  unsigned len; // AxLEN
  bool operator==(const Burst& o) const { return addr == o.addr && len == o.len; }
};

// The rule of rubick_axi_rd/wr's header, written out independently: from the current address,
// min(remaining, MAX_BURST, beats to the next 4 KiB boundary).
inline std::vector<Burst> split(const std::vector<Cmd>& cmds, unsigned bytes, unsigned maxBurst) {
  std::vector<Burst> out;
  for (const Cmd& c : cmds) {
    uint64_t a = c.addr, rem = c.len;
    while (rem > 0) {
      const uint64_t toPage = (4096 - a % 4096) / bytes;
      const uint64_t n = std::min<uint64_t>({rem, maxBurst, toPage});
      out.push_back({a, unsigned(n - 1)});
      a += n * bytes;
      rem -= n;
    }
  }
  return out;
}

// Compares the bursts the memory accepted with the rule; returns a message, empty when equal.
inline std::string checkBursts(const rubick_sim::AxiMem& mem, const std::vector<Cmd>& cmds,
                               unsigned bytes, unsigned maxBurst, unsigned id, bool write) {
  const std::vector<Burst> want = split(cmds, bytes, maxBurst);
  const std::vector<rubick_sim::AxiBurstRecord>& got = mem.bursts();
  if (got.size() != want.size())
    return std::to_string(got.size()) + " bursts, expected " + std::to_string(want.size());
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i].addr != want[i].addr || got[i].len != want[i].len || got[i].id != id ||
        got[i].write != write)
      return "burst " + std::to_string(i) + ": addr " + std::to_string(got[i].addr) + " len " +
             std::to_string(got[i].len) + " id " + std::to_string(got[i].id) + ", expected addr " +
             std::to_string(want[i].addr) + " len " + std::to_string(want[i].len) + " id " +
             std::to_string(id);
  return "";
}

// A random command inside [0, memBytes): short ones, ones across a 4 KiB boundary, long ones
// up to maxLen beats, and now and then an empty one.
inline Cmd randomCmd(rtl::Rng& rng, unsigned bytes, uint64_t memBytes, uint64_t maxLen) {
  const uint64_t beats = memBytes / bytes;
  Cmd c;
  switch (rng.range(0, 9)) {
  case 0:
    c.len = 0;
    break;
  case 1:
  case 2:
  case 3:
    c.len = rng.range(1, 8);
    break;
  case 4:
  case 5:
  case 6: { // across a boundary: start a few beats before one
    const uint64_t pageBeats = 4096 / bytes;
    const uint64_t before = rng.range(1, int(std::min<uint64_t>(pageBeats, 300)));
    c.len = std::min<uint64_t>(maxLen, before + rng.range(1, 300));
    const uint64_t pages = memBytes / 4096;
    const uint64_t page = rng.range(1, int(pages - 1));
    c.addr = page * 4096 - before * bytes;
    if (c.addr + c.len * bytes > memBytes) c.len = (memBytes - c.addr) / bytes;
    return c;
  }
  default:
    c.len = rng.range(1, int(maxLen));
  }
  c.addr = uint64_t(rng.range(0, int(beats - std::max<uint64_t>(c.len, 1)))) * bytes;
  return c;
}

// The model's settings of a test phase, scaled to a lane's bus width.
struct Phase {
  const char* name;
  unsigned latency;
  unsigned bandwidthDivisor; // bytesPerCycle = bus bytes / this (at least 1)
  unsigned outstanding;      // the model's limit
  bool dram;
  double streamReady; // probability of out_ready / in_valid per cycle
  bool errors;        // inject SLVERR on a region
};

inline rubick_sim::AxiMemConfig modelConfig(const Phase& p, unsigned bytes, uint64_t memBytes) {
  rubick_sim::AxiMemConfig c;
  c.dataBytes = bytes;
  c.bytesPerCycle = std::max(1u, bytes / p.bandwidthDivisor);
  c.latency = p.latency;
  c.maxOutstanding = p.outstanding;
  c.size = memBytes;
  c.dram = p.dram;
  c.banks = 4;
  c.rowBytes = 1024;
  c.tRCD = 10;
  c.tRP = 10;
  c.CL = 10;
  c.recordBursts = true;
  return c;
}

inline std::string violations(const rubick_sim::AxiMem& mem) {
  std::string s;
  for (const std::string& v : mem.violations())
    s += "\n  " + v;
  return std::to_string(mem.violationCount()) + " AXI violation(s):" + s;
}

// A slave port of a test top: the test drives its master-side inputs and samples the slave's
// outputs.
template <class Vtb>
struct SlavePortIo {
  std::function<void(Vtb&, const rubick_sim::AxiMasterPins&)> drive;
  std::function<void(Vtb&, rubick_sim::AxiSlavePins&)> sample;
};

} // namespace axi

// axi::SlavePortIo<VTB> of the top's slave port with prefix P (P_arvalid, P_arready, ...).
#define AXI_SLAVE_PORT_IO(VTB, P)                                                                  \
  axi::SlavePortIo<VTB> {                                                                          \
    [](VTB& m, const rubick_sim::AxiMasterPins& p) {                                               \
      m.P##_arvalid = p.arvalid;                                                                   \
      m.P##_araddr = p.araddr;                                                                     \
      m.P##_arlen = p.arlen;                                                                       \
      m.P##_arsize = p.arsize;                                                                     \
      m.P##_arburst = p.arburst;                                                                   \
      m.P##_arid = p.arid;                                                                         \
      m.P##_rready = p.rready;                                                                     \
      m.P##_awvalid = p.awvalid;                                                                   \
      m.P##_awaddr = p.awaddr;                                                                     \
      m.P##_awlen = p.awlen;                                                                       \
      m.P##_awsize = p.awsize;                                                                     \
      m.P##_awburst = p.awburst;                                                                   \
      m.P##_awid = p.awid;                                                                         \
      m.P##_wvalid = p.wvalid;                                                                     \
      m.P##_wlast = p.wlast;                                                                       \
      axi::putBytes(m.P##_wdata, p.wdata);                                                         \
      for (size_t i = 0; i < p.wstrb.size(); ++i)                                                  \
        rtl::setBits(m.P##_wstrb, int(i), 1, p.wstrb[i]);                                          \
      m.P##_bready = p.bready;                                                                     \
    },                                                                                             \
        [](VTB& m, rubick_sim::AxiSlavePins& s) {                                                  \
          s.arready = m.P##_arready;                                                               \
          s.rvalid = m.P##_rvalid;                                                                 \
          s.rlast = m.P##_rlast;                                                                   \
          axi::getBytes(m.P##_rdata, s.rdata);                                                     \
          s.rresp = m.P##_rresp;                                                                   \
          s.rid = m.P##_rid;                                                                       \
          s.awready = m.P##_awready;                                                               \
          s.wready = m.P##_wready;                                                                 \
          s.bvalid = m.P##_bvalid;                                                                 \
          s.bresp = m.P##_bresp;                                                                   \
          s.bid = m.P##_bid;                                                                       \
        }                                                                                          \
  }
