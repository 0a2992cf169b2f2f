// SPDX-License-Identifier: Apache-2.0
#pragma once
// A DRAM behind the memory's fixed latency: the first-order row-buffer model of
// sim_templates/rubick_axi_mem.h's DRAM mode (docs/memory.md, "DRAM timing"), as a description
// and as the banks' state that the cycle prediction replays burst by burst.
//
// Addresses map to (row, bank, column) with consecutive rows of rowBytes in consecutive banks;
// each bank keeps one row open (open page). Every run of a burst's beats inside one row is one
// access, reaching the DRAM `latency` cycles after the burst's address handshake: a hit on the
// open row costs CL more, a closed bank tRCD + CL, another open row tRP + tRCD + CL (the
// precharge no earlier than tRAS after that row's activate); an access waits until its bank's
// last activate has finished. No refresh.

#include "rubick/arch/DmaTiming.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rubick::arch {

struct Dram {
  int64_t banks = 8;
  int64_t rowBytes = 2048;
  int64_t tRCD = 14; // activate to read or write, cycles
  int64_t tRP = 14;  // precharge, cycles
  int64_t CL = 14;   // read or write command to data, cycles
  int64_t tRAS = 0;  // activate to precharge, at least, cycles (a PIM unit's bank; 0: none)
  friend bool operator==(const Dram&, const Dram&) = default;
};

/// "banks=8,row=2048,trcd=14,trp=14,cl=14": the parameters given (any subset, any order; the
/// others keep their defaults; "" or "default" for all defaults). Throws rubick::Error with
/// origin `flag` for anything else: an unknown or repeated name, a value that is not a whole
/// number in its range (banks 1..1024, row 1..2^30 bytes, timings 0..10000 cycles; tras
/// defaults to 0).
Dram parseDram(const std::string& spec, const std::string& flag = "--dram");

/// Every parameter, in parseDram's syntax.
std::string toString(const Dram& d);

/// The DRAM's banks as a run leaves them, with counters.
class DramBanks {
public:
  explicit DramBanks(const Dram& d);
  /// A burst of `beats` beats of `busBytes` from beat-aligned `addr` reaches the DRAM in cycle
  /// `arrive`: opens its rows and sets `runs` to when each run of its beats can come. Counted
  /// in the hits and misses when `count`.
  void access(int64_t arrive, uint64_t addr, int64_t beats, int64_t busBytes, bool count,
              std::vector<BeatsReady>& runs);
  int64_t hits = 0, misses = 0, conflicts = 0; // conflicts: misses that closed another row
  /// The same banks seen from a clock that starts `cycles` later (a chain's next stage).
  void shift(int64_t cycles);

private:
  struct Bank {
    bool open = false;
    uint64_t row = 0;
    int64_t activeAt = 0; // the open row is usable from this cycle
  };
  Dram d_;
  std::vector<Bank> banks_;
};

} // namespace rubick::arch
