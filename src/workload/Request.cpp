// SPDX-License-Identifier: Apache-2.0
#include "rubick/workload/Request.h"

#include "rubick/emit/Chain.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"
#include "rubick/workload/Stages.h"

namespace rubick::workload {

Workload recognise(const tc::Program& prog, const Request& r) {
  // Asked only for a program of several statements that is neither attention nor an epilogue.
  auto chains = [&prog, &r] {
    return r.options(prog, dataflow::viewStatement(prog, 0), nullptr).constraints.memory.enabled();
  };
  Workload w = recogniseWorkload(prog, r.stmt, chains, r.file);
  if (r.rowTiles != 1 && w.kind != Kind::Chain)
    throw Error("--row-tiles", "tiles of rows are for chains of statements with a memory system "
                               "(docs/fusion.md); '" +
                                   prog.name + "' is " +
                                   (w.kind == Kind::Attention ? "attention"
                                    : r.stmt.empty()          ? "one statement"
                                                              : "taken one statement (--stmt)"));
  return w;
}

dse::ExploreOptions statementOptions(const tc::Program& prog, const Request& r, const Workload& w,
                                     dse::PimSystem* pim) {
  dse::ExploreOptions eo = r.options(prog, dataflow::viewStatement(prog, w.statement), pim);
  if (!w.epilogue) return eo;
  if (pim && pim->enabled())
    throw Unsupported("epilogue", "an epilogue on PIM units is not built yet; explore the "
                                  "contraction alone with --stmt S0");
  if (!eo.constraints.memory.enabled())
    throw Unsupported("epilogue",
                      "an epilogue is built on the output's way to external memory: give a "
                      "memory system (--mem-bandwidth B, or a target with 'memory'), or take the "
                      "contraction alone with --stmt S0");
  // The output moves at its final width, and its partial sums stay on chip.
  eo.constraints.memory = dse::withEpilogue(eo.constraints.memory, *w.epilogue);
  eo.epilogue = w.epilogue;
  return eo;
}

attn::PipelineOptions pipelineOptions(const tc::Program& prog, const attn::AttentionForm& form,
                                      const Request& r, dse::PimSystem* pim) {
  if (r.dtype)
    throw Error("--dtype", "attention pipelines take their element types from the program");
  attn::PipelineOptions po;
  po.explore = r.options(prog, dataflow::viewStatement(prog, form.score), pim);
  po.blockKeys = r.blockKeys;
  po.lanes = r.vectorLanes;
  po.rebind = r.rebind;
  return po;
}

std::vector<emit::ChainStageDesign> chainStageDesigns(const tc::Program& prog, const Request& r,
                                                      std::vector<TileChoice>* tried) {
  const dse::Selection& sel = r.selection;
  const std::pair<const char*, bool> given[] = {{"--dataflow", sel.dataflow.has_value()},
                                                {"--pipeline", sel.pipeline.has_value()},
                                                {"--entries", !sel.entries.empty()},
                                                {"--layout", !sel.layouts.empty()},
                                                {"--all", sel.all}};
  for (const auto& [flag, on] : given)
    if (on)
      throw Error(flag, "a chain's stages each take their best design by --objective; to choose "
                        "one statement's design, take it alone with --stmt");
  ChainSearch s;
  s.options = [&r](const tc::Program& stage, const dataflow::StatementView& v) {
    dse::PimSystem pim;
    dse::ExploreOptions o = r.options(stage, v, &pim);
    if (pim.enabled())
      throw Unsupported("chain", "a chain on PIM units is not built yet; take one statement "
                                 "with --stmt");
    return o;
  };
  s.rebind = r.rebind;
  s.rowTiles = r.rowTiles;
  s.blockKeys = r.blockKeys;
  s.vectorLanes = r.vectorLanes;
  s.note = [&r](const std::string& what) {
    if (r.note) r.note("chain", what);
  };
  if (r.dtype)
    for (const Stage& st : chainStages(prog, r.file))
      if (st.workload.kind == Kind::Attention)
        throw Error("--dtype", "an attention stage takes its element types from the program");
  std::vector<emit::ChainStageDesign> d = chainDesigns(prog, s, r.file, tried);
  // --point names the chain explore listed: the same flags must build it.
  if (sel.point && *sel.point != emit::chainId(d))
    throw Error("--point", "these flags build chain " + emit::chainId(d) + ", not '" + *sel.point +
                               "' (`rubick explore` with the same flags names the chain on its "
                               "'built as' line); a chain's stages each take their best design "
                               "by --objective, and --stmt takes one statement alone");
  return d;
}

} // namespace rubick::workload
