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

std::vector<TensorMap> hostMap(const tc::Program& prog, const dataflow::StatementView& v,
                               const dataflow::Dataflow& d, const Plan& plan);

} // namespace rubick::arch
