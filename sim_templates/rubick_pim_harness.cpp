// SPDX-License-Identifier: Apache-2.0
// rubick's self-checking testbench for processing-in-memory designs (docs/pim.md), the
// design-independent part: `rubick verify` compiles it once per work directory
// (WORK/.runtime/) and links it with each design's model and its rubick_pim_dut.cpp, which
// drives the pins.
//
//   sim design.json stimulus.txt [--wave FILE.fst]
//
// Each unit's DRAM banks are a bank model (rubick_pim_bank.h) that answers the unit's commands
// (RD, and WR with the unit's dram_wr_data where dram_col_write is set) and records every timing
// or protocol violation. A unit's stream (design.json "stream") is a sequence of columns, each a
// read (R) or a write (W) column by "runs" ([R_0, W_0], [R_1, W_1], ...: R_0 reads, W_0 writes,
// ...; every column after the last run, and every column without "runs", is a read). The harness
// fills each unit's R columns with its input words in the order the unit reads them and each W
// column with the byte 0xA5 (so that a column the unit never writes cannot pass), and drives
// the design's memory-system host interface (`<top>_axil`): writes every on-chip input element
// into each of its places through the AXI4-Lite host window (once for all units, with the
// all-units bit, where every unit holds a tensor at the same places), writes START with the
// interrupt enabled to the control slave, waits for irq (with a cycle limit), reads STATUS and
// the CYCLES counter, then takes each output element from everywhere it was placed: read
// through the host window from each unit that holds it on chip, and every word of the units' W
// columns that names it (out_word_bits each, little-endian); the parts' sum (a reduction spread
// over units leaves a partial sum in each), wrapped to element_bits, is compared with the
// expected value from the stimulus. W column words that name no element (padding) must read 0.
// It prints the first mismatches and wrong padding words, each unit's first bank violation, and
// the lines
//   PIM units=N activates=A reads=R writes=W violations=V
//   RESULT PASS|FAIL mismatches=N elements=M measured=C predicted=P sim_cycles=S sim_seconds=T
// (A, R, W, V summed over the units; N counts wrong elements and wrong padding words). It exits 0
// when every element and padding word matches, the banks saw no violation and the measured
// cycles (from the edge that samples start to done; irq shows a cycle later) are within
// prediction.tolerance of prediction.cycles, STATUS.DONE is set, CYCLES counted the same
// cycles and every AXI4-Lite access answered OKAY; 1 when not; 2 when design.json or the
// stimulus cannot be used.

#include "rubick_pim_bank.h"
#include "rubick_sim_design.h"
#include "rubick_sim_values.h"

#include <nlohmann/json.hpp>

#include <algorithm>
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
void dutControl(bool rst);
// AXI4-Lite slave `host` (0: control, 1: the host window): its inputs, and its outputs before
// the edge.
void dutAxilDrive(unsigned slave, bool awvalid, uint32_t awaddr, bool wvalid, uint32_t wdata,
                  bool bready, bool arvalid, uint32_t araddr, bool rready);
void dutAxilSample(unsigned slave, bool* awready, bool* wready, bool* bvalid, unsigned* bresp,
                   bool* arready, bool* rvalid, uint32_t* rdata, unsigned* rresp);
bool dutIrq();
void dutSettle();
void dutCommands(unsigned unit, bool* rowValid, bool* rowAct, uint32_t* rowBank, uint64_t* rowAddr,
                 bool* colValid, bool* colWrite, uint32_t* colBank, uint32_t* colAddr);
void dutWriteData(unsigned unit, uint8_t* bytes);
void dutDram(unsigned unit, bool valid, const uint8_t* bytes);
void dutEdge(uint64_t cycle);
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
  unsigned outWordBits = 0, outWordsPerColumn = 0; // W columns' words
  uint64_t columns = 0;
  std::vector<bool> written;   // per column: a W column
  std::vector<uint64_t> first; // per column: its first word's index in a unit's stream
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
  if (4 + d.unitBits + d.tensorBits + d.bankBits + d.addressBits > 32)
    bad("widths: the host window's addresses need more than 32 bits");

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
  // The columns' kinds: R_i reads, then W_i writes, run by run; reads after the last run.
  d.written.assign(d.columns, false);
  if (s.contains("runs")) {
    uint64_t at = 0;
    for (const nlohmann::json& run : s.at("runs")) {
      if (!run.is_array() || run.size() != 2) bad("stream.runs: a run is not [reads, writes]");
      const int64_t r = run.at(0).get<int64_t>(), w = run.at(1).get<int64_t>();
      if (r < 0 || w < 0 || r > UINT32_MAX || w > UINT32_MAX)
        bad("stream.runs: counts must be 0 to 2^32 - 1 (the RTL's RUNS fields)");
      at += uint64_t(r);
      for (uint64_t a = at; a < at + uint64_t(w) && a < d.columns; ++a)
        d.written[a] = true;
      at += uint64_t(w);
      if (at >= d.columns) break;
    }
  }
  const bool writes = std::find(d.written.begin(), d.written.end(), true) != d.written.end();
  if (writes || s.contains("out_word_bits") || s.contains("out_words_per_column")) {
    if (!s.contains("out_word_bits") || !s.contains("out_words_per_column"))
      bad("stream: write columns need out_word_bits and out_words_per_column");
    d.outWordBits = s.at("out_word_bits");
    d.outWordsPerColumn = s.at("out_words_per_column");
    if (d.outWordBits < 8 || d.outWordBits > 64 || d.outWordBits % 8)
      bad("stream.out_word_bits must be 8, 16, ... 64");
    if (d.outWordsPerColumn < 1 ||
        uint64_t(d.outWordsPerColumn) * d.outWordBits / 8 > d.bank.colBytes)
      bad("stream: out_words_per_column words do not fit in a column of col_bytes");
  }
  uint64_t words = 0;
  for (uint64_t a = 0; a < d.columns; ++a) {
    d.first.push_back(words);
    words += d.written[a] ? d.outWordsPerColumn : d.wordsPerColumn;
  }
  // Each unit's words: listed per unit ("units"), or unit 0's as runs [t, e, n, stride] (n
  // words t, e, e + stride, ...; t = -1: padding, t = -2: an element outside the problem, read
  // as 0 and not checked when written) with each unit's element offset per tensor ("words",
  // "unit_offsets"), a unit whose words are not unit 0's shifted having its own runs
  // ("unit_words", by unit number).
  std::vector<std::vector<std::pair<int64_t, int64_t>>> listed;
  if (s.contains("words")) {
    auto expand = [&](const nlohmann::json& runs) {
      std::vector<std::pair<int64_t, int64_t>> out;
      for (const nlohmann::json& run : runs) {
        if (!run.is_array() || run.size() != 4) bad("stream.words: a run is not [t, e, n, stride]");
        const int64_t t = run.at(0), e = run.at(1), n = run.at(2), stride = run.at(3);
        if (n < 0 || out.size() + uint64_t(n) > words) bad("stream.words: more words than columns");
        if (t < -2) bad("stream.words: tensor " + std::to_string(t));
        for (int64_t i = 0; i < n; ++i)
          out.push_back(t < 0 ? std::make_pair(t, t) : std::make_pair(t, e + i * stride));
      }
      return out;
    };
    const std::vector<std::pair<int64_t, int64_t>> base = expand(s.at("words"));
    const nlohmann::json& offs = s.at("unit_offsets");
    if (offs.size() != d.units) bad("stream.unit_offsets does not list every unit");
    for (unsigned u = 0; u < d.units; ++u) {
      const std::string key = std::to_string(u);
      if (s.contains("unit_words") && s.at("unit_words").contains(key)) {
        listed.push_back(expand(s.at("unit_words").at(key)));
        continue;
      }
      const nlohmann::json& o = offs.at(u);
      if (o.size() != d.tensors.size()) bad("stream.unit_offsets: one offset per tensor");
      std::vector<std::pair<int64_t, int64_t>> ws = base;
      for (auto& [t, e] : ws)
        if (t >= 0) e += o.at(size_t(t)).get<int64_t>();
      listed.push_back(std::move(ws));
    }
  } else {
    const nlohmann::json& su = s.at("units");
    if (su.size() != d.units) bad("stream.units does not list every unit");
    for (const nlohmann::json& unit : su) {
      std::vector<std::pair<int64_t, int64_t>> ws;
      for (const nlohmann::json& word : unit)
        ws.push_back({word.at(0).get<int64_t>(), word.at(1).get<int64_t>()});
      listed.push_back(std::move(ws));
    }
  }
  for (const std::vector<std::pair<int64_t, int64_t>>& unit : listed) {
    if (unit.size() != words)
      bad("stream: a unit's word count is not that of its read and write columns (" +
          std::to_string(words) + ")");
    std::vector<std::pair<int64_t, int64_t>> ws;
    for (uint64_t a = 0, k = 0; a < d.columns; ++a) {
      const uint64_t n = d.written[a] ? d.outWordsPerColumn : d.wordsPerColumn;
      for (uint64_t i = 0; i < n; ++i, ++k) {
        const int64_t t = unit[k].first, e = unit[k].second;
        const bool pad = (t == -1 || t == -2) && e == t;
        if (!pad && (t < 0 || size_t(t) >= d.tensors.size() ||
                     d.tensors[size_t(t)].output != d.written[a] || e < 0 ||
                     uint64_t(e) >= d.tensors[size_t(t)].elements()))
          bad("stream: word [" + std::to_string(t) + ", " + std::to_string(e) + "] of column " +
              std::to_string(a) + " is no " + (d.written[a] ? "output" : "input") + " element");
        if (!pad && d.written[a] && unsigned(d.tensors[size_t(t)].bits) > d.outWordBits)
          bad("stream: out_word_bits is narrower than tensor " + d.tensors[size_t(t)].name +
              "'s element_bits");
        ws.push_back({t, e});
      }
    }
    d.stream.push_back(std::move(ws));
  }
  // Every output element must be somewhere: on chip in a unit, or in a unit's W columns.
  std::vector<std::vector<bool>> inBanks(d.tensors.size());
  for (size_t t = 0; t < d.tensors.size(); ++t)
    if (d.tensors[t].output) inBanks[t].assign(d.tensors[t].elements(), false);
  for (const auto& unit : d.stream)
    for (const auto& [t, e] : unit)
      if (t >= 0 && d.tensors[size_t(t)].output) inBanks[size_t(t)][size_t(e)] = true;
  for (size_t t = 0; t < d.tensors.size(); ++t) {
    if (!d.tensors[t].output) continue;
    for (uint64_t e = 0; e < d.tensors[t].elements(); ++e) {
      bool placed = inBanks[t][e];
      for (const Places& ps : d.places[t])
        placed = placed || !ps[e].empty();
      if (!placed)
        bad("output element " + rubick_sim::indexText(d.tensors[t].name, d.tensors[t].shape, e) +
            " has no place in any unit");
    }
  }

  d.predicted = j.at("prediction").at("cycles");
  d.tolerance = j.at("prediction").at("tolerance");
  return d;
}

// Column a of a unit's stream in its banks: row a / (B x C), bank (a / C) mod B, column a mod C
// (the address map of rtl_templates/rubick_bank_stream.v).
uint8_t* streamColumn(const Design& d, PimBanks& banks, uint64_t a) {
  const unsigned B = d.bank.banks, C = d.bank.rowCols;
  return banks.column(unsigned(a / C % B), a / (uint64_t(B) * C), unsigned(a % C));
}

// Each unit's R columns hold their words, word i of a column in little-endian bytes from byte
// i x word_bits / 8; its W columns hold 0xA5 in every byte until the unit writes them.
void fillBanks(const Design& d, std::vector<PimBanks>& banks) {
  const unsigned bytes = d.wordBits / 8;
  for (unsigned u = 0; u < d.units; ++u)
    for (uint64_t a = 0; a < d.columns; ++a) {
      uint8_t* col = streamColumn(d, banks[u], a);
      if (d.written[a]) {
        std::fill(col, col + d.bank.colBytes, uint8_t(0xA5));
        continue;
      }
      for (unsigned i = 0; i < d.wordsPerColumn; ++i) {
        const auto [t, e] = d.stream[u][d.first[a] + i];
        const uint64_t v = t < 0 ? 0 : uint64_t(d.tensors[size_t(t)].values[size_t(e)]);
        for (unsigned b = 0; b < bytes; ++b)
          col[i * bytes + b] = uint8_t(v >> (8 * b));
      }
    }
}

// After the run: each W column word's value added to its output element (sums modulo 2^64, per
// tensor and element), a padding word that is not 0 reported; returns the number of those.
size_t collectWrites(const Design& d, std::vector<PimBanks>& banks,
                     std::vector<std::vector<uint64_t>>& sums) {
  const unsigned bytes = d.outWordBits / 8;
  size_t wrong = 0;
  for (unsigned u = 0; u < d.units; ++u)
    for (uint64_t a = 0; a < d.columns; ++a) {
      if (!d.written[a]) continue;
      const uint8_t* col = streamColumn(d, banks[u], a);
      for (unsigned i = 0; i < d.outWordsPerColumn; ++i) {
        uint64_t v = 0;
        for (unsigned b = 0; b < bytes; ++b)
          v |= uint64_t(col[i * bytes + b]) << (8 * b);
        const auto [t, e] = d.stream[u][d.first[a] + i];
        if (t >= 0) {
          sums[size_t(t)][size_t(e)] += v;
        } else if (t == -1 && v != 0 && wrong++ < 10) {
          std::printf("unit %u column %llu: padding word %u is 0x%llx\n", u,
                      static_cast<unsigned long long>(a), i, static_cast<unsigned long long>(v));
        }
      }
    }
  return wrong;
}

// One unit cycle of the whole bench: the design settled with the clock low, each unit's
// commands to its bank model, the models' read data to the units, the edge, the models' edge.
class Bench {
public:
  explicit Bench(std::vector<PimBanks>& banks)
      : banks_(banks), wrBytes_(banks.empty() ? 0 : banks[0].config().colBytes) {}

  // While rst is high the commands are not handed on: before the first edge the design's
  // registers hold no defined value, and reset takes every bank as closed.
  bool reset = true;

  void tick() {
    dutSettle();
    for (unsigned u = 0; u < banks_.size(); ++u) {
      PimBanks& m = banks_[u];
      bool rowValid = false, rowAct = false, colValid = false, colWrite = false;
      uint32_t rowBank = 0, colBank = 0, colAddr = 0;
      uint64_t rowAddr = 0;
      dutCommands(u, &rowValid, &rowAct, &rowBank, &rowAddr, &colValid, &colWrite, &colBank,
                  &colAddr);
      if (!reset) {
        if (rowValid) {
          if (rowAct)
            m.activate(rowBank, rowAddr);
          else
            m.precharge(rowBank);
        }
        if (colValid && colWrite) {
          dutWriteData(u, wrBytes_.data());
          m.write(colBank, colAddr, wrBytes_);
        } else if (colValid) {
          m.read(colBank, colAddr);
        }
      }
      dutDram(u, m.dataValid(), m.data().data());
    }
    for (unsigned k = 0; k < 2; ++k)
      dutAxilSample(k, &lite[k].awready, &lite[k].wready, &lite[k].bvalid, &lite[k].bresp,
                    &lite[k].arready, &lite[k].rvalid, &lite[k].rdata, &lite[k].rresp);
    dutEdge(cycle_++);
    for (PimBanks& m : banks_)
      m.tick();
  }
  uint64_t cycle() const { return cycle_; }

  // Each AXI4-Lite slave's outputs as sampled before the last edge.
  struct Lite {
    bool awready = false, wready = false, bvalid = false, arready = false, rvalid = false;
    unsigned bresp = 0, rresp = 0;
    uint32_t rdata = 0;
  } lite[2];

  // One AXI4-Lite write to `slave` (address and data offered together); false if it did not
  // complete within `limit` cycles or was answered with an error. Returns after the edge that
  // follows the cycle BVALID was seen in.
  bool write(unsigned slave, uint32_t addr, uint32_t data, uint64_t limit = 64) {
    bool aw = true, w = true;
    for (uint64_t i = 0; i < limit; ++i) {
      dutAxilDrive(slave, aw, addr, w, data, true, false, 0, false);
      tick();
      if (aw && lite[slave].awready) aw = false;
      if (w && lite[slave].wready) w = false;
      if (lite[slave].bvalid && !aw && !w) {
        dutAxilDrive(slave, false, 0, false, 0, false, false, 0, false);
        return lite[slave].bresp == 0;
      }
    }
    return false;
  }

  bool read(unsigned slave, uint32_t addr, uint32_t* data, uint64_t limit = 64) {
    bool ar = true;
    for (uint64_t i = 0; i < limit; ++i) {
      dutAxilDrive(slave, false, 0, false, 0, false, ar, addr, true);
      tick();
      if (ar && lite[slave].arready) ar = false;
      if (lite[slave].rvalid && !ar) {
        dutAxilDrive(slave, false, 0, false, 0, false, false, 0, false);
        *data = lite[slave].rdata;
        return lite[slave].rresp == 0;
      }
    }
    return false;
  }

private:
  std::vector<PimBanks>& banks_;
  std::vector<uint8_t> wrBytes_; // a WR's column
  uint64_t cycle_ = 0;
};

// The control registers (rtl_templates/rubick_axil_regs.v).
constexpr uint32_t kCtrl = 0x00, kStatus = 0x04, kCyclesLo = 0x10, kCyclesHi = 0x14;

// A host word's byte address in the host window (rtl_templates/rubick_axil_host.v): 8 bytes a
// word, the word {all, unit, tensor, bank, address}.
uint32_t windowAddress(const Design& d, bool all, uint32_t unit, uint32_t tensor, uint32_t bank,
                       uint32_t addr) {
  uint64_t w = all ? 1 : 0;
  w = (w << d.unitBits) | unit;
  w = (w << d.tensorBits) | tensor;
  w = (w << d.bankBits) | bank;
  w = (w << d.addressBits) | addr;
  return uint32_t(w << 3);
}

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
  dutControl(true);
  dutAxilDrive(0, false, 0, false, 0, false, false, 0, false);
  dutAxilDrive(1, false, 0, false, 0, false, false, 0, false);
  b.tick();
  b.tick();
  dutControl(false);
  b.reset = false;
  // Every host access goes through the AXI4-Lite host window; a failed one fails the run.
  size_t hostErrors = 0;
  auto hostWrite = [&](bool all, uint32_t u, uint32_t t, uint32_t bank, uint32_t addr, uint64_t v) {
    const uint32_t a = windowAddress(d, all, u, t, bank, addr);
    bool ok = b.write(1, a, uint32_t(v));
    if (d.dataBits > 32) ok = ok && b.write(1, a | 4, uint32_t(v >> 32));
    if (!ok && hostErrors++ < 10) std::printf("host window write to 0x%x failed\n", a);
  };
  auto hostRead = [&](uint32_t u, uint32_t t, uint32_t bank, uint32_t addr) {
    const uint32_t a = windowAddress(d, false, u, t, bank, addr);
    uint32_t lo = 0, hi = 0;
    bool ok = b.read(1, a, &lo);
    if (d.dataBits > 32) ok = ok && b.read(1, a | 4, &hi);
    if (!ok && hostErrors++ < 10) std::printf("host window read of 0x%x failed\n", a);
    return (uint64_t(hi) << 32) | lo;
  };
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
        for (const auto& [bank, addr] : pu[u][e])
          hostWrite(same, u, uint32_t(t), bank, addr, uint64_t(x.values[e]) & mask(x.bits));
  }
  // START with the interrupt enabled; the run ends when irq rises. The write returns after
  // the edge at which the design samples start; irq shows one cycle after its done.
  if (!b.write(0, kCtrl, 3) && hostErrors++ < 10) std::printf("the START write failed\n");
  const uint64_t started = b.cycle();
  const uint64_t limit = 2 * d.predicted + 10000;
  while (!dutIrq() && b.cycle() - started < limit)
    b.tick();
  const bool finished = dutIrq();
  const uint64_t measured = b.cycle() - started - 1;
  // The control slave's view: DONE set, and the cycles it counted with the design busy.
  uint32_t status = 0, cyclesLo = 0, cyclesHi = 0;
  if (finished &&
      !(b.read(0, kStatus, &status) && b.read(0, kCyclesLo, &cyclesLo) &&
        b.read(0, kCyclesHi, &cyclesHi)) &&
      hostErrors++ < 10)
    std::printf("a control register read failed\n");
  const uint64_t counted = (uint64_t(cyclesHi) << 32) | cyclesLo;
  size_t mismatches = 0, elements = 0;
  // The parts in the units' W columns, then those on chip.
  std::vector<std::vector<uint64_t>> sums(ts.size());
  for (size_t t = 0; t < ts.size(); ++t)
    sums[t].assign(ts[t].output ? ts[t].values.size() : 0, 0);
  if (finished) mismatches += collectWrites(d, banks, sums);
  for (size_t t = 0; t < ts.size(); ++t) {
    const Tensor& x = ts[t];
    if (!x.output || !finished) continue;
    for (size_t e = 0; e < x.values.size(); ++e) {
      ++elements;
      uint64_t sum = sums[t][e]; // modulo 2^64, then wrapped to the element's bits
      for (unsigned u = 0; u < d.units && !d.places[t].empty(); ++u) {
        if (d.places[t][u][e].empty()) continue;
        const auto [bank, addr] = d.places[t][u][e][0];
        sum += hostRead(u, uint32_t(t), bank, addr);
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
  uint64_t activates = 0, reads = 0, writes = 0, violations = 0;
  for (unsigned u = 0; u < d.units; ++u) {
    activates += banks[u].stats().activates;
    reads += banks[u].stats().reads;
    writes += banks[u].stats().writes;
    violations += banks[u].violationCount();
    if (banks[u].violationCount())
      std::printf("bank violation in unit %u, %s (%llu in this unit)\n", u,
                  banks[u].violations()[0].c_str(),
                  static_cast<unsigned long long>(banks[u].violationCount()));
  }
  const uint64_t off = measured > d.predicted ? measured - d.predicted : d.predicted - measured;
  const bool inTime = off <= d.tolerance;
  const bool doneBit = (status & 1) != 0;
  const bool counter = counted == measured;
  const bool pass = finished && mismatches == 0 && violations == 0 && inTime && hostErrors == 0 &&
                    doneBit && counter;
  if (!finished)
    std::printf("irq did not rise within %llu cycles\n", static_cast<unsigned long long>(limit));
  else if (!doneBit)
    std::printf("STATUS.DONE is not set after the interrupt (STATUS 0x%x)\n", status);
  else if (!counter)
    std::printf("CYCLES counted %llu cycles, the run took %llu\n",
                static_cast<unsigned long long>(counted),
                static_cast<unsigned long long>(measured));
  else if (!inTime)
    std::printf("measured %llu cycles, %llu from the predicted %llu (tolerance %llu)\n",
                static_cast<unsigned long long>(measured), static_cast<unsigned long long>(off),
                static_cast<unsigned long long>(d.predicted),
                static_cast<unsigned long long>(d.tolerance));
  std::printf("PIM units=%u activates=%llu reads=%llu writes=%llu violations=%llu\n", d.units,
              static_cast<unsigned long long>(activates), static_cast<unsigned long long>(reads),
              static_cast<unsigned long long>(writes), static_cast<unsigned long long>(violations));
  // Microseconds, so small runs still give a usable cycles-per-second figure.
  std::printf("RESULT %s mismatches=%zu elements=%zu measured=%llu predicted=%llu sim_cycles=%llu "
              "sim_seconds=%.6f\n",
              pass ? "PASS" : "FAIL", mismatches, elements,
              static_cast<unsigned long long>(finished ? measured : 0),
              static_cast<unsigned long long>(d.predicted),
              static_cast<unsigned long long>(simCycles), secs);
  return pass ? 0 : 1;
}
