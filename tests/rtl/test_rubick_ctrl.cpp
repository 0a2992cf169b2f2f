// Unit test of rtl_templates/rubick_ctrl.v: every configuration instantiated in
// tb_rubick_ctrl.v, checked two ways.
//  1. Closed form: after rst, start sampled at edge 0 alone; in cycle c (after edge c-1) the
//     controller must show busy = (1 <= c <= N*T), done = (c > N*T), and while busy
//     tau = TAU_FIRST + (c-1) % T, stamps = the mixed-radix digits of tile (c-1) / T,
//     step = (tau == TAU_LAST); N = product of EXTENTS, T = TAU_LAST - TAU_FIRST + 1.
//  2. Random rst and start (also while busy, where it must be ignored) against a C++ model of
//     the specification, cycle by cycle, every output compared.
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

  int64_t tileCycles() const { return tau_last - tau_first + 1; }
  int64_t tiles() const {
    int64_t n = 1;
    for (uint64_t e : extents)
      n *= int64_t(e);
    return n;
  }
};

// Must match tb_rubick_ctrl.v.
const Config kConfigs[] = {
    {"k0", 16, -2, 5, {1}, 16},   {"k1", 16, -2, 5, {3}, 4},   {"k2", 8, -3, 2, {2, 1, 3}, 3},
    {"k3", 16, -2, 4, {1, 1}, 1}, {"k4", 16, 0, 0, {3, 2}, 2}, {"k5", 4, -8, 7, {4}, 2},
    {"k6", 5, 3, 6, {2, 2}, 8},
};
constexpr int kRandomCycles = 20000;

struct Ports {
  CData &rst, &start;
  const CData &busy, &done, &step;
  uint64_t (*tau)(const Vtb_rubick_ctrl&);
  uint64_t (*stamps)(const Vtb_rubick_ctrl&);
};

// What the controller shows in one cycle.
struct State {
  bool busy = false, done = false, step = false;
  int64_t tau = 0;
  std::vector<uint64_t> stamps;

  std::string str() const {
    std::string s = "busy=" + std::to_string(busy) + " done=" + std::to_string(done) +
                    " step=" + std::to_string(step) + " tau=" + std::to_string(tau) + " stamps=(";
    for (size_t i = 0; i < stamps.size(); ++i)
      s += (i ? "," : "") + std::to_string(stamps[i]);
    return s + ")";
  }
  bool operator==(const State& o) const {
    return busy == o.busy && done == o.done && step == o.step && tau == o.tau && stamps == o.stamps;
  }
};

State observe(const Vtb_rubick_ctrl& m, const Ports& p, const Config& cfg) {
  State s;
  s.busy = p.busy;
  s.done = p.done;
  s.step = p.step;
  s.tau = rtl::sext(p.tau(m), cfg.tw);
  uint64_t packed = p.stamps(m);
  for (size_t i = 0; i < cfg.extents.size(); ++i)
    s.stamps.push_back(rtl::getBits(packed, int(i) * cfg.ow, cfg.ow));
  return s;
}

// The specification, one clock edge at a time.
struct Model {
  const Config& cfg;
  bool busy = false, done = false;
  int64_t tau;
  std::vector<uint64_t> count;

  explicit Model(const Config& c) : cfg(c), tau(c.tau_first), count(c.extents.size(), 0) {}
  void edge(bool rst, bool start) {
    if (rst) {
      busy = done = false;
      tau = cfg.tau_first;
      std::fill(count.begin(), count.end(), 0);
    } else if (!busy) {
      if (start) {
        busy = true;
        done = false;
        tau = cfg.tau_first;
        std::fill(count.begin(), count.end(), 0);
      }
    } else if (tau != cfg.tau_last) {
      ++tau;
    } else {
      tau = cfg.tau_first;
      bool last = true;
      for (size_t i = 0; i < count.size(); ++i)
        last = last && count[i] + 1 == cfg.extents[i];
      for (size_t i = 0; i < count.size(); ++i) {
        if (++count[i] < cfg.extents[i]) break;
        count[i] = 0;
      }
      if (last) {
        busy = false;
        done = true;
      }
    }
  }
  State state() const { return {busy, done, busy && tau == cfg.tau_last, tau, count}; }
};

// Closed-form expectation for cycle c after a start sampled at edge 0.
State closedForm(const Config& cfg, int64_t c) {
  State s;
  int64_t T = cfg.tileCycles(), N = cfg.tiles();
  s.busy = c >= 1 && c <= N * T;
  s.done = c > N * T;
  s.tau = cfg.tau_first;
  s.stamps.assign(cfg.extents.size(), 0);
  if (s.busy) {
    s.tau = cfg.tau_first + (c - 1) % T;
    int64_t tile = (c - 1) / T;
    for (size_t i = 0; i < cfg.extents.size(); ++i) {
      s.stamps[i] = uint64_t(tile) % cfg.extents[i];
      tile /= int64_t(cfg.extents[i]);
    }
    s.step = s.tau == cfg.tau_last;
  }
  return s;
}

} // namespace

#define PORTS(n)                                                                                   \
  Ports {                                                                                          \
    m.n##_rst, m.n##_start, m.n##_busy, m.n##_done, m.n##_step,                                    \
        [](const Vtb_rubick_ctrl& v) -> uint64_t { return v.n##_tau; },                            \
        [](const Vtb_rubick_ctrl& v) -> uint64_t { return v.n##_stamps; }                          \
  }

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_ctrl m(ctx.get());
  rtl::Rng rng(9);
  Ports ports[] = {PORTS(k0), PORTS(k1), PORTS(k2), PORTS(k3), PORTS(k4), PORTS(k5), PORTS(k6)};
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
    longest = std::max(longest, cfg.tiles() * cfg.tileCycles());
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
