// SPDX-License-Identifier: Apache-2.0
// `rubick dump`: print what the front end and the polyhedral model make of a program.

#include "Commands.h"
#include "DumpIr.h"
#include "InputOptions.h"

#include "rubick/frontend/Parser.h"
#include "rubick/frontend/Printer.h"
#include "rubick/poly/PolyProgram.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/OwnedOutput.h"

#include <iostream>
#include <memory>

namespace rubick::cli {
namespace {

struct DumpOptions {
  InputOptions input;
  DataflowOptions dataflow;
  bool ast = false;
  bool poly = false;
  bool ir = false;
  bool space = false;
  bool plan = false;
  std::string output;
  bool force = false;
};

int runDump(const DumpOptions& o) {
  // The dump's text carries no mark of rubick, so an existing file is replaced only with --force
  // (rubick/support/OwnedOutput.h); checked before the work.
  const Overwrite how = o.force ? Overwrite::Force : Overwrite::OwnOnly;
  const bool toFile = !o.output.empty() && o.output != "-";
  if (toFile) checkOutputFile(o.output, "", how);
  std::string text;
  if (o.ir) {
    text = dumpIr(o.input, o.dataflow);
  } else if (o.space) {
    text = dumpSpace(o.input, o.dataflow);
  } else if (o.plan) {
    text = dumpPlan(o.input, o.dataflow);
  } else if (o.ast) {
    auto file = std::make_shared<const SourceFile>(readSourceFile(o.input.file));
    text = tc::print(tc::parse(file));
  } else {
    poly::IslContext ctx;
    poly::PolyProgram p = poly::lower(ctx, loadInput(o.input));
    text = poly::printPoly(p);
  }
  if (toFile)
    writeOutputFile(o.output, text, "", how);
  else
    std::cout << text;
  return 0;
}

} // namespace

Action addDumpCommand(CLI::App& app) {
  auto opts = std::make_shared<DumpOptions>();
  CLI::App* cmd = app.add_subcommand(
      "dump",
      "Print an intermediate form: syntax tree, polyhedral model, dataflow IR or dataflow space");
  cmd->footer(
      "Examples:\n"
      "  rubick dump --poly examples/gemm.tc              iteration domains and accesses\n"
      "  rubick dump --poly examples/gemm.tc --size M=8   with a size overridden\n"
      "  rubick dump --ast examples/attention.tc          the program as parsed\n"
      "  rubick dump --ir examples/gemm.tc --size M=2,K=2,N=4 --array 2x2 \\\n"
      "      --dataflow 'PE(k, j mod 2) | T(i + j mod 2, j / 2)'   entries and layouts\n"
      "  rubick dump --space examples/gemm.tc --array 8x8    dataflows per entry combination\n"
      "  rubick dump --plan examples/gemm.tc --size M=4,N=4,K=4 --array 2x2 \\\n"
      "      --dataflow 'PE(i mod 2, j mod 2) | T(k, j / 2, i / 2)'   the hardware's plan\n\n"
      "--poly prints, per statement, the iteration domain (an isl set) and one access\n"
      "relation (an isl map) per tensor reference; the write is marked with its reduction.");
  addInputOptions(*cmd, opts->input);
  auto* what = cmd->add_option_group("what", "What to print (one of)");
  what->add_flag("--ast", opts->ast, "The parsed program, printed back as TC (syntax only)");
  what->add_flag("--poly", opts->poly, "The polyhedral model in isl notation (sizes bound)");
  what->add_flag("--ir", opts->ir,
                 "With --dataflow: the access-entry and data-layout IR of that dataflow;\n"
                 "without: each access's matrix and null space");
  what->add_flag("--space", opts->space,
                 "The dataflow space on --array (default 8x8): realisable dataflows per entry\n"
                 "combination");
  what->add_flag("--plan", opts->plan,
                 "With --dataflow: the microarchitecture plan of exactly that design (banks,\n"
                 "windows, per-PE wiring, adder groups, schedule, widths), what emit prints\n"
                 "its Verilog from");
  what->require_option(1);
  addStatementOption(*cmd, opts->dataflow);
  addArrayOption(*cmd, opts->dataflow,
                 "Default: for --ir the array the dataflow needs, for --space 8x8.");
  addDataflowOption(*cmd, opts->dataflow);
  cmd->add_option("-o,--output", opts->output,
                  "Write to FILE instead of standard output (FILE must not exist yet)")
      ->type_name("FILE");
  cmd->add_flag("--force", opts->force, "Overwrite FILE when it exists");
  return [opts] { return runDump(*opts); };
}

} // namespace rubick::cli
