// SPDX-License-Identifier: Apache-2.0
#pragma once
// Widths shared by the array and top writers (private to src/emit).

#include "rubick/arch/Plan.h"

namespace rubick::emit::detail {

/// Signed width of the valid-mask arithmetic u = a * tau + b and of the loop limits.
int64_t validWidth(const arch::Plan& pl);
/// Signed width of port-time arithmetic te = tau + constant in the top.
int64_t timeWidth(const arch::Plan& pl);
/// True when coordinate c's limit changes on the last tile of its outer stamp.
bool limitVaries(const arch::Coordinate& c);

} // namespace rubick::emit::detail
