#pragma once
// The Pareto front over (latency, wires or area, buffer bytes): a design is on it when no other
// design is at least as good in all three and better in one.

#include "rubick/dse/Explore.h"

#include <vector>

namespace rubick::dse {

/// Sets DesignPoint::pareto; the second metric is area when `useArea`, else wires.
void markPareto(std::vector<DesignPoint>& points, bool useArea);

} // namespace rubick::dse
