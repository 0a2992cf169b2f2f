// SPDX-License-Identifier: Apache-2.0
#include "rubick/workload/VerifyProgram.h"

#include "rubick/attn/SelectPipeline.h"
#include "rubick/emit/ModuleName.h"
#include "rubick/emit/Pim.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"
#include "rubick/verify/Attention.h"
#include "rubick/verify/Chain.h"
#include "rubick/workload/EmitProgram.h"

#include <algorithm>

namespace rubick::workload {

namespace {

void needMemory(const verify::Options& o, bool memory) {
  if (o.dram && !memory) // before the search
    throw Error("--dram", "there is no external memory: give --mem-bandwidth or a target with "
                          "'memory'");
}

Verified one(std::string title, const char* what, int idWidth, verify::Result res,
             double runtimeSeconds) {
  Verified v;
  v.shape = Verified::Shape::One;
  v.title = std::move(title);
  v.what = what;
  v.idWidth = idWidth;
  v.selected = 1;
  v.runtimeSeconds = runtimeSeconds;
  VerifiedDesign d;
  d.id = res.id;
  d.result = std::move(res);
  v.designs.push_back(std::move(d));
  return v;
}

// A PIM target (docs/pim.md): spreads of the problem over the units, their banks modelled.
// With --all every ranked design; one the hardware does not build yet is listed with the
// reason (neither passed nor failed).
Verified verifyPimDesigns(const tc::Program& prog, size_t stmt, const dataflow::StatementView& v,
                          const dse::ExploreOptions& eo, const dse::PimSystem& pim,
                          const dse::Selection& sel, const verify::Options& o) {
  if (o.dram) throw Error("--dram", "a PIM target's banks have their own timings");
  if (sel.shard.count > 1) throw Unsupported("--shard", "PIM targets are not sharded yet");
  dse::checkPimSelection(sel);
  std::vector<dse::PimDesign> designs = dse::selectPimDesigns(
      v, pim, eo, sel.point, sel.all, "verify", emit::pimExact(prog, v, pim, eo));
  Verified out;
  out.shape = Verified::Shape::PimDesigns;
  out.statement = stmt;
  out.units = pim.units;
  out.selected = designs.size();
  // --skip and --limit: a window of the ranking, as for other designs.
  designs.erase(designs.begin(),
                designs.begin() + std::min(designs.size(), static_cast<size_t>(sel.skip)));
  if (sel.limit && designs.size() > static_cast<size_t>(*sel.limit))
    designs.resize(static_cast<size_t>(*sel.limit));
  if (designs.empty())
    throw Error("--skip", "skips all " + std::to_string(out.selected) + " ranked PIM designs");
  // What the hardware builds is simulated; nothing to simulate is unsupported, not failed.
  std::vector<dse::PimDesign> built;
  for (const dse::PimDesign& d : designs) {
    VerifiedDesign vd;
    vd.id = d.id;
    vd.explorerCycles = d.modelUnitCycles;
    vd.unbuilt = emit::pimBuildProblem(v, d, pim, eo);
    if (vd.unbuilt.empty()) built.push_back(d);
    out.designs.push_back(std::move(vd));
  }
  if (built.empty())
    throw Unsupported("verify", (designs.size() > 1 ? "no design is built yet; the first: " : "") +
                                    out.designs.front().unbuilt);
  std::vector<verify::Result> results =
      verify::verifyPim(prog, stmt, built, pim, eo, o, &out.runtimeSeconds);
  size_t next = 0;
  for (VerifiedDesign& d : out.designs)
    if (d.unbuilt.empty()) d.result = std::move(results.at(next++));
  return out;
}

Verified verifyStatement(const tc::Program& prog, const Request& r, const Workload& w,
                         const verify::Options& o) {
  const size_t stmt = w.statement;
  const dataflow::StatementView v = dataflow::viewStatement(prog, stmt);
  dse::PimSystem pim;
  const dse::ExploreOptions eo = statementOptions(prog, r, w, &pim);
  if (pim.enabled()) return verifyPimDesigns(prog, stmt, v, eo, pim, r.selection, o);
  dse::checkSelection(r.selection); // before the search, which may be long
  needMemory(o, eo.constraints.memory.enabled());
  Verified out;
  out.statement = stmt;
  const std::vector<dse::DesignPoint> chosen =
      buildableDesigns(prog, v, eo, r, "verify", &out.selected);
  // A shard's designs: those at place I modulo N of the window --skip and --limit leave.
  std::vector<dse::DesignPoint> owned;
  std::vector<size_t> ranks;
  for (size_t i = 0; i < chosen.size(); ++i)
    if (r.selection.shard.owns(i)) {
      owned.push_back(chosen[i]);
      ranks.push_back(static_cast<size_t>(r.selection.skip) + i + 1);
    }
  out.window = chosen.size();
  if (owned.empty()) return out; // more shards than designs
  std::vector<verify::Result> results =
      verify::verifyDesigns(prog, stmt, owned, eo, o, &out.runtimeSeconds);
  for (size_t i = 0; i < results.size(); ++i) {
    VerifiedDesign d;
    d.id = results[i].id;
    d.rank = ranks[i];
    d.result = std::move(results[i]);
    out.designs.push_back(std::move(d));
  }
  return out;
}

Verified verifyAttention(const tc::Program& prog, const Request& r, const attn::AttentionForm& f,
                         const verify::Options& o) {
  dse::PimSystem pim;
  const attn::PipelineOptions po = pipelineOptions(prog, f, r, &pim);
  double runtimeSeconds = 0;
  if (pim.enabled()) {
    const emit::PimDecodePlan plan = decodePlan(prog, f, po, pim, r.selection);
    if (o.dram) throw Error("--dram", "PIM units read their banks: there is no external memory");
    verify::Result res = verify::verifyPimDecode(prog, f, plan, pim, o, &runtimeSeconds);
    return one(prog.name + ": attention decode on " + std::to_string(pim.units) +
                   " PIM units, S=" + std::to_string(f.s) + " D=" + std::to_string(f.d),
               "decode", 28, std::move(res), runtimeSeconds);
  }
  needMemory(o, po.explore.constraints.memory.enabled());
  const attn::PipelinePoint p = attn::selectPipeline(prog, f, po, r.selection);
  verify::Result res = verify::verifyAttention(prog, f, p, o, &runtimeSeconds);
  return one(prog.name + ": attention pipeline, L=" + std::to_string(f.l) +
                 " S=" + std::to_string(f.s) + " D=" + std::to_string(f.d) +
                 " heads=" + std::to_string(f.heads),
             "pipeline", 16, std::move(res), runtimeSeconds);
}

Verified verifyChain(const tc::Program& prog, const Request& r, const verify::Options& o) {
  const std::vector<emit::ChainStageDesign> s = chainStageDesigns(prog, r);
  const std::string name = o.name.empty() ? emit::moduleName(prog.name, emit::chainId(s)) : o.name;
  double runtimeSeconds = 0;
  verify::Result res = verify::verifyChain(prog, s, name, o, &runtimeSeconds);
  res.spec = std::to_string(s.size()) + " stages:";
  for (const emit::ChainStageDesign& st : s)
    res.spec += " " + st.point.id;
  return one(prog.name + ": chain of " + std::to_string(s.size()) + " stages", "chain", 16,
             std::move(res), runtimeSeconds);
}

} // namespace

Verified verifyProgram(const tc::Program& prog, const Request& r, const verify::Options& o) {
  const Workload w = recognise(prog, r);
  if (r.selection.shard.count > 1 && w.kind != Kind::Statement && w.kind != Kind::Epilogue)
    throw Unsupported("--shard", "only a statement's designs are sharded yet, not attention "
                                 "pipelines or chains");
  switch (w.kind) {
  case Kind::Attention: // the whole fused pipeline
    return verifyAttention(prog, r, *w.attention, o);
  case Kind::Chain: // stages one after another
    return verifyChain(prog, r, o);
  case Kind::Statement:
  case Kind::Epilogue: // the contraction's designs, the epilogue on the output
    break;
  }
  return verifyStatement(prog, r, w, o);
}

} // namespace rubick::workload
