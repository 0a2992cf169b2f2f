// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Pareto front over (latency, wires or area, buffer bytes): a design is on it when no other
// design is at least as good in all three and better in one.

#include "rubick/dse/Explore.h"

#include <vector>

namespace rubick::dse {

/// The three metrics the front is over; the second is area when `useArea`, else wires.
struct ParetoKey {
  double a = 0, b = 0, c = 0;
  friend auto operator<=>(const ParetoKey&, const ParetoKey&) = default;
};
ParetoKey paretoKey(const Metrics& m, bool useArea);

/// `x` is at least as good as `y` in all three and better in one (equal keys: neither).
bool dominates(const ParetoKey& x, const ParetoKey& y);

/// Sets DesignPoint::pareto; the second metric is area when `useArea`, else wires.
void markPareto(std::vector<DesignPoint>& points, bool useArea);

} // namespace rubick::dse
