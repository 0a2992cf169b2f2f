// SPDX-License-Identifier: Apache-2.0
#pragma once
// The microarchitecture plan (arch/Plan.h) as text, for `rubick dump --plan`: every number the
// Verilog writers print from, so a design's hardware can be read and debugged without
// emitting it.

#include "rubick/arch/Plan.h"

#include <string>

namespace rubick::arch {

/// The plan, one section per part: the design, its coordinates and outer loops, the schedule,
/// the widths, then per tensor its entry, banks and windows, and per PE its bank, its upstream
/// PE and hop (and for outputs the adder-tree groups and their chains).
std::string printPlan(const Plan& p);

} // namespace rubick::arch
