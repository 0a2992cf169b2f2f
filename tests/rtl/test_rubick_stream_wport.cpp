// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_stream_wport.v: every port of tb_rubick_stream_wport.v (1, 2,
// 3, 4 and 16 write ports; columns of 1 to 32 words of 5 to 32 bits, the AiM-like 32-byte columns
// of int8 and of int32 words among them; runs whose last column is padded, a run of one word;
// the least DEPTH and a deeper one) against a model of the words the core writes, cycle by cycle:
//  - go high exactly when the cycle's words fit beside the words held (never when there is no
//    room), out_valid exactly when the column to send (min(WORDS, left) words) is held; go does
//    not move when out_ready, step or start do, out_valid and out_data not at all within a cycle;
//  - every column sent holds the words appended, in port order, bit-exact, the run's last column
//    padded with zeros; out_data held while the stream stalls; nothing after the run's TOTAL
//    words, and every run ends with all of them sent (no word lost, no deadlock at the least
//    DEPTH);
// under random write masks (held while the core is stopped, as a core's registers are), step =
// go or go with another port stopping the core, now and then a step against the rules (high with
// go low: nothing is appended), random out_ready, runs started after random gaps, aborted by a
// start in the middle now and then, and a reset in the middle of the runs. Then the rate: every
// port writing every cycle with out_ready high, where DEPTH >= WORDS + 2 NP - 1 and NP <= WORDS
// the core never stops.
#include "Vtb_rubick_stream_wport.h"
#include "rtl_test.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace {

using Vtb = Vtb_rubick_stream_wport;
const char* kTest = "test_rubick_stream_wport";

struct Config {
  const char* name;
  unsigned np, w, words, total, depth;
};

// Must match tb_rubick_stream_wport.v.
const Config kConfigs[] = {
    {"n1w1", 1, 8, 1, 7, 1},       {"n4w4", 4, 32, 4, 37, 7},    {"aim", 16, 8, 32, 1000, 47},
    {"aim32", 16, 32, 8, 256, 23}, {"n16w1", 16, 32, 1, 50, 16}, {"n3w5", 3, 5, 5, 23, 7},
    {"toy", 1, 32, 2, 5, 2},       {"n4w1", 4, 16, 1, 9, 4},     {"one", 2, 16, 3, 1, 4},
    {"deep", 4, 8, 4, 30, 12},
};

struct Ports {
  std::function<void(Vtb&, bool, uint64_t, const rtl::Value&, bool, bool)> set;
  std::function<bool(Vtb&)> go, outValid;
  std::function<rtl::Value(Vtb&, int)> outData;
};

#define PORTS(P)                                                                                   \
  Ports {                                                                                          \
    [](Vtb& m, bool start, uint64_t valid, const rtl::Value& data, bool step, bool ready) {        \
      m.P##_start = start;                                                                         \
      rtl::setBits(m.P##_valid, 0, int(sizeof(m.P##_valid) * 8), valid);                           \
      rtl::put(m.P##_data, data);                                                                  \
      m.P##_step = step;                                                                           \
      m.P##_out_ready = ready;                                                                     \
    },                                                                                             \
        [](Vtb& m) -> bool { return m.P##_go; }, [](Vtb& m) -> bool { return m.P##_out_valid; },   \
        [](Vtb& m, int w) { return rtl::get(m.P##_out_data, w); },                                 \
  }

int popcount(uint64_t x) {
  int n = 0;
  for (; x; x &= x - 1)
    ++n;
  return n;
}

struct Unit {
  Config cfg;
  Ports io;
  // The model: the words held, the run's words not sent yet.
  std::deque<uint64_t> held;
  uint64_t left = 0;
  // The core: this cycle's writes (held while it is stopped) and its run.
  uint64_t valid = 0;
  std::vector<uint64_t> data;
  bool stopped = false, inRun = false, start = false;
  uint64_t written = 0, sent = 0, nextWord = 0;
  int gap = 0;
  long runStart = 0;
  // How the core and the stream behave in this phase.
  double density = 0.5, pReady = 0.5, pBlock = 0, pWild = 0, pAbort = 0;
  bool fullRate = false;
  // This cycle.
  bool goM = false, outValidM = false, step = false, ready = false;
  bool stalled = false;
  rtl::Value stalledData;
  // Results.
  long cycles = 0, words = 0, columns = 0, stops = 0, runs = 0, aborts = 0, wild = 0;
  long rateCycles = 0, rateWords = 0, rateStops = 0;
};

struct Bench {
  Vtb& m;
  std::vector<Unit>& units;
  rtl::Rng& rng;
  long cycle = 0;

  void fail(const Unit& u, const std::string& what) const {
    rtl::fail(kTest, cycle, std::string(u.cfg.name) + ": " + what);
  }

  int colW(const Unit& u) const { return int(u.cfg.words * u.cfg.w); }

  rtl::Value dataValue(const Unit& u) const {
    rtl::Value v(int(u.cfg.np * u.cfg.w));
    for (unsigned p = 0; p < u.cfg.np; ++p)
      for (unsigned b = 0; b < u.cfg.w; ++b) {
        const unsigned bit = p * u.cfg.w + b;
        v.chunk[bit / 64] |= ((u.data[p] >> b) & 1) << (bit % 64);
      }
    return v;
  }

  // The column the model sends now: the first min(WORDS, left) words held, zeros after them.
  rtl::Value column(const Unit& u) const {
    rtl::Value v(colW(u));
    const uint64_t n = std::min<uint64_t>(u.cfg.words, u.left);
    for (uint64_t i = 0; i < n && i < u.held.size(); ++i)
      for (unsigned b = 0; b < u.cfg.w; ++b) {
        const uint64_t bit = i * u.cfg.w + b;
        v.chunk[bit / 64] |= ((u.held[i] >> b) & 1) << (bit % 64);
      }
    return v;
  }

  // The core's writes for the coming edge: a new mask after every edge it takes, no more words
  // than the run has left; the ports not writing drive junk.
  void pickWrites(Unit& u) {
    u.valid = 0;
    if (u.inRun && !u.start) {
      const uint64_t room = u.cfg.total - u.written;
      for (unsigned p = 0; p < u.cfg.np; ++p)
        if ((u.fullRate || rng.chance(u.density)) && uint64_t(popcount(u.valid)) < room)
          u.valid |= uint64_t(1) << p;
    }
    const int w = int(u.cfg.w), hi = std::min(w, 12);
    for (unsigned p = 0; p < u.cfg.np; ++p)
      u.data[p] = (u.valid >> p) & 1
                      // A running number in the upper bits (as many as fit), random below.
                      ? ((u.nextWord++ << (w - hi)) | rng.bits(w - hi)) & rtl::mask(w)
                      : rng.bits(w);
  }

  void apply(Unit& u) { u.io.set(m, u.start, u.valid, dataValue(u), u.step, u.ready); }

  void step(bool rst = false) {
    m.clk = 0;
    m.rst = rst;
    for (Unit& u : units) {
      u.start = false;
      if (!u.stopped || u.valid == 0) {
        if (!u.inRun) {
          if (u.gap > 0)
            --u.gap;
          else
            u.start = true;
        } else if (rng.chance(u.pAbort)) {
          u.start = true;
        }
      }
      if (!u.stopped || u.start) pickWrites(u);
      u.step = rng.chance(0.5);
      u.ready = rng.chance(0.5);
      apply(u);
    }
    m.eval();
    for (Unit& u : units) {
      const size_t k = size_t(popcount(u.valid));
      const uint64_t n = std::min<uint64_t>(u.cfg.words, u.left);
      u.goM = u.held.size() + k <= u.cfg.depth;
      u.outValidM = u.left != 0 && u.held.size() >= n;
      const bool go = u.io.go(m), valid = u.io.outValid(m);
      if (go != u.goM)
        fail(u, "go " + std::to_string(go) + ", expected " + std::to_string(u.goM) + " (" +
                    std::to_string(u.held.size()) + " words held, " + std::to_string(k) +
                    " written)");
      if (valid != u.outValidM)
        fail(u, "out_valid " + std::to_string(valid) + ", expected " + std::to_string(u.outValidM) +
                    " (" + std::to_string(u.held.size()) + " words held, " +
                    std::to_string(u.left) + " left)");
      const rtl::Value got = u.io.outData(m, colW(u));
      if ((valid || u.left == 0) && got != column(u))
        fail(u, "column " + std::to_string(u.sent / u.cfg.words) +
                    rtl::mismatch(" out_data", got.hex(), column(u).hex()));
      if (u.stalled && got != u.stalledData) fail(u, "out_data changed while stalled");
    }
    // go must not move with out_ready, step or start; out_* with nothing.
    for (Unit& u : units)
      u.io.set(m, rng.chance(0.5), u.valid, dataValue(u), rng.chance(0.5), rng.chance(0.5));
    m.eval();
    for (Unit& u : units) {
      if (u.io.go(m) != u.goM) fail(u, "go changed with out_ready, step or start");
      if (u.io.outValid(m) != u.outValidM) fail(u, "out_valid changed with an input");
      if (u.outValidM && u.io.outData(m, colW(u)) != column(u))
        fail(u, "out_data changed with an input");
      // The core steps with go, unless another port stops it; now and then against the rules.
      const bool wild = rng.chance(u.pWild);
      u.step = wild ? rng.chance(0.5) : u.goM && !rng.chance(u.pBlock);
      if (u.step && !u.goM) ++u.wild;
      u.ready = u.fullRate || rng.chance(u.pReady);
      apply(u);
    }
    m.eval();
    for (Unit& u : units)
      if (u.io.go(m) != u.goM) fail(u, "go changed with step or out_ready");
    m.clk = 1;
    m.eval();
    for (Unit& u : units) {
      ++u.cycles;
      const bool took = u.step && u.goM; // the port appends only with go, the core moves with it
      if (u.fullRate && u.valid) {
        ++u.rateCycles;
        if (took)
          u.rateWords += popcount(u.valid);
        else
          ++u.rateStops;
      }
      if (!took) ++u.stops;
      u.stalled = false;
      if (rst) {
        u.held.clear();
        u.left = 0;
        u.inRun = false;
        u.stopped = false;
        u.gap = rng.range(0, 3);
        continue;
      }
      if (u.start) {
        if (u.inRun) ++u.aborts;
        u.held.clear();
        u.left = u.cfg.total;
        u.inRun = true;
        u.written = u.sent = 0;
        u.runStart = cycle;
        u.stopped = false;
        continue;
      }
      if (u.outValidM && u.ready) {
        const uint64_t n = std::min<uint64_t>(u.cfg.words, u.left);
        u.held.erase(u.held.begin(), u.held.begin() + long(n));
        u.left -= n;
        u.sent += n;
        ++u.columns;
      } else {
        u.stalled = u.outValidM;
        if (u.stalled) u.stalledData = column(u);
      }
      if (took) {
        for (unsigned p = 0; p < u.cfg.np; ++p)
          if ((u.valid >> p) & 1) u.held.push_back(u.data[p]);
        u.written += uint64_t(popcount(u.valid));
        u.words += popcount(u.valid);
      }
      u.stopped = !took;
      if (u.inRun && u.left == 0) {
        if (u.written != u.cfg.total || !u.held.empty() || u.sent != u.cfg.total)
          fail(u, "run ended with " + std::to_string(u.written) + " words written, " +
                      std::to_string(u.sent) + " sent, " + std::to_string(u.held.size()) +
                      " held, of " + std::to_string(u.cfg.total));
        u.inRun = false;
        ++u.runs;
        u.gap = rng.chance(0.3) ? 0 : rng.range(1, 5);
      }
      const long limit = 200 * long(u.cfg.total) + 2000;
      if (u.inRun && cycle - u.runStart > limit)
        fail(u, "a run takes more than " + std::to_string(limit) + " cycles: deadlocked?");
    }
    ++cycle;
  }

  void run(long n) {
    for (long i = 0; i < n; ++i)
      step();
  }
};

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(2028);
  const Ports ports[] = {PORTS(n1w1), PORTS(n4w4), PORTS(aim),  PORTS(aim32), PORTS(n16w1),
                         PORTS(n3w5), PORTS(toy),  PORTS(n4w1), PORTS(one),   PORTS(deep)};
  std::vector<Unit> units;
  for (size_t i = 0; i < std::size(kConfigs); ++i) {
    Unit u;
    u.cfg = kConfigs[i];
    u.io = ports[i];
    u.data.assign(u.cfg.np, 0);
    u.stalledData = rtl::Value(int(u.cfg.words * u.cfg.w));
    units.push_back(std::move(u));
  }
  Bench bench{m, units, rng};

  // Reset: nothing offered, and then go high with anything written (the buffer empty).
  m.rst = 1;
  for (int i = 0; i < 3; ++i) {
    m.clk = 0;
    for (Unit& u : units)
      u.io.set(m, false, 0, rtl::Value(int(u.cfg.np * u.cfg.w)), true, true);
    m.eval();
    m.clk = 1;
    m.eval();
  }
  m.clk = 0;
  m.eval();
  for (Unit& u : units)
    if (u.io.outValid(m) || !u.io.go(m) ||
        u.io.outData(m, int(u.cfg.words * u.cfg.w)) != rtl::Value(int(u.cfg.words * u.cfg.w)))
      bench.fail(u, "after reset: out_valid high, go low or out_data not zero");
  m.rst = 0;

  // 1. Random segments: write densities, stream readiness, other ports stopping the core,
  //    aborted runs; a reset in the middle.
  const double density[] = {0.05, 0.3, 0.7, 1.0};
  const double pReady[] = {1.0, 0.7, 0.3, 0.05};
  for (int seg = 0; seg < 60; ++seg) {
    for (Unit& u : units) {
      u.density = density[rng.range(0, 3)];
      u.pReady = pReady[rng.range(0, 3)];
      u.pBlock = rng.chance(0.5) ? 0.0 : rng.chance(0.5) ? 0.2 : 0.6;
      u.pWild = rng.chance(0.7) ? 0.0 : 0.05;
      u.pAbort = rng.chance(0.8) ? 0.0 : 0.002;
    }
    bench.run(600);
    if (seg == 30) bench.step(true);
  }

  // 2. Rate: every port writes every cycle, the stream always takes the column.
  for (Unit& u : units) {
    u.fullRate = true;
    u.pBlock = u.pWild = u.pAbort = 0;
  }
  bench.run(4000);
  for (Unit& u : units) {
    const Config& c = u.cfg;
    const double rate = double(u.rateWords) / double(u.rateCycles);
    if (c.np <= c.words && c.depth >= c.words + 2 * c.np - 1 && u.rateStops != 0)
      bench.fail(u, "full rate: the core stopped in " + std::to_string(u.rateStops) + " of " +
                        std::to_string(u.rateCycles) + " cycles");
    std::printf("%s: %s: NP %u, WORDS %u, W %u, TOTAL %u, DEPTH %u: %.3f words a cycle with every "
                "port writing and out_ready high (%ld cycles)\n",
                kTest, c.name, c.np, c.words, c.w, c.total, c.depth, rate, u.rateCycles);
  }

  long words = 0, runs = 0, stops = 0;
  for (const Unit& u : units) {
    words += u.words;
    runs += u.runs;
    stops += u.stops;
    std::printf(
        "%s: %s: %ld runs (%ld aborted), %ld words in %ld columns, %ld cycles, %ld with the "
        "core stopped, %ld steps against the rules\n",
        kTest, u.cfg.name, u.runs, u.aborts, u.words, u.columns, u.cycles, u.stops, u.wild);
  }
  std::printf("%s: OK (%zu ports, %ld runs, %ld words, %ld cycles, %ld with the core stopped)\n",
              kTest, units.size(), runs, words, bench.cycle, stops);
  return 0;
}
