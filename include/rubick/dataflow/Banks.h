// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a data layout means for the buffer, counted exactly over the bounded domain: one bank per
// port position the dataflow uses, the elements each bank holds, and the order in which its
// address generator visits them.

#include "rubick/dataflow/Decompose.h"

#include <vector>

namespace rubick::dataflow {

struct BankStep {
  IntVec time; // (outermost ..., t2, entry time); the entry time is absent for stationary entries
  int64_t address; // position of the element in the bank, in order of first use
};

struct BankInfo {
  std::vector<IntVec> ports;                   // port positions (active port slots), sorted
  std::vector<int64_t> depth;                  // elements stored per bank
  std::vector<std::vector<BankStep>> sequence; // per bank, in time order
  int64_t maxDepth() const;
  int64_t totalWords() const;
};

/// Enumerates the statement's iterations (the domain must be small enough to walk).
BankInfo analyzeBanks(const StatementView& v, const Dataflow& d, const TensorDecomposition& t);

} // namespace rubick::dataflow
