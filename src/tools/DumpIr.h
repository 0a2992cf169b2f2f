// SPDX-License-Identifier: Apache-2.0
#pragma once
// The dataflow-level views of `rubick dump`: --ir, --space and --plan.

#include "DataflowOptions.h"
#include "InputOptions.h"

#include <string>

namespace rubick::cli {

std::string dumpIr(const InputOptions& in, const DataflowOptions& df);
std::string dumpSpace(const InputOptions& in, const DataflowOptions& df);
/// The microarchitecture plan of exactly the design --dataflow names (arch/PlanText.h).
std::string dumpPlan(const InputOptions& in, const DataflowOptions& df);

} // namespace rubick::cli
