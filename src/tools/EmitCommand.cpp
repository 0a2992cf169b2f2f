// SPDX-License-Identifier: Apache-2.0
// `rubick emit`: Verilog for one design of the explored space.

#include "AttentionCommands.h"
#include "ChainCommands.h"
#include "Commands.h"
#include "InputOptions.h"
#include "PipelineOptions.h"
#include "SearchOptions.h"
#include "SelectionOptions.h"

#include "rubick/dse/Select.h"
#include "rubick/emit/ModuleName.h"
#include "rubick/emit/Package.h"
#include "rubick/emit/Pim.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/OwnedOutput.h"

#include <iostream>
#include <map>
#include <memory>

namespace rubick::cli {
namespace {

struct EmitCli {
  InputOptions input;
  SearchOptions search;
  dse::Selection selection; // --point, --dataflow, --pipeline, --entries T=ENTRY,..., --layout
  SelectionOptions selectors;
  std::string output, name;
  bool force = false;
  CLI::Option* nameOption = nullptr; // to tell `--name ''` from no --name
};

// A PIM target: the design is a spread of the problem over the units (docs/pim.md).
int emitPim(const tc::Program& prog, const dataflow::StatementView& v,
            const dse::ExploreOptions& eo, const dse::PimSystem& pim, const dse::Selection& sel,
            const std::string& output, const std::string& prefix, Overwrite how) {
  dse::checkPimSelection(sel);
  const dse::PimDesign d =
      dse::selectPimDesign(v, pim, eo, sel.point, "emit", emit::pimExact(prog, v, pim, eo));
  const std::string name = prefix.empty() ? emit::pimModuleName(prog.name, d.id) : prefix;
  const emit::PimPackage p = emit::packagePim(prog, v, d, pim, eo, name);
  emit::writeDirectory(output, p.files, how);
  std::cout << "PIM design " << d.id << ": " << pim.units << (pim.units == 1 ? " unit" : " units")
            << " of " << d.unit.dataflow.p << "x" << d.unit.dataflow.q << ", "
            << dataflow::toSpec(d.unit.dataflow, d.share) << "\n"
            << "the units' run " << d.unitCycles << " cycles" << (d.exact ? "" : " (explorer)")
            << "; top module " << p.top << " (" << p.topNote << "); " << p.files.size()
            << " files in " << output << "\n";
  return 0;
}

int runEmit(const EmitCli& o) {
  if (o.output.empty()) throw Error("emit", "give the output directory with -o OUTDIR");
  if (o.nameOption->count() > 0) emit::checkModulePrefix(o.name);
  const Overwrite how = o.force ? Overwrite::Force : Overwrite::OwnOnly;
  checkOutputDirectory(o.output, how); // before the search, which may take a while
  tc::Program prog = loadInput(o.input);
  const workload::Workload w =
      programWorkload(prog, o.input, o.search, chainsWithMemory(prog, o.input, o.search));
  if (w.kind == workload::Kind::Attention) // the whole fused pipeline
    return emitPipeline(prog, o.input, o.search, o.selection, o.output, o.name, how);
  if (w.kind == workload::Kind::Chain) // stages one after another
    return emitChain(prog, chainStageDesigns(prog, o.input, o.search, o.selection), o.output,
                     o.name, how);
  // A contraction with an epilogue is its contraction's designs, the epilogue on the output.
  const size_t stmt = w.statement;
  dataflow::StatementView v = dataflow::viewStatement(prog, stmt);
  // --entries is explore's allowed set (all, fpga, a list), or, with '=', a choice per tensor.
  SearchOptions search = o.search;
  dse::Selection sel = o.selection;
  if (search.entries.find('=') != std::string::npos) std::swap(sel.entries, search.entries);
  std::string targetName;
  dse::PimSystem pim;
  dse::ExploreOptions eo = makeExploreOptions(search, prog, v, o.input.file, targetName, &pim);
  setEpilogue(eo, w.epilogue, pim);
  if (pim.enabled()) return emitPim(prog, v, eo, pim, sel, o.output, o.name, how);
  dse::checkSelection(sel); // before the search, which may be long
  const dse::DesignPoint chosen = selectBuildable(prog, v, eo, sel, "emit").front();
  std::string name = o.name.empty() ? emit::moduleName(prog.name, chosen.id) : o.name;
  std::vector<emit::File> files = emit::package(prog, v, chosen, eo, name);
  emit::writeDirectory(o.output, files, how);
  std::cout << "design " << chosen.id << ": " << dataflow::toSpec(chosen.dataflow, v) << " on "
            << chosen.dataflow.p << "x" << chosen.dataflow.q << "\n"
            << "latency " << chosen.metrics.latency << " cycles; top module " << name << "_top; "
            << files.size() << " files in " << o.output << "\n";
  if (!chosen.buffer.size.empty())
    std::cout << "(with a memory system the latency is the explorer's model; the hardware's "
                 "exact cycles are design.json's timing.cycles)\n";
  return 0;
}

} // namespace

Action addEmitCommand(CLI::App& app) {
  auto o = std::make_shared<EmitCli>();
  CLI::App* cmd = app.add_subcommand("emit", "Synthesizable Verilog for one explored design");
  cmd->footer(
      "Examples:\n"
      "  rubick emit examples/gemm.tc --size M=8,N=8,K=8 --array 4x4 -o out/gemm\n"
      "      the best design by latency (--objective changes the ranking)\n"
      "  rubick emit examples/gemm.tc --max-fanout 8 --point 174a4c3628b375f3 -o out/gemm\n"
      "      the design `rubick explore` listed under that ID (same flags as explore)\n"
      "  rubick emit examples/gemm.tc --size M=8,N=8,K=8 --array 4x4 \\\n"
      "      --dataflow 'PE(k mod 4, j mod 4) | T(i + j mod 4 + k mod 4, k / 4, j / 4)' -o out/ws\n"
      "      exactly this design (a dataflow from explore's last column), with no search\n"
      "  rubick emit examples/gemm.tc --entries C=stationary,A=X-systolic,B=Y-systolic -o out/os\n"
      "      the best design with these access entries (--layout A=skew also filters layouts)\n"
      "  rubick emit examples/attention.tc -o out/att \\\n"
      "      --pipeline block=16,lanes=8,gemm1=fb45a074be537f4d,gemm2=4f3375bdf39408f1\n"
      "      an attention pipeline as `rubick explore` prints it, without the pipeline\n"
      "      search (--point PIPELINE_ID also works, but runs that search to find it)\n"
      "  rubick emit examples/mlp.tc --array 8x8 --mem-bandwidth 16 -o out/mlp\n"
      "      a chain: each contraction with its epilogue a stage, run one after another by\n"
      "      one top, results through memory (docs/fusion.md, \"Chains as hardware\")\n\n"
      "OUTDIR receives rtl/ (templates and the generated array and top), filelist.f,\n"
      "design.json (IR, schedule, metrics, and every tensor element's bank and address) and\n"
      "README.md (interface, protocol, timing). OUTDIR is replaced only when everything is\n"
      "written, and only when it is new, empty or an unchanged earlier rubick output (its\n"
      ".rubick-output manifest lists the files); anything else is refused unless --force.\n"
      "docs/hardware.md describes the emitted hardware.");
  addInputOptions(*cmd, o->input);
  addSearchOptions(*cmd, o->search);
  addSelectionOptions(*cmd, o->search, o->selection, o->selectors);
  cmd->add_option("-o,--output", o->output,
                  "Output directory (replaced only on success, and only when rubick wrote it)")
      ->type_name("OUTDIR");
  cmd->add_flag("--force", o->force,
                "Replace OUTDIR even when rubick did not write it (its files are deleted)");
  o->nameOption =
      cmd->add_option("--name", o->name,
                      "Module prefix (default: program name and design ID): a Verilog identifier "
                      "([A-Za-z_][A-Za-z0-9_]*, no keyword)")
          ->type_name("NAME");
  return [o] {
    finishSelection(o->selectors, o->search, o->selection);
    return runEmit(*o);
  };
}

} // namespace rubick::cli
