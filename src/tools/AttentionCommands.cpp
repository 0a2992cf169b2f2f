// SPDX-License-Identifier: Apache-2.0
#include "AttentionCommands.h"

#include "PipelineOptions.h"
#include "VerifyReport.h"

#include "rubick/attn/SelectPipeline.h"
#include "rubick/emit/Attention.h"
#include "rubick/emit/ModuleName.h"
#include "rubick/emit/PimDecode.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/verify/Attention.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace rubick::cli {

namespace {

// --entries T=ENTRY,... (a choice, not explore's allowed set) goes to the selection, which
// refuses it for pipelines.
dse::Selection withChoices(const SearchOptions& search, SearchOptions& gemms,
                           const dse::Selection& selection) {
  dse::Selection s = selection;
  gemms = search;
  if (search.entries.find('=') != std::string::npos) std::swap(s.entries, gemms.entries);
  return s;
}

// The decode on PIM units has one design: selectors do not apply.
void checkDecodeSelection(const dse::Selection& sel) {
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
}

emit::PimDecodePlan decodePlan(const tc::Program& prog, const PipelineSetup& setup) {
  for (int64_t w : setup.options.lanes)
    if (w != 1)
      throw Error("--vector-lanes", "the attention decode's vector unit on PIM units has one "
                                    "lane (docs/pim.md, \"Attention decode\")");
  return emit::planPimDecode(prog, setup.form, setup.pim, setup.options.explore,
                             setup.options.blockKeys);
}

} // namespace

// One simulated design's report: `title`, its result line, problems and runtime; 0 when it
// passed.
int report(const std::string& title, const char* kind, int idWidth, const verify::Result& res,
           const PipelineVerifyOptions& o, double runtimeSeconds) {
  const bool pass = res.pass();
  const verify::Trial* t = res.trials.empty() ? nullptr : &res.trials.front();
  std::printf("%s\n", title.c_str());
  const bool dram = o.run.dram.has_value();
  std::printf("%-6s %-*s %9s %9s  ", "result", idWidth, "id", "measured", "predicted");
  if (dram) std::printf("%8s ", "diff");
  if (o.timing) printTimingHeader();
  std::printf("%s\n", kind[0] == 'd' ? "designs" : kind);
  std::printf("%-6s %-*s %9lld %9lld  ", pass ? "PASS" : "FAIL", idWidth, res.id.c_str(),
              t ? static_cast<long long>(t->measured) : 0LL,
              t ? static_cast<long long>(t->predicted) : 0LL);
  if (dram) std::printf("%8s ", relativeDifference(res).c_str());
  if (o.timing) printTiming(res, t);
  std::printf("%s\n", res.spec.c_str());
  if (dram) printDramRows(t);
  printProblems(res);
  if (o.timing) printRuntime(runtimeSeconds);
  std::printf("1 %s, %d trial(s): %s\n", kind, o.run.trials, pass ? "passed" : "failed");
  return pass ? 0 : 1;
}

std::string pimDecodeText(const tc::Program& prog, const PipelineSetup& setup) {
  const emit::PimDecodePlan plan = decodePlan(prog, setup);
  const emit::PimDecodePackage pkg = emit::packagePimDecode(prog, setup.form, plan, setup.pim,
                                                            emit::moduleName(prog.name, "decode"));
  return emit::describePimDecode(prog, setup.form, plan, pkg, setup.pim);
}

int emitPipeline(const tc::Program& prog, const InputOptions& input, const SearchOptions& search,
                 const dse::Selection& selection, const std::string& output,
                 const std::string& name, Overwrite how) {
  SearchOptions gemms;
  const dse::Selection sel = withChoices(search, gemms, selection);
  const PipelineSetup setup = pipelineSetup(prog, input, gemms);
  if (setup.pim.enabled()) {
    checkDecodeSelection(sel);
    const emit::PimDecodePlan plan = decodePlan(prog, setup);
    const std::string prefix = name.empty() ? emit::moduleName(prog.name, "decode") : name;
    const emit::PimDecodePackage pkg =
        emit::packagePimDecode(prog, setup.form, plan, setup.pim, prefix);
    emit::writeDirectory(output, pkg.files.files, how);
    std::cout << emit::describePimDecode(prog, setup.form, plan, pkg, setup.pim) << "top module "
              << prefix << "_decode_axil (AXI4-Lite; the decode alone: " << prefix << "_decode); "
              << pkg.files.files.size() << " files in " << output << "\n";
    return 0;
  }
  const attn::PipelinePoint p = attn::selectPipeline(prog, setup.form, setup.options, sel);
  const std::string prefix = name.empty() ? emit::moduleName(prog.name, p.id) : name;
  std::vector<emit::File> files = emit::attentionPackage(prog, setup.form, p, prefix);
  emit::writeDirectory(output, files, how);
  std::cout << "attention pipeline " << p.id << ": block " << p.blockKeys << ", " << p.lanes
            << " vector lane(s), GEMM 1 " << p.g1.design.id << ", GEMM 2 " << p.g2.design.id << "\n"
            << "spec " << attn::pipelineSpec(p) << "\n"
            << (p.memory.enabled() ? "cycles " : "latency ") << p.latency
            << (p.memory.enabled() ? " with the transfers (tensors at 4 KiB boundaries)"
                                   : " cycles")
            << "; top module " << prefix << "_top; " << files.size() << " files in " << output
            << "\n";
  return 0;
}

namespace {

int verifyDecode(const tc::Program& prog, const PipelineSetup& setup, const dse::Selection& sel,
                 const PipelineVerifyOptions& o) {
  checkDecodeSelection(sel);
  if (o.run.dram) throw Error("--dram", "PIM units read their banks: there is no external memory");
  const emit::PimDecodePlan plan = decodePlan(prog, setup);
  const attn::AttentionForm& f = setup.form;
  double runtimeSeconds = 0;
  verify::Result res = verify::verifyPimDecode(prog, f, plan, setup.pim, o.run, &runtimeSeconds);
  const std::string title = prog.name + ": attention decode on " + std::to_string(setup.pim.units) +
                            " PIM units, S=" + std::to_string(f.s) + " D=" + std::to_string(f.d);
  return report(title, "decode", 28, res, o, runtimeSeconds);
}

} // namespace

int verifyPipeline(const tc::Program& prog, const InputOptions& input, const SearchOptions& search,
                   const PipelineVerifyOptions& o) {
  SearchOptions gemms;
  const dse::Selection sel = withChoices(search, gemms, o.selection);
  const PipelineSetup setup = pipelineSetup(prog, input, gemms);
  if (setup.pim.enabled()) return verifyDecode(prog, setup, sel, o);
  if (o.run.dram && !setup.options.explore.constraints.memory.enabled()) // before the search
    throw Error("--dram", "there is no external memory: give --mem-bandwidth or a target with "
                          "'memory'");
  const attn::PipelinePoint p = attn::selectPipeline(prog, setup.form, setup.options, sel);
  const attn::AttentionForm& form = setup.form;
  double runtimeSeconds = 0;
  verify::Result res = verify::verifyAttention(prog, form, p, o.run, &runtimeSeconds);
  const std::string title = prog.name + ": attention pipeline, L=" + std::to_string(form.l) +
                            " S=" + std::to_string(form.s) + " D=" + std::to_string(form.d) +
                            " heads=" + std::to_string(form.heads);
  return report(title, "pipeline", 16, res, o, runtimeSeconds);
}

} // namespace rubick::cli
