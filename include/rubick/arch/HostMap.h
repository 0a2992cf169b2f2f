// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where the host must put every input element and find every output element: (bank, address)
// per tensor element, found by walking the iteration domain through the plan's address rules.
// An input element used by several ports appears in several banks; an output element has one
// place. A conflict (two elements at one address) is an internal error.

#include "rubick/arch/Plan.h"
#include "rubick/dataflow/Dataflow.h"

#include <vector>

namespace rubick::arch {

struct Location {
  int bank = 0;
  int64_t address = 0;
  friend auto operator<=>(const Location&, const Location&) = default;
};

struct TensorMap {
  std::vector<int64_t> shape;
  std::vector<std::vector<Location>> elements; // row-major over the tensor's shape
};

/// `offset` (per loop, empty: none): the design computes a part of a larger problem, iteration
/// `it` of `v` being iteration `it + offset` of the program's statement (a PIM unit's share,
/// docs/pim.md): elements are those of the program's tensors, and an index past a tensor's
/// shape (the last unit's part of a loop its units do not divide) has no element.
std::vector<TensorMap> hostMap(const tc::Program& prog, const dataflow::StatementView& v,
                               const dataflow::Dataflow& d, const Plan& plan,
                               const IntVec& offset = {});

} // namespace rubick::arch
