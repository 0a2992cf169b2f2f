// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_agu.v: every configuration instantiated in tb_rubick_agu.v
// against a C++ odometer, cycle by cycle. The expected base is the mixed-radix formula
// sum_i STRIDES[i] * counter_i modulo 2**AW (not the template's incremental constants).
// Random step, start and rst, including step together with start (start wins).
// base_prev must be the base before the last step (0 after rst or start).
// The pair p_* checks a rubick_ctrl (overlapped tiles) driving a rubick_agu: base follows the
// controller's stamps, base_prev its stamps_prev.
#include "Vtb_rubick_agu.h"
#include "rtl_test.h"

#include <vector>

namespace {

struct Config {
  const char* name;
  int aw;
  std::vector<uint64_t> extents, strides; // dimension 0 (innermost) first
};

// Must match tb_rubick_agu.v.
const Config kConfigs[] = {
    {"a0", 8, {1}, {0}},
    {"a1", 8, {5}, {3}},
    {"a2", 10, {4, 1, 3}, {7, 100, 33}},
    {"a3", 4, {3, 5}, {5, 9}},
    {"a4", 40, {2, 3}, {0xFFFFFFFF, 0x80000001}},
    {"a5", 16, {7, 2, 1, 3}, {0x1f3, 0x2a, 0x9c1, 0x77}},
};
constexpr int kCycles = 20000;

struct Odometer {
  std::vector<uint64_t> extents, count;

  explicit Odometer(std::vector<uint64_t> e) : extents(std::move(e)), count(extents.size(), 0) {}
  void clear() { std::fill(count.begin(), count.end(), 0); }
  void step() {
    for (size_t i = 0; i < count.size(); ++i) {
      if (++count[i] < extents[i]) return;
      count[i] = 0;
    }
  }
  uint64_t address(const std::vector<uint64_t>& strides, int aw) const {
    uint64_t a = 0;
    for (size_t i = 0; i < count.size(); ++i)
      a += strides[i] * count[i];
    return a & rtl::mask(aw);
  }
};

struct Ports {
  CData &rst, &start, &step;
  uint64_t (*base)(const Vtb_rubick_agu&);
  uint64_t (*basePrev)(const Vtb_rubick_agu&);
};

} // namespace

#define PORTS(n)                                                                                   \
  Ports {                                                                                          \
    m.n##_rst, m.n##_start, m.n##_step,                                                            \
        [](const Vtb_rubick_agu& v) -> uint64_t { return v.n##_base; },                            \
        [](const Vtb_rubick_agu& v) -> uint64_t { return v.n##_base_prev; }                        \
  }

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_agu m(ctx.get());
  rtl::Rng rng(8);
  Ports ports[] = {PORTS(a0), PORTS(a1), PORTS(a2), PORTS(a3), PORTS(a4), PORTS(a5)};
  std::vector<Odometer> models;
  std::vector<uint64_t> prev(std::size(kConfigs), 0); // the expected base_prev
  for (const Config& cfg : kConfigs)
    models.emplace_back(cfg.extents);

  const std::vector<uint64_t> pair_extents = {3, 1, 2}, pair_strides = {5, 40, 300};
  constexpr int kPairOW = 10, kPairAW = 12;

  long pair_moving = 0; // cycles in which the pair's stamps are not all 0

  m.clk = 0;
  m.eval();
  for (long cycle = 0; cycle < kCycles; ++cycle) {
    for (size_t c = 0; c < std::size(ports); ++c) {
      bool rst = cycle == 0 || rng.chance(0.002);
      bool start = rng.chance(0.01);
      bool step = rng.chance(0.7);
      ports[c].rst = rst;
      ports[c].start = start;
      ports[c].step = step;
      if (rst || start) {
        models[c].clear();
        prev[c] = 0;
      } else if (step) {
        prev[c] = models[c].address(kConfigs[c].strides, kConfigs[c].aw);
        models[c].step();
      }
    }
    m.p_rst = cycle == 0 || rng.chance(0.001);
    m.p_start = rng.chance(0.05);
    m.eval();
    rtl::tick(m);

    for (size_t c = 0; c < std::size(ports); ++c) {
      const Config& cfg = kConfigs[c];
      uint64_t want = models[c].address(cfg.strides, cfg.aw), got = ports[c].base(m);
      if (got != want)
        rtl::fail("test_rubick_agu", cycle,
                  rtl::mismatch(std::string(cfg.name) + ".base", int64_t(got), int64_t(want)));
      if (ports[c].basePrev(m) != prev[c])
        rtl::fail("test_rubick_agu", cycle,
                  rtl::mismatch(std::string(cfg.name) + ".base_prev", int64_t(ports[c].basePrev(m)),
                                int64_t(prev[c])));
    }

    uint64_t want = 0, wantPrev = 0;
    for (size_t i = 0; i < pair_extents.size(); ++i) {
      want += pair_strides[i] * rtl::getBits(m.p_stamps, int(i) * kPairOW, kPairOW);
      wantPrev += pair_strides[i] * rtl::getBits(m.p_stamps_prev, int(i) * kPairOW, kPairOW);
    }
    want &= rtl::mask(kPairAW);
    wantPrev &= rtl::mask(kPairAW);
    if (m.p_base_prev != wantPrev)
      rtl::fail("test_rubick_agu", cycle,
                rtl::mismatch("p.base_prev (stamps_prev " + std::to_string(m.p_stamps_prev) + ")",
                              int64_t(m.p_base_prev), int64_t(wantPrev)));
    pair_moving += m.p_stamps != 0;
    if (m.p_base != want)
      rtl::fail("test_rubick_agu", cycle,
                rtl::mismatch("p.base (stamps " + std::to_string(m.p_stamps) + ")",
                              int64_t(m.p_base), int64_t(want)));
  }
  if (pair_moving < kCycles / 10)
    rtl::fail("test_rubick_agu", kCycles, "the controller pair hardly ran");
  std::printf("test_rubick_agu: OK (%zu configurations and a controller pair, %d cycles)\n",
              std::size(ports), kCycles);
  return 0;
}
