// SPDX-License-Identifier: Apache-2.0
#include "rubick/workload/ExploreProgram.h"

#include "rubick/attn/PipelineTable.h"
#include "rubick/dse/Chain.h"
#include "rubick/emit/ModuleName.h"
#include "rubick/emit/PimDecode.h"
#include "rubick/support/Unsupported.h"
#include "rubick/workload/EmitProgram.h"

#include <stdexcept>

namespace rubick::workload {

namespace {

std::string exploreChain(const tc::Program& prog, const Request& r) {
  // Over the stages emit and verify build; when they cannot build it yet, over the
  // statements, each alone, with the reason.
  std::vector<emit::ChainStageDesign> stages;
  std::vector<TileChoice> tried;
  std::string why;
  try {
    stages = chainStageDesigns(prog, r, &tried);
  } catch (const Unsupported& e) {
    why = e.diag().message;
  }
  if (!stages.empty()) return chainBuildText(prog, stages, tried);
  const dse::ChainResult c =
      dse::exploreChain(prog, [&r, &prog](size_t, const dataflow::StatementView& v) {
        return r.options(prog, v, nullptr);
      });
  return dse::chainText(c) + "\nbuilt as: not built yet (" + why + ")\n";
}

} // namespace

Explored exploreProgram(const tc::Program& prog, const Request& r, const Workload& w, size_t top) {
  Explored e;
  if (w.kind == Kind::Chain) {
    e.text = exploreChain(prog, r);
  } else if (w.kind == Kind::Attention) {
    const attn::AttentionForm& form = *w.attention;
    dse::PimSystem pim;
    const attn::PipelineOptions po = pipelineOptions(prog, form, r, &pim);
    if (pim.enabled()) {
      const emit::PimDecodePlan plan = decodePlan(prog, form, po, pim, r.selection);
      const emit::PimDecodePackage pkg =
          emit::packagePimDecode(prog, form, plan, pim, emit::moduleName(prog.name, "decode"));
      e.text = emit::describePimDecode(prog, form, plan, pkg, pim);
    } else {
      const attn::PipelineResult res = attn::explorePipeline(prog, form, po);
      e.pipelines = res.points.size();
      e.text = attn::pipelineTable(prog, res, top);
    }
  } else {
    throw std::logic_error("exploreProgram: a single statement (dse::explore)");
  }
  return e;
}

} // namespace rubick::workload
