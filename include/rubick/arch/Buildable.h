// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place that decides whether rubick can build hardware for a statement: the planner
// (arch::makePlan) refuses what it says, explore notes it above its table, and verify reports
// "unsupported" instead of a failure. Per-design limits (malformed dataflows) are the planner's.
//
//   C(i,j) +=! A(i,k) * B(k,j)        buildable
//   C(i,j) +=! A(i,k) * B(k,j) + D(i,j)   not: "the right-hand side ... '+'"
//   C(i)   max=! A(i,k)               not: "'max=!' ..."

#include "rubick/dataflow/StatementView.h"
#include "rubick/frontend/Program.h"

#include <string>
#include <vector>

namespace rubick::arch {

/// Why the hardware cannot be built for statement `v` with these stored element widths (write
/// first, as dse::Constraints::elementBits), or "" when it can.
std::string buildProblem(const tc::Program& prog, const dataflow::StatementView& v,
                         const std::vector<int64_t>& elementBits);

} // namespace rubick::arch
