// `rubick emit`: Verilog for one design of the explored space.

#include "AttentionCommands.h"
#include "Commands.h"
#include "InputOptions.h"
#include "PipelineOptions.h"
#include "SearchOptions.h"

#include "rubick/dataflow/Decompose.h"
#include "rubick/emit/ModuleName.h"
#include "rubick/emit/Package.h"
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
  std::string point, layouts, output, name;
  bool force = false;
  CLI::Option* nameOption = nullptr; // to tell `--name ''` from no --name
};

// "A=X-systolic,B=4" -> access name -> value.
std::map<std::string, std::string> parsePairs(const std::string& text, const std::string& flag,
                                              const dataflow::StatementView& v) {
  std::map<std::string, std::string> out;
  size_t i = 0;
  while (i <= text.size()) {
    size_t comma = text.find(',', i);
    std::string item = text.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw Error(flag, "expected TENSOR=VALUE pairs such as A=X-systolic, found '" + item + "'");
    std::string tensor = item.substr(0, eq);
    bool known = false;
    std::string names;
    for (const dataflow::AccessView& a : v.accesses) {
      known |= a.name == tensor;
      names += (names.empty() ? "" : ", ") + a.name;
    }
    if (!known)
      throw Error(flag, "'" + tensor + "' is not a tensor of " + v.statement +
                            " (tensors: " + names + ")");
    out[tensor] = item.substr(eq + 1);
    if (comma == std::string::npos) break;
    i = comma + 1;
  }
  return out;
}

int runEmit(const EmitCli& o) {
  if (o.output.empty()) throw Error("emit", "give the output directory with -o OUTDIR");
  if (o.nameOption->count() > 0) emit::checkModulePrefix(o.name);
  const Overwrite how = o.force ? Overwrite::Force : Overwrite::OwnOnly;
  checkOutputDirectory(o.output, how); // before the search, which may take a while
  tc::Program prog = loadInput(o.input);
  if (wantsPipeline(prog, o.search)) // attention: the whole fused pipeline
    return emitPipeline(prog, o.input, o.search, o.point, o.output, o.name, how);
  size_t stmt = pickStatement(prog, o.search.df.stmt);
  dataflow::StatementView v = dataflow::viewStatement(prog, stmt);
  // --entries is explore's allowed set (all, fpga, a list), or, with '=', a choice per tensor.
  SearchOptions search = o.search;
  std::string entries;
  if (search.entries.find('=') != std::string::npos) std::swap(entries, search.entries);
  std::string targetName;
  dse::ExploreOptions eo = makeExploreOptions(search, prog, v, o.input.file, targetName);
  if (!o.point.empty() && (!entries.empty() || !o.layouts.empty()))
    throw Error("--point", "give either --point or --entries/--layout, not both");
  std::map<std::string, ir::EntryKind> wantEntries;
  if (!entries.empty())
    for (const auto& [t, name] : parsePairs(entries, "--entries", v)) {
      auto k = ir::parseEntryKind(name);
      if (!k) throw Error("--entries", "unknown entry '" + name + "' for " + t);
      wantEntries[t] = *k;
    }
  std::map<std::string, std::string> wantLayouts;
  if (!o.layouts.empty()) wantLayouts = parsePairs(o.layouts, "--layout", v);

  dse::ExploreResult r = dse::explore(v, eo);
  const dse::DesignPoint* chosen = nullptr;
  for (const dse::DesignPoint& d : r.points) { // ranked by the objective: the first match wins
    if (!o.point.empty()) {
      if (d.id == o.point) chosen = &d;
    } else {
      bool ok = true;
      for (size_t a = 0; a < v.accesses.size() && ok; ++a) {
        auto e = wantEntries.find(v.accesses[a].name);
        if (e != wantEntries.end() && d.entries[a].kind != e->second) ok = false;
      }
      if (ok && !wantLayouts.empty()) {
        dataflow::Decomposition dec = dataflow::decompose(v, d.dataflow);
        for (size_t a = 0; a < v.accesses.size() && ok; ++a) {
          auto l = wantLayouts.find(v.accesses[a].name);
          if (l != wantLayouts.end() && ir::transformName(dec.tensors[a].layout) != l->second)
            ok = false;
        }
      }
      if (ok) chosen = &d;
    }
    if (chosen) break;
  }
  if (!chosen) {
    if (!o.point.empty())
      throw Error("--point", "no design " + o.point + " among the " +
                                 std::to_string(r.points.size()) +
                                 " designs these constraints allow; run `rubick explore` with the "
                                 "same program, sizes and flags to list them");
    throw Error("emit", r.points.empty()
                            ? "no design satisfies the constraints; " + r.mostRestrictive()
                            : "no design has the requested entries and layouts among the " +
                                  std::to_string(r.points.size()) + " allowed");
  }
  std::string name = o.name.empty() ? emit::moduleName(prog.name, chosen->id) : o.name;
  std::vector<emit::File> files = emit::package(prog, v, *chosen, eo, name);
  emit::writeDirectory(o.output, files, how);
  std::cout << "design " << chosen->id << ": " << dataflow::toSpec(chosen->dataflow, v) << " on "
            << chosen->dataflow.p << "x" << chosen->dataflow.q << "\n"
            << "latency " << chosen->metrics.latency << " cycles; top module " << name << "_top; "
            << files.size() << " files in " << o.output << "\n";
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
      "  rubick emit examples/gemm.tc --max-fanout 8 --point 047b034bce -o out/gemm\n"
      "      the design `rubick explore` listed under that ID (same flags as explore)\n"
      "  rubick emit examples/gemm.tc --entries C=stationary,A=X-systolic,B=Y-systolic -o out/os\n"
      "      the best design with these access entries (--layout A=skew also filters layouts)\n\n"
      "OUTDIR receives rtl/ (templates and the generated array and top), filelist.f,\n"
      "design.json (IR, schedule, metrics, and every tensor element's bank and address) and\n"
      "README.md (interface, protocol, timing). OUTDIR is replaced only when everything is\n"
      "written, and only when it is new, empty or an unchanged earlier rubick output (its\n"
      ".rubick-output manifest lists the files); anything else is refused unless --force.\n"
      "docs/hardware.md describes the emitted hardware.");
  addInputOptions(*cmd, o->input);
  addSearchOptions(*cmd, o->search);
  cmd->add_option("--point", o->point, "The design ID from `rubick explore`")->type_name("ID");
  cmd->add_option("--layout", o->layouts,
                  "Also require layout transforms, e.g. A=skew,B=transpose (plain, transpose, "
                  "skew, transpose+skew, stride, general)")
      ->type_name("T=TRANSFORM,...");
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
  return [o] { return runEmit(*o); };
}

} // namespace rubick::cli
