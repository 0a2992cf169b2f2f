// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_axi_rd.v: three engines (tb_rubick_axi_rd.v: 512-, 32- and
// 8-bit data) against the AXI memory model of sim_templates/rubick_axi_mem.h, which checks the
// protocol side (valid held until ready, bursts within 4 KiB, ARLEN, ARSIZE, alignment).
//  1. Phases of random commands (short, across 4 KiB boundaries, long, empty) under different
//     memory settings (latency, bandwidth, the model's outstanding limit, DRAM timing) with
//     random backpressure on out_ready: every byte returned is compared with the memory, out_last
//     must mark each command's final beat, the bursts must be exactly the documented split, and
//     no more than MAX_OUTSTANDING bursts may be in flight.
//  2. Injected SLVERR on a region: one error pulse per beat that touches it.
//  3. Bandwidth: a 64 KiB read on the 512-bit engine must take bytes / bandwidth + latency
//     cycles within kSlack when MAX_OUTSTANDING covers the latency.
//  4. One-beat commands are taken in consecutive cycles while bursts may be issued.
#include "Vtb_rubick_axi_rd.h"
#include "axi_test.h"

#include <cmath>
#include <deque>
#include <functional>
#include <memory>

namespace {

using rubick_sim::AxiMasterPins;
using rubick_sim::AxiMem;
using rubick_sim::AxiSlavePins;
using Vtb = Vtb_rubick_axi_rd;

const char* kTest = "test_rubick_axi_rd";
constexpr int kSlack = 4; // cycles: command register, AR register, output register, rounding

// One engine's ports, by its prefix in the test top.
struct Ports {
  std::function<void(Vtb&, const AxiSlavePins&)> drive;
  std::function<void(Vtb&, AxiMasterPins&)> sample;
  std::function<void(Vtb&, bool, uint64_t, uint64_t)> setCmd;
  std::function<void(Vtb&, bool)> setOutReady;
  std::function<bool(Vtb&)> cmdReady, outValid, outLast, busy, error;
  std::function<void(Vtb&, std::vector<uint8_t>&)> outData;
};

#define RD_PORTS(P)                                                                                \
  Ports {                                                                                          \
    [](Vtb& m, const AxiSlavePins& s) {                                                            \
      m.P##_m_axi_arready = s.arready;                                                             \
      m.P##_m_axi_rvalid = s.rvalid;                                                               \
      m.P##_m_axi_rlast = s.rlast;                                                                 \
      m.P##_m_axi_rresp = s.rresp;                                                                 \
      m.P##_m_axi_rid = s.rid;                                                                     \
      axi::putBytes(m.P##_m_axi_rdata, s.rdata);                                                   \
    },                                                                                             \
        [](Vtb& m, AxiMasterPins& p) {                                                             \
          p.arvalid = m.P##_m_axi_arvalid;                                                         \
          p.araddr = m.P##_m_axi_araddr;                                                           \
          p.arlen = m.P##_m_axi_arlen;                                                             \
          p.arsize = m.P##_m_axi_arsize;                                                           \
          p.arburst = m.P##_m_axi_arburst;                                                         \
          p.arid = m.P##_m_axi_arid;                                                               \
          p.rready = m.P##_m_axi_rready;                                                           \
        },                                                                                         \
        [](Vtb& m, bool v, uint64_t addr, uint64_t len) {                                          \
          m.P##_cmd_valid = v;                                                                     \
          m.P##_cmd_addr = addr;                                                                   \
          m.P##_cmd_len = len;                                                                     \
        },                                                                                         \
        [](Vtb& m, bool r) { m.P##_out_ready = r; },                                               \
        [](Vtb& m) -> bool { return m.P##_cmd_ready; },                                            \
        [](Vtb& m) -> bool { return m.P##_out_valid; },                                            \
        [](Vtb& m) -> bool { return m.P##_out_last; }, [](Vtb& m) -> bool { return m.P##_busy; },  \
        [](Vtb& m) -> bool { return m.P##_error; },                                                \
        [](Vtb& m, std::vector<uint8_t>& d) { axi::getBytes(m.P##_out_data, d); }                  \
  }

struct Beat {
  uint64_t addr;
  bool last;
};

struct Lane {
  const char* name;
  Ports io;
  unsigned bytes, maxBurst, maxOutstanding, axiId;
  uint64_t memBytes, maxLen;
  std::unique_ptr<AxiMem> mem{};
  AxiMasterPins pins{};
  std::deque<axi::Cmd> todo{};   // not yet accepted
  std::vector<axi::Cmd> taken{}; // accepted, in order
  std::deque<Beat> expect{};     // beats still to come out
  double pReady = 1;
  bool cmdValid = false, outReady = false;
  uint64_t errAddr = 0, errBytes = 0; // injected SLVERR region
  uint64_t errorsWanted = 0, errorsSeen = 0, beats = 0;
  long firstCmd = -1, firstBeat = -1, lastBeat = -1; // cycles of handshakes
  std::vector<long> accepted{};                      // cycle of each command handshake

  void start(const rubick_sim::AxiMemConfig& c, rtl::Rng& rng) {
    mem = std::make_unique<AxiMem>(c);
    std::vector<uint8_t> bytesOf(memBytes);
    for (auto& b : bytesOf)
      b = static_cast<uint8_t>(rng.bits(8));
    mem->store(0, bytesOf.data(), bytesOf.size());
    pins = mem->masterPins();
    taken.clear();
    accepted.clear();
    expect.clear();
    errorsWanted = errorsSeen = beats = 0;
    firstCmd = firstBeat = lastBeat = -1;
    errBytes = 0;
  }
  bool finished(Vtb& m) const { return todo.empty() && expect.empty() && !cmdValid && !io.busy(m); }
};

struct Bench {
  Vtb& m;
  std::vector<Lane>& lanes;
  rtl::Rng& rng;
  long cycle = 0;

  // One clock cycle for every lane: stream decisions, the DUT's edge, the models' edges.
  void step() {
    for (Lane& l : lanes) {
      if (!l.cmdValid && !l.todo.empty()) l.cmdValid = true;
      const axi::Cmd c = l.todo.empty() ? axi::Cmd{} : l.todo.front();
      l.io.setCmd(m, l.cmdValid, c.addr, c.len);
      l.outReady = rng.chance(l.pReady);
      l.io.setOutReady(m, l.outReady);
      if (l.mem) l.io.drive(m, l.mem->pins());
    }
    m.aclk = 0;
    m.eval();
    std::vector<uint8_t> data;
    for (Lane& l : lanes) {
      if (!l.mem) continue;
      l.io.sample(m, l.pins);
      if (l.cmdValid && l.io.cmdReady(m)) accept(l);
      if (l.io.outValid(m) && l.outReady) {
        data.assign(l.bytes, 0);
        l.io.outData(m, data);
        checkBeat(l, data, l.io.outLast(m));
      }
      if (l.io.error(m)) ++l.errorsSeen;
    }
    m.aclk = 1;
    m.eval();
    for (Lane& l : lanes)
      if (l.mem) l.mem->tick(l.pins);
    ++cycle;
  }

  void accept(Lane& l) {
    const axi::Cmd c = l.todo.front();
    l.todo.pop_front();
    l.cmdValid = false;
    l.taken.push_back(c);
    l.accepted.push_back(cycle);
    if (l.firstCmd < 0) l.firstCmd = cycle;
    for (uint64_t k = 0; k < c.len; ++k) {
      const uint64_t a = c.addr + k * l.bytes;
      l.expect.push_back({a, k + 1 == c.len});
      if (l.errBytes && a < l.errAddr + l.errBytes && l.errAddr < a + l.bytes) ++l.errorsWanted;
    }
  }

  void checkBeat(Lane& l, const std::vector<uint8_t>& data, bool last) {
    const std::string who = std::string(l.name) + ": ";
    if (l.expect.empty())
      rtl::fail(kTest, cycle, who + "a beat came out that no command asked for");
    const Beat b = l.expect.front();
    l.expect.pop_front();
    for (unsigned i = 0; i < l.bytes; ++i)
      if (data[i] != l.mem->byte(b.addr + i))
        rtl::fail(kTest, cycle,
                  who + rtl::mismatch("byte at " + std::to_string(b.addr + i), data[i],
                                      l.mem->byte(b.addr + i)));
    if (last != b.last)
      rtl::fail(
          kTest, cycle,
          who + rtl::mismatch("out_last of the beat at " + std::to_string(b.addr), last, b.last));
    ++l.beats;
    if (l.firstBeat < 0) l.firstBeat = cycle;
    l.lastBeat = cycle;
  }

  void run(long limit, const std::string& what) {
    const long end = cycle + limit;
    auto done = [&] {
      for (Lane& l : lanes)
        if (l.mem && !l.finished(m)) return false;
      return true;
    };
    while (!done()) {
      if (cycle >= end) {
        std::string why;
        for (Lane& l : lanes)
          if (l.mem && l.mem->violationCount())
            why += "\n" + std::string(l.name) + ": " + axi::violations(*l.mem);
        rtl::fail(kTest, cycle, what + ": did not finish" + why);
      }
      step();
    }
  }
};

void checkLane(const Lane& l, const std::string& phase, long cycle) {
  const std::string who = phase + ", " + l.name + ": ";
  if (l.mem->violationCount()) rtl::fail(kTest, cycle, who + axi::violations(*l.mem));
  const std::string split = axi::checkBursts(*l.mem, l.taken, l.bytes, l.maxBurst, l.axiId, false);
  if (!split.empty()) rtl::fail(kTest, cycle, who + split);
  if (l.mem->stats().peakReads > l.maxOutstanding)
    rtl::fail(kTest, cycle,
              who + rtl::mismatch("bursts in flight at most", l.mem->stats().peakReads,
                                  l.maxOutstanding));
  if (l.errorsSeen != l.errorsWanted)
    rtl::fail(kTest, cycle, who + rtl::mismatch("error pulses", l.errorsSeen, l.errorsWanted));
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(2024);
  std::vector<Lane> lanes;
  lanes.push_back({"w (512-bit)", RD_PORTS(w), 64, 64, 4, 1, 256 * 1024, 200});
  lanes.push_back({"n (32-bit)", RD_PORTS(n), 4, 5, 2, 0, 256 * 1024, 300});
  lanes.push_back({"b (8-bit)", RD_PORTS(b), 1, 256, 1, 5, 8 * 1024, 1200});
  Bench bench{m, lanes, rng};

  // Reset: no command may be taken.
  m.aresetn = 0;
  for (Lane& l : lanes) {
    l.io.setCmd(m, true, 0, 1);
    l.io.drive(m, AxiSlavePins{});
  }
  for (int i = 0; i < 3; ++i) {
    m.aclk = 0;
    m.eval();
    for (Lane& l : lanes)
      if (i > 0 && l.io.cmdReady(m)) // the synchronous reset acts at the first edge
        rtl::fail(kTest, i, std::string(l.name) + ": cmd_ready in reset");
    m.aclk = 1;
    m.eval();
  }
  m.aresetn = 1;
  for (Lane& l : lanes)
    l.io.setCmd(m, false, 0, 0);

  // 1 and 2. Random commands under different memories.
  const axi::Phase phases[] = {
      {"basic", 8, 1, 16, false, 0.7, false},
      {"quarter bandwidth, latency 40", 40, 4, 16, false, 0.6, false},
      {"memory takes one burst at a time", 3, 1, 1, false, 0.9, false},
      {"latency 1, heavy backpressure", 1, 1, 2, false, 0.25, false},
      {"DRAM timing", 5, 1, 8, true, 0.8, false},
      {"SLVERR region", 6, 2, 8, false, 0.8, true},
  };
  long commands = 0, beats = 0;
  for (const axi::Phase& p : phases) {
    for (Lane& l : lanes) {
      l.start(axi::modelConfig(p, l.bytes, l.memBytes), rng);
      l.pReady = p.streamReady;
      const int n = l.bytes == 1 ? 8 : 20;
      for (int i = 0; i < n; ++i)
        l.todo.push_back(axi::randomCmd(rng, l.bytes, l.memBytes, l.maxLen));
      if (p.errors) {
        l.errAddr = l.memBytes / 4 + 8 * l.bytes;
        l.errBytes = l.memBytes / 2;
        l.mem->injectError(l.errAddr, l.errBytes);
      }
    }
    bench.run(400000, p.name);
    for (Lane& l : lanes) {
      checkLane(l, p.name, bench.cycle);
      commands += long(l.taken.size());
      beats += long(l.beats);
    }
    if (p.errors && lanes[0].errorsWanted == 0) rtl::fail(kTest, bench.cycle, "no error injected");
    if (p.dram && lanes[0].mem->stats().rowHits == 0)
      rtl::fail(kTest, bench.cycle, "DRAM phase: no row hit in long sequential reads");
  }

  // 3. Bandwidth of the 512-bit engine: 64 KiB, no backpressure. Latency 100 with 64-beat
  // bursts needs 3 bursts in flight (a slot is busy 100 + 64 cycles); MAX_OUTSTANDING is 4.
  std::vector<Lane> wide;
  wide.push_back({"w (512-bit)", RD_PORTS(w), 64, 64, 4, 1, 1024 * 1024, 0});
  Bench bw{m, wide, rng, bench.cycle};
  struct Case {
    unsigned bytesPerCycle, latency;
  };
  for (const Case& k : {Case{64, 100}, Case{16, 100}, Case{64, 20}}) {
    const uint64_t bytes = 64 * 1024;
    axi::Phase p{"bandwidth", k.latency, 64 / k.bytesPerCycle, 16, false, 1.0, false};
    Lane& l = wide[0];
    l.start(axi::modelConfig(p, l.bytes, l.memBytes), rng);
    l.pReady = 1.0;
    l.todo.push_back({4096, bytes / 64});
    bw.run(100000, "bandwidth");
    checkLane(l, "bandwidth", bw.cycle);
    const long measured = l.lastBeat - l.firstCmd;
    const long ideal = long(bytes / k.bytesPerCycle + k.latency);
    // Between the first and the last beat: the rate the engine sustains once data flows.
    const double steady = double(bytes - 64) / double(l.lastBeat - l.firstBeat);
    std::printf("%s: read %llu bytes at %u B/cycle, latency %u: %ld cycles from command to last "
                "beat (bytes/bandwidth + latency = %ld), %.2f B/cycle from first to last beat, "
                "%u bursts in flight at most\n",
                kTest, static_cast<unsigned long long>(bytes), k.bytesPerCycle, k.latency, measured,
                ideal, steady, l.mem->stats().peakReads);
    if (std::labs(measured - ideal) > kSlack)
      rtl::fail(kTest, bw.cycle,
                rtl::mismatch("cycles of a 64 KiB read (within " + std::to_string(kSlack) + ")",
                              measured, ideal));
    if (steady < 0.99 * k.bytesPerCycle)
      rtl::fail(kTest, bw.cycle, "sustained " + std::to_string(steady) + " B/cycle");
  }
  // Latency 400: 4 bursts in flight no longer cover it. Each slot carries one 64-beat burst per
  // 400 + 64 cycles (its AR goes out the cycle after its last beat), so the 16 bursts take 4
  // rounds: 3 * (400 + 64) + 400 + 4 * 64 cycles plus the 2 before the first AR (the command
  // and AR registers), about 32 B/cycle.
  {
    const uint64_t bytes = 64 * 1024;
    const unsigned latency = 400;
    axi::Phase p{"latency-bound", latency, 1, 16, false, 1.0, false};
    Lane& l = wide[0];
    l.start(axi::modelConfig(p, l.bytes, l.memBytes), rng);
    l.todo.push_back({0, bytes / 64});
    bw.run(100000, "latency-bound");
    checkLane(l, "latency-bound", bw.cycle);
    const long measured = l.lastBeat - l.firstCmd;
    const long want = 3 * (latency + 64) + latency + 4 * 64 + 2;
    std::printf("%s: read %llu bytes at 64 B/cycle, latency %u, 4 bursts in flight: %ld cycles "
                "(expected %ld), %.2f B/cycle\n",
                kTest, static_cast<unsigned long long>(bytes), latency, measured, want,
                double(bytes) / double(measured));
    if (std::labs(measured - want) > kSlack)
      rtl::fail(kTest, bw.cycle, rtl::mismatch("cycles of the latency-bound read", measured, want));
  }

  // 4. One-burst commands are taken one per cycle (the next in the cycle the previous one's
  // burst is issued) until MAX_OUTSTANDING (4) bursts are in flight.
  {
    axi::Phase p{"single beats", 30, 1, 16, false, 1.0, false};
    Lane& l = wide[0];
    l.start(axi::modelConfig(p, l.bytes, l.memBytes), rng);
    l.pReady = 1.0;
    for (uint64_t i = 0; i < 8; ++i)
      l.todo.push_back({8192 + 64 * i, 1});
    bw.run(10000, "single beats");
    checkLane(l, "single beats", bw.cycle);
    for (long i = 1; i < 4; ++i)
      if (l.accepted[size_t(i)] != l.accepted[0] + i)
        rtl::fail(kTest, bw.cycle,
                  rtl::mismatch("handshake cycle of one-beat command " + std::to_string(i),
                                l.accepted[size_t(i)], l.accepted[0] + i));
  }

  std::printf("%s: OK (%ld commands, %ld beats checked, %ld cycles)\n", kTest, commands, beats,
              bw.cycle);
  return 0;
}
