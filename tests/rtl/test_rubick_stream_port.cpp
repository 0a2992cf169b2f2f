// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_stream_port.v: every port of tb_rubick_stream_port.v (1, 4
// and 16 read ports; columns of 1, 4 and 32 words of 8 or 32 bits, the AiM-like 32-byte column
// of int8 words among them; the least DEPTH and a deeper one) against a model of the words each
// core cycle reads, cycle by cycle:
//  - go high exactly when the words the cycle's need reads are in the buffer (the model's
//    count), in_ready exactly when the column fits after the cycle's reads; go does not move
//    when in_valid, in_data, start or step do (no path from them);
//  - at every edge with step and go high, each reading port's rdata is the next word of the
//    stream, in ascending port order, bit-exact; every other rdata, and all of them while the
//    core is stopped, hold (the model's registers are compared every cycle);
//  - never in_ready low while go is low (the port never holds back a column the core waits
//    for), under random need masks (held while the core is stopped, as a core's registers
//    are), random stream gaps, starts at any time (also in the middle of a read), and step =
//    go, or go with another tensor's port stopping the core at random, or step at random.
// Then the throughput: a column offered every cycle and every port reading: exactly NP words a
// cycle from the cycle after the first column when WORDS >= NP, in_ready high every cycle (the
// stream's WORDS words a cycle) otherwise; and with random needs (single words, then every
// port: the pattern that drains the buffer most) go is never low after the first column when
// WORDS >= NP.
#include "Vtb_rubick_stream_port.h"
#include "rtl_test.h"

#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace {

using Vtb = Vtb_rubick_stream_port;
const char* kTest = "test_rubick_stream_port";

struct Config {
  const char* name;
  unsigned np, words, w, depth;
};

// Must match tb_rubick_stream_port.v.
const Config kConfigs[] = {
    {"n1w1", 1, 1, 8, 1},     {"n4w4", 4, 4, 32, 7},    {"aim", 16, 32, 8, 47},
    {"n4w32", 4, 32, 8, 35},  {"n16w1", 16, 1, 32, 16}, {"n16w4", 16, 4, 8, 19},
    {"n1w32", 1, 32, 32, 32}, {"n4w1", 4, 1, 32, 4},    {"deep", 4, 4, 8, 12},
};

struct Ports {
  std::function<void(Vtb&, bool, bool, const rtl::Value&, uint64_t, bool)> set;
  std::function<bool(Vtb&)> ready, go;
  std::function<rtl::Value(Vtb&, int)> rdata;
};

#define PORTS(P)                                                                                   \
  Ports {                                                                                          \
    [](Vtb& m, bool start, bool valid, const rtl::Value& data, uint64_t need, bool step) {         \
      m.P##_start = start;                                                                         \
      m.P##_step = step;                                                                           \
      m.P##_in_valid = valid;                                                                      \
      rtl::put(m.P##_in_data, data);                                                               \
      rtl::setBits(m.P##_need, 0, int(sizeof(m.P##_need) * 8), need);                              \
    },                                                                                             \
        [](Vtb& m) -> bool { return m.P##_in_ready; }, [](Vtb& m) -> bool { return m.P##_go; },    \
        [](Vtb& m, int w) { return rtl::get(m.P##_rdata, w); },                                    \
  }

uint64_t bitsOf(const rtl::Value& v, int lo, int w) {
  uint64_t r = 0;
  for (int b = 0; b < w; ++b) {
    const int i = lo + b;
    r |= ((v.chunk[size_t(i / 64)] >> (i % 64)) & 1) << b;
  }
  return r;
}

int popcount(uint64_t x) {
  int n = 0;
  for (; x; x &= x - 1)
    ++n;
  return n;
}

// How the core picks its need masks (a new one after every edge it takes).
enum class NeedMode { Random, All, None, Single, SingleThenAll };

struct Unit {
  Config cfg;
  Ports io;
  // The model: the words taken from the stream and not read yet, and each port's rdata.
  std::deque<uint64_t> buf;
  std::vector<uint64_t> rdata;
  std::vector<bool> known;
  // The stream: a column offered until taken.
  bool offering = false;
  std::vector<uint64_t> column;
  uint64_t nextWord = 0; // words are numbered into their upper bits, so a reorder shows
  double pValid = 1.0;
  // The core.
  uint64_t need = 0;
  bool stopped = false;
  NeedMode mode = NeedMode::Random;
  double density = 0.5;
  int singles = 0; // SingleThenAll: single-word reads left before reading with every port
  bool start = false;
  bool primed = false; // a column taken since the last start
  // step: go, unless another tensor's port stops the core (pBlock); or any value (pWild: the
  // port reads only with go high too).
  double pBlock = 0, pWild = 0;
  bool step = false;
  // This cycle.
  bool goM = false, readM = false, readyM = false;
  // Checks of the phase.
  bool keepsUp = false;  // stream offers every cycle: with WORDS >= NP, go never low once primed
  bool fullRate = false; // ...and every port reads: measure the words a cycle
  long rateCycles = 0, rateWords = 0;
  // Results.
  long cycles = 0, words = 0, columns = 0, stops = 0, starts = 0, probes = 0;
};

struct Bench {
  Vtb& m;
  std::vector<Unit>& units;
  rtl::Rng& rng;
  long cycle = 0;

  void fail(const Unit& u, const std::string& what) const {
    rtl::fail(kTest, cycle, std::string(u.cfg.name) + ": " + what);
  }

  uint64_t allPorts(const Unit& u) const { return rtl::mask(int(u.cfg.np)); }

  uint64_t pickNeed(Unit& u) {
    const uint64_t all = allPorts(u);
    switch (u.mode) {
    case NeedMode::All:
      return all;
    case NeedMode::None:
      return 0;
    case NeedMode::Single:
      return uint64_t(1) << rng.range(0, int(u.cfg.np) - 1);
    case NeedMode::SingleThenAll:
      if (u.singles > 0) {
        --u.singles;
        return uint64_t(1) << rng.range(0, int(u.cfg.np) - 1);
      }
      u.singles = rng.range(0, int(u.cfg.words + u.cfg.np));
      return all;
    case NeedMode::Random:
      break;
    }
    uint64_t n = 0;
    for (unsigned p = 0; p < u.cfg.np; ++p)
      if (rng.chance(u.density)) n |= uint64_t(1) << p;
    return n;
  }

  rtl::Value columnValue(const Unit& u, const std::vector<uint64_t>& words) const {
    rtl::Value v(int(u.cfg.words * u.cfg.w));
    for (unsigned i = 0; i < u.cfg.words; ++i)
      for (unsigned b = 0; b < u.cfg.w; ++b) {
        const unsigned bit = i * u.cfg.w + b;
        v.chunk[bit / 64] |= ((words[i] >> b) & 1) << (bit % 64);
      }
    return v;
  }

  void apply(Unit& u) {
    u.io.set(m, u.start, u.offering,
             u.offering ? columnValue(u, u.column) : rtl::Value(int(u.cfg.words * u.cfg.w)), u.need,
             u.step);
  }

  void step() {
    m.clk = 0;
    for (Unit& u : units) {
      if (!u.stopped) u.need = pickNeed(u);
      if (!u.offering && rng.chance(u.pValid)) {
        u.offering = true;
        u.column.clear();
        for (unsigned i = 0; i < u.cfg.words; ++i) {
          // A running number in the upper bits (as many as fit), random below.
          const int w = int(u.cfg.w), hi = std::min(w, 12);
          u.column.push_back(((u.nextWord++ << (w - hi)) | rng.bits(w - hi)) & rtl::mask(w));
        }
      }
      u.step = rng.chance(0.5); // first any value: go must not depend on it
      apply(u);
    }
    m.eval();
    for (Unit& u : units) {
      const size_t k = size_t(popcount(u.need));
      u.goM = u.buf.size() >= k;
      const bool go = u.io.go(m);
      if (go != u.goM)
        fail(u, "go " + std::to_string(go) + ", expected " + std::to_string(u.goM) + " (" +
                    std::to_string(u.buf.size()) + " words buffered, " + std::to_string(k) +
                    " needed)");
      u.step = rng.chance(u.pWild) ? rng.chance(0.5) : go && !rng.chance(u.pBlock);
      apply(u);
    }
    m.eval();
    for (Unit& u : units) {
      const size_t k = size_t(popcount(u.need));
      u.readM = u.step && u.goM;
      u.readyM = !u.start && u.buf.size() - (u.readM ? k : 0) + u.cfg.words <= u.cfg.depth;
      const bool go = u.io.go(m), ready = u.io.ready(m);
      if (go != u.goM) fail(u, "go changed with step");
      if (ready != u.readyM)
        fail(u, "in_ready " + std::to_string(ready) + ", expected " + std::to_string(u.readyM) +
                    " (" + std::to_string(u.buf.size()) + " words buffered, " +
                    std::to_string(u.readM ? k : 0) + " read)");
      if (!go && !ready && !u.start) fail(u, "in_ready low while the core waits for words");
      if (u.keepsUp && u.cfg.words >= u.cfg.np && u.primed && !go)
        fail(u, "the core stopped though a column was offered every cycle");
      if (u.fullRate && u.cfg.words < u.cfg.np && !ready && !u.start)
        fail(u, "in_ready low with every port reading: the stream's rate is lost");
    }
    // go must not move with the stream's inputs, start or step.
    for (Unit& u : units) {
      rtl::Value junk = rng.value(int(u.cfg.words * u.cfg.w));
      u.io.set(m, rng.chance(0.5), rng.chance(0.5), junk, u.need, rng.chance(0.5));
    }
    m.eval();
    for (Unit& u : units) {
      if (u.io.go(m) != u.goM) fail(u, "go changed with in_valid, in_data, start or step");
      ++u.probes;
      apply(u);
    }
    m.eval();
    m.clk = 1;
    m.eval();
    for (Unit& u : units) {
      ++u.cycles;
      if (u.fullRate && u.primed) {
        ++u.rateCycles;
        if (u.readM) u.rateWords += popcount(u.need);
      }
      if (u.readM) {
        for (unsigned p = 0; p < u.cfg.np; ++p)
          if ((u.need >> p) & 1) {
            u.rdata[p] = u.buf.front();
            u.known[p] = true;
            u.buf.pop_front();
            ++u.words;
          }
      } else {
        ++u.stops;
      }
      if (u.start) {
        u.buf.clear();
        u.primed = false;
        ++u.starts;
      } else if (u.offering && u.readyM) {
        u.buf.insert(u.buf.end(), u.column.begin(), u.column.end());
        u.offering = false;
        u.primed = true;
        ++u.columns;
      }
      u.stopped = !u.readM;
      u.start = false;
      const rtl::Value got = u.io.rdata(m, int(u.cfg.np * u.cfg.w));
      for (unsigned p = 0; p < u.cfg.np; ++p) {
        if (!u.known[p]) continue;
        const uint64_t g = bitsOf(got, int(p * u.cfg.w), int(u.cfg.w));
        if (g != u.rdata[p])
          fail(u, "port " + std::to_string(p) +
                      rtl::mismatch(" rdata", int64_t(g), int64_t(u.rdata[p])));
      }
    }
    ++cycle;
  }

  void run(long n) {
    for (long i = 0; i < n; ++i)
      step();
  }

  // A new run: start with the core idle (need 0).
  void startAll() {
    for (Unit& u : units) {
      u.start = true;
      u.stopped = false;
      u.mode = NeedMode::None;
    }
    step();
  }
};

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(2027);
  const Ports ports[] = {PORTS(n1w1),  PORTS(n4w4),  PORTS(aim),  PORTS(n4w32), PORTS(n16w1),
                         PORTS(n16w4), PORTS(n1w32), PORTS(n4w1), PORTS(deep)};
  std::vector<Unit> units;
  for (size_t i = 0; i < std::size(kConfigs); ++i) {
    Unit u;
    u.cfg = kConfigs[i];
    u.io = ports[i];
    u.rdata.assign(u.cfg.np, 0);
    u.known.assign(u.cfg.np, false);
    units.push_back(std::move(u));
  }
  Bench bench{m, units, rng};

  // Reset, a column offered: nothing taken.
  m.rst = 1;
  for (int i = 0; i < 3; ++i) {
    m.clk = 0;
    for (Unit& u : units)
      u.io.set(m, false, true, rng.value(int(u.cfg.words * u.cfg.w)), 0, false);
    m.eval();
    for (Unit& u : units)
      if (u.io.ready(m)) bench.fail(u, "in_ready high in reset");
    m.clk = 1;
    m.eval();
  }
  m.rst = 0;

  // 1. Random segments: stream gaps, need masks, starts at any time (in the middle of a read
  //    too: its words come from the old buffer).
  const double pValid[] = {1.0, 0.9, 0.5, 0.2, 0.05};
  const double density[] = {0.1, 0.5, 0.9, 1.0};
  const NeedMode modes[] = {NeedMode::Random, NeedMode::Random, NeedMode::Random,
                            NeedMode::All,    NeedMode::Single, NeedMode::SingleThenAll,
                            NeedMode::None};
  for (int seg = 0; seg < 80; ++seg) {
    for (Unit& u : units) {
      u.pValid = pValid[rng.range(0, 4)];
      u.density = density[rng.range(0, 3)];
      u.mode = modes[rng.range(0, 6)];
      u.start = rng.chance(0.3);
      u.pBlock = rng.chance(0.5) ? 0.0 : rng.chance(0.5) ? 0.2 : 0.6;
      u.pWild = rng.chance(0.7) ? 0.0 : 0.1;
    }
    for (int i = 0; i < 400; ++i) {
      for (Unit& u : units)
        if (rng.chance(0.002)) u.start = true;
      bench.step();
    }
  }

  // 2. Full rate: a column offered every cycle, every port reading.
  bench.startAll();
  for (Unit& u : units) {
    u.pValid = 1.0;
    u.mode = NeedMode::All;
    u.keepsUp = true;
    u.fullRate = true;
    u.pBlock = 0;
    u.pWild = 0;
  }
  bench.run(3000);
  for (Unit& u : units) {
    const Config& c = u.cfg;
    const double rate = double(u.rateWords) / double(u.rateCycles);
    if (c.words >= c.np && u.rateWords != long(c.np) * u.rateCycles)
      bench.fail(u, "full rate: " + std::to_string(u.rateWords) + " words in " +
                        std::to_string(u.rateCycles) + " cycles, expected " + std::to_string(c.np) +
                        " a cycle");
    if (c.words < c.np && u.rateWords < long(c.words) * u.rateCycles - long(c.depth))
      bench.fail(u, "stream-bound: " + std::to_string(u.rateWords) + " words in " +
                        std::to_string(u.rateCycles) + " cycles, expected about " +
                        std::to_string(c.words) + " a cycle");
    std::printf("%s: %s: NP %u, WORDS %u, W %u, DEPTH %u: %.3f words a cycle with every port "
                "reading and a column offered every cycle (%ld cycles)\n",
                kTest, c.name, c.np, c.words, c.w, c.depth, rate, u.rateCycles);
    u.fullRate = false;
  }

  // 3. The stream keeps up, the needs vary (single words between full reads drain the buffer
  //    most): with WORDS >= NP the core never stops after the first column.
  bench.startAll();
  for (int seg = 0; seg < 12; ++seg) {
    for (Unit& u : units) {
      u.pValid = 1.0;
      u.keepsUp = true;
      u.density = density[rng.range(0, 3)];
      u.mode = seg % 2 ? NeedMode::SingleThenAll : NeedMode::Random;
    }
    bench.run(500);
  }

  long words = 0, stops = 0;
  for (const Unit& u : units) {
    words += u.words;
    stops += u.stops;
    std::printf("%s: %s: %ld words read in %ld cycles, %ld columns taken, %ld cycles with go low, "
                "%ld starts\n",
                kTest, u.cfg.name, u.words, u.cycles, u.columns, u.stops, u.starts);
  }
  std::printf("%s: OK (%zu ports, %ld words, %ld cycles with go low, %ld cycles)\n", kTest,
              units.size(), words, stops, bench.cycle);
  return 0;
}
