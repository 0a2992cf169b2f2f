// SPDX-License-Identifier: Apache-2.0
#pragma once
// Tile factors the explorer considers for one space-time matrix on one array.
//
// Loops that only feed t1 stay whole (splitting them only adds tiles). Loops that feed x or y
// (spatial loops) take every *maximal* combination of factors that fits the array (no factor
// can grow by one and still fit; with skewed rows such as x = i + k there are several), plus
// for each the balanced variant ceil(E / ceil(E / f)) that keeps the tile count and pads less.

#include "rubick/dataflow/Dataflow.h"

#include <vector>

namespace rubick::dse {

std::vector<dataflow::Dataflow> exploreTilings(const dataflow::StatementView& v,
                                               const dataflow::Dataflow& untiled, int64_t p,
                                               int64_t q);

} // namespace rubick::dse
