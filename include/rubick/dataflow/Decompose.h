// SPDX-License-Identifier: Apache-2.0
#pragma once
// Dataflow -> IR (theory §2): for every tensor reference, the movement M_T = A_T o Theta^-1, its
// reuse space, the access entry that realises it and the data layout with M_T = L_T o Omega_T.
//
//   PE(k, j mod 2) | T(i + j mod 2, j / 2), tensor A(i,k):
//     M_A = (x, y | t1, t2) -> A(t1 - y, x), reuse (0,1|1) => Y-systolic,
//     L_A = E(x, 0 | t1, t2) -> A(t1, x)

#include "rubick/dataflow/Dataflow.h"
#include "rubick/ir/DataLayout.h"

#include <optional>
#include <string>
#include <vector>

namespace rubick::dataflow {

struct TensorDecomposition {
  size_t access = 0;                 // index into StatementView::accesses
  Mat movement;                      // linear part over (x, y, t1): tensor dims x 3
  std::vector<IntVec> movementOuter; // tensor dims x outer stamps
  std::vector<Rational> movementConstant;
  std::vector<IntVec> reuse; // basis of the reuse space in (x, y | t1)
  std::optional<ir::OrientedEntry> entry;
  ir::DataLayout layout; // valid when `entry` is set and `reason` is empty
  std::string reason;    // why this reference cannot be realised, empty when it can
  bool ok() const { return entry.has_value() && reason.empty(); }
};

struct Decomposition {
  std::vector<TensorDecomposition> tensors;
  std::string reason; // set when the dataflow itself is malformed
  bool ok() const;
};

/// Decomposes every access of the statement. The dataflow must be well formed (checkWellFormed).
Decomposition decompose(const StatementView& v, const Dataflow& d);

/// Inner and outer parts of an access for a dataflow's tiling: columns per inner coordinate
/// (zero for constant axes, so 3 columns) and per outer stamp (coefficient times factor).
Mat innerAccess(const AccessView& a, const Dataflow& d);
std::vector<IntVec> outerAccess(const AccessView& a, const Dataflow& d);

} // namespace rubick::dataflow
