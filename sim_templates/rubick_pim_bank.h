// SPDX-License-Identifier: Apache-2.0
// rubick_pim_bank.h: the DRAM banks of one processing-in-memory unit (docs/pim.md) for
// Verilator testbenches: their contents, each bank's open row, the commands a unit issues
// (ACT, PRE, RD, WR) with their timings in unit cycles, and the read data CL cycles after its RD.
// Header-only, standard C++17 and built-in types only, like rubick_axi_mem.h, so that it
// compiles into rubick's tests and, later, into the PIM harness of `rubick verify`.
//
// Use, once per unit cycle:
//   1. settle the unit with the clock low and give the model the cycle's commands: at most one
//      row command (activate or precharge) and one column command (read or write); within a
//      cycle the row command takes effect first, whatever the order of the calls;
//   2. drive the unit's read-data inputs from dataValid()/data(): the column of the read issued
//      CL cycles ago (CL = 0: this cycle's read, so call read() first, and settle the unit
//      again);
//   3. raise the clock (the unit's edge), then call tick() (the model's edge).
// Timing rules, a command in cycle t and the one it waits for in cycle t0 (equal cycles are
// allowed where a timing is 0 and the order above permits):
//   ACT  to a closed bank, t - t0 >= tRP after the bank's PRE
//   PRE  to an open bank, t - t0 >= tRAS after its ACT
//   RD   to an open bank (the row given, if any, must be the open one), t - t0 >= tRCD after
//        its ACT
//   WR   as RD; its colBytes bytes are stored in the open row at the model's edge (tick), so a
//        read in a later cycle returns them (an RD's data is the column at the RD's edge)
// Every breach is recorded in violations() with the cycle and what was wrong, and the test
// fails on it; the command is still applied where it can be (a second row or column command in
// one cycle, an RD and a WR included, is dropped, as is a command to a bank, row or column out
// of range or a read or write of a closed bank; such a read returns zeros; a WR with another
// number of bytes than colBytes stores those that fit). The banks start closed and rested (any
// ACT allowed). Writes have the timing of reads: tWR (write to PRE), tWTR (write to read) and
// tCWL (write latency) are not modelled, nor refresh, tRRD, tFAW or tRTP: what docs/pim.md's
// model has.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace rubick_sim {

struct PimBankConfig {
  unsigned banks = 1;     // banks of the unit, >= 1
  uint64_t rows = 64;     // rows per bank, >= 1
  unsigned rowCols = 64;  // columns per row, >= 1
  unsigned colBytes = 32; // bytes of a column (the bank's bytes_per_cycle), >= 1
  unsigned tRCD = 0;      // ACT to RD, unit cycles
  unsigned tRP = 0;       // PRE to ACT of the same bank
  unsigned tRAS = 0;      // ACT to PRE of the same bank, at least
  unsigned CL = 1;        // RD to its data
};

struct PimBankStats {
  uint64_t activates = 0, precharges = 0, reads = 0, writes = 0;
  uint64_t cycles = 0; // ticks
};

class PimBanks {
public:
  explicit PimBanks(const PimBankConfig& c) : cfg_(c) {
    if (cfg_.banks < 1 || cfg_.rows < 1 || cfg_.rowCols < 1 || cfg_.colBytes < 1) {
      violation("config: banks, rows, rowCols and colBytes must be at least 1 (using 1)");
      if (cfg_.banks < 1) cfg_.banks = 1;
      if (cfg_.rows < 1) cfg_.rows = 1;
      if (cfg_.rowCols < 1) cfg_.rowCols = 1;
      if (cfg_.colBytes < 1) cfg_.colBytes = 1;
    }
    bytes_.assign(size_t(cfg_.banks) * cfg_.rows * cfg_.rowCols * cfg_.colBytes, 0);
    zeros_.assign(cfg_.colBytes, 0);
    banks_.assign(cfg_.banks, Bank{});
  }

  const PimBankConfig& config() const { return cfg_; }
  // The current cycle's number: ticks since construction.
  uint64_t cycle() const { return cycle_; }

  // ---- Commands of the current cycle ----
  void activate(unsigned bank, uint64_t row) { rowCommand(true, bank, row); }
  void precharge(unsigned bank) { rowCommand(false, bank, 0); }
  // expectRow >= 0: the row the reader means to read (checked against the open one).
  void read(unsigned bank, unsigned col, int64_t expectRow = -1) {
    if (col_.valid) {
      violation("two column commands in one cycle (RD bank " + std::to_string(bank) + " col " +
                std::to_string(col) + " dropped)");
      return;
    }
    col_ = {true, false, bank, col, expectRow, {}};
  }
  // A WR of `bytes` (colBytes of them) into column `col` of the row open in `bank`; the same
  // rules and the same column command slot as read().
  void write(unsigned bank, unsigned col, const std::vector<uint8_t>& bytes,
             int64_t expectRow = -1) {
    write(bank, col, bytes.data(), bytes.size(), expectRow);
  }
  void write(unsigned bank, unsigned col, const uint8_t* bytes, size_t n, int64_t expectRow = -1) {
    if (col_.valid) {
      violation("two column commands in one cycle (WR bank " + std::to_string(bank) + " col " +
                std::to_string(col) + " dropped)");
      return;
    }
    col_ = {true, true, bank, col, expectRow, std::vector<uint8_t>(bytes, bytes + n)};
  }

  // ---- Read data of the current cycle ----
  bool dataValid() const { return dataDue() != nullptr; }
  const std::vector<uint8_t>& data() const {
    const std::vector<uint8_t>* d = dataDue();
    return d ? *d : zeros_;
  }

  // One rising edge: applies the cycle's commands (row first), checks them, schedules the read
  // or stores the write.
  void tick() {
    const uint64_t c = cycle_;
    if (row_.valid) applyRow(c);
    if (col_.valid) applyColumn(c);
    while (!pending_.empty() && pending_.front().due <= c)
      pending_.pop_front();
    row_ = RowCmd{};
    col_ = ColCmd{};
    ++cycle_;
    ++stats_.cycles;
  }

  // ---- State and contents (backdoor: no timing, no checks) ----
  bool isOpen(unsigned bank) const { return bank < cfg_.banks && banks_[bank].open; }
  uint64_t openRow(unsigned bank) const { return bank < cfg_.banks ? banks_[bank].row : 0; }
  bool allClosed() const {
    for (const Bank& b : banks_)
      if (b.open) return false;
    return true;
  }
  uint8_t* column(unsigned bank, uint64_t row, unsigned col) {
    return bytes_.data() + offset(bank, row, col);
  }
  const uint8_t* column(unsigned bank, uint64_t row, unsigned col) const {
    return bytes_.data() + offset(bank, row, col);
  }

  const std::vector<std::string>& violations() const { return violations_; }
  uint64_t violationCount() const { return violationCount_; }
  const PimBankStats& stats() const { return stats_; }

private:
  static constexpr size_t kMaxMessages = 100;

  struct Bank {
    bool open = false;
    uint64_t row = 0;
    bool everAct = false, everPre = false;
    uint64_t actAt = 0, preAt = 0;
  };
  struct RowCmd {
    bool valid = false, act = false;
    unsigned bank = 0;
    uint64_t row = 0;
  };
  struct ColCmd {
    bool valid = false, write = false;
    unsigned bank = 0, col = 0;
    int64_t expectRow = -1;
    std::vector<uint8_t> bytes; // a WR's
  };
  struct Data {
    uint64_t due;
    std::vector<uint8_t> bytes;
  };

  size_t offset(unsigned bank, uint64_t row, unsigned col) const {
    return ((size_t(bank) * cfg_.rows + row) * cfg_.rowCols + col) * cfg_.colBytes;
  }

  void violation(const std::string& what) {
    ++violationCount_;
    if (violations_.size() < kMaxMessages)
      violations_.push_back("cycle " + std::to_string(cycle_) + ": " + what);
  }

  void rowCommand(bool act, unsigned bank, uint64_t row) {
    const std::string what =
        act ? "ACT bank " + std::to_string(bank) + " row " + std::to_string(row)
            : "PRE bank " + std::to_string(bank);
    if (row_.valid) {
      violation("two row commands in one cycle (" + what + " dropped)");
      return;
    }
    row_ = {true, act, bank, row};
  }

  void applyRow(uint64_t c) {
    const RowCmd& r = row_;
    if (r.bank >= cfg_.banks) {
      violation((r.act ? "ACT" : "PRE") + std::string(" to bank ") + std::to_string(r.bank) +
                ", beyond the " + std::to_string(cfg_.banks) + " banks");
      return;
    }
    Bank& b = banks_[r.bank];
    const std::string at = " bank " + std::to_string(r.bank);
    if (r.act) {
      if (r.row >= cfg_.rows) {
        violation("ACT" + at + " row " + std::to_string(r.row) + ", beyond the " +
                  std::to_string(cfg_.rows) + " rows");
        return;
      }
      if (b.open) {
        violation("ACT" + at + " row " + std::to_string(r.row) + " while row " +
                  std::to_string(b.row) + " is open");
        return;
      }
      if (b.everPre && c - b.preAt < cfg_.tRP)
        violation("ACT" + at + " " + std::to_string(c - b.preAt) + " cycles after its PRE (tRP " +
                  std::to_string(cfg_.tRP) + ")");
      b.open = true;
      b.row = r.row;
      b.everAct = true;
      b.actAt = c;
      ++stats_.activates;
    } else {
      if (!b.open) {
        violation("PRE" + at + ", which is closed");
        return;
      }
      if (c - b.actAt < cfg_.tRAS)
        violation("PRE" + at + " " + std::to_string(c - b.actAt) + " cycles after its ACT (tRAS " +
                  std::to_string(cfg_.tRAS) + ")");
      b.open = false;
      b.everPre = true;
      b.preAt = c;
      ++stats_.precharges;
    }
  }

  // The column this cycle's read returns, after this cycle's row command (`rowApplied`: it is
  // in the banks' state already); nullptr if the read cannot return anything.
  const uint8_t* readSource(bool rowApplied) const {
    const ColCmd& r = col_;
    if (r.bank >= cfg_.banks || r.col >= cfg_.rowCols) return nullptr;
    const Bank& b = banks_[r.bank];
    bool open = b.open;
    uint64_t row = b.row;
    if (!rowApplied && row_.valid && row_.bank == r.bank) {
      open = row_.act ? !b.open && row_.row < cfg_.rows : false;
      if (row_.act && open) row = row_.row;
    }
    return open ? column(r.bank, row, r.col) : nullptr;
  }

  // An RD or a WR: checked alike; an RD's data scheduled CL cycles on, a WR's bytes stored.
  void applyColumn(uint64_t c) {
    const ColCmd& r = col_;
    const std::string at = std::string(r.write ? "WR" : "RD") + " bank " + std::to_string(r.bank) +
                           " col " + std::to_string(r.col);
    bool ok = false;
    if (r.bank >= cfg_.banks || r.col >= cfg_.rowCols) {
      violation(at + ": beyond the " + std::to_string(cfg_.banks) + " banks of " +
                std::to_string(cfg_.rowCols) + " columns");
    } else if (!banks_[r.bank].open) {
      violation(at + " to a closed bank");
    } else {
      const Bank& b = banks_[r.bank];
      if (r.expectRow >= 0 && uint64_t(r.expectRow) != b.row)
        violation(at + " meant for row " + std::to_string(r.expectRow) + ", but row " +
                  std::to_string(b.row) + " is open");
      if (c - b.actAt < cfg_.tRCD)
        violation(at + " " + std::to_string(c - b.actAt) + " cycles after its ACT (tRCD " +
                  std::to_string(cfg_.tRCD) + ")");
      ok = true;
    }
    if (r.write) {
      if (r.bytes.size() != cfg_.colBytes)
        violation(at + " of " + std::to_string(r.bytes.size()) + " bytes, not " +
                  std::to_string(cfg_.colBytes));
      if (ok)
        std::copy(r.bytes.begin(),
                  r.bytes.begin() + long(std::min<size_t>(r.bytes.size(), cfg_.colBytes)),
                  column(r.bank, banks_[r.bank].row, r.col));
      ++stats_.writes;
      return;
    }
    const uint8_t* src = readSource(true);
    std::vector<uint8_t> bytes = zeros_;
    if (ok && src) bytes.assign(src, src + cfg_.colBytes);
    ++stats_.reads;
    pending_.push_back({c + cfg_.CL, std::move(bytes)});
  }

  // The data due in this cycle: a read CL cycles ago, or (CL = 0) this cycle's read.
  const std::vector<uint8_t>* dataDue() const {
    if (!pending_.empty() && pending_.front().due == cycle_) return &pending_.front().bytes;
    if (cfg_.CL == 0 && col_.valid && !col_.write) {
      const uint8_t* src = readSource(false);
      nowBytes_.assign(zeros_.size(), 0);
      if (src) nowBytes_.assign(src, src + cfg_.colBytes);
      return &nowBytes_;
    }
    return nullptr;
  }

  PimBankConfig cfg_;
  std::vector<uint8_t> bytes_;
  std::vector<uint8_t> zeros_;
  mutable std::vector<uint8_t> nowBytes_;
  std::vector<Bank> banks_;
  RowCmd row_;
  ColCmd col_;
  std::deque<Data> pending_;
  uint64_t cycle_ = 0;
  PimBankStats stats_;
  std::vector<std::string> violations_;
  uint64_t violationCount_ = 0;
};

} // namespace rubick_sim
