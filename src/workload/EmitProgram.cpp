// SPDX-License-Identifier: Apache-2.0
#include "rubick/workload/EmitProgram.h"

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/SelectBuildable.h"
#include "rubick/attn/SelectPipeline.h"
#include "rubick/emit/Attention.h"
#include "rubick/emit/Chain.h"
#include "rubick/emit/Integration.h"
#include "rubick/emit/ModuleName.h"
#include "rubick/emit/Pim.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"
#include "rubick/verify/Verify.h"
#include "rubick/workload/VerifyProgram.h"

#include <sstream>

namespace rubick::workload {

namespace {

// A PIM target: the design is a spread of the problem over the units (docs/pim.md).
Emitted emitPim(const tc::Program& prog, const dataflow::StatementView& v,
                const dse::ExploreOptions& eo, const dse::PimSystem& pim, const dse::Selection& sel,
                const std::string& prefix) {
  dse::checkPimSelection(sel);
  const dse::PimDesign d =
      dse::selectPimDesign(v, pim, eo, sel.point, "emit", emit::pimExact(prog, v, pim, eo));
  const std::string name = prefix.empty() ? emit::pimModuleName(prog.name, d.id) : prefix;
  emit::PimPackage p = emit::packagePim(prog, v, d, pim, eo, name);
  std::ostringstream os;
  os << "PIM design " << d.id << ": " << pim.units << (pim.units == 1 ? " unit" : " units")
     << " of " << d.unit.dataflow.p << "x" << d.unit.dataflow.q << ", "
     << dataflow::toSpec(d.unit.dataflow, d.share) << "\n"
     << "the units' run " << d.unitCycles << " cycles" << (d.exact ? "" : " (explorer)")
     << "; top module " << p.top << " (" << p.topNote << ")";
  return {std::move(p.files), os.str(), "", p.top, d.id};
}

Emitted emitStatement(const tc::Program& prog, const Request& r, const Workload& w,
                      const std::string& prefix) {
  const dataflow::StatementView v = dataflow::viewStatement(prog, w.statement);
  dse::PimSystem pim;
  const dse::ExploreOptions eo = statementOptions(prog, r, w, &pim);
  if (pim.enabled()) return emitPim(prog, v, eo, pim, r.selection, prefix);
  dse::checkSelection(r.selection); // before the search, which may be long
  const dse::DesignPoint chosen = buildableDesigns(prog, v, eo, r, "emit").front();
  const std::string name = prefix.empty() ? emit::moduleName(prog.name, chosen.id) : prefix;
  Emitted e{emit::package(prog, v, chosen, eo, name), "", "", name + "_top", chosen.id};
  std::ostringstream os;
  os << "design " << chosen.id << ": " << dataflow::toSpec(chosen.dataflow, v) << " on "
     << chosen.dataflow.p << "x" << chosen.dataflow.q << "\n"
     << "latency " << chosen.metrics.latency << " cycles; top module " << name << "_top";
  e.summary = os.str();
  if (!chosen.buffer.size.empty())
    e.remark = "(with a memory system the latency is the explorer's model; the hardware's exact "
               "cycles are design.json's timing.cycles)\n";
  return e;
}

Emitted emitAttention(const tc::Program& prog, const Request& r, const attn::AttentionForm& form,
                      const std::string& prefix) {
  dse::PimSystem pim;
  const attn::PipelineOptions po = pipelineOptions(prog, form, r, &pim);
  std::ostringstream os;
  if (pim.enabled()) {
    const emit::PimDecodePlan plan = decodePlan(prog, form, po, pim, r.selection);
    const std::string name = prefix.empty() ? emit::moduleName(prog.name, "decode") : prefix;
    emit::PimDecodePackage pkg = emit::packagePimDecode(prog, form, plan, pim, name);
    os << emit::describePimDecode(prog, form, plan, pkg, pim) << "top module " << name
       << "_decode_axil (AXI4-Lite; the decode alone: " << name << "_decode)";
    return {std::move(pkg.files.files), os.str(), "", name + "_decode_axil", "decode"};
  }
  const attn::PipelinePoint p = attn::selectPipeline(prog, form, po, r.selection);
  const std::string name = prefix.empty() ? emit::moduleName(prog.name, p.id) : prefix;
  Emitted e{emit::attentionPackage(prog, form, p, name), "", "", name + "_top", p.id};
  os << "attention pipeline " << p.id << ": block " << p.blockKeys << ", " << p.lanes
     << " vector lane(s), GEMM 1 " << p.g1.design.id << ", GEMM 2 " << p.g2.design.id << "\n"
     << "spec " << attn::pipelineSpec(p) << "\n"
     << (p.memory.enabled() ? "cycles " : "latency ") << p.latency
     << (p.memory.enabled() ? " with the transfers (tensors at 4 KiB boundaries)" : " cycles")
     << "; top module " << name << "_top";
  e.summary = os.str();
  return e;
}

Emitted emitChain(const tc::Program& prog, const Request& r, const std::string& prefix) {
  const std::vector<emit::ChainStageDesign> s = chainStageDesigns(prog, r);
  const std::string id = emit::chainId(s);
  const std::string name = prefix.empty() ? emit::moduleName(prog.name, id) : prefix;
  Emitted e{emit::packageChain(prog, s, name), "", "", name + "_top", id};
  const arch::AxiOptions o = arch::axiOptions(s.front().options.constraints.memory);
  const arch::ChainTiming tm =
      arch::chainTiming(emit::chainDesignPlan(prog, s, name, o.busBytes), o);
  std::ostringstream os;
  os << "chain " << id << ": " << s.size() << " stages";
  for (size_t k = 0; k < s.size(); ++k)
    os << (k ? ", " : " (") << s[k].point.id << " on " << s[k].point.dataflow.p << "x"
       << s[k].point.dataflow.q;
  os << ")\n" << tm.cycles << " cycles (design.json timing.cycles); top module " << name << "_top";
  e.summary = os.str();
  return e;
}

} // namespace

namespace {

Emitted emitKind(const tc::Program& prog, const Request& r, const std::string& prefix) {
  const Workload w = recognise(prog, r);
  switch (w.kind) {
  case Kind::Attention: // the whole fused pipeline
    return emitAttention(prog, r, *w.attention, prefix);
  case Kind::Chain: // stages one after another
    return emitChain(prog, r, prefix);
  case Kind::Statement:
  case Kind::Epilogue: // the contraction's designs, the epilogue on the output
    break;
  }
  return emitStatement(prog, r, w, prefix);
}

// The testbench `rubick verify` would build for the same request, not built: verify's
// selection is emit's, so it is the design just emitted (checked by its top module).
void addBench(const tc::Program& prog, const Request& r, const std::string& prefix,
              emit::Integration& in) {
  int64_t elements = 0;
  for (const tc::Tensor& t : prog.tensors)
    elements += t.elements();
  if (!r.testbench) {
    in.noBench = "emitted with --no-testbench";
    return;
  }
  if (elements > kMaxBenchElements) {
    in.noBench = "the tensors hold " + std::to_string(elements) + " elements, more than the " +
                 std::to_string(kMaxBenchElements) +
                 " a testbench's stimulus holds (rubick verify simulates such sizes)";
    return;
  }
  verify::Bench b;
  verify::Options o;
  o.bench = &b;
  o.name = prefix;
  Request quiet = r;
  quiet.note = nullptr; // emit has told it already
  try {
    verifyProgram(prog, quiet, o);
  } catch (const Unsupported& e) { // the design stands; only its testbench is missing
    in.noBench = "rubick verify does not simulate this design: " + e.diag().message;
    return;
  }
  if (b.top != in.top)
    throw Error("emit", "internal: the testbench drives " + b.top + ", not " + in.top);
  in.bench = std::move(b.files);
  in.benchArgs = std::move(b.runArgs);
}

} // namespace

Emitted emitProgram(const tc::Program& prog, const Request& r, const std::string& prefix) {
  Emitted e = emitKind(prog, r, prefix);
  emit::Integration in;
  in.top = e.top;
  in.id = e.id;
  in.commandLine = r.commandLine;
  addBench(prog, r, prefix, in);
  emit::addIntegration(e.files, in);
  return e;
}

std::vector<dse::DesignPoint> buildableDesigns(const tc::Program& prog,
                                               const dataflow::StatementView& v,
                                               const dse::ExploreOptions& o, const Request& r,
                                               const std::string& command, size_t* selected) {
  arch::BuildableSelection b = arch::selectBuildable(prog, v, o, r.selection, command);
  if (selected) *selected = b.selected;
  if (!b.passed.empty() && r.note)
    r.note(command, b.passed.front() +
                        (b.passed.size() > 1
                             ? "; " + std::to_string(b.passed.size() - 1) + " more passed over"
                             : std::string()) +
                        (r.selection.all ? "; the cover takes designs that can be built"
                                         : "; taking the best design that can be built"));
  return std::move(b.designs);
}

emit::PimDecodePlan decodePlan(const tc::Program& prog, const attn::AttentionForm& form,
                               const attn::PipelineOptions& po, const dse::PimSystem& pim,
                               const dse::Selection& sel) {
  // The decode on PIM units has one design: selectors do not apply.
  const std::pair<const char*, bool> given[] = {{"--point", sel.point.has_value()},
                                                {"--pipeline", sel.pipeline.has_value()},
                                                {"--dataflow", sel.dataflow.has_value()},
                                                {"--entries", !sel.entries.empty()},
                                                {"--all", sel.all}};
  for (const auto& [flag, on] : given)
    if (on)
      throw Error(flag, "an attention decode on PIM units is one design (per block, the fastest "
                        "designs of the scores and the values that fit together): choose either "
                        "design alone with --stmt S0 or --stmt S4");
  for (int64_t lanes : po.lanes)
    if (lanes != 1)
      throw Error("--vector-lanes", "the attention decode's vector unit on PIM units has one "
                                    "lane (docs/pim.md, \"Attention decode\")");
  return emit::planPimDecode(prog, form, pim, po.explore, po.blockKeys);
}

} // namespace rubick::workload
