// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_axi_wr.v: three engines (tb_rubick_axi_wr.v: 512-, 32- and
// 8-bit data) against the AXI memory model of sim_templates/rubick_axi_mem.h, which checks the
// protocol side (valid and data held until ready, bursts within 4 KiB, AWLEN, AWSIZE, WLAST,
// writes only inside the regions of accepted commands).
//  1. Phases of random commands (short, across 4 KiB boundaries, long, empty) with random data
//     and random gaps on in_valid, under different memory settings (latency, bandwidth, the
//     model's outstanding limit, DRAM timing): afterwards every byte of the memory must equal a
//     shadow copy written by the test (random byte strobes: only the strobed bytes change);
//     the bursts must be exactly the documented split; done must pulse once per non-empty
//     command and only after all its write responses.
//  2. Injected SLVERR on a region: one error pulse per burst that touches it, nothing written
//     there.
//  3. Bandwidth: a 64 KiB write on the 512-bit engine, in_valid always high, must take
//     bytes / bandwidth cycles plus at most latency + kSlack.
//  4. One-beat commands are taken in consecutive cycles while bursts may be issued.
#include "Vtb_rubick_axi_wr.h"
#include "axi_test.h"

#include <deque>
#include <functional>
#include <memory>

namespace {

using rubick_sim::AxiMasterPins;
using rubick_sim::AxiMem;
using rubick_sim::AxiSlavePins;
using Vtb = Vtb_rubick_axi_wr;

const char* kTest = "test_rubick_axi_wr";
constexpr int kSlack = 4;

struct Ports {
  std::function<void(Vtb&, const AxiSlavePins&)> drive;
  std::function<void(Vtb&, AxiMasterPins&)> sample;
  std::function<void(Vtb&, bool, uint64_t, uint64_t)> setCmd;
  std::function<void(Vtb&, bool, const std::vector<uint8_t>&, const std::vector<uint8_t>&)> setIn;
  std::function<bool(Vtb&)> cmdReady, inReady, done, busy, error;
};

#define WR_PORTS(P)                                                                                \
  Ports {                                                                                          \
    [](Vtb& m, const AxiSlavePins& s) {                                                            \
      m.P##_m_axi_awready = s.awready;                                                             \
      m.P##_m_axi_wready = s.wready;                                                               \
      m.P##_m_axi_bvalid = s.bvalid;                                                               \
      m.P##_m_axi_bresp = s.bresp;                                                                 \
      m.P##_m_axi_bid = s.bid;                                                                     \
    },                                                                                             \
        [](Vtb& m, AxiMasterPins& p) {                                                             \
          p.awvalid = m.P##_m_axi_awvalid;                                                         \
          p.awaddr = m.P##_m_axi_awaddr;                                                           \
          p.awlen = m.P##_m_axi_awlen;                                                             \
          p.awsize = m.P##_m_axi_awsize;                                                           \
          p.awburst = m.P##_m_axi_awburst;                                                         \
          p.awid = m.P##_m_axi_awid;                                                               \
          p.wvalid = m.P##_m_axi_wvalid;                                                           \
          p.wlast = m.P##_m_axi_wlast;                                                             \
          axi::getBytes(m.P##_m_axi_wdata, p.wdata);                                               \
          for (size_t i = 0; i < p.wstrb.size(); ++i)                                              \
            p.wstrb[i] = static_cast<uint8_t>(rtl::getBits(m.P##_m_axi_wstrb, int(i), 1));         \
          p.bready = m.P##_m_axi_bready;                                                           \
        },                                                                                         \
        [](Vtb& m, bool v, uint64_t addr, uint64_t len) {                                          \
          m.P##_cmd_valid = v;                                                                     \
          m.P##_cmd_addr = addr;                                                                   \
          m.P##_cmd_len = len;                                                                     \
        },                                                                                         \
        [](Vtb& m, bool v, const std::vector<uint8_t>& d, const std::vector<uint8_t>& s) {         \
          m.P##_in_valid = v;                                                                      \
          axi::putBytes(m.P##_in_data, d);                                                         \
          for (size_t i = 0; i < s.size(); ++i)                                                    \
            rtl::setBits(m.P##_in_strb, int(i), 1, s[i]);                                          \
        },                                                                                         \
        [](Vtb& m) -> bool { return m.P##_cmd_ready; },                                            \
        [](Vtb& m) -> bool { return m.P##_in_ready; }, [](Vtb& m) -> bool { return m.P##_done; },  \
        [](Vtb& m) -> bool { return m.P##_busy; }, [](Vtb& m) -> bool { return m.P##_error; }      \
  }

struct Beat {
  uint64_t addr;
  std::vector<uint8_t> data, strb; // strb: 0 or 1 per byte
};

struct Lane {
  const char* name;
  Ports io;
  unsigned bytes, maxBurst, maxOutstanding, axiId;
  uint64_t memBytes, maxLen;
  std::unique_ptr<AxiMem> mem{};
  AxiMasterPins pins{};
  std::vector<uint8_t> shadow{};         // what the memory must hold
  std::deque<axi::Cmd> todo{};           // not yet accepted
  std::vector<axi::Cmd> taken{};         // accepted, in order
  std::vector<uint64_t> burstsThrough{}; // bursts of the non-empty commands 1..k, cumulative
  std::deque<Beat> pending{};            // data of accepted commands not yet taken
  double pValid = 1;
  bool randomStrobes = false; // else all ones
  bool cmdValid = false, inValid = false;
  uint64_t errAddr = 0, errBytes = 0;
  uint64_t errorsWanted = 0, errorsSeen = 0, dones = 0, bResponses = 0, beats = 0;
  long firstCmd = -1, lastDone = -1;
  std::vector<long> accepted{}; // cycle of each command handshake

  void start(const rubick_sim::AxiMemConfig& c, rtl::Rng& rng) {
    mem = std::make_unique<AxiMem>(c);
    shadow.resize(memBytes);
    for (auto& b : shadow)
      b = static_cast<uint8_t>(rng.bits(8));
    mem->store(0, shadow.data(), shadow.size());
    pins = mem->masterPins();
    taken.clear();
    accepted.clear();
    burstsThrough.clear();
    errorsWanted = errorsSeen = dones = bResponses = beats = 0;
    firstCmd = lastDone = -1;
    errBytes = 0;
  }
  bool inError(uint64_t a) const { return errBytes && a >= errAddr && a - errAddr < errBytes; }
  bool finished(Vtb& m) const {
    return todo.empty() && pending.empty() && !cmdValid && !io.busy(m);
  }
};

struct Bench {
  Vtb& m;
  std::vector<Lane>& lanes;
  rtl::Rng& rng;
  long cycle = 0;

  void step() {
    for (Lane& l : lanes) {
      if (!l.cmdValid && !l.todo.empty()) l.cmdValid = true;
      const axi::Cmd c = l.todo.empty() ? axi::Cmd{} : l.todo.front();
      l.io.setCmd(m, l.cmdValid, c.addr, c.len);
      // A beat offered stays offered until taken.
      if (!l.inValid) l.inValid = !l.pending.empty() && rng.chance(l.pValid);
      const std::vector<uint8_t> none(l.bytes, 0);
      l.io.setIn(m, l.inValid, l.inValid ? l.pending.front().data : none,
                 l.inValid ? l.pending.front().strb : none);
      l.io.drive(m, l.mem->pins());
    }
    m.aclk = 0;
    m.eval();
    for (Lane& l : lanes) {
      l.io.sample(m, l.pins);
      if (l.cmdValid && l.io.cmdReady(m)) accept(l);
      if (l.inValid && l.io.inReady(m)) take(l);
      if (l.mem->pins().bvalid && l.pins.bready) ++l.bResponses;
      if (l.io.error(m)) ++l.errorsSeen;
      if (l.io.done(m)) checkDone(l);
    }
    m.aclk = 1;
    m.eval();
    for (Lane& l : lanes)
      l.mem->tick(l.pins);
    ++cycle;
  }

  void accept(Lane& l) {
    const axi::Cmd c = l.todo.front();
    l.todo.pop_front();
    l.cmdValid = false;
    l.taken.push_back(c);
    l.accepted.push_back(cycle);
    if (l.firstCmd < 0) l.firstCmd = cycle;
    if (c.len == 0) return;
    l.mem->allowWrites(c.addr, c.len * l.bytes);
    const std::vector<axi::Burst> bursts = axi::split({c}, l.bytes, l.maxBurst);
    l.burstsThrough.push_back((l.burstsThrough.empty() ? 0 : l.burstsThrough.back()) +
                              bursts.size());
    for (const axi::Burst& b : bursts) {
      const uint64_t end = b.addr + (b.len + 1) * uint64_t(l.bytes);
      if (l.errBytes && b.addr < l.errAddr + l.errBytes && l.errAddr < end) ++l.errorsWanted;
    }
    for (uint64_t k = 0; k < c.len; ++k) {
      Beat beat{c.addr + k * l.bytes, std::vector<uint8_t>(l.bytes),
                std::vector<uint8_t>(l.bytes, 1)};
      for (auto& d : beat.data)
        d = static_cast<uint8_t>(rng.bits(8));
      // Half the beats with random strobes (all off now and then).
      if (l.randomStrobes && rng.chance(0.5))
        for (auto& st : beat.strb)
          st = static_cast<uint8_t>(rng.chance(0.6));
      l.pending.push_back(std::move(beat));
    }
  }

  void take(Lane& l) {
    const Beat& b = l.pending.front();
    for (unsigned i = 0; i < l.bytes; ++i)
      if (b.strb[i] && !l.inError(b.addr + i)) l.shadow[b.addr + i] = b.data[i];
    l.pending.pop_front();
    l.inValid = false;
    ++l.beats;
  }

  // done for command k (the k-th non-empty one) only once every burst up to it was answered.
  void checkDone(Lane& l) {
    if (l.dones >= l.burstsThrough.size())
      rtl::fail(kTest, cycle, std::string(l.name) + ": done without a command");
    const uint64_t need = l.burstsThrough[l.dones];
    if (l.bResponses < need)
      rtl::fail(kTest, cycle,
                std::string(l.name) + ": done for command " + std::to_string(l.dones) + " after " +
                    std::to_string(l.bResponses) + " write responses, needs " +
                    std::to_string(need));
    ++l.dones;
    l.lastDone = cycle;
  }

  void run(long limit, const std::string& what) {
    const long end = cycle + limit;
    auto done = [&] {
      for (Lane& l : lanes)
        if (!l.finished(m)) return false;
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
    step(); // the last done pulse comes the cycle after busy falls
  }
};

void checkLane(const Lane& l, const std::string& phase, long cycle) {
  const std::string who = phase + ", " + l.name + ": ";
  if (l.mem->violationCount()) rtl::fail(kTest, cycle, who + axi::violations(*l.mem));
  const std::string split = axi::checkBursts(*l.mem, l.taken, l.bytes, l.maxBurst, l.axiId, true);
  if (!split.empty()) rtl::fail(kTest, cycle, who + split);
  if (l.mem->stats().peakWrites > l.maxOutstanding)
    rtl::fail(kTest, cycle,
              who + rtl::mismatch("bursts in flight at most", l.mem->stats().peakWrites,
                                  l.maxOutstanding));
  if (l.dones != l.burstsThrough.size())
    rtl::fail(kTest, cycle, who + rtl::mismatch("done pulses", l.dones, l.burstsThrough.size()));
  if (l.errorsSeen != l.errorsWanted)
    rtl::fail(kTest, cycle, who + rtl::mismatch("error pulses", l.errorsSeen, l.errorsWanted));
  for (uint64_t a = 0; a < l.memBytes; ++a)
    if (l.mem->byte(a) != l.shadow[a])
      rtl::fail(kTest, cycle,
                who +
                    rtl::mismatch("memory byte " + std::to_string(a), l.mem->byte(a), l.shadow[a]));
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(4202);
  std::vector<Lane> lanes;
  lanes.push_back({"w (512-bit)", WR_PORTS(w), 64, 64, 4, 1, 256 * 1024, 200});
  lanes.push_back({"n (32-bit)", WR_PORTS(n), 4, 5, 2, 0, 256 * 1024, 300});
  lanes.push_back({"b (8-bit)", WR_PORTS(b), 1, 256, 1, 5, 8 * 1024, 1200});
  Bench bench{m, lanes, rng};

  // Reset: no command and no data may be taken.
  m.aresetn = 0;
  for (Lane& l : lanes) {
    l.io.setCmd(m, true, 0, 1);
    l.io.setIn(m, true, std::vector<uint8_t>(l.bytes, 0), std::vector<uint8_t>(l.bytes, 1));
    l.io.drive(m, AxiSlavePins{});
  }
  for (int i = 0; i < 3; ++i) {
    m.aclk = 0;
    m.eval();
    for (Lane& l : lanes)
      if (i > 0 && (l.io.cmdReady(m) || l.io.inReady(m))) // reset acts at the first edge
        rtl::fail(kTest, i, std::string(l.name) + ": ready in reset");
    m.aclk = 1;
    m.eval();
  }
  m.aresetn = 1;

  const axi::Phase phases[] = {
      {"basic", 8, 1, 16, false, 0.7, false},
      {"quarter bandwidth, latency 40", 40, 4, 16, false, 0.6, false},
      {"memory takes one burst at a time", 3, 1, 1, false, 0.9, false},
      {"latency 1, sparse data", 1, 1, 2, false, 0.25, false},
      {"DRAM timing", 5, 1, 8, true, 0.8, false},
      {"SLVERR region", 6, 2, 8, false, 0.8, true},
  };
  long commands = 0, beats = 0;
  for (const axi::Phase& p : phases) {
    for (Lane& l : lanes) {
      l.start(axi::modelConfig(p, l.bytes, l.memBytes), rng);
      l.pValid = p.streamReady;
      l.randomStrobes = !p.errors; // the error count assumes every byte of a burst is written
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
  }

  // 3. Bandwidth of the 512-bit engine: 64 KiB, data always valid. The other engines idle.
  std::vector<Lane> wide;
  wide.push_back({"w (512-bit)", WR_PORTS(w), 64, 64, 4, 1, 1024 * 1024, 0});
  Bench bw{m, wide, rng, bench.cycle};
  struct Case {
    unsigned bytesPerCycle, latency;
  };
  for (const Case& k : {Case{64, 100}, Case{16, 100}, Case{64, 20}}) {
    const uint64_t bytes = 64 * 1024;
    axi::Phase p{"bandwidth", k.latency, 64 / k.bytesPerCycle, 16, false, 1.0, false};
    Lane& l = wide[0];
    l.start(axi::modelConfig(p, l.bytes, l.memBytes), rng);
    l.pValid = 1.0;
    l.todo.push_back({4096, bytes / 64});
    bw.run(100000, "bandwidth");
    checkLane(l, "bandwidth", bw.cycle);
    const long measured = l.lastDone - l.firstCmd;
    const long data = long(bytes / k.bytesPerCycle);
    std::printf("%s: wrote %llu bytes at %u B/cycle, latency %u: %ld cycles to done "
                "(bytes/bandwidth = %ld), %.2f B/cycle sustained, %u bursts in flight at most\n",
                kTest, static_cast<unsigned long long>(bytes), k.bytesPerCycle, k.latency, measured,
                data, double(bytes) / double(measured), l.mem->stats().peakWrites);
    if (measured < data || measured > data + long(k.latency) + kSlack)
      rtl::fail(kTest, bw.cycle,
                "cycles of a 64 KiB write: " + std::to_string(measured) + ", expected " +
                    std::to_string(data) + " .. " + std::to_string(data + k.latency + kSlack));
  }

  // 4. One-burst commands are taken one per cycle (the next in the cycle the previous one's
  // burst is issued) until MAX_OUTSTANDING (4) bursts are in flight.
  {
    axi::Phase p{"single beats", 30, 1, 16, false, 1.0, false};
    Lane& l = wide[0];
    l.start(axi::modelConfig(p, l.bytes, l.memBytes), rng);
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
