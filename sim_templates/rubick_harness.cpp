// SPDX-License-Identifier: Apache-2.0
// rubick's self-checking testbench, the design-independent part: `rubick verify` compiles it
// once per work directory (WORK/.runtime/) and links it with each design's model and its
// rubick_dut.cpp, which drives the pins.
//
//   sim design.json stimulus.txt [--wave FILE.fst]
//
// It writes every input element (and the start values of an output that `+=` adds to, from the
// stimulus's `initial` section) into each of its bank places through the host port, pulses
// start, waits for done (with a cycle limit), reads every output element back and compares it
// with the expected value from the stimulus (computed by rubick's reference model). It prints
// the first mismatches with their indices and one line
//   RESULT PASS|FAIL mismatches=N elements=M measured=C predicted=P sim_cycles=S sim_seconds=T
// and exits 0 only when every element matches and the measured latency equals the predicted.

#include "rubick_sim_design.h"
#include "rubick_sim_values.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

// The design under test, defined by rubick_dut.cpp. Only built-in types cross this line, so a
// mismatch between the two files is a link error, never a silent layout difference.
bool dutOpen(const char* wave);
void dutControl(bool rst, bool start);
void dutWrite(bool we, uint32_t tensor, uint32_t bank, uint32_t addr, uint64_t data);
void dutRead(bool re, uint32_t tensor, uint32_t bank, uint32_t addr);
void dutTick(uint64_t cycle);
bool dutDone();
uint64_t dutReadData();
void dutClose();

namespace {

using rubick_sim::readDesign;
using rubick_sim::Tensor;

class Clock {
public:
  void tick() { dutTick(cycle_++); }
  uint64_t cycle() const { return cycle_; }

private:
  uint64_t cycle_ = 0;
};

} // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s design.json stimulus.txt [--wave FILE.fst]\n", argv[0]);
    return 2;
  }
  std::string wave;
  for (int i = 3; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--wave") wave = argv[i + 1];
  nlohmann::json j = nlohmann::json::parse(std::ifstream(argv[1]));
  std::vector<Tensor> ts = readDesign(j);
  std::vector<std::vector<int64_t>> initial; // per tensor: an output's start values (`+=`)
  {
    std::vector<size_t> counts;
    for (const Tensor& x : ts)
      counts.push_back(x.places.size());
    std::vector<std::vector<int64_t>> values;
    if (!rubick_sim::readStimulus(argv[2], counts, values, &initial)) return 2;
    for (size_t t = 0; t < ts.size(); ++t)
      ts[t].values = std::move(values[t]);
  }
  if (!dutOpen(wave.c_str())) {
    std::fprintf(stderr, "this build has no waveform support (build with --trace-fst)\n");
    return 2;
  }

  // sim_seconds covers every cycle sim_cycles counts, from reset to the last read.
  const auto t0 = std::chrono::steady_clock::now();
  Clock b;
  dutControl(true, false);
  dutWrite(false, 0, 0, 0, 0);
  dutRead(false, 0, 0, 0);
  b.tick();
  b.tick();
  dutControl(false, false);
  // Every input element into each of its places; an output with start values (`+=`) gets
  // them in its places too.
  for (size_t t = 0; t < ts.size(); ++t) {
    const Tensor& x = ts[t];
    if (x.output && initial[t].empty()) continue;
    const std::vector<int64_t>& v = x.output ? initial[t] : x.values;
    const uint64_t mask = x.bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << x.bits) - 1;
    for (size_t e = 0; e < x.places.size(); ++e)
      for (const auto& [bank, addr] : x.places[e]) {
        dutWrite(true, uint32_t(t), bank, addr, uint64_t(v[e]) & mask);
        b.tick();
      }
  }
  dutWrite(false, 0, 0, 0, 0);
  dutControl(false, true);
  b.tick(); // the edge that samples start
  const uint64_t started = b.cycle();
  dutControl(false, false);
  const uint64_t predicted = j["schedule"]["latency"].get<uint64_t>();
  const uint64_t limit = 2 * predicted + 1000;
  while (!dutDone() && b.cycle() - started < limit)
    b.tick();
  const bool finished = dutDone();
  const uint64_t measured = b.cycle() - started;
  size_t mismatches = 0, elements = 0;
  for (size_t t = 0; t < ts.size(); ++t) {
    const Tensor& x = ts[t];
    if (!x.output || !finished) continue;
    for (size_t e = 0; e < x.places.size(); ++e) {
      if (x.places[e].empty()) continue;
      ++elements;
      dutRead(true, uint32_t(t), x.places[e][0].first, x.places[e][0].second);
      b.tick();
      dutRead(false, uint32_t(t), x.places[e][0].first, x.places[e][0].second);
      int64_t got = rubick_sim::wrap(int64_t(dutReadData()), x.bits);
      int64_t want = rubick_sim::wrap(x.values[e], x.bits);
      if (got != want && mismatches++ < 10)
        std::printf("mismatch %s: expected %lld, got %lld\n",
                    rubick_sim::indexText(x.name, x.shape, e).c_str(), static_cast<long long>(want),
                    static_cast<long long>(got));
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const uint64_t simCycles = b.cycle();
  dutClose();
  bool pass = finished && mismatches == 0 && measured == predicted;
  if (!finished)
    std::printf("done did not rise within %llu cycles\n", static_cast<unsigned long long>(limit));
  // Microseconds, so small runs still give a usable cycles-per-second figure.
  std::printf("RESULT %s mismatches=%zu elements=%zu measured=%llu predicted=%llu sim_cycles=%llu "
              "sim_seconds=%.6f\n",
              pass ? "PASS" : "FAIL", mismatches, elements,
              static_cast<unsigned long long>(finished ? measured : 0),
              static_cast<unsigned long long>(predicted),
              static_cast<unsigned long long>(simCycles), secs);
  return pass ? 0 : 1;
}
