// SPDX-License-Identifier: Apache-2.0
#pragma once
// Text forms printed by `rubick dump --ir` and `rubick dump --space` (golden-tested).

#include "rubick/dataflow/Enumerate.h"
#include "rubick/frontend/Program.h"
#include "rubick/poly/IslContext.h"

#include <string>

namespace rubick::dataflow {

/// Per access: matrix over the loops, null space, and how many oriented entries could serve it.
std::string printAccessAnalysis(const tc::Program& prog, const StatementView& v);

/// The full IR of one dataflow: movement, reuse, entry (ports, fan-out), layout, banks, and the
/// isl checks of legality and of M = L o Omega.
std::string printIr(const poly::IslContext& ctx, const tc::Program& prog, const StatementView& v,
                    const Dataflow& d);

/// Summary of the dataflow space: search statistics and realisable dataflows per entry
/// combination.
std::string printSpace(const StatementView& v, int64_t p, int64_t q, const EnumerationResult& r);

} // namespace rubick::dataflow
