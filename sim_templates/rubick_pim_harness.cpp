// rubick's self-checking testbench for processing-in-memory designs (docs/pim.md), the
// design-independent part: `rubick verify` compiles it once per work directory
// (WORK/.runtime/) and links it with each design's model and its rubick_pim_dut.cpp, which
// drives the pins.
//
//   sim design.json stimulus.txt [--wave FILE.fst]
//
// Each unit's DRAM banks are a bank model (rubick_pim_bank.h) that answers the unit's commands
// and records every timing or protocol violation. The harness fills each unit's banks with its
// stream (design.json "stream": the words in the order the unit reads them), writes every
// on-chip input element into each of its places through the host port (once for all units,
// with host_wall, where every unit holds a tensor at the same places), pulses start, waits for
// done (with a cycle limit), reads every output element from each unit that holds a part of it
// and compares the parts' sum (a reduction spread over units leaves a partial sum in each) with
// the expected value from the stimulus. It prints the first mismatches, each unit's first bank
// violation, and the lines
//   PIM units=N activates=A reads=R violations=V
//   RESULT PASS|FAIL mismatches=N elements=M measured=C predicted=P sim_cycles=S sim_seconds=T
// (A, R, V summed over the units). It exits 0 when every element matches, the banks saw no
// violation and the measured cycles are within prediction.tolerance of prediction.cycles; 1
// when not; 2 when design.json or the stimulus cannot be used.

#include "rubick_pim_bank.h"
#include "rubick_sim_design.h"
#include "rubick_sim_values.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// The design under test, defined by rubick_pim_dut.cpp.
bool dutOpen(const char* wave);
void dutSetup(unsigned units, unsigned dataBits, unsigned bankSelectBits, unsigned rowBits,
              unsigned columnBits, unsigned colBytes);
void dutControl(bool rst, bool start);
void dutWrite(bool we, uint32_t unit, bool all, uint32_t tensor, uint32_t bank, uint32_t addr,
              uint64_t data);
void dutRead(bool re, uint32_t unit, uint32_t tensor, uint32_t bank, uint32_t addr);
void dutSettle();
void dutCommands(unsigned unit, bool* rowValid, bool* rowAct, uint32_t* rowBank, uint64_t* rowAddr,
                 bool* colValid, uint32_t* colBank, uint32_t* colAddr);
void dutDram(unsigned unit, bool valid, const uint8_t* bytes);
void dutEdge(uint64_t cycle);
bool dutDone();
uint64_t dutHostData();
void dutClose();

namespace {

using rubick_sim::PimBankConfig;
using rubick_sim::PimBanks;
using rubick_sim::Tensor;

// Per element (row-major) its places in one unit, (bank, address) each.
using Places = std::vector<std::vector<std::pair<uint32_t, uint32_t>>>;

struct Design {
  unsigned units = 0;
  // design.json "widths".
  unsigned unitBits = 0, tensorBits = 0, bankBits = 0, addressBits = 0, dataBits = 0;
  unsigned bankSelectBits = 0, rowBits = 0, columnBits = 0;
  PimBankConfig bank;
  unsigned wordBits = 8, wordsPerColumn = 1;
  uint64_t columns = 0;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> stream; // per unit: (tensor, element)
  uint64_t predicted = 0, tolerance = 0;
  std::vector<Tensor> tensors;
  std::vector<std::vector<Places>> places; // per tensor, per unit; empty: not on chip
};

[[noreturn]] void bad(const std::string& what) {
  throw std::runtime_error(what);
}

bool fits(uint64_t v, unsigned bits) {
  return bits >= 64 || v < (uint64_t(1) << bits);
}

unsigned width(const nlohmann::json& w, const char* name) {
  const unsigned v = w.at(name).get<unsigned>();
  if (v < 1 || v > 64) bad(std::string("widths.") + name + " must be 1 to 64");
  return v;
}

// design.json, checked for everything the run relies on (a message and exit 2 otherwise).
Design readPim(const nlohmann::json& j) {
  Design d;
  if (j.value("kind", "") != "pim") bad("not a PIM design (\"kind\" is not \"pim\")");
  d.units = j.at("units").get<unsigned>();
  if (d.units < 1) bad("units must be at least 1");
  const nlohmann::json& w = j.at("widths");
  d.unitBits = width(w, "unit");
  d.tensorBits = width(w, "tensor");
  d.bankBits = width(w, "bank");
  d.addressBits = width(w, "address");
  d.dataBits = width(w, "data");
  d.bankSelectBits = width(w, "bank_select");
  d.rowBits = width(w, "row");
  d.columnBits = width(w, "column");
  for (unsigned b :
       {d.unitBits, d.tensorBits, d.bankBits, d.addressBits, d.bankSelectBits, d.columnBits})
    if (b > 32)
      bad("widths: the unit, tensor, bank, address, bank_select and column fields "
          "must be at most 32 bits");
  if (!fits(d.units - 1, d.unitBits)) bad("widths.unit too narrow for the units");

  const nlohmann::json& b = j.at("bank");
  d.bank.banks = b.at("banks");
  d.bank.rows = b.at("rows");
  d.bank.rowCols = b.at("row_cols");
  d.bank.colBytes = b.at("col_bytes");
  d.bank.tRCD = b.at("trcd");
  d.bank.tRP = b.at("trp");
  d.bank.tRAS = b.at("tras");
  d.bank.CL = b.at("cl");
  if (d.bank.banks < 1 || d.bank.rows < 1 || d.bank.rowCols < 1 || d.bank.colBytes < 1)
    bad("bank: banks, rows, row_cols and col_bytes must be at least 1");
  // The models hold every byte of every unit's banks.
  const double bytes =
      double(d.units) * d.bank.banks * double(d.bank.rows) * d.bank.rowCols * d.bank.colBytes;
  if (bytes > double(uint64_t(1) << 32)) bad("bank: the units' banks hold more than 4 GiB");

  d.tensors = rubick_sim::readDesign(j);
  if (!fits(d.tensors.size() - 1, d.tensorBits)) bad("widths.tensor too narrow for the tensors");
  const nlohmann::json& ts = j.at("tensors");
  d.places.resize(d.tensors.size());
  for (size_t t = 0; t < d.tensors.size(); ++t) {
    const Tensor& x = d.tensors[t];
    if (ts[t].contains("select") && ts[t]["select"].get<size_t>() != t)
      bad("tensor " + x.name + ": its select is not its index in \"tensors\"");
    if (x.bits < 1 || x.bits > 64) bad("tensor " + x.name + ": element_bits must be 1 to 64");
    if (!ts[t].contains("places")) continue;
    const nlohmann::json& pu = ts[t]["places"];
    if (pu.size() != d.units)
      bad("tensor " + x.name + ": places for " + std::to_string(pu.size()) + " units, not " +
          std::to_string(d.units));
    for (const nlohmann::json& unit : pu) {
      if (unit.size() != x.elements())
        bad("tensor " + x.name + ": places for " + std::to_string(unit.size()) + " elements, not " +
            std::to_string(x.elements()));
      Places ps;
      for (const nlohmann::json& e : unit) {
        ps.emplace_back();
        for (const nlohmann::json& p : e) {
          const uint32_t bank = p.at(0), addr = p.at(1);
          if (!fits(bank, d.bankBits) || !fits(addr, d.addressBits))
            bad("tensor " + x.name + ": a place beyond widths.bank or widths.address");
          ps.back().push_back({bank, addr});
        }
      }
      d.places[t].push_back(std::move(ps));
    }
  }
  // Every output element must be somewhere: the host reads it from each unit that places it.
  for (size_t t = 0; t < d.tensors.size(); ++t) {
    if (!d.tensors[t].output) continue;
    for (uint64_t e = 0; e < d.tensors[t].elements(); ++e) {
      bool placed = false;
      for (const Places& ps : d.places[t])
        placed = placed || !ps[e].empty();
      if (!placed)
        bad("output element " + rubick_sim::indexText(d.tensors[t].name, d.tensors[t].shape, e) +
            " has no place in any unit");
    }
  }

  const nlohmann::json& s = j.at("stream");
  d.wordBits = s.at("word_bits");
  d.wordsPerColumn = s.at("words_per_column");
  d.columns = s.at("columns");
  if (d.wordBits < 8 || d.wordBits > 64 || d.wordBits % 8)
    bad("stream.word_bits must be 8, 16, ... 64");
  if (d.wordsPerColumn < 1 || uint64_t(d.wordsPerColumn) * d.wordBits / 8 > d.bank.colBytes)
    bad("stream: words_per_column words do not fit in a column of col_bytes");
  if (d.columns > uint64_t(d.bank.banks) * d.bank.rows * d.bank.rowCols)
    bad("stream: more columns than a unit's banks hold");
  const nlohmann::json& su = s.at("units");
  if (su.size() != d.units) bad("stream.units does not list every unit");
  for (const nlohmann::json& unit : su) {
    if (unit.size() != d.columns * d.wordsPerColumn)
      bad("stream: a unit's word count is not columns x words_per_column");
    std::vector<std::pair<int64_t, int64_t>> words;
    for (const nlohmann::json& word : unit) {
      const int64_t t = word.at(0), e = word.at(1);
      const bool pad = t == -1 && e == -1;
      if (!pad && (t < 0 || size_t(t) >= d.tensors.size() || d.tensors[size_t(t)].output || e < 0 ||
                   uint64_t(e) >= d.tensors[size_t(t)].elements()))
        bad("stream: word [" + std::to_string(t) + ", " + std::to_string(e) +
            "] is no input element");
      words.push_back({t, e});
    }
    d.stream.push_back(std::move(words));
  }

  d.predicted = j.at("prediction").at("cycles");
  d.tolerance = j.at("prediction").at("tolerance");
  return d;
}

// Word k of each unit's stream into its banks: column k / WORDS, little-endian bytes at word
// k % WORDS of it; column a at row a / (B x C), bank (a / C) mod B, column a mod C (the
// address map of rtl_templates/rubick_bank_stream.v).
void fillBanks(const Design& d, std::vector<PimBanks>& banks) {
  const unsigned bytes = d.wordBits / 8, B = d.bank.banks, C = d.bank.rowCols;
  for (unsigned u = 0; u < d.units; ++u)
    for (uint64_t k = 0; k < d.stream[u].size(); ++k) {
      const auto [t, e] = d.stream[u][k];
      const uint64_t v = t < 0 ? 0 : uint64_t(d.tensors[size_t(t)].values[size_t(e)]);
      const uint64_t a = k / d.wordsPerColumn;
      uint8_t* col = banks[u].column(unsigned(a / C % B), a / (uint64_t(B) * C), unsigned(a % C));
      for (unsigned i = 0; i < bytes; ++i)
        col[(k % d.wordsPerColumn) * bytes + i] = uint8_t(v >> (8 * i));
    }
}

// One unit cycle of the whole bench: the design settled with the clock low, each unit's
// commands to its bank model, the models' read data to the units, the edge, the models' edge.
class Bench {
public:
  explicit Bench(std::vector<PimBanks>& banks) : banks_(banks) {}

  // While rst is high the commands are not handed on: before the first edge the design's
  // registers hold no defined value, and reset takes every bank as closed.
  bool reset = true;

  void tick() {
    dutSettle();
    for (unsigned u = 0; u < banks_.size(); ++u) {
      PimBanks& m = banks_[u];
      bool rowValid = false, rowAct = false, colValid = false;
      uint32_t rowBank = 0, colBank = 0, colAddr = 0;
      uint64_t rowAddr = 0;
      dutCommands(u, &rowValid, &rowAct, &rowBank, &rowAddr, &colValid, &colBank, &colAddr);
      if (!reset) {
        if (rowValid) {
          if (rowAct)
            m.activate(rowBank, rowAddr);
          else
            m.precharge(rowBank);
        }
        if (colValid) m.read(colBank, colAddr);
      }
      dutDram(u, m.dataValid(), m.data().data());
    }
    dutEdge(cycle_++);
    for (PimBanks& m : banks_)
      m.tick();
  }
  uint64_t cycle() const { return cycle_; }

private:
  std::vector<PimBanks>& banks_;
  uint64_t cycle_ = 0;
};

uint64_t mask(int bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s design.json stimulus.txt [--wave FILE.fst]\n", argv[0]);
    return 2;
  }
  std::string wave;
  for (int i = 3; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--wave") wave = argv[i + 1];
  Design d;
  try {
    std::ifstream in(argv[1]);
    if (!in) bad("cannot read it");
    d = readPim(nlohmann::json::parse(in));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[1], e.what());
    return 2;
  }
  std::vector<Tensor>& ts = d.tensors;
  {
    std::vector<size_t> counts;
    for (const Tensor& x : ts)
      counts.push_back(size_t(x.elements()));
    std::vector<std::vector<int64_t>> values;
    if (!rubick_sim::readStimulus(argv[2], counts, values)) return 2;
    for (size_t t = 0; t < ts.size(); ++t) {
      if (values[t].size() != counts[t]) {
        std::fprintf(stderr, "stimulus has no values for tensor %s\n", ts[t].name.c_str());
        return 2;
      }
      ts[t].values = std::move(values[t]);
    }
  }
  std::vector<PimBanks> banks;
  banks.reserve(d.units);
  for (unsigned u = 0; u < d.units; ++u)
    banks.emplace_back(d.bank);
  fillBanks(d, banks);
  if (!dutOpen(wave.c_str())) {
    std::fprintf(stderr, "this build has no waveform support (build with --trace-fst)\n");
    return 2;
  }
  dutSetup(d.units, d.dataBits, d.bankSelectBits, d.rowBits, d.columnBits, d.bank.colBytes);

  // sim_seconds covers every cycle sim_cycles counts, from reset to the last read.
  const auto t0 = std::chrono::steady_clock::now();
  Bench b(banks);
  dutControl(true, false);
  dutWrite(false, 0, false, 0, 0, 0, 0);
  dutRead(false, 0, 0, 0, 0);
  b.tick();
  b.tick();
  dutControl(false, false);
  b.reset = false;
  for (size_t t = 0; t < ts.size(); ++t) {
    const Tensor& x = ts[t];
    const std::vector<Places>& pu = d.places[t];
    if (x.output || pu.empty()) continue;
    // The same places in every unit (a replicated or broadcast tensor): one write for all.
    bool same = d.units > 1;
    for (unsigned u = 1; u < d.units && same; ++u)
      same = pu[u] == pu[0];
    for (unsigned u = 0; u < (same ? 1 : d.units); ++u)
      for (size_t e = 0; e < pu[u].size(); ++e)
        for (const auto& [bank, addr] : pu[u][e]) {
          dutWrite(true, u, same, uint32_t(t), bank, addr, uint64_t(x.values[e]) & mask(x.bits));
          b.tick();
        }
  }
  dutWrite(false, 0, false, 0, 0, 0, 0);
  dutControl(false, true);
  b.tick(); // the edge that samples start
  const uint64_t started = b.cycle();
  dutControl(false, false);
  const uint64_t limit = 2 * d.predicted + 10000;
  while (!dutDone() && b.cycle() - started < limit)
    b.tick();
  const bool finished = dutDone();
  const uint64_t measured = b.cycle() - started;
  size_t mismatches = 0, elements = 0;
  for (size_t t = 0; t < ts.size(); ++t) {
    const Tensor& x = ts[t];
    if (!x.output || !finished) continue;
    for (size_t e = 0; e < x.values.size(); ++e) {
      ++elements;
      uint64_t sum = 0; // modulo 2^64, then wrapped to the element's bits
      for (unsigned u = 0; u < d.units; ++u) {
        if (d.places[t][u][e].empty()) continue;
        const auto [bank, addr] = d.places[t][u][e][0];
        dutRead(true, u, uint32_t(t), bank, addr);
        b.tick();
        dutRead(false, u, uint32_t(t), bank, addr);
        sum += dutHostData();
      }
      const int64_t got = rubick_sim::wrap(int64_t(sum), x.bits);
      const int64_t want = rubick_sim::wrap(x.values[e], x.bits);
      if (got != want && mismatches++ < 10)
        std::printf("mismatch %s: expected %lld, got %lld\n",
                    rubick_sim::indexText(x.name, x.shape, e).c_str(), static_cast<long long>(want),
                    static_cast<long long>(got));
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const uint64_t simCycles = b.cycle();
  dutClose();
  uint64_t activates = 0, reads = 0, violations = 0;
  for (unsigned u = 0; u < d.units; ++u) {
    activates += banks[u].stats().activates;
    reads += banks[u].stats().reads;
    violations += banks[u].violationCount();
    if (banks[u].violationCount())
      std::printf("bank violation in unit %u, %s (%llu in this unit)\n", u,
                  banks[u].violations()[0].c_str(),
                  static_cast<unsigned long long>(banks[u].violationCount()));
  }
  const uint64_t off = measured > d.predicted ? measured - d.predicted : d.predicted - measured;
  const bool inTime = off <= d.tolerance;
  const bool pass = finished && mismatches == 0 && violations == 0 && inTime;
  if (!finished)
    std::printf("done did not rise within %llu cycles\n", static_cast<unsigned long long>(limit));
  else if (!inTime)
    std::printf("measured %llu cycles, %llu from the predicted %llu (tolerance %llu)\n",
                static_cast<unsigned long long>(measured), static_cast<unsigned long long>(off),
                static_cast<unsigned long long>(d.predicted),
                static_cast<unsigned long long>(d.tolerance));
  std::printf("PIM units=%u activates=%llu reads=%llu violations=%llu\n", d.units,
              static_cast<unsigned long long>(activates), static_cast<unsigned long long>(reads),
              static_cast<unsigned long long>(violations));
  // Microseconds, so small runs still give a usable cycles-per-second figure.
  std::printf("RESULT %s mismatches=%zu elements=%zu measured=%llu predicted=%llu sim_cycles=%llu "
              "sim_seconds=%.6f\n",
              pass ? "PASS" : "FAIL", mismatches, elements,
              static_cast<unsigned long long>(finished ? measured : 0),
              static_cast<unsigned long long>(d.predicted),
              static_cast<unsigned long long>(simCycles), secs);
  return pass ? 0 : 1;
}
