#include "AttentionCommands.h"

#include "PipelineOptions.h"
#include "VerifyReport.h"

#include "rubick/attn/SelectPipeline.h"
#include "rubick/emit/Attention.h"
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

} // namespace

int emitPipeline(const tc::Program& prog, const InputOptions& input, const SearchOptions& search,
                 const dse::Selection& selection, const std::string& output,
                 const std::string& name, Overwrite how) {
  SearchOptions gemms;
  const dse::Selection sel = withChoices(search, gemms, selection);
  const PipelineSetup setup = pipelineSetup(prog, input, gemms);
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

int verifyPipeline(const tc::Program& prog, const InputOptions& input, const SearchOptions& search,
                   const PipelineVerifyOptions& o) {
  SearchOptions gemms;
  const dse::Selection sel = withChoices(search, gemms, o.selection);
  const PipelineSetup setup = pipelineSetup(prog, input, gemms);
  if (o.run.dram && !setup.options.explore.constraints.memory.enabled()) // before the search
    throw Error("--dram", "there is no external memory: give --mem-bandwidth or a target with "
                          "'memory'");
  const attn::PipelinePoint p = attn::selectPipeline(prog, setup.form, setup.options, sel);
  const attn::AttentionForm& form = setup.form;
  double runtimeSeconds = 0;
  verify::Result res = verify::verifyAttention(prog, form, p, o.run, &runtimeSeconds);
  const bool pass = res.pass();
  const verify::Trial* t = res.trials.empty() ? nullptr : &res.trials.front();
  std::printf("%s: attention pipeline, L=%lld S=%lld D=%lld heads=%lld\n", prog.name.c_str(),
              static_cast<long long>(form.l), static_cast<long long>(form.s),
              static_cast<long long>(form.d), static_cast<long long>(form.heads));
  std::printf("%-6s %-16s %9s %9s  ", "result", "id", "measured", "predicted");
  if (o.timing) printTimingHeader();
  std::printf("pipeline\n");
  std::printf("%-6s %-16s %9lld %9lld  ", pass ? "PASS" : "FAIL", res.id.c_str(),
              t ? static_cast<long long>(t->measured) : 0LL,
              t ? static_cast<long long>(t->predicted) : 0LL);
  if (o.timing) printTiming(res, t);
  std::printf("%s\n", res.spec.c_str());
  printProblems(res);
  if (o.timing) printRuntime(runtimeSeconds);
  std::printf("1 pipeline, %d trial(s): %s\n", o.run.trials, pass ? "passed" : "failed");
  return pass ? 0 : 1;
}

} // namespace rubick::cli
