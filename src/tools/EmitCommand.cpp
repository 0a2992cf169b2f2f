// SPDX-License-Identifier: Apache-2.0
// `rubick emit`: Verilog for one design of the explored space.

#include "Commands.h"
#include "InputOptions.h"
#include "RequestOptions.h"
#include "SearchOptions.h"
#include "SelectionOptions.h"

#include "rubick/emit/Integration.h"
#include "rubick/emit/ModuleName.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/OwnedOutput.h"
#include "rubick/support/Process.h"
#include "rubick/workload/EmitProgram.h"

#include <filesystem>
#include <iostream>
#include <memory>

namespace rubick::cli {
namespace {

struct EmitCli {
  InputOptions input;
  SearchOptions search;
  dse::Selection selection; // --point, --dataflow, --pipeline, --entries T=ENTRY,..., --layout
  SelectionOptions selectors;
  std::string output, name;
  bool force = false, noTestbench = false;
  std::vector<std::string> args;     // the command line
  CLI::Option* nameOption = nullptr; // to tell `--name ''` from no --name
};

// The command line as the emitted files name it: the output folder and --force left out (they
// say nothing about the design), a path outside the folder reduced to its file name, words the
// shell would split quoted.
std::string reproducibleCommand(const std::vector<std::string>& args) {
  std::string line = "rubick";
  for (size_t k = 1; k < args.size(); ++k) {
    std::string a = args[k];
    if (a == "-o" || a == "--output") {
      ++k;
      continue;
    }
    if (a.rfind("--output=", 0) == 0 || a == "--force" || (a.rfind("-o", 0) == 0 && a.size() > 2))
      continue;
    if (!a.empty() && a[0] == '/') a = std::filesystem::path(a).filename().string();
    line += " " + shellWord(a);
  }
  return line;
}

int runEmit(const EmitCli& o) {
  if (o.output.empty()) throw Error("emit", "give the output directory with -o OUTDIR");
  if (o.nameOption->count() > 0) emit::checkModulePrefix(o.name);
  const Overwrite how = o.force ? Overwrite::Force : Overwrite::OwnOnly;
  checkOutputDirectory(o.output, how); // before the search, which may take a while
  const tc::Program prog = loadInput(o.input);
  workload::Request r = makeRequest(o.input, o.search, o.selection, true);
  r.commandLine = reproducibleCommand(o.args);
  r.testbench = !o.noTestbench;
  const workload::Emitted e = workload::emitProgram(prog, r, o.name);
  emit::writeDirectory(o.output, e.files, how);
  std::cout << e.summary << "; " << e.files.size() << " files in " << o.output << "\n" << e.remark;
  return 0;
}

} // namespace

Action addEmitCommand(CLI::App& app, const std::vector<std::string>& args) {
  auto o = std::make_shared<EmitCli>();
  o->args = args;
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
      "design.json (IR, schedule, metrics, and every tensor element's bank and address),\n"
      "README.md (interface, protocol, timing, commands that need only the folder), a\n"
      "FuseSoC core, SDC and XDC clock constraints and tb/, a standalone Verilator testbench\n"
      "with its stimulus (docs/integration.md). OUTDIR is replaced only when everything is\n"
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
  cmd->add_flag("--no-testbench", o->noTestbench,
                "Leave out tb/, the standalone testbench (it costs a second search and, for a "
                "large problem, megabytes of stimulus)");
  return [o] {
    finishSelection(o->selectors, o->search, o->selection);
    return runEmit(*o);
  };
}

} // namespace rubick::cli
