// SPDX-License-Identifier: Apache-2.0
// rubick's self-checking testbench for designs with a memory system, the design-independent
// part: `rubick verify` compiles it once per work directory (WORK/.runtime/) and links it with
// each design's model and its rubick_mem_dut.cpp, which drives the pins.
//
//   sim design.json stimulus.txt [--wave FILE.fst] [--bases B0,B1,... --predicted C]
//       [--dram banks=B,row=BYTES,trcd=C,trp=C,cl=C,tras=C [--tolerance F]]
//
// The design's AXI4 master talks to rubick_axi_mem.h (one per port when the bus is split over
// several: class Memories), configured from design.json: the bus width, the memory's bandwidth
// (bytes per cycle) and latency, as many bursts in flight as the design issues (the engines' own
// limit is the one that counts), fixed latency (or, with --dram, row buffer timing on top: any of
// the parameters, the model's defaults for the others; a PIM unit's design, design.json `pim`,
// runs on its banks, `pim.dram`). A design of several PIM units gets one such memory per unit,
// holding the unit's block of every tensor (`pim.unit_offsets`), and its outputs are the units'
// blocks added up. It puts every input tensor in memory row-major at its base address
// (--bases, which verify varies per trial, some not aligned to the bus; else design.json's
// timing.base_addresses), fills each output region with a pattern (or with the start values
// the stimulus gives an output that `+=` adds to), allows writes only to the output regions,
// writes the BASE registers over AXI4-Lite, starts with CTRL = 3 (start, interrupt enable),
// waits for irq (with a cycle limit), reads STATUS and CYCLES, and compares every output
// element with the expected value from the stimulus (computed by rubick's reference model).
// It prints the first mismatches, every protocol violation the memory saw,
// and one line
//   RESULT PASS|FAIL mismatches=N elements=M measured=C predicted=P sim_cycles=S sim_seconds=T
// where measured is the CYCLES register and predicted --predicted (the cycles for those bases)
// or design.json's timing.cycles; with --dram the line goes on with the memory's row counts,
// row_hits=H row_misses=M row_conflicts=X. It exits 0 only when every element matches, the
// memory saw no violation and no error response was reported, and measured equals predicted
// (with --dram: within the fraction --tolerance of it, default 0).

#include "rubick_axi_mem.h"
#include "rubick_sim_design.h"
#include "rubick_sim_values.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

// The design under test, defined by rubick_mem_dut.cpp.
bool dutOpen(const char* wave);
void dutReset(bool aresetn);
void dutAxilDrive(bool awvalid, uint32_t awaddr, bool wvalid, uint32_t wdata, bool bready,
                  bool arvalid, uint32_t araddr, bool rready);
void dutAxilSample(bool* awready, bool* wready, bool* bvalid, unsigned* bresp, bool* arready,
                   bool* rvalid, uint32_t* rdata, unsigned* rresp);
unsigned dutAxiPorts();
void dutAxiDrive(unsigned port, bool arready, bool rvalid, bool rlast, unsigned rresp, unsigned rid,
                 const uint8_t* rdata, unsigned bytes, bool awready, bool wready, bool bvalid,
                 unsigned bresp, unsigned bid);
void dutAxiSample(unsigned port, bool* arvalid, uint64_t* araddr, unsigned* arlen, unsigned* arsize,
                  unsigned* arburst, unsigned* arid, bool* rready, bool* awvalid, uint64_t* awaddr,
                  unsigned* awlen, unsigned* awsize, unsigned* awburst, unsigned* awid,
                  bool* wvalid, bool* wlast, uint8_t* wdata, uint8_t* wstrb, unsigned bytes,
                  bool* bready);
void dutSettle(uint64_t cycle);
void dutEdge(uint64_t cycle);
bool dutIrq();
void dutClose();

namespace {

using rubick_sim::AxiMem;
using rubick_sim::AxiMemConfig;

using rubick_sim::readDesign;
using rubick_sim::Tensor;

// --dram's value: NAME=VALUE pairs (banks, row, trcd, trp, cl, tras) over the model's defaults.
// verify checked it (arch::parseDram); false for anything this does not read.
bool setDram(AxiMemConfig& c, const std::string& spec) {
  for (size_t p = 0; p < spec.size();) {
    const size_t comma = std::min(spec.find(',', p), spec.size());
    const std::string item = spec.substr(p, comma - p);
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq + 1 == item.size()) return false;
    const std::string name = item.substr(0, eq);
    char* end = nullptr;
    const unsigned long v = std::strtoul(item.c_str() + eq + 1, &end, 10);
    if (*end) return false;
    if (name == "banks")
      c.banks = unsigned(v);
    else if (name == "row")
      c.rowBytes = unsigned(v);
    else if (name == "trcd")
      c.tRCD = unsigned(v);
    else if (name == "trp")
      c.tRP = unsigned(v);
    else if (name == "cl")
      c.CL = unsigned(v);
    else if (name == "tras")
      c.tRAS = unsigned(v);
    else
      return false;
    p = comma + 1;
  }
  return true;
}

// The memory behind the design's AXI4 port(s): one rubick_axi_mem.h, or one per port for a bus
// split over several (design.json `axi.ports`): port k holds byte b of the memory when
// (b / P) mod n = k, at its address (b / (P n)) P + b mod P (P: a port's bytes, n: ports). Each
// port gets 1/n of the bandwidth and of each DRAM row, so n lock-step ports see the rows and
// banks the one wide memory would.
class Memories {
public:
  Memories(const AxiMemConfig& wide, unsigned ports, unsigned portBytes)
      : n_(ports), pb_(portBytes) {
    for (unsigned k = 0; k < n_; ++k) {
      AxiMemConfig c = wide;
      c.dataBytes = pb_;
      c.bytesPerCycle = std::max(1u, wide.bytesPerCycle / n_);
      c.rowBytes = std::max(1u, wide.rowBytes / n_);
      c.size = wide.size / n_ + pb_;
      mems_.push_back(std::make_unique<AxiMem>(c));
    }
  }
  unsigned ports() const { return n_; }
  AxiMem& port(unsigned k) { return *mems_[k]; }

  void store(uint64_t addr, const uint8_t* data, size_t n) {
    for (size_t i = 0; i < n; ++i)
      mems_[portOf(addr + i)]->store(local(addr + i), data + i, 1);
  }
  uint8_t byte(uint64_t addr) const { return mems_[portOf(addr)]->byte(local(addr)); }
  void allowWrites(uint64_t base, uint64_t size) {
    for (uint64_t at = base; at < base + size;) {
      const uint64_t run = std::min(base + size, (at / pb_ + 1) * pb_) - at;
      mems_[portOf(at)]->allowWrites(local(at), run);
      at += run;
    }
  }
  std::vector<std::string> violations() const {
    std::vector<std::string> v;
    for (unsigned k = 0; k < n_; ++k)
      for (const std::string& s : mems_[k]->violations())
        v.push_back(n_ > 1 ? "port " + std::to_string(k) + ": " + s : s);
    return v;
  }
  uint64_t violationCount() const {
    uint64_t c = 0;
    for (const auto& m : mems_)
      c += m->violationCount();
    return c;
  }
  // Bytes over all ports; bursts and rows as the wide memory counts them (port 0's: every
  // burst and row goes to every port).
  rubick_sim::AxiMemStats stats() const {
    rubick_sim::AxiMemStats st = mems_[0]->stats();
    for (unsigned k = 1; k < n_; ++k) {
      st.bytesRead += mems_[k]->stats().bytesRead;
      st.bytesWritten += mems_[k]->stats().bytesWritten;
    }
    return st;
  }

private:
  unsigned portOf(uint64_t b) const { return unsigned((b / pb_) % n_); }
  uint64_t local(uint64_t b) const { return b / (uint64_t(pb_) * n_) * pb_ + b % pb_; }
  unsigned n_, pb_;
  std::vector<std::unique_ptr<AxiMem>> mems_;
};

// One simulated cycle of the whole bench: the memory's registered outputs to the design, the
// design settled with the clock low, its outputs sampled, the edge, then the memory's edge.
class Bench {
public:
  // Every AXI4 port of the design, in the order of design.json `axi.port_prefixes`.
  explicit Bench(std::vector<AxiMem*> ports) : ports_(std::move(ports)) {
    for (AxiMem* p : ports_)
      master_.push_back(p->masterPins());
  }

  void axil(bool awvalid, uint32_t awaddr, bool wvalid, uint32_t wdata, bool bready, bool arvalid,
            uint32_t araddr, bool rready) {
    dutAxilDrive(awvalid, awaddr, wvalid, wdata, bready, arvalid, araddr, rready);
  }

  void tick() {
    for (unsigned k = 0; k < ports_.size(); ++k) {
      const rubick_sim::AxiSlavePins& s = ports_[k]->pins();
      dutAxiDrive(k, s.arready, s.rvalid, s.rlast, s.rresp, s.rid, s.rdata.data(),
                  unsigned(s.rdata.size()), s.awready, s.wready, s.bvalid, s.bresp, s.bid);
    }
    dutSettle(cycle_);
    for (unsigned k = 0; k < ports_.size(); ++k) {
      rubick_sim::AxiMasterPins& m = master_[k];
      dutAxiSample(k, &m.arvalid, &m.araddr, &m.arlen, &m.arsize, &m.arburst, &m.arid, &m.rready,
                   &m.awvalid, &m.awaddr, &m.awlen, &m.awsize, &m.awburst, &m.awid, &m.wvalid,
                   &m.wlast, m.wdata.data(), m.wstrb.data(), unsigned(m.wdata.size()), &m.bready);
    }
    dutAxilSample(&lite.awready, &lite.wready, &lite.bvalid, &lite.bresp, &lite.arready,
                  &lite.rvalid, &lite.rdata, &lite.rresp);
    dutEdge(cycle_);
    for (unsigned k = 0; k < ports_.size(); ++k)
      ports_[k]->tick(master_[k]);
    ++cycle_;
  }
  uint64_t cycle() const { return cycle_; }

  // The AXI4-Lite slave's outputs as sampled before the last edge.
  struct Lite {
    bool awready = false, wready = false, bvalid = false, arready = false, rvalid = false;
    unsigned bresp = 0, rresp = 0;
    uint32_t rdata = 0;
  } lite;

  // One AXI4-Lite write (address and data offered together); false if it did not complete
  // within `limit` cycles or was answered with an error.
  bool write(uint32_t addr, uint32_t data, uint64_t limit = 64) {
    bool aw = true, w = true;
    for (uint64_t i = 0; i < limit; ++i) {
      axil(aw, addr, w, data, true, false, 0, false);
      tick();
      if (aw && lite.awready) aw = false;
      if (w && lite.wready) w = false;
      if (lite.bvalid && !aw && !w) {
        axil(false, 0, false, 0, false, false, 0, false);
        return lite.bresp == 0;
      }
    }
    return false;
  }

  bool read(uint32_t addr, uint32_t* data, uint64_t limit = 64) {
    bool ar = true;
    for (uint64_t i = 0; i < limit; ++i) {
      axil(false, 0, false, 0, false, ar, addr, true);
      tick();
      if (ar && lite.arready) ar = false;
      if (lite.rvalid && !ar) {
        axil(false, 0, false, 0, false, false, 0, false);
        *data = lite.rdata;
        return lite.rresp == 0;
      }
    }
    return false;
  }

private:
  std::vector<AxiMem*> ports_;
  std::vector<rubick_sim::AxiMasterPins> master_;
  uint64_t cycle_ = 0;
};

} // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(
        stderr,
        "usage: %s design.json stimulus.txt [--wave FILE.fst] [--bases B0,B1,... --predicted C] "
        "[--dram banks=B,row=BYTES,trcd=C,trp=C,cl=C,tras=C [--tolerance F]]\n",
        argv[0]);
    return 2;
  }
  std::string wave, bases, dramSpec;
  bool dram = false;
  double tolerance = 0;
  long long predictedArg = -1;
  for (int i = 3; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--wave" && i + 1 < argc) wave = argv[++i];
    if (a == "--bases" && i + 1 < argc) bases = argv[++i];
    if (a == "--predicted" && i + 1 < argc) predictedArg = std::strtoll(argv[++i], nullptr, 10);
    if (a == "--dram" && i + 1 < argc) dram = true, dramSpec = argv[++i];
    if (a == "--tolerance" && i + 1 < argc) tolerance = std::strtod(argv[++i], nullptr);
  }
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(argv[1]));
  std::vector<Tensor> ts = readDesign(j);
  // PIM units with a DMA (design.json `pim`): each unit holds a block of every tensor, of the
  // design's shape (`tensors`), at its offsets in the whole tensor (`pim.shapes`).
  const unsigned units = j.contains("pim") ? j["pim"].value("units", 1u) : 1u;
  std::vector<Tensor> whole = ts;
  std::vector<std::vector<std::vector<int64_t>>> offsets(units); // [unit][tensor][dimension]
  for (unsigned u = 0; u < units; ++u)
    for (const Tensor& x : ts)
      offsets[u].push_back(std::vector<int64_t>(x.shape.size(), 0));
  if (units > 1) {
    for (size_t t = 0; t < ts.size(); ++t)
      whole[t].shape = j["pim"]["shapes"][t].get<std::vector<int64_t>>();
    offsets = j["pim"]["unit_offsets"].get<std::vector<std::vector<std::vector<int64_t>>>>();
  }
  std::vector<std::vector<int64_t>> initial; // per tensor: an output's start values (`+=`)
  {
    std::vector<size_t> counts;
    for (const Tensor& x : whole)
      counts.push_back(x.elements());
    std::vector<std::vector<int64_t>> values;
    if (!rubick_sim::readStimulus(argv[2], counts, values, &initial)) return 2;
    for (size_t t = 0; t < ts.size(); ++t)
      whole[t].values = std::move(values[t]);
    if (units > 1)
      for (const std::vector<int64_t>& v : initial)
        if (!v.empty()) {
          std::fprintf(stderr, "stimulus: start values on several PIM units are not supported\n");
          return 2;
        }
  }
  // The whole tensor's row-major index of unit u's element e of tensor t.
  auto wholeIndex = [&](unsigned u, size_t t, uint64_t e) {
    const std::vector<int64_t>& shape = ts[t].shape;
    std::vector<int64_t> at(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
      at[d] = int64_t(e % uint64_t(shape[d])) + offsets[u][t][d];
      e /= uint64_t(shape[d]);
    }
    uint64_t lin = 0;
    for (size_t d = 0; d < at.size(); ++d)
      lin = lin * uint64_t(whole[t].shape[d]) + uint64_t(at[d]);
    return lin;
  };
  AxiMemConfig c;
  c.dataBytes = j["axi"]["data_bits"].get<unsigned>() / 8;
  c.bytesPerCycle = j["memory"]["bus_bytes"].get<unsigned>();
  c.latency = j["memory"]["latency"].get<unsigned>();
  c.maxOutstanding = 256;
  // A PIM unit's design (design.json `pim`) runs on its banks unless told otherwise.
  if (!dram && j.contains("pim")) dram = true, dramSpec = j["pim"]["dram"].get<std::string>();
  c.dram = dram;
  if (dram && !setDram(c, dramSpec)) {
    std::fprintf(stderr,
                 "--dram: expected NAME=VALUE,... (banks, row, trcd, trp, cl, tras), found '%s'\n",
                 dramSpec.c_str());
    return 2;
  }
  // Where the tensors go: --bases (verify varies them per trial), else where design.json's
  // prediction assumes them.
  {
    std::vector<uint64_t> at;
    if (!bases.empty()) {
      for (size_t p = 0; p < bases.size();) {
        const size_t comma = std::min(bases.find(',', p), bases.size());
        at.push_back(std::strtoull(bases.substr(p, comma - p).c_str(), nullptr, 10));
        p = comma + 1;
      }
    } else if (j.contains("timing")) {
      at = j["timing"]["base_addresses"].get<std::vector<uint64_t>>();
    }
    if (at.size() != ts.size()) {
      std::fprintf(stderr, "%zu base addresses for %zu tensors\n", at.size(), ts.size());
      return 2;
    }
    uint64_t end = 0;
    for (size_t t = 0; t < ts.size(); ++t) {
      ts[t].base = at[t];
      end = std::max(end, at[t] + ts[t].footprint());
    }
    c.size = end + 4096; // room for a stray access past the last tensor to be caught
  }
  const unsigned ports = j["axi"].value("ports", 1u);
  if (ports * units != dutAxiPorts()) {
    std::fprintf(stderr, "design.json has %u AXI4 ports, the design %u\n", ports * units,
                 dutAxiPorts());
    return 2;
  }
  // One memory (the unit's banks, split over its ports) per unit.
  std::vector<std::unique_ptr<Memories>> mems;
  std::vector<AxiMem*> allPorts;
  for (unsigned u = 0; u < units; ++u) {
    mems.push_back(std::make_unique<Memories>(
        c, ports, j["axi"].value("port_data_bits", c.dataBytes * 8) / 8));
    Memories& mem = *mems.back();
    for (unsigned k = 0; k < ports; ++k)
      allPorts.push_back(&mem.port(k));
    for (size_t t = 0; t < ts.size(); ++t) {
      const Tensor& x = ts[t];
      const unsigned eb = x.bytes();
      if (x.output) {
        // Its start values (`+=`, which the design loads and adds to), or else a pattern, so
        // that an element the design never writes cannot pass by chance of zeros.
        for (uint64_t e = 0; e < x.elements(); ++e)
          for (unsigned b = 0; b < eb; ++b) {
            const uint8_t v = initial[t].empty() ? uint8_t(0xa5 ^ (e * 29 + b + u))
                                                 : uint8_t(uint64_t(initial[t][e]) >> (8 * b));
            mem.store(x.address(e) + b, &v, 1);
          }
        for (uint64_t r = 0; r < x.rows(); ++r)
          mem.allowWrites(x.base + r * x.pitch, uint64_t(x.shape.back()) * eb);
        continue;
      }
      for (uint64_t e = 0; e < x.elements(); ++e) {
        const uint64_t v = uint64_t(whole[t].values[wholeIndex(u, t, e)]);
        for (unsigned b = 0; b < eb; ++b) {
          const uint8_t byte = uint8_t(v >> (8 * b));
          mem.store(x.address(e) + b, &byte, 1);
        }
      }
    }
  }
  if (!dutOpen(wave.c_str())) {
    std::fprintf(stderr, "this build has no waveform support (build with --trace-fst)\n");
    return 2;
  }

  // sim_seconds covers every cycle sim_cycles counts, from reset to the last read.
  const auto t0 = std::chrono::steady_clock::now();
  Bench b(allPorts);
  b.axil(false, 0, false, 0, false, false, 0, false);
  dutReset(false);
  for (int i = 0; i < 4; ++i)
    b.tick();
  dutReset(true);
  b.tick();
  bool regsOk = true;
  for (const Tensor& x : ts) {
    const uint32_t at = 0x20 + 8 * x.baseRegister;
    regsOk = b.write(at, uint32_t(x.base)) && regsOk;
    regsOk = b.write(at + 4, uint32_t(x.base >> 32)) && regsOk;
  }
  const uint64_t predicted = predictedArg >= 0      ? uint64_t(predictedArg)
                             : j.contains("timing") ? j["timing"]["cycles"].get<uint64_t>()
                                                    : 0;
  const uint64_t model = j["model"]["cycles"].get<uint64_t>();
  const uint64_t limit = 2 * std::max(predicted, model) + 10000;
  regsOk = b.write(0x00, 3) && regsOk;
  const uint64_t started = b.cycle();
  while (!dutIrq() && b.cycle() - started < limit)
    b.tick();
  const bool finished = dutIrq();
  uint32_t status = 0, lo = 0, hi = 0;
  regsOk = b.read(0x04, &status) && regsOk;
  regsOk = b.read(0x10, &lo) && regsOk;
  regsOk = b.read(0x14, &hi) && regsOk;
  const uint64_t measured = (uint64_t(hi) << 32) | lo;
  // The design must be idle now: a few more cycles show a stray late write, if any.
  for (int i = 0; i < 64; ++i)
    b.tick();

  size_t mismatches = 0, elements = 0;
  for (size_t t = 0; t < ts.size(); ++t) {
    const Tensor& x = ts[t];
    if (!x.output || !finished) continue;
    const unsigned eb = x.bytes();
    // Every unit's block added into the whole output (a spread reduction loop leaves partial
    // sums in several units, which the host adds up).
    std::vector<int64_t> got(whole[t].elements(), 0);
    std::vector<char> held(whole[t].elements(), 0);
    for (unsigned u = 0; u < units; ++u)
      for (uint64_t e = 0; e < x.elements(); ++e) {
        uint64_t raw = 0;
        for (unsigned by = 0; by < eb; ++by)
          raw |= uint64_t(mems[u]->byte(x.address(e) + by)) << (8 * by);
        const uint64_t w = wholeIndex(u, t, e);
        got[w] = rubick_sim::wrap(got[w] + rubick_sim::wrap(int64_t(raw), x.bits), x.bits);
        held[w] = 1;
      }
    for (uint64_t e = 0; e < whole[t].elements(); ++e) {
      ++elements;
      const int64_t want = rubick_sim::wrap(whole[t].values[e], x.bits);
      if ((!held[e] || got[e] != want) && mismatches++ < 10)
        std::printf("mismatch %s: expected %lld, got %lld%s\n",
                    rubick_sim::indexText(x.name, whole[t].shape, e).c_str(),
                    static_cast<long long>(want), static_cast<long long>(got[e]),
                    held[e] ? "" : " (in no unit)");
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const uint64_t simCycles = b.cycle();
  dutClose();
  const bool statusOk = finished && (status & 1) && !(status & 4);
  std::vector<std::string> violations;
  uint64_t violationCount = 0;
  rubick_sim::AxiMemStats st = mems[0]->stats();
  for (unsigned u = 0; u < units; ++u) {
    for (const std::string& v : mems[u]->violations())
      violations.push_back(units > 1 ? "unit " + std::to_string(u) + ": " + v : v);
    violationCount += mems[u]->violationCount();
    if (u > 0) {
      st.bytesRead += mems[u]->stats().bytesRead;
      st.bytesWritten += mems[u]->stats().bytesWritten;
    }
  }
  for (size_t i = 0; i < violations.size() && i < 10; ++i)
    std::printf("AXI violation: %s\n", violations[i].c_str());
  if (!finished)
    std::printf("irq did not rise within %llu cycles\n", static_cast<unsigned long long>(limit));
  else if (!statusOk)
    std::printf("STATUS = 0x%x after irq (expected DONE and no ERROR)\n", status);
  if (!regsOk) std::printf("an AXI4-Lite access did not complete or was answered with an error\n");
  if (predictedArg < 0 && !j.contains("timing"))
    std::printf("design.json has no timing.cycles to compare with\n");

  std::printf(
      "memory: %llu bytes read in %llu bursts, %llu bytes written in %llu bursts, "
      "model %llu cycles\n",
      static_cast<unsigned long long>(st.bytesRead), static_cast<unsigned long long>(st.readBursts),
      static_cast<unsigned long long>(st.bytesWritten),
      static_cast<unsigned long long>(st.writeBursts), static_cast<unsigned long long>(model));
  // With DRAM timing the prediction is held to a tolerance, not to the cycle.
  const double off = double(measured > predicted ? measured - predicted : predicted - measured);
  const bool exact = measured == predicted || (dram && off <= tolerance * double(predicted));
  const bool pass =
      finished && statusOk && regsOk && mismatches == 0 && violationCount == 0 && exact;
  // Microseconds, so small runs still give a usable cycles-per-second figure.
  std::printf("RESULT %s mismatches=%zu elements=%zu measured=%llu predicted=%llu sim_cycles=%llu "
              "sim_seconds=%.6f",
              pass ? "PASS" : "FAIL", mismatches, elements,
              static_cast<unsigned long long>(finished ? measured : 0),
              static_cast<unsigned long long>(predicted),
              static_cast<unsigned long long>(simCycles), secs);
  if (dram)
    std::printf(" row_hits=%llu row_misses=%llu row_conflicts=%llu",
                static_cast<unsigned long long>(st.rowHits),
                static_cast<unsigned long long>(st.rowMisses),
                static_cast<unsigned long long>(st.rowConflicts));
  std::printf("\n");
  return pass ? 0 : 1;
}
