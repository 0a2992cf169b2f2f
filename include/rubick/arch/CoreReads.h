// SPDX-License-Identifier: Apache-2.0
#pragma once
// The reads a core makes of its input banks (and the writes of its output banks), in the order
// it makes them: core cycle by core cycle from the first busy one, and within a cycle by
// tensor, then bank. A PIM stream unit
// (docs/pim.md) lays the words of its streamed tensors in its DRAM banks in this order, so that
// reading them in sequence is all the addressing its banks need.

#include "rubick/arch/Plan.h"

#include <cstdint>
#include <vector>

namespace rubick::arch {

struct BankRead {
  int tensor = 0; // index into plan.tensors
  int bank = 0;
  int64_t address = 0;
};

struct CoreReads {
  std::vector<BankRead> reads;   // in order
  std::vector<int32_t> perCycle; // reads in each busy cycle (busy cycle 1 first)
};

/// The reads of `tensors` (inputs of `plan`, in the order given) over one run of the core: the
/// events of src/emit/VerilogTop.cpp's read enables, with their addresses, walked through the
/// controller's tiles (rubick_ctrl: a tile every `interval` cycles, the previous one beside it
/// while it runs) and the address generators' bases. Throws std::logic_error if two contexts
/// would read one bank in one cycle (the hardware has one read a bank a cycle).
CoreReads coreReads(const Plan& plan, const std::vector<int>& tensors);

/// The same for the writes of output `tensor` (its banks' write enables and addresses): the
/// order a PIM stream unit's write port collects its words in. Throws std::logic_error for an
/// input, and for an output whose partial sums recur (they are read back from its banks).
CoreReads coreWrites(const Plan& plan, int tensor);

} // namespace rubick::arch
