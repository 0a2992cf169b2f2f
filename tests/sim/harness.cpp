// A self-checking Verilator testbench for any design `rubick emit` writes (built with the
// design's filelist and --prefix Vdut). It reads design.json, fills the input banks with random
// values (extremes included) through the host port, runs, reads every output element back and
// compares it with a direct evaluation of the statement (sum over the domain of the product of
// the inputs, wrapped to the output width). It also checks the cycle count against the
// schedule. Usage: sim design.json [seed]. Exit status 0 only when everything matches.

#include "Vdut.h"
#include "verilated.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using Json = nlohmann::json;

namespace {

struct Tensor {
  std::string name;
  bool output = false;
  int bits = 0;
  std::vector<int64_t> shape;
  std::vector<std::vector<int64_t>> coeffs;
  std::vector<int64_t> constant;
  std::vector<std::vector<std::pair<int, int64_t>>> places;
  std::vector<int64_t> values;
};

int64_t wrap(int64_t v, int bits) {
  if (bits >= 64) return v;
  uint64_t m = (uint64_t(1) << bits) - 1;
  uint64_t u = uint64_t(v) & m;
  if (u >> (bits - 1)) u |= ~m;
  return int64_t(u);
}

class Bench {
public:
  explicit Bench(Vdut* dut) : dut_(dut) {}
  void tick() {
    dut_->clk = 0;
    dut_->eval();
    dut_->clk = 1;
    dut_->eval();
    ++cycle_;
  }
  uint64_t cycle() const { return cycle_; }

private:
  Vdut* dut_;
  uint64_t cycle_ = 0;
};

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s design.json [seed]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  Json j = Json::parse(in);
  unsigned seed = argc > 2 ? static_cast<unsigned>(std::stoul(argv[2])) : 1;
  std::mt19937_64 rng(seed);

  std::vector<int64_t> extent;
  for (const Json& l : j["loops"])
    extent.push_back(l["extent"].get<int64_t>());
  std::vector<Tensor> ts;
  for (const Json& t : j["tensors"]) {
    Tensor x;
    x.name = t["name"];
    x.output = t["role"] == "output";
    x.bits = t["element_bits"];
    x.shape = t["shape"].get<std::vector<int64_t>>();
    x.coeffs = t["access"]["coeffs"].get<std::vector<std::vector<int64_t>>>();
    x.constant = t["access"]["constant"].get<std::vector<int64_t>>();
    for (const Json& e : t["elements"]) {
      std::vector<std::pair<int, int64_t>> ps;
      for (const Json& p : e)
        ps.push_back({p[0].get<int>(), p[1].get<int64_t>()});
      x.places.push_back(ps);
    }
    x.values.assign(x.places.size(), 0);
    ts.push_back(std::move(x));
  }

  VerilatedContext ctx;
  Vdut* dut = new Vdut(&ctx);
  Bench b(dut);
  dut->rst = 1;
  dut->start = 0;
  dut->host_we = 0;
  dut->host_re = 0;
  b.tick();
  b.tick();
  dut->rst = 0;

  // Random inputs spanning the type, with the extremes in the first elements.
  for (size_t t = 0; t < ts.size(); ++t) {
    Tensor& x = ts[t];
    if (x.output) continue;
    int64_t lo = -(int64_t(1) << (x.bits - 1)), hi = (int64_t(1) << (x.bits - 1)) - 1;
    std::uniform_int_distribution<int64_t> dist(lo, hi);
    for (size_t e = 0; e < x.values.size(); ++e) {
      x.values[e] = e == 0 ? lo : e == 1 ? hi : dist(rng);
      for (const auto& [bank, addr] : x.places[e]) {
        dut->host_we = 1;
        dut->host_wtensor = static_cast<uint32_t>(t);
        dut->host_wbank = static_cast<uint32_t>(bank);
        dut->host_waddr = static_cast<uint32_t>(addr);
        dut->host_wdata = static_cast<uint32_t>(uint64_t(x.values[e]) & ((uint64_t(1) << x.bits) - 1));
        b.tick();
      }
    }
  }
  dut->host_we = 0;

  // Run.
  dut->start = 1;
  b.tick(); // the edge that samples start
  const uint64_t started = b.cycle();
  dut->start = 0;
  const uint64_t limit = started + 4 * j["schedule"]["latency"].get<uint64_t>() + 1000;
  while (!dut->done && b.cycle() < limit)
    b.tick();
  if (!dut->done) {
    std::fprintf(stderr, "FAIL: done never rose within %llu cycles\n",
                 static_cast<unsigned long long>(limit - started));
    return 1;
  }
  // Edges from the one that sampled start to the one that raised done.
  const uint64_t measured = b.cycle() - started;
  const uint64_t predicted = j["schedule"]["latency"].get<uint64_t>();

  // Reference: out[lhs] = sum over the domain of the product of the reads.
  Tensor& out = ts[0];
  std::vector<int64_t> ref(out.values.size(), 0);
  std::vector<int64_t> n(extent.size(), 0);
  auto index = [&](const Tensor& x) {
    int64_t lin = 0;
    for (size_t r = 0; r < x.coeffs.size(); ++r) {
      int64_t v = x.constant[r];
      for (size_t l = 0; l < n.size(); ++l)
        v += x.coeffs[r][l] * n[l];
      lin = lin * x.shape[r] + v;
    }
    return lin;
  };
  bool emptyDomain = false;
  for (int64_t e : extent)
    emptyDomain |= e <= 0;
  while (!emptyDomain) {
    int64_t prod = 1;
    for (size_t t = 1; t < ts.size(); ++t)
      prod *= ts[t].values[index(ts[t])];
    ref[index(out)] += prod;
    size_t l = 0;
    while (l < n.size() && ++n[l] == extent[l])
      n[l++] = 0;
    if (l == n.size()) break;
  }

  // Read every output element back.
  size_t mismatches = 0;
  for (size_t e = 0; e < out.places.size(); ++e) {
    if (out.places[e].empty()) continue;
    dut->host_re = 1;
    dut->host_rtensor = 0;
    dut->host_rbank = static_cast<uint32_t>(out.places[e][0].first);
    dut->host_raddr = static_cast<uint32_t>(out.places[e][0].second);
    b.tick();
    dut->host_re = 0;
    b.tick(); // host_rdata follows the cycle after the request
    dut->eval();
    int64_t got = wrap(static_cast<int64_t>(dut->host_rdata), out.bits);
    int64_t want = wrap(ref[e], out.bits);
    if (got != want && mismatches++ < 10)
      std::fprintf(stderr, "mismatch %s[element %zu]: expected %lld, got %lld\n", out.name.c_str(),
                   e, static_cast<long long>(want), static_cast<long long>(got));
  }
  dut->final();
  delete dut;
  std::printf("%s: %zu output elements, %zu mismatches; cycles measured %llu, predicted %llu\n",
              mismatches || measured != predicted ? "FAIL" : "PASS", out.places.size(), mismatches,
              static_cast<unsigned long long>(measured), static_cast<unsigned long long>(predicted));
  return mismatches || measured != predicted ? 1 : 0;
}
