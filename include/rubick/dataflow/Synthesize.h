// SPDX-License-Identifier: Apache-2.0
#pragma once
// IR -> dataflow (theory §3): given an oriented entry and the linear part of a layout for every
// access, solve  A_T X = L_T Omega_T  for all T at once (stacked), where X = S^-1 over the inner
// coordinates. The stacked access matrix must have full column rank, the system must be
// consistent, X nonsingular and S = X^-1 integral; the dataflow must then fit the array and give
// back exactly the chosen entries and layouts.

#include "rubick/dataflow/Dataflow.h"
#include "rubick/ir/DataLayout.h"

#include <optional>
#include <string>
#include <vector>

namespace rubick::dataflow {

struct TensorChoice {
  ir::OrientedEntry entry;
  std::vector<IntVec> layout; // linear part: tensor dims x entry coordinates
};

struct SynthesisResult {
  std::optional<Dataflow> dataflow;
  std::string reason; // why there is none
};

/// `structure` gives the array, the inner coordinates with their tile factors and the outer
/// order; its S is ignored and solved for.
SynthesisResult synthesize(const StatementView& v, const Dataflow& structure,
                           const std::vector<TensorChoice>& choices);

} // namespace rubick::dataflow
