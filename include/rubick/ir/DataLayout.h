// SPDX-License-Identifier: Apache-2.0
#pragma once
// Data layouts: which tensor element an entry emits at each entry time (theory §2.4).
//
//   L_A = { E(x, 0 | t1, t2) -> A(t1, x) }
//
// L is affine: a linear part over the entry's coordinates (its active slots: port coordinates,
// then the entry time), a part over the outer time stamps t2, t3, ..., and a constant. One bank
// per distinct port position; the bank holds the elements its port emits.

#include "rubick/ir/AccessEntry.h"

#include <string>
#include <vector>

namespace rubick::ir {

struct DataLayout {
  std::vector<int> slots;     // entry coordinates: active slots of the entry (0, 1: port; 2: time)
  std::vector<IntVec> linear; // tensor dims x slots
  std::vector<IntVec> outer;  // tensor dims x outer time stamps
  IntVec constant;            // tensor dims
  friend bool operator==(const DataLayout&, const DataLayout&) = default;
};

/// "E(x, 0 | t1, t2) -> A(t1, x)": entry coordinates are named x (slot 0), y (slot 1), t1 (slot
/// 2) and t2.. for outer time; inactive slots print as 0.
std::string toString(const DataLayout& l, const std::string& tensor);

/// The layout transforms relative to the plain layout (tensor dimension d fed by the d-th entry
/// coordinate): "plain", "transpose", "skew", "transpose+skew", "stride", or "general".
std::string transformName(const DataLayout& l);

/// Parses the right-hand side of a layout, e.g. "A(t1, x)" or "(t1 - x, x + 2*t2)", against the
/// entry coordinates of `slots` and `outerCount` outer times. Returns false with `error` set.
bool parseLayout(const std::string& text, const std::vector<int>& slots, size_t outerCount,
                 size_t tensorDims, DataLayout& out, std::string& error);

} // namespace rubick::ir
