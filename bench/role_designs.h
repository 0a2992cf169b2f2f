// SPDX-License-Identifier: Apache-2.0
#pragma once
// The calibration benchmarks' sweep: on one array, one design per access entry and role
// (explore's selection `--all --cover roles`), with the program's element widths.

#include "rubick/dse/Explore.h"
#include "rubick/dse/Select.h"
#include "rubick/frontend/Sema.h"

#include <vector>

namespace rubick::bench {

/// Explore options for one p x q array with the program's element widths.
inline dse::ExploreOptions arrayOptions(const tc::Program& prog, const dataflow::StatementView& v,
                                        int64_t p, int64_t q) {
  dse::ExploreOptions o;
  o.constraints.arrays = {{p, q}};
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(tc::bitWidth(prog.tensors[a.tensor].type));
  return o;
}

inline std::vector<dse::DesignPoint> roleDesigns(const dataflow::StatementView& v,
                                                 const dse::ExploreOptions& o) {
  dse::Selection sel;
  sel.all = true;
  sel.cover = "roles";
  return dse::selectDesigns(v, o, sel, "bench");
}

} // namespace rubick::bench
