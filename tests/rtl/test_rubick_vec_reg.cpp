// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_vec_reg.v (tb_rubick_vec_reg.v): five register files (N 1 to
// 12, W 1 to 64, LANES 1 to 8, NR 1 to 4, IDX_W 1 to 32; a short last group, a group wider than
// the vector, groups filling it exactly, N > 2**IDX_W) with every pin driven by the test, side by
// side, against a C++ model written from the header (the write side is rubick_dma_scatter's for
// one row of N columns with column lanes):
//  - random streams: in_valid with random gaps (and while idle, where nothing may be written),
//    random masks, random data on every lane (also lanes past N), runs after random idle gaps or
//    in the cycle busy falls, start pulses while busy (ignored), aresetn low now and then, also in
//    the middle of a run (busy, done and the group counter cleared, the registers kept);
//  - in every cycle busy, done and in_ready against the model: busy exactly from the cycle after
//    start to the cycle of the last group, done exactly 2 cycles after it, in_ready = busy;
//  - in every cycle, with that cycle's inputs applied and the clock low, every index the port can
//    name (or, with 32-bit indices, 0 .. N + 3, the largest and random ones) read on every port,
//    several indices per cycle with rd_idx changed between evaluations: the model's element for
//    an index < N, 0 otherwise; so a group taken at edge k is visible from cycle k + 1 and not
//    before, and masked lanes and lanes past N leave the registers as they were.
// The registers have no reset: the model takes their contents from the first reads (the context
// starts unreset registers random), and from then on every element must stay as written.
#include "Vtb_rubick_vec_reg.h"
#include "rtl_test.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace {

using rtl::Value;
using Vtb = Vtb_rubick_vec_reg;

const char* kTest = "test_rubick_vec_reg";

// Every port of the template (besides aclk and aresetn, shared by the instances).
#define VR_SIGNALS(X)                                                                              \
  X(start) X(busy) X(done) X(in_valid) X(in_ready) X(in_data) X(in_mask) X(rd_idx) X(rd_data)

enum Sig {
#define X(n) n,
  VR_SIGNALS(X)
#undef X
      kSigs
};

using Io = rtl::PinTable<Vtb, kSigs>;
#define IO_ENTRY(P, n) RTL_PIN_ENTRY(io, Vtb, P, n)
#define IO_TABLE(P)                                                                                \
  [] {                                                                                             \
    Io io;                                                                                         \
    VR_SIGNALS(IO_ENTRY_##P)                                                                       \
    return io;                                                                                     \
  }()
#define IO_ENTRY_a(n) IO_ENTRY(a, n)
#define IO_ENTRY_b(n) IO_ENTRY(b, n)
#define IO_ENTRY_c(n) IO_ENTRY(c, n)
#define IO_ENTRY_d(n) IO_ENTRY(d, n)
#define IO_ENTRY_e(n) IO_ENTRY(e, n)

struct Cfg {
  const char* name;
  int n, w, lanes, nr, idxW;
  int groups() const { return (n + lanes - 1) / lanes; }
  int width(int s) const {
    switch (s) {
    case in_data:
      return lanes * w;
    case in_mask:
      return lanes;
    case rd_idx:
      return nr * idxW;
    case rd_data:
      return nr * w;
    default:
      return 1;
    }
  }
  // The indices an idxW-bit index can name: 2**idxW.
  uint64_t names() const { return idxW >= 64 ? ~uint64_t{0} : uint64_t{1} << idxW; }
};

// The test top's instances (tb_rubick_vec_reg.v).
const Cfg kCfgs[] = {
    {"a", 10, 32, 4, 3, 8},  {"b", 1, 1, 1, 1, 1},  {"c", 5, 64, 8, 2, 3},
    {"d", 12, 16, 3, 4, 32}, {"e", 10, 8, 4, 2, 2},
};

// The header's behaviour, cycle by cycle: what the outputs are in the current cycle, and the
// state after the coming edge.
struct Model {
  std::vector<uint64_t> vec; // the elements (the nameable ones checked)
  bool busy = false;
  long doneAt = -1;  // the cycle done pulses in
  int taken = 0;     // groups taken in this run
  long startAt = -1; // the edge of the run's start
  long runs = 0, ignoredStarts = 0, idleValids = 0, aborted = 0, maskedLanes = 0, pastLanes = 0;
};

struct Inputs {
  bool start = false, valid = false;
  Value data, mask;
};

class Bench {
public:
  Bench(Vtb& m, const Cfg& c, const Io& io, uint64_t seed) : m_(m), c_(c), io_(io), rng_(seed) {
    mod_.vec.assign(size_t(c.n), 0);
  }

  void set(Sig s, const Value& v) { io_.set[s](m_, v); }
  Value get(Sig s) { return io_.get[s](m_, c_.width(s)); }
  bool get1(Sig s) { return rtl::bit(get(s), 0); }
  const Model& model() const { return mod_; }
  const Cfg& cfg() const { return c_; }

  // The stimulus probabilities of the current phase.
  double pValid = 1, pStartIdle = 0.3, pStartBusy = 0.1, pFullMask = 0.5;

  void idleInputs() {
    in_ = Inputs{false, false, Value(c_.width(in_data)), Value(c_.width(in_mask))};
    apply();
  }

  // This cycle's inputs, random by the phase's probabilities.
  void drive() {
    in_.start = rng_.chance(mod_.busy ? pStartBusy : pStartIdle);
    in_.valid = rng_.chance(pValid);
    in_.data = rng_.value(c_.width(in_data));
    in_.mask = rng_.chance(pFullMask) ? Value(c_.lanes, rtl::mask(c_.lanes))
                                      : rng_.value(c_.width(in_mask));
    apply();
  }

  // The outputs of this cycle (clock low, inputs applied) against the model.
  void check(long cycle) {
    const bool doneNow = cycle == mod_.doneAt;
    if (get1(busy) != mod_.busy) fail(cycle, rtl::mismatch("busy", get1(busy), mod_.busy) + run());
    if (get1(in_ready) != mod_.busy)
      fail(cycle, rtl::mismatch("in_ready", get1(in_ready), mod_.busy) + run());
    if (get1(done) != doneNow) fail(cycle, rtl::mismatch("done", get1(done), doneNow) + run());
    checkReads(cycle);
  }

  // Seeds the model with the registers' contents before anything is written.
  void seed(long cycle) {
    for (int e = 0; e < c_.n; ++e)
      if (uint64_t(e) < c_.names()) {
        Value idx(c_.width(rd_idx));
        for (int p = 0; p < c_.nr; ++p)
          rtl::setFld(idx, p * c_.idxW, c_.idxW, uint64_t(e));
        set(rd_idx, idx);
        m_.eval();
        mod_.vec[size_t(e)] = rtl::fld(get(rd_data), 0, c_.w);
      }
    checkReads(cycle);
  }

  // The edge ending this cycle, with aresetn as given.
  void edge(long cycle, bool resetn) {
    if (!resetn) {
      if (mod_.busy) ++mod_.aborted;
      mod_.busy = false;
      if (mod_.doneAt > cycle) mod_.doneAt = -1;
      mod_.taken = 0;
      return;
    }
    const bool wasBusy = mod_.busy;
    if (in_.start && !wasBusy) {
      mod_.busy = true;
      mod_.taken = 0;
      mod_.startAt = cycle;
    } else if (in_.start) {
      ++mod_.ignoredStarts;
    }
    if (in_.valid && !wasBusy) ++mod_.idleValids;
    if (in_.valid && wasBusy) {
      const int g = mod_.taken;
      for (int l = 0; l < c_.lanes; ++l) {
        const int e = g * c_.lanes + l;
        if (e >= c_.n) {
          ++mod_.pastLanes;
          continue;
        }
        if (!rtl::bit(in_.mask, l)) {
          ++mod_.maskedLanes;
          continue;
        }
        mod_.vec[size_t(e)] = rtl::fld(in_.data, l * c_.w, c_.w);
      }
      if (++mod_.taken == c_.groups()) {
        mod_.busy = false;
        mod_.doneAt = cycle + 2;
        ++mod_.runs;
      }
    }
  }

private:
  void apply() {
    set(start, Value(1, in_.start));
    set(in_valid, Value(1, in_.valid));
    set(in_data, in_.data);
    set(in_mask, in_.mask);
  }

  std::string run() const {
    return " (run " + std::to_string(mod_.runs) + ", started at edge " +
           std::to_string(mod_.startAt) + ", " + std::to_string(mod_.taken) + " of " +
           std::to_string(c_.groups()) + " groups taken)";
  }

  [[noreturn]] void fail(long cycle, const std::string& what) const {
    rtl::fail(kTest, cycle, std::string(c_.name) + ": " + what);
  }

  uint64_t expected(uint64_t idx) const { return idx < uint64_t(c_.n) ? mod_.vec[size_t(idx)] : 0; }

  // Every nameable index (at most N + 4 of them in order, then the largest and random ones),
  // NR at a time in a random order over the ports, each batch evaluated and checked.
  void checkReads(long cycle) {
    std::vector<uint64_t> idx;
    const uint64_t sweep = std::min<uint64_t>(c_.names(), uint64_t(c_.n) + 4);
    for (uint64_t i = 0; i < sweep; ++i)
      idx.push_back(i);
    if (c_.names() > sweep) {
      idx.push_back(c_.names() - 1);
      idx.push_back(c_.names() / 2);
      for (int k = 0; k < 3; ++k)
        idx.push_back(rng_.bits(c_.idxW));
    }
    for (size_t i = idx.size(); i > 1; --i)
      std::swap(idx[i - 1], idx[size_t(rng_.range(0, int(i) - 1))]);
    while (idx.size() % size_t(c_.nr))
      idx.push_back(rng_.bits(c_.idxW));
    for (size_t b = 0; b < idx.size(); b += size_t(c_.nr)) {
      Value v(c_.width(rd_idx));
      for (int p = 0; p < c_.nr; ++p)
        rtl::setFld(v, p * c_.idxW, c_.idxW, idx[b + size_t(p)]);
      set(rd_idx, v);
      m_.eval();
      const Value got = get(rd_data);
      for (int p = 0; p < c_.nr; ++p) {
        const uint64_t i = idx[b + size_t(p)];
        const uint64_t g = rtl::fld(got, p * c_.w, c_.w), want = expected(i);
        if (g != want)
          fail(cycle, "port " + std::to_string(p) + " index " + std::to_string(i) + ": " +
                          rtl::mismatch("rd_data", Value(c_.w, g).hex(), Value(c_.w, want).hex()) +
                          run());
      }
    }
  }

  Vtb& m_;
  const Cfg& c_;
  const Io& io_;
  rtl::Rng rng_;
  Model mod_;
  Inputs in_;
};

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  const Io ios[] = {IO_TABLE(a), IO_TABLE(b), IO_TABLE(c), IO_TABLE(d), IO_TABLE(e)};
  std::vector<Bench> benches;
  for (size_t i = 0; i < std::size(kCfgs); ++i)
    benches.emplace_back(m, kCfgs[i], ios[i], 1000 + i);
  rtl::Rng rng(7);

  // Reset with start and in_valid high: nothing starts.
  long cycle = 0;
  m.aclk = 0;
  m.aresetn = 0;
  for (Bench& b : benches) {
    b.idleInputs();
    b.set(start, Value(1, 1));
    b.set(in_valid, Value(1, 1));
  }
  for (int i = 0; i < 3; ++i, ++cycle) {
    m.aclk = 0;
    m.eval();
    m.aclk = 1;
    m.eval();
  }
  m.aclk = 0;
  m.aresetn = 1;
  for (Bench& b : benches) {
    b.idleInputs();
    m.eval();
    b.seed(cycle);
  }

  // Phases: (pValid, pStartIdle, pStartBusy, pFullMask, pReset, cycles).
  struct Phase {
    double valid, startIdle, startBusy, fullMask, reset;
    long cycles;
  };
  const Phase phases[] = {
      {1.0, 1.0, 0.0, 1.0, 0.0, 300},   // back to back, full groups
      {0.6, 0.3, 0.2, 0.5, 0.0, 3000},  // gaps, masks, starts while busy
      {0.2, 0.1, 0.5, 0.3, 0.0, 3000},  // sparse groups, many ignored starts
      {1.0, 1.0, 1.0, 0.0, 0.0, 1000},  // start held high: a run right after each one
      {0.7, 0.5, 0.3, 0.5, 0.01, 5000}, // and resets, also in the middle of runs
  };
  bool resetn = true;
  long resets = 0;
  for (const Phase& ph : phases)
    for (long t = 0; t < ph.cycles; ++t, ++cycle) {
      m.aclk = 0;
      if (resetn && rng.chance(ph.reset)) {
        resetn = false;
        ++resets;
      } else if (!resetn && rng.chance(0.5)) {
        resetn = true;
      }
      m.aresetn = resetn;
      for (Bench& b : benches) {
        b.pValid = ph.valid;
        b.pStartIdle = ph.startIdle;
        b.pStartBusy = ph.startBusy;
        b.pFullMask = ph.fullMask;
        b.drive();
      }
      m.eval();
      for (Bench& b : benches)
        b.check(cycle);
      m.aclk = 1;
      m.eval();
      for (Bench& b : benches)
        b.edge(cycle, resetn);
    }

  for (Bench& b : benches) {
    const Model& s = b.model();
    const Cfg& c = b.cfg();
    std::printf("%s: %s (N %d, W %d, LANES %d, NR %d, IDX_W %d): %ld runs, %ld aborted by "
                "reset, %ld starts ignored, %ld groups offered while idle, %ld masked lanes, %ld "
                "lanes past N\n",
                kTest, c.name, c.n, c.w, c.lanes, c.nr, c.idxW, s.runs, s.aborted, s.ignoredStarts,
                s.idleValids, s.maskedLanes, s.pastLanes);
    if (s.runs < 100 || s.ignoredStarts < 100 || s.idleValids < 100 || s.maskedLanes < 100 ||
        (c.n % c.lanes != 0 && s.pastLanes < 100) || s.aborted < 1)
      rtl::fail(kTest, cycle, std::string(c.name) + ": too little coverage");
  }
  if (resets < 10) rtl::fail(kTest, cycle, "too few resets");
  std::printf("%s: OK (%zu register files, %ld cycles, %ld resets)\n", kTest, benches.size(), cycle,
              resets);
  return 0;
}
