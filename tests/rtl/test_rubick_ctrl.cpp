// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_ctrl.v: every configuration instantiated in
// tb_rubick_ctrl.v, checked two ways.
//  1. Closed form: after rst, start sampled at edge 0 alone; tile n starts in cycle 1 + n*I
//     (I = INTERVAL, T = TAU_LAST - TAU_FIRST + 1 by default, N = product of EXTENTS). In cycle
//     c (after edge c-1) the controller must show busy = (1 <= c <= (N-1)*I + T), done after;
//     while busy, with n = min((c-1) / I, N-1) the current tile: tau = TAU_FIRST + c-1 - n*I,
//     stamps = the mixed-radix digits of n, step = (tau == TAU_FIRST + I - 1, or TAU_LAST on
//     the last tile), prev_on = (n >= 1 and tau <= TAU_LAST - I), and then tau_prev = tau + I;
//     stamps_prev = the digits of n - 1 (0 in tile 0; those of N - 1 once done).
//     next = (busy, the last tile, tau == TAU_FIRST + I - 1); run_done only in cycle
//     (N-1)*I + T + 1.
//  2. Random rst and start (also while busy, where it must be ignored, or with CHAIN in the
//     last tile from tau >= TAU_FIRST + I - 1 on, where it starts a chained run) against a C++
//     model of the specification, cycle by cycle, every output compared.
#include "Vtb_rubick_ctrl.h"
#include "rtl_test.h"

#include <vector>

namespace {

struct Config {
  const char* name;
  int tw;
  int64_t tau_first, tau_last;
  std::vector<uint64_t> extents; // dimension 0 (innermost) first
  int ow;
  int64_t intervalParam = 0; // 0: the default (T)
  bool chainParam = false;

  // Chained runs only exist with overlapped tiles.
  bool chain() const { return chainParam && interval() < tileCycles(); }

  int64_t tileCycles() const { return tau_last - tau_first + 1; }
  int64_t interval() const { return intervalParam ? intervalParam : tileCycles(); }
  int64_t cycles() const { return (tiles() - 1) * interval() + tileCycles(); }
  std::vector<uint64_t> digits(int64_t tile) const {
    std::vector<uint64_t> d;
    for (uint64_t e : extents) {
      d.push_back(uint64_t(tile) % e);
      tile /= int64_t(e);
    }
    return d;
  }
  int64_t tiles() const {
    int64_t n = 1;
    for (uint64_t e : extents)
      n *= int64_t(e);
    return n;
  }
};

// Must match tb_rubick_ctrl.v.
const Config kConfigs[] = {
    {"k0", 16, -2, 5, {1}, 16},         {"k1", 16, -2, 5, {3}, 4},
    {"k2", 8, -3, 2, {2, 1, 3}, 3},     {"k3", 16, -2, 4, {1, 1}, 1},
    {"k4", 16, 0, 0, {3, 2}, 2},        {"k5", 4, -8, 7, {4}, 2},
    {"k6", 5, 3, 6, {2, 2}, 8},         {"k7", 8, -2, 5, {3, 2}, 2, 5},
    {"k8", 4, -8, 7, {3}, 2, 9},        {"k9", 8, -2, 5, {3, 2}, 2, 5, true},
    {"k10", 4, -8, 7, {3}, 2, 9, true}, {"k11", 8, -1, 3, {1, 1}, 2, 0, true},
};
constexpr int kRandomCycles = 20000;

struct Ports {
  CData &rst, &start;
  const CData &busy, &done, &step, &prevOn, &next, &runDone;
  uint64_t (*tau)(const Vtb_rubick_ctrl&);
  uint64_t (*stamps)(const Vtb_rubick_ctrl&);
  uint64_t (*tauPrev)(const Vtb_rubick_ctrl&);
  uint64_t (*stampsPrev)(const Vtb_rubick_ctrl&);
};

// What the controller shows in one cycle.
struct State {
  bool busy = false, done = false, step = false, prevOn = false, next = false, runDone = false;
  int64_t tau = 0, tauPrev = 0; // tauPrev: compared only while prevOn
  std::vector<uint64_t> stamps, stampsPrev;

  std::string str() const {
    std::string s = "busy=" + std::to_string(busy) + " done=" + std::to_string(done) +
                    " step=" + std::to_string(step) + " tau=" + std::to_string(tau) +
                    " prev_on=" + std::to_string(prevOn) + " tau_prev=" + std::to_string(tauPrev) +
                    " next=" + std::to_string(next) + " run_done=" + std::to_string(runDone) +
                    " stamps=(";
    for (size_t i = 0; i < stamps.size(); ++i)
      s += (i ? "," : "") + std::to_string(stamps[i]);
    s += ") stamps_prev=(";
    for (size_t i = 0; i < stampsPrev.size(); ++i)
      s += (i ? "," : "") + std::to_string(stampsPrev[i]);
    return s + ")";
  }
  bool operator==(const State& o) const {
    return busy == o.busy && done == o.done && step == o.step && tau == o.tau &&
           stamps == o.stamps && prevOn == o.prevOn && (!prevOn || tauPrev == o.tauPrev) &&
           stampsPrev == o.stampsPrev && next == o.next && runDone == o.runDone;
  }
};

State observe(const Vtb_rubick_ctrl& m, const Ports& p, const Config& cfg) {
  State s;
  s.busy = p.busy;
  s.done = p.done;
  s.step = p.step;
  s.prevOn = p.prevOn;
  s.next = p.next;
  s.runDone = p.runDone;
  s.tau = rtl::sext(p.tau(m), cfg.tw);
  s.tauPrev = rtl::sext(p.tauPrev(m), cfg.tw);
  uint64_t packed = p.stamps(m), packedPrev = p.stampsPrev(m);
  for (size_t i = 0; i < cfg.extents.size(); ++i) {
    s.stamps.push_back(rtl::getBits(packed, int(i) * cfg.ow, cfg.ow));
    s.stampsPrev.push_back(rtl::getBits(packedPrev, int(i) * cfg.ow, cfg.ow));
  }
  return s;
}

// The specification, one clock edge at a time.
struct Model {
  const Config& cfg;
  bool busy = false, done = false, hasPrev = false;
  // Chained runs: the previous tile's own tau, whether it still runs and is a run's last tile;
  // the start input of the last edge (step depends on it).
  bool live = false, lastPrev = false, runDone = false, start = false;
  int64_t tau, tauPrev = 0;
  std::vector<uint64_t> count, countPrev;

  explicit Model(const Config& c)
      : cfg(c), tau(c.tau_first), count(c.extents.size(), 0), countPrev(c.extents.size(), 0) {}
  bool lastTile() const {
    bool last = true;
    for (size_t i = 0; i < count.size(); ++i)
      last = last && count[i] + 1 == cfg.extents[i];
    return last;
  }
  int64_t tauNext() const { return cfg.tau_first + cfg.interval() - 1; }
  bool chains(bool in) const { return cfg.chain() && busy && lastTile() && in && tau >= tauNext(); }
  bool step(bool in) const {
    return busy && (lastTile() ? tau == cfg.tau_last || chains(in) : tau == tauNext());
  }
  bool prevOn() const {
    return cfg.chain() ? busy && live : busy && hasPrev && tau <= cfg.tau_last - cfg.interval();
  }
  int64_t prevTau() const { return cfg.chain() ? tauPrev : tau + cfg.interval(); }
  void edge(bool rst, bool in) {
    const bool ended = busy && ((lastTile() && tau == cfg.tau_last) ||
                                (prevOn() && lastPrev && prevTau() == cfg.tau_last));
    runDone = !rst && ended;
    if (rst || (!busy && in)) {
      busy = !rst;
      done = false;
      hasPrev = live = lastPrev = false;
      tau = tauPrev = cfg.tau_first;
      std::fill(count.begin(), count.end(), 0);
      std::fill(countPrev.begin(), countPrev.end(), 0);
    } else if (!busy) {
    } else if (!step(in)) {
      live = live && tauPrev != cfg.tau_last;
      ++tau;
      ++tauPrev;
    } else {
      const bool last = lastTile(), chained = chains(in);
      countPrev = count;
      live = tau != cfg.tau_last;
      lastPrev = last;
      tauPrev = tau + 1;
      tau = cfg.tau_first;
      hasPrev = true;
      for (size_t i = 0; i < count.size(); ++i) {
        if (++count[i] < cfg.extents[i]) break;
        count[i] = 0;
      }
      if (last && !chained) {
        busy = false;
        done = true;
      }
    }
    start = in;
  }
  State state() const {
    const bool next = busy && lastTile() && tau == tauNext();
    return {busy, done, step(start), prevOn(), next, runDone, tau, prevTau(), count, countPrev};
  }
};

// Closed-form expectation for cycle c after a start sampled at edge 0.
State closedForm(const Config& cfg, int64_t c) {
  State s;
  const int64_t I = cfg.interval(), N = cfg.tiles();
  s.busy = c >= 1 && c <= cfg.cycles();
  s.done = c > cfg.cycles();
  s.tau = cfg.tau_first;
  s.stamps.assign(cfg.extents.size(), 0);
  s.stampsPrev = s.done ? cfg.digits(N - 1) : s.stamps;
  if (s.busy) {
    const int64_t n = std::min((c - 1) / I, N - 1);
    s.tau = cfg.tau_first + (c - 1) - n * I;
    s.stamps = cfg.digits(n);
    if (n >= 1) s.stampsPrev = cfg.digits(n - 1);
    s.step = s.tau == (n == N - 1 ? cfg.tau_last : cfg.tau_first + I - 1);
    s.prevOn = n >= 1 && s.tau <= cfg.tau_last - I;
    s.tauPrev = s.tau + I;
    s.next = n == N - 1 && s.tau == cfg.tau_first + I - 1;
  }
  s.runDone = c == cfg.cycles() + 1;
  return s;
}

} // namespace

#define PORTS(n)                                                                                   \
  Ports {                                                                                          \
    m.n##_rst, m.n##_start, m.n##_busy, m.n##_done, m.n##_step, m.n##_prev_on, m.n##_next,         \
        m.n##_run_done, [](const Vtb_rubick_ctrl& v) -> uint64_t { return v.n##_tau; },            \
        [](const Vtb_rubick_ctrl& v) -> uint64_t { return v.n##_stamps; },                         \
        [](const Vtb_rubick_ctrl& v) -> uint64_t { return v.n##_tau_prev; },                       \
        [](const Vtb_rubick_ctrl& v) -> uint64_t { return v.n##_stamps_prev; }                     \
  }

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_ctrl m(ctx.get());
  rtl::Rng rng(9);
  Ports ports[] = {PORTS(k0), PORTS(k1), PORTS(k2), PORTS(k3), PORTS(k4),  PORTS(k5),
                   PORTS(k6), PORTS(k7), PORTS(k8), PORTS(k9), PORTS(k10), PORTS(k11)};
  constexpr size_t kN = std::size(ports);
  auto fail = [](long cycle, const Config& cfg, const State& got, const State& want) {
    rtl::fail("test_rubick_ctrl", cycle,
              std::string(cfg.name) + ": got " + got.str() + ", expected " + want.str());
  };

  m.clk = 0;
  m.eval();

  // 1. Closed form. One reset cycle, start sampled at edge 0, then run until every
  // configuration has been done for a few cycles.
  for (auto& p : ports)
    p.rst = 1;
  m.eval();
  rtl::tick(m);
  int64_t longest = 0;
  for (const Config& cfg : kConfigs)
    longest = std::max(longest, cfg.cycles());
  for (int64_t edge = 0; edge <= longest + 3; ++edge) {
    for (auto& p : ports) {
      p.rst = 0;
      p.start = edge == 0;
    }
    m.eval();
    rtl::tick(m);
    for (size_t c = 0; c < kN; ++c) {
      State got = observe(m, ports[c], kConfigs[c]), want = closedForm(kConfigs[c], edge + 1);
      if (!(got == want)) fail(edge + 1, kConfigs[c], got, want);
    }
  }

  // 2. Random rst and start against the model (the model starts from the state phase 1 left).
  std::vector<Model> models;
  for (const Config& cfg : kConfigs) {
    models.emplace_back(cfg);
    models.back().edge(true, false);
    models.back().edge(false, true);
    for (int64_t e = 1; e <= longest + 3; ++e)
      models.back().edge(false, false);
  }
  for (long cycle = 0; cycle < kRandomCycles; ++cycle) {
    for (size_t c = 0; c < kN; ++c) {
      bool rst = rng.chance(0.003), start = rng.chance(0.1);
      ports[c].rst = rst;
      ports[c].start = start;
      models[c].edge(rst, start);
    }
    m.eval();
    rtl::tick(m);
    for (size_t c = 0; c < kN; ++c) {
      State got = observe(m, ports[c], kConfigs[c]), want = models[c].state();
      if (!(got == want)) fail(cycle, kConfigs[c], got, want);
    }
  }
  std::printf("test_rubick_ctrl: OK (%zu configurations, %ld + %d cycles)\n", kN, long(longest + 4),
              kRandomCycles);
  return 0;
}
