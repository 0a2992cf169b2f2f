// SPDX-License-Identifier: Apache-2.0
#pragma once
// The written form of a dataflow, as in the theory notes:
//
//   PE(k, j mod 2) | T(i + j mod 2, j / 2)
//
// PE(x, y): affine in loops and loop remainders (`j mod 2`); T(t1, t2, ...): t1 affine like x
// and y, then the outer time stamps innermost first, each a whole loop (`j`) or a quotient
// (`j / 2`). Constants are allowed but must be the ones that make x, y, t1 start at 0. A file
// holding a spec may contain `#` comments.

#include "rubick/dataflow/Dataflow.h"

#include <string>

namespace rubick::dataflow {

/// Parses `text` for statement `v` on a p x q array. Throws rubick::Error (origin `origin`,
/// message with the column) on a malformed or illegal spec.
Dataflow parseDataflowSpec(const std::string& text, const StatementView& v, int64_t p, int64_t q,
                           const std::string& origin = "--dataflow");

} // namespace rubick::dataflow
