// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_dma_wr.v (with rubick_dma_pack, rubick_dma_turn and
// rubick_axi_wr): eight engines (tb_rubick_dma_wr.v: column and row lanes, LANES 1, 3, 4, 16,
// ELEM_W 8, 16, 32, DATA_W 64 and 512) write random tiles into the AXI memory model of
// sim_templates/rubick_axi_mem.h, which may write only the tile's valid bytes (allowWrites: one
// region per row, rows_valid x cols_valid elements), so any other byte written is a violation.
//  1. Random geometries (aligned and unaligned bases and pitches, partial and empty tiles) under
//     random memory settings and gaps in the group stream: afterwards the memory around the tile
//     must equal a model (valid elements written, every other byte unchanged), the bursts must be
//     exactly one command per row (the aligned beats covering it) split by the engine's rule,
//     done must pulse once, error never.
//  2. Timing: with a fixed latency, in_valid always high and one beat per cycle (then beats 2
//     and 4 cycles apart; s2 limited to 2 bursts in flight), done must come exactly in the cycle
//     rubick_lib's arch::dmaWriteDone gives (the formula of rubick_dma_wr.v's header, over the
//     W beats' handshakes, the engine's outstanding limit and its two-entry W buffer).
//  3. Whole tiles, rows aligned and not: the cycles are printed (and checked as in 2).
#include "Vtb_rubick_dma_wr.h"
#include "axi_test.h"
#include "dram_replay.h"
#include "rubick/arch/DmaTiming.h"

#include <deque>
#include <functional>
#include <memory>

namespace {

using rubick_sim::AxiMasterPins;
using rubick_sim::AxiMem;
using rubick_sim::AxiSlavePins;
using Vtb = Vtb_rubick_dma_wr;

const char* kTest = "test_rubick_dma_wr";
constexpr uint64_t kMemBytes = 64 * 1024;

struct Cfg {
  const char* name;
  unsigned dataBits, elemBits, lanes;
  bool rowLanes;
  int rows, cols;
  unsigned maxBurst, maxOutstanding;
  unsigned bb() const { return dataBits / 8; }
  unsigned eb() const { return elemBits / 8; }
  unsigned be() const { return dataBits / elemBits; }
  int groupRows() const { return rowLanes ? (rows + int(lanes) - 1) / int(lanes) : rows; }
  int groupCols() const { return rowLanes ? cols : (cols + int(lanes) - 1) / int(lanes); }
};

struct Ports {
  std::function<void(Vtb&, const AxiSlavePins&)> drive;
  std::function<void(Vtb&, AxiMasterPins&)> sample;
  std::function<void(Vtb&, bool, uint64_t, uint64_t, int, int)> setCtl;
  std::function<void(Vtb&, bool, const std::vector<uint64_t>&, unsigned)> setIn;
  std::function<bool(Vtb&)> inReady, busy, done, error;
};

#define DW_PORTS(P)                                                                                \
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
        [](Vtb& m, bool start, uint64_t base, uint64_t pitch, int rv, int cv) {                    \
          m.P##_start = start;                                                                     \
          m.P##_base = static_cast<uint32_t>(base);                                                \
          m.P##_pitch = static_cast<uint32_t>(pitch);                                              \
          m.P##_rows_valid = rv;                                                                   \
          m.P##_cols_valid = cv;                                                                   \
        },                                                                                         \
        [](Vtb& m, bool v, const std::vector<uint64_t>& lanes, unsigned bits) {                    \
          m.P##_in_valid = v;                                                                      \
          for (size_t l = 0; l < lanes.size(); ++l)                                                \
            rtl::setBits(m.P##_in_data, int(l * bits), int(bits), lanes[l]);                       \
        },                                                                                         \
        [](Vtb& m) -> bool { return m.P##_in_ready; }, [](Vtb& m) -> bool { return m.P##_busy; },  \
        [](Vtb& m) -> bool { return m.P##_done; }, [](Vtb& m) -> bool { return m.P##_error; }      \
  }

struct Geometry {
  uint64_t base = 0, pitch = 0;
  int rv = 0, cv = 0;
};

// The row commands the engine must issue: the aligned beats covering each written row.
std::vector<axi::Cmd> rowCommands(const Cfg& c, const Geometry& g) {
  std::vector<axi::Cmd> out;
  if (g.cv == 0) return out;
  for (int r = 0; r < g.rv; ++r) {
    const uint64_t a = g.base + uint64_t(r) * g.pitch;
    const uint64_t first = a / c.bb() * c.bb();
    const uint64_t end = a + uint64_t(g.cv) * c.eb(); // one past the row's last byte
    out.push_back({first, (end - first + c.bb() - 1) / c.bb()});
  }
  return out;
}

// The done cycle after a start sampled at edge 0 with the stream valid from cycle 1:
// rubick_lib's timing of the engine (the header's formula, with beats `spacing` cycles apart and
// the engine's outstanding limit), so that the library's cycle prediction and the RTL are
// checked against each other.
// With `dram`, the memory's DRAM timing (closed banks at the start) through rubick_lib's replay
// of the row buffers.
long expectedDone(const Cfg& c, const Geometry& g, unsigned latency, unsigned spacing,
                  const rubick_sim::AxiMemConfig* dram = nullptr) {
  rubick::arch::DmaEngine d;
  d.elemBytes = c.eb();
  d.lanes = c.lanes;
  d.rowLanes = c.rowLanes;
  d.rows = c.rows;
  d.cols = c.cols;
  rubick::arch::BusTiming b;
  b.busBytes = c.bb();
  b.beatSpacing = spacing;
  b.latency = latency;
  b.burstBeats = c.maxBurst;
  b.outstanding = c.maxOutstanding;
  std::unique_ptr<rtl::DramReplay> replay;
  if (dram) {
    replay = std::make_unique<rtl::DramReplay>(*dram);
    b.memory = replay.get();
  }
  return long(rubick::arch::dmaWriteDone(d, {g.base, g.pitch, g.rv, g.cv}, b, 1));
}

struct Job {
  Geometry g;
  rubick_sim::AxiMemConfig mem;
  double pValid = 1;
  bool timed = false;
  const char* label = nullptr; // print the timing
};

struct Inst {
  Cfg cfg;
  Ports io;
  std::deque<Job> jobs{};
  // The running job.
  bool active = false, starting = false, inValid = false;
  Job job{};
  std::unique_ptr<AxiMem> mem{};
  AxiMasterPins pins{};
  std::vector<uint8_t> expect{};              // memory image the tile must leave
  std::deque<std::vector<uint64_t>> groups{}; // stream still to send
  long startCycle = 0;
  int dones = 0;
  long tiles = 0, timedTiles = 0, beats = 0;

  unsigned bits() const { return cfg.elemBits; }
};

struct Bench {
  Vtb& m;
  std::vector<Inst>& insts;
  rtl::Rng& rng;
  long cycle = 0;

  void begin(Inst& s) {
    s.job = s.jobs.front();
    s.jobs.pop_front();
    const Cfg& c = s.cfg;
    const Geometry& g = s.job.g;
    s.mem = std::make_unique<AxiMem>(s.job.mem);
    s.expect.resize(kMemBytes);
    for (auto& b : s.expect)
      b = static_cast<uint8_t>(rng.bits(8));
    s.mem->store(0, s.expect.data(), s.expect.size());
    s.pins = s.mem->masterPins();
    if (g.cv)
      for (int r = 0; r < g.rv; ++r)
        s.mem->allowWrites(g.base + uint64_t(r) * g.pitch, uint64_t(g.cv) * c.eb());
    // The tile's elements, the memory they must leave, and the group stream.
    std::vector<uint64_t> elem(size_t(c.rows * c.cols));
    for (auto& e : elem)
      e = rng.bits(int(c.elemBits));
    for (int r = 0; r < g.rv; ++r)
      for (int col = 0; col < g.cv; ++col)
        for (unsigned b = 0; b < c.eb(); ++b)
          s.expect[g.base + uint64_t(r) * g.pitch + uint64_t(col) * c.eb() + b] =
              static_cast<uint8_t>(elem[size_t(r * c.cols + col)] >> (8 * b));
    s.groups.clear();
    for (int gr = 0; gr < c.groupRows(); ++gr)
      for (int gc = 0; gc < c.groupCols(); ++gc) {
        std::vector<uint64_t> lanes(c.lanes);
        for (unsigned l = 0; l < c.lanes; ++l) {
          const int r = c.rowLanes ? gr * int(c.lanes) + int(l) : gr;
          const int col = c.rowLanes ? gc : gc * int(c.lanes) + int(l);
          lanes[l] = (r < c.rows && col < c.cols) ? elem[size_t(r * c.cols + col)]
                                                  : rng.bits(int(c.elemBits)); // past the edge
        }
        s.groups.push_back(std::move(lanes));
      }
    s.active = s.starting = true;
    s.inValid = false;
    s.dones = 0;
    s.startCycle = cycle;
  }

  void step() {
    for (Inst& s : insts) {
      if (!s.active && !s.jobs.empty()) begin(s);
      const Geometry& g = s.job.g;
      s.io.setCtl(m, s.starting, g.base, g.pitch, g.rv, g.cv);
      // Idle: junk offered, which must not be taken. A group offered stays offered until taken.
      if (!s.active)
        s.inValid = true;
      else if (!s.inValid && !s.starting)
        s.inValid = !s.groups.empty() && rng.chance(s.job.pValid);
      std::vector<uint64_t> junk(s.cfg.lanes);
      for (auto& j : junk)
        j = rng.bits(int(s.cfg.elemBits));
      s.io.setIn(m, s.inValid, s.active && s.inValid ? s.groups.front() : junk, s.bits());
      if (s.mem) s.io.drive(m, s.mem->pins());
    }
    m.aclk = 0;
    m.eval();
    for (Inst& s : insts) {
      const std::string who = std::string(s.cfg.name) + ": ";
      if (s.mem) s.io.sample(m, s.pins);
      if (s.inValid && s.io.inReady(m)) {
        if (!s.active || s.starting) rtl::fail(kTest, cycle, who + "group taken while idle");
        s.groups.pop_front();
        s.inValid = false;
      }
      if (s.io.error(m)) rtl::fail(kTest, cycle, who + "error pulse");
      // busy from cycle 1 until done.
      if (s.active && !s.starting && s.io.busy(m) == s.io.done(m))
        rtl::fail(kTest, cycle, who + (s.io.busy(m) ? "busy with done" : "not busy before done"));
      if (s.io.done(m)) {
        if (!s.active) rtl::fail(kTest, cycle, who + "done while idle");
        finish(s);
      }
      s.starting = false;
    }
    m.aclk = 1;
    m.eval();
    for (Inst& s : insts)
      if (s.mem) s.mem->tick(s.pins);
    ++cycle;
  }

  void finish(Inst& s) {
    const Cfg& c = s.cfg;
    const Geometry& g = s.job.g;
    const std::string who = std::string(c.name) + " tile base " + std::to_string(g.base) +
                            " pitch " + std::to_string(g.pitch) + " rows " + std::to_string(g.rv) +
                            " cols " + std::to_string(g.cv) + ": ";
    s.active = false;
    if (!s.groups.empty())
      rtl::fail(kTest, cycle,
                who + "done with " + std::to_string(s.groups.size()) + " groups left");
    if (s.mem->violationCount()) rtl::fail(kTest, cycle, who + axi::violations(*s.mem));
    const std::string split =
        axi::checkBursts(*s.mem, rowCommands(c, g), c.bb(), c.maxBurst, 0, true);
    if (!split.empty()) rtl::fail(kTest, cycle, who + split);
    // Everything around the tile (stray writes elsewhere are violations already).
    const uint64_t lo = g.base > 4096 ? g.base - 4096 : 0;
    const uint64_t hi = std::min(kMemBytes, g.base + uint64_t(c.rows + 1) * g.pitch + 4096);
    for (uint64_t a = lo; a < hi; ++a)
      if (s.mem->byte(a) != s.expect[a])
        rtl::fail(
            kTest, cycle,
            who + rtl::mismatch("memory byte " + std::to_string(a), s.mem->byte(a), s.expect[a]));
    const long doneAt = cycle - s.startCycle;
    if (s.job.timed) {
      const unsigned spacing = c.bb() / s.job.mem.bytesPerCycle;
      const long want =
          expectedDone(c, g, s.job.mem.latency, spacing, s.job.mem.dram ? &s.job.mem : nullptr);
      if (doneAt != want)
        rtl::fail(kTest, cycle,
                  who + "latency " + std::to_string(s.job.mem.latency) + ", spacing " +
                      std::to_string(spacing) + (s.job.mem.dram ? ", DRAM" : "") + ": " +
                      rtl::mismatch("done cycle", doneAt, want));
      ++s.timedTiles;
    }
    if (s.job.label) {
      uint64_t beats = 0;
      for (const axi::Cmd& cmd : rowCommands(c, g))
        beats += cmd.len;
      const long groups = long(c.groupRows()) * c.groupCols();
      // At latency 1 the last beat goes to the engine 5 cycles before done.
      std::printf("%s: %-3s %-9s %2dx%-2d: %4ld groups, %4llu beats: last beat in cycle %4ld = "
                  "max(groups, beats) + %ld\n",
                  kTest, c.name, s.job.label, g.rv, g.cv, groups,
                  static_cast<unsigned long long>(beats), doneAt - 5,
                  doneAt - 5 - std::max(groups, long(beats)));
    }
    ++s.tiles;
    s.beats += long(s.mem->stats().bytesWritten);
  }

  void run(long limit) {
    const long end = cycle + limit;
    auto busy = [&] {
      for (Inst& s : insts)
        if (s.active || !s.jobs.empty()) return true;
      return false;
    };
    while (busy()) {
      if (cycle >= end) rtl::fail(kTest, cycle, "tiles did not finish");
      step();
    }
  }
};

Geometry randomGeometry(const Cfg& c, rtl::Rng& rng) {
  Geometry g;
  g.rv = rng.chance(0.6) ? c.rows : rng.range(0, c.rows);
  g.cv = rng.chance(0.6) ? c.cols : rng.range(0, c.cols);
  const uint64_t rowBytes = uint64_t(g.cv) * c.eb();
  switch (rng.range(0, 3)) {
  case 0: // the rows back to back
    g.pitch = std::max<uint64_t>(rowBytes, c.eb());
    break;
  case 1: // a multiple of the bus width
    g.pitch = (rowBytes / c.bb() + uint64_t(rng.range(1, 2))) * c.bb();
    break;
  default: // anything
    g.pitch = rowBytes + uint64_t(rng.range(0, int(2 * c.be()))) * c.eb();
  }
  g.pitch = std::max<uint64_t>(g.pitch, c.eb());
  const uint64_t extent = uint64_t(c.rows) * g.pitch + uint64_t(c.cols) * c.eb();
  const uint64_t slots = (kMemBytes - extent - 8192) / c.eb();
  g.base = 4096 + uint64_t(rng.range(0, int(slots))) * c.eb();
  if (rng.chance(0.3)) g.base = g.base / c.bb() * c.bb(); // aligned
  return g;
}

rubick_sim::AxiMemConfig memConfig(const Cfg& c, unsigned latency, unsigned divisor,
                                   unsigned outstanding, bool dram) {
  rubick_sim::AxiMemConfig m;
  m.dataBytes = c.bb();
  m.bytesPerCycle = std::max(1u, c.bb() / divisor);
  m.latency = latency;
  m.maxOutstanding = outstanding;
  m.size = kMemBytes;
  m.dram = dram;
  m.banks = 4;
  m.rowBytes = 1024;
  m.recordBursts = true;
  return m;
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(1414);
  std::vector<Inst> insts;
  insts.push_back({{"c4", 64, 8, 4, false, 6, 13, 4, 64}, DW_PORTS(c4)});
  insts.push_back({{"c16", 512, 32, 16, false, 5, 40, 64, 64}, DW_PORTS(c16)});
  insts.push_back({{"c3", 64, 32, 3, false, 4, 7, 16, 64}, DW_PORTS(c3)});
  insts.push_back({{"c1", 512, 8, 1, false, 3, 70, 2, 64}, DW_PORTS(c1)});
  insts.push_back({{"r4", 64, 8, 4, true, 10, 12, 16, 64}, DW_PORTS(r4)});
  insts.push_back({{"r16", 512, 32, 16, true, 20, 24, 64, 64}, DW_PORTS(r16)});
  insts.push_back({{"r3", 64, 32, 3, true, 7, 5, 16, 64}, DW_PORTS(r3)});
  insts.push_back({{"s2", 64, 16, 4, false, 5, 9, 2, 2}, DW_PORTS(s2)});
  Bench bench{m, insts, rng};

  // Reset: nothing may be taken.
  m.aresetn = 0;
  for (int i = 0; i < 3; ++i) {
    for (Inst& s : insts) {
      s.io.setCtl(m, true, 0, 64, s.cfg.rows, s.cfg.cols);
      s.io.setIn(m, true, std::vector<uint64_t>(s.cfg.lanes, 0), s.bits());
      s.io.drive(m, AxiSlavePins{});
    }
    m.aclk = 0;
    m.eval();
    for (Inst& s : insts)
      if (i > 0 && (s.io.inReady(m) || s.io.busy(m)))
        rtl::fail(kTest, i, std::string(s.cfg.name) + ": ready or busy in reset");
    m.aclk = 1;
    m.eval();
  }
  m.aresetn = 1;
  for (Inst& s : insts)
    s.io.setCtl(m, false, 0, 64, 0, 0);

  // 1. Random tiles, random memory timing and stream gaps.
  for (Inst& s : insts)
    for (int i = 0; i < 40; ++i) {
      Job j;
      j.g = randomGeometry(s.cfg, rng);
      j.mem = memConfig(s.cfg, unsigned(rng.range(1, 40)), unsigned(rng.range(1, 4)),
                        unsigned(rng.range(1, 8)), rng.chance(0.3));
      j.pValid = rng.chance(0.3) ? 1.0 : 0.3 + 0.6 * rng.chance(0.5);
      s.jobs.push_back(j);
    }
  bench.run(2000000);

  // 2. Exact timing, data always valid: one beat per cycle, then beats 2 and 4 cycles apart
  // (a memory slower than the bus); s2's engine throttles on its outstanding limit.
  for (Inst& s : insts) {
    for (int i = 0; i < 90; ++i) {
      Job j;
      j.g = randomGeometry(s.cfg, rng);
      const unsigned lat[] = {1, 6, 33}, divisor[] = {1, 1, 2, 4};
      j.mem = memConfig(s.cfg, lat[i % 3], divisor[i % 4], 256, false);
      j.timed = true;
      s.jobs.push_back(j);
    }
  }
  bench.run(2000000);
  // DRAM timing, exact: rows of 256 bytes in 4 banks, so that bursts cross rows and a tile's
  // rows conflict in a bank.
  for (Inst& s : insts) {
    for (int i = 0; i < 30; ++i) {
      Job j;
      j.g = randomGeometry(s.cfg, rng);
      const unsigned lat[] = {1, 6, 33}, divisor[] = {1, 2};
      j.mem = memConfig(s.cfg, lat[i % 3], divisor[i % 2], 256, true);
      j.mem.rowBytes = 256;
      j.timed = true;
      s.jobs.push_back(j);
    }
  }
  bench.run(2000000);

  // 3. Throughput of whole tiles, rows aligned and not (checked against the formula as well).
  for (Inst& s : insts) {
    if (s.cfg.maxOutstanding < 64) continue;
    const Cfg& c = s.cfg;
    const uint64_t rowBytes = uint64_t(c.cols) * c.eb();
    Job j;
    j.mem = memConfig(c, 1, 1, 256, false);
    j.timed = true;
    j.g = {8192, (rowBytes + c.bb() - 1) / c.bb() * c.bb(), c.rows, c.cols};
    j.label = "aligned";
    s.jobs.push_back(j);
    j.g = {8192 + c.eb(), rowBytes + c.eb(), c.rows, c.cols};
    j.label = "unaligned";
    s.jobs.push_back(j);
  }
  bench.run(100000);

  long tiles = 0, timed = 0;
  for (const Inst& s : insts) {
    tiles += s.tiles;
    timed += s.timedTiles;
  }
  std::printf("%s: OK (%ld tiles, %ld with exact timing, %ld cycles)\n", kTest, tiles, timed,
              bench.cycle);
  return 0;
}
