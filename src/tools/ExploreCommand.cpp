// SPDX-License-Identifier: Apache-2.0
// `rubick explore`: every legal dataflow of a statement, under constraints, ranked.

#include "Commands.h"
#include "DataflowOptions.h"
#include "InputOptions.h"
#include "Numbers.h"
#include "Progress.h"
#include "RequestOptions.h"
#include "SearchOptions.h"
#include "ShardOptions.h"

#include "rubick/arch/Buildable.h"
#include "rubick/arch/SelectBuildable.h"
#include "rubick/dse/MergeShards.h"
#include "rubick/dse/Report.h"
#include "rubick/dse/ShardFile.h"
#include "rubick/dse/Target.h"
#include "rubick/emit/Pim.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/OwnedOutput.h"
#include "rubick/support/StreamedFile.h"
#include "rubick/support/TextTable.h"
#include "rubick/support/Unsupported.h"
#include "rubick/synth/Ranked.h"
#include "rubick/workload/ExploreProgram.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace rubick::cli {
namespace {

struct ExploreCli {
  InputOptions input;
  SearchOptions search;
  size_t top = 20;
  std::string json, csv, plot, compare;
  size_t synthTop = 0;                       // --synth-top N: synthesise the N best
  std::string synthFlows = "generic,xilinx"; // --synth-flows
  bool synthMemoryMacros = false;            // --synth-memory-macros
  bool quiet = false, force = false;
  ShardFlags shard;              // --shard I/N --shard-dir DIR (docs/scale.md)
  std::vector<std::string> args; // the command line after `explore` (a shard's file names it)
  const std::vector<dse::ShardContents>* merged = nullptr; // `rubick merge`: the shards' result
};

// How rubick recognises the files it wrote, so a second run may replace them
// (rubick/support/OwnedOutput.h): each format's first bytes as src/dse writes them.
const char* const kJsonSignature = "{\n  \"program\": \"";
const char* const kCsvSignature = "id,pareto,p,q,latency,";
const char* const kSvgSignature = ">rubick explore: ";

// The line under a PIM table that runs the problem on another PIM target (the logic die, for
// the banks' question: which side of the memory should this run on).
std::string compareLine(const tc::Program& prog, const dataflow::StatementView& v,
                        const ExploreCli& o, const std::string& path) {
  SearchOptions s = o.search;
  s.target = path;
  std::string name;
  dse::PimSystem other;
  dse::ExploreOptions eo = makeExploreOptions(s, prog, v, o.input.file, name, &other);
  if (!other.enabled())
    throw Error(path, "--compare-target needs a PIM target (one with a 'pim' object)");
  const dse::PimExploreResult r = dse::explorePim(v, other, eo, emit::pimExact(prog, v, other, eo));
  if (r.designs.empty()) return "on " + name + " (" + path + "): no design fits\n";
  const dse::PimDesign& d = r.designs.front();
  return "on " + name + " (" + path + "): rank 1 " + d.id + " " + std::to_string(d.cycles) +
         " cycles at " + std::to_string(other.clockMhz) + " MHz (" +
         dse::pimTimeText(d.cycles, other) + "), roofline " + percentText(d.roofline) + ", util " +
         percentText(d.utilization) + "\n";
}

int runPim(const ExploreCli& o, const tc::Program& prog, size_t stmt,
           const dataflow::StatementView& v, const dse::ExploreOptions& eo,
           const dse::PimSystem& pim, const std::string& targetName) {
  if (!o.csv.empty() || !o.plot.empty())
    throw Unsupported("explore",
                      "--csv and --plot are not written for PIM designs yet (--json is)");
  const dse::PimExploreResult r = dse::explorePim(v, pim, eo, emit::pimExact(prog, v, pim, eo));
  if (r.spreads == 0) {
    std::string extents;
    for (size_t l = 0; l < v.extent.size(); ++l)
      extents += (l ? ", " : "") + v.loops[l] + " " + std::to_string(v.extent[l]);
    throw Error("explore", "no PIM design: the loops (" + extents + ") cannot be spread over " +
                               std::to_string(pim.units) +
                               " units (each over a divisor of the unit count, at most its "
                               "extent, the product the unit count)");
  }
  if (r.designs.empty())
    throw Error("explore", "no PIM design: no unit design of any of the " +
                               std::to_string(r.spreads) +
                               " spreads over the units fits the unit's arrays and buffer");
  std::string compare = o.compare;
  if (compare.empty() && dse::isPresetName(o.search.target)) {
    // A preset by name: the logic-die preset (the comparison the model is for).
    if (o.search.target != "logic-die") compare = "logic-die";
  } else if (compare.empty()) {
    // The logic die beside a PIM preset: the comparison the model is for.
    const std::filesystem::path beside =
        std::filesystem::path(o.search.target).parent_path() / "logic-die.json";
    if (std::filesystem::exists(beside) &&
        !std::filesystem::equivalent(beside, std::filesystem::path(o.search.target)))
      compare = beside.string();
  }
  // Searched before anything is printed: a bad comparison target leaves no half a report.
  const std::string compared =
      compare.empty() || compare == "none" ? "" : compareLine(prog, v, o, compare);
  if (!o.json.empty())
    writeOutputFile(o.json, dse::pimToJson(prog, v, targetName, pim, r, std::max<size_t>(o.top, 1)),
                    kJsonSignature, o.force ? Overwrite::Force : Overwrite::OwnOnly);
  std::cout << prog.statements[stmt].name << ": " << prog.statements[stmt].text << "\n"
            << dse::describePim(targetName, pim) << "\n"
            << r.spreads << " spreads over the units, " << r.designs.size()
            << " with a unit design (" << r.unitDesigns << " unit designs explored)\n\n"
            << dse::formatPimTable(v, pim, r, o.top);
  const dse::PimDesign& best = r.designs.front();
  const int64_t host = dse::hostOnlyCycles(v, pim, eo);
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.3g", double(best.cycles) / double(host));
  std::cout << "through the host interface alone (every tensor once at " << pim.hostBytesPerCycle
            << " B/cycle): at least " << host << " cycles; rank 1 takes " << ratio
            << " times that\n";
  std::cout << compared;
  std::cout.flush();
  return 0;
}

// A shard's file: its header, a row per design as the search finds it, then the designs it
// kept and its statistics (rubick/dse/ShardFile.h). Written atomically, like --csv.
int runShard(const ExploreCli& o, const dataflow::StatementView& v, dse::ExploreOptions eo,
             std::chrono::steady_clock::time_point started) {
  const dse::Shard shard = openShard(o.shard);
  const Overwrite how = o.force ? Overwrite::Force : Overwrite::OwnOnly;
  const std::string path =
      (std::filesystem::path(o.shard.dir) / dse::shardFileName(shard)).string();
  checkOutputFile(path, dse::kShardSignature, how);
  dse::ShardHeader h;
  h.shard = shard;
  h.version = RUBICK_VERSION;
  // Less what says only where or how fast this shard runs.
  h.options = shardRunOptions(o.args, {"--threads"}, {"-q", "--quiet", "--force"});
  h.fingerprint = dse::shardFingerprint(h.version, h.options);
  StreamedFile file(path);
  // The items are known once the space-time matrices are: the header is written last of all
  // into its own line, so the rows stream into a second temporary meanwhile.
  const std::string csvHeader = dse::toCsv(v, {}, eo.constraints.memory.enabled());
  StreamedFile body(path + ".rows");
  eo.keepBest = std::max<size_t>(o.top, 1);
  eo.onDesign = [&](const dse::DesignPoint& d) {
    body.write(dse::shardRowLine(
        d.order, dse::toCsv(v, {d}, eo.constraints.memory.enabled()).substr(csvHeader.size())));
  };
  Progress progress(o.quiet);
  struct ClearBar {
    Progress& p;
    ~ClearBar() { p.finish(); }
  } clearBar{progress};
  eo.progress = [&](size_t done, size_t total, size_t designs) {
    progress.update(done, total, designs);
    body.check();
  };
  const dse::ShardResult r = dse::exploreShard(v, eo, shard);
  progress.finish();
  h.items = r.items;
  file.write(dse::shardHeaderLine(h));
  body.flush();
  std::string chunk(size_t(1) << 20, '\0');
  for (uint64_t at = 0; at < body.size();) {
    const size_t got = body.readAt(at, chunk.data(), chunk.size());
    if (got == 0) throw Error(body.temporaryPath(), "shorter than written");
    file.write(std::string_view(chunk.data(), got));
    at += got;
  }
  for (const dse::DesignPoint& d : r.result.points)
    file.write(dse::shardDesignLine(d));
  file.write(dse::shardEndLine(r));
  commitOutputFile(file, dse::kShardSignature, how);
  size_t owned = r.itemDesigns.size();
  std::cout << "shard " << dse::toString(shard) << ": " << r.result.stats.designs
            << " designs from " << owned << " of " << r.items << " work items, written to " << path
            << " (combine the shards with `rubick merge " << o.shard.dir << "`)\n";
  std::cout.flush();
  if (!o.quiet) {
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::fprintf(stderr, "rubick: %s\n",
                 summaryLine(r.result.stats.candidates, r.result.stats.designs, secs).c_str());
  }
  return 0;
}

int runExplore(const ExploreCli& o) {
  auto started = std::chrono::steady_clock::now();
  const Overwrite how = o.force ? Overwrite::Force : Overwrite::OwnOnly;
  const bool sharding = o.shard.given();
  if (sharding) {
    if (o.shard.shard.empty() || o.shard.dir.empty())
      throw Error("--shard", "--shard I/N and --shard-dir DIR go together");
    if (!o.json.empty() || !o.csv.empty() || !o.plot.empty() || o.synthTop > 0)
      throw Error("--shard", "a shard writes only its file: give --json, --csv, --plot and "
                             "--synth-top to `rubick merge`");
  }
  if (!o.json.empty()) checkOutputFile(o.json, kJsonSignature, how); // before the search
  if (!o.csv.empty()) checkOutputFile(o.csv, kCsvSignature, how);
  if (!o.plot.empty()) checkOutputFile(o.plot, kSvgSignature, how);
  const tc::Program prog = loadInput(o.input);
  const workload::Request req = makeRequest(o.input, o.search, {}, false);
  // A program of several statements that is neither attention nor an epilogue is a chain when
  // there is a memory system (docs/fusion.md); otherwise the attention form's error stands.
  const workload::Workload w = workload::recognise(prog, req);
  if (w.kind == workload::Kind::Attention || w.kind == workload::Kind::Chain) {
    if (sharding) throw Unsupported("--shard", "attention programs and chains are not sharded yet");
    if (!o.json.empty() || !o.csv.empty() || !o.plot.empty() || o.synthTop > 0)
      throw Error("explore",
                  "--json, --csv, --plot and --synth-top are for single statements (use --stmt)");
    const workload::Explored e = workload::exploreProgram(prog, req, w, o.top);
    std::cout << e.text;
    if (e.pipelines && !o.quiet) {
      double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::fprintf(stderr, "rubick: %zu pipelines in %.2f s\n", *e.pipelines, secs);
    }
    return 0;
  }
  // A contraction with an epilogue is its contraction's designs, the epilogue on the output.
  const size_t stmt = w.statement;
  dataflow::StatementView v = dataflow::viewStatement(prog, stmt);
  const std::string targetName = cli::targetName(o.search);
  dse::PimSystem pim;
  dse::ExploreOptions eo = workload::statementOptions(prog, req, w, &pim);
  synth::Options so;
  if (o.synthTop > 0) {
    if (pim.enabled()) throw Error("--synth-top", "is for designs of an array, not PIM units");
    so.flows = synth::parseFlows(o.synthFlows, "--synth-flows");
    so.seeds = 1;
    so.memoryMacros = o.synthMemoryMacros;
    if (!o.quiet)
      so.progress = [](const std::string& what) { std::cerr << "rubick: " << what << "\n"; };
  }
  if (pim.enabled() && sharding) throw Unsupported("--shard", "PIM targets are not sharded yet");
  if (pim.enabled()) return runPim(o, prog, stmt, v, eo, pim, targetName);
  if (sharding) return runShard(o, v, eo, started);
  if (!o.compare.empty())
    throw Error("--compare-target", "goes with a PIM target (--target with a 'pim' object)");
  const dse::Constraints& c = eo.constraints;

  Progress progress(o.quiet);
  // The bar is cleared however the search ends (an error, a full disk, Ctrl-C).
  struct ClearBar {
    Progress& p;
    ~ClearBar() { p.finish(); }
  } clearBar{progress};
  // Only what is shown is kept: the table's rows and the Pareto front (JSON, plot). The CSV
  // takes every design as it is found, straight to its temporary file.
  eo.keepBest = std::max<size_t>(o.top, 1);
  std::unique_ptr<dse::CsvFile> csv;
  if (!o.csv.empty() && !o.merged) {
    csv = std::make_unique<dse::CsvFile>(v, o.csv, c.memory.enabled());
    eo.onDesign = [&](const dse::DesignPoint& d) { csv->add(d); };
  }
  eo.progress = [&](size_t done, size_t total, size_t designs) {
    progress.update(done, total, designs);
    if (csv) csv->check(); // a full disk stops the search at once
  };
  dse::ExploreResult r =
      o.merged ? dse::mergeShards(*o.merged, eo.objective, eo.keepBest) : dse::explore(v, eo);
  progress.finish();
  if (r.points.empty())
    throw Error("explore", "no design satisfies the constraints; " + r.mostRestrictive());

  // Files first (each atomically), then the table. JSON holds the shown designs and the whole
  // Pareto front (all designs would be gigabytes for a range of arrays), and so does the plot;
  // CSV holds every design, in search order. The CSV is finished first: its ID check may
  // still fail, and then nothing is written.
  if (csv) csv->finish(r.points);
  // merge: the rows streamed from the shards' files into the CSV's temporary.
  std::optional<StreamedFile> mergedCsv;
  if (o.merged && !o.csv.empty()) {
    checkOutputFile(o.csv, kCsvSignature, how);
    mergedCsv.emplace(o.csv);
    mergedCsv->write(dse::toCsv(v, {}, c.memory.enabled()));
    dse::writeMergedCsvRows(*o.merged, r, [&](std::string_view row) { mergedCsv->write(row); });
  }
  if (!o.json.empty()) {
    std::vector<dse::DesignPoint> chosen;
    for (size_t i = 0; i < r.points.size(); ++i)
      if (i < o.top || r.points[i].pareto) chosen.push_back(r.points[i]);
    writeOutputFile(o.json, dse::toJson(prog, v, chosen, eo), kJsonSignature, how);
  }
  if (csv) commitOutputFile(csv->file(), kCsvSignature, how);
  if (mergedCsv) commitOutputFile(*mergedCsv, kCsvSignature, how);
  if (!o.plot.empty())
    writeOutputFile(o.plot, dse::paretoSvg(v, r.points, eo.objective), kSvgSignature, how);

  std::string arrays = c.arrays.size() == 1
                           ? std::to_string(c.arrays[0].p) + "x" + std::to_string(c.arrays[0].q)
                           : std::to_string(c.arrays.size()) + " shapes";
  std::cout << prog.statements[stmt].name << ": " << prog.statements[stmt].text << "\n"
            << (targetName.empty() ? "" : "target " + targetName + ", ") << "arrays " << arrays
            << ", objective " << dse::toString(eo.objective) << ": " << r.stats.designs
            << " designs from " << r.stats.spaceTimeMatrices << " space-time matrices, "
            << r.stats.pareto << " Pareto-optimal (*)\n";
  if (eo.epilogue) {
    std::cout << "epilogue on the output's way to memory (" << eo.epilogue->outputName << "):";
    for (size_t s : eo.epilogue->statements)
      std::cout << " " << prog.statements[s].text << ";";
    std::cout << " operands:";
    for (const dse::EpilogueOperand& op : eo.epilogue->operands)
      std::cout << " " << op.name << " ("
                << (op.full() ? "the output's shape, a tile at a time"
                              : std::to_string(op.extent) + ", once")
                << ")";
    std::cout << (eo.epilogue->operands.empty() ? " none" : "") << "\n";
  }
  // Listed for analysis, but emit and verify will refuse them: say so before the table.
  const std::string problem = arch::buildProblem(prog, v, c.elementBits);
  if (!problem.empty())
    std::cout << "note: not buildable yet, so emit and verify refuse these designs: " << problem
              << "\n";
  std::cout << "\n" << dse::formatTable(v, r, o.top);
  if (problem.empty()) std::cout << arch::buildableNote(prog, v, eo, r.points);
  if (o.synthTop > 0) {
    if (!problem.empty()) throw Unsupported("--synth-top", problem);
    std::cout.flush();
    const std::vector<synth::RankedSynthesis> s =
        synth::synthesizeRanked(prog, v, eo, r.points, o.synthTop, so);
    std::cout << "\nsynthesised (rubick synth, " << o.synthFlows
              << (o.synthFlows.find("ice40") != std::string::npos ? "; iCE40 with one seed" : "")
              << (o.synthMemoryMacros ? "; memories as macros" : "") << "; docs/synthesis.md):\n"
              << synth::rankedTable(s, so);
  }
  std::cout.flush();
  if (!o.quiet) {
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::fprintf(stderr, "rubick: %s\n",
                 summaryLine(r.stats.candidates, r.stats.designs, secs).c_str());
  }
  return 0;
}

} // namespace

Action addExploreCommand(CLI::App& app, const std::vector<std::string>& args,
                         const std::vector<dse::ShardContents>* merged) {
  auto o = std::make_shared<ExploreCli>();
  o->merged = merged;
  // The words after `explore` (the first one: no option of rubick's takes it as its value).
  o->args = commandArgs(args, "explore");
  CLI::App* cmd = app.add_subcommand(
      "explore", "Every legal dataflow for a PE array, with latency, wires and buffer, ranked");
  cmd->footer(
      "Examples:\n"
      "  rubick explore examples/gemm.tc --max-fanout 8\n"
      "  rubick explore examples/gemm.tc --array-range 4..16 --objective wires --csv all.csv\n"
      "  rubick explore examples/conv2d.tc --target designs/targets/fpga.json --plot pareto.svg\n"
      "  rubick explore examples/gemv.tc --size M=4096,N=4096 --target designs/targets/aim.json\n"
      "  rubick explore examples/mlp.tc --mem-bandwidth 16 --buffer-kib 64   a chain, fused\n"
      "  rubick explore examples/gemm.tc --size M=4,N=4,K=4 --array 2x2 --synth-top 2\n"
      "      the two best also synthesised: gates, 7-series LUTs and DSPs beside the proxy\n"
      "  rubick explore examples/gemm.tc --size M=16,N=16,K=16 --shard 0/2 --shard-dir shards\n"
      "  rubick explore examples/gemm.tc --size M=16,N=16,K=16 --shard 1/2 --shard-dir shards\n"
      "      the search in two halves (anywhere; gather the files), for `rubick merge shards`\n\n"
      "Defaults: an 8x8 array, all 14 access entries, no fan-out, port or buffer limit, the\n"
      "program's element types, objective latency, the top 20 designs. A target file sets\n"
      "constraints; flags override it. Designs keep their ID across runs, and the table's\n"
      "last column can be given to `rubick dump --ir --dataflow` to see the design's IR, or\n"
      "to `rubick emit/verify --dataflow` (same flags) to build it with no search. For an\n"
      "attention program the last line gives rank 1 as a spec for `emit/verify --pipeline`.\n"
      "Pareto-optimal designs (latency, wires or area, buffer) are marked '*'. A PIM target\n"
      "(docs/pim.md) ranks ways to spread the problem over the units instead. A chain of\n"
      "statements with a memory system is explored statement by statement, then fused\n"
      "(docs/fusion.md).\n"
      "docs/user-guide.md explains the flags, docs/cost-model.md every metric.");
  addInputOptions(*cmd, o->input);
  addSearchOptions(*cmd, o->search);
  cmd->add_option("--top", o->top, "Designs to show in the table (default 20)")
      ->type_name("N")
      ->check(wholeNumber(0, int64_t(1) << 40));
  CLI::Option* synthTop =
      cmd->add_option(
             "--synth-top", o->synthTop,
             "Also emit and synthesise the N best designs (rubick synth: Yosys, and nextpnr "
             "with ice40) and print their measured area beside the explorer's")
          ->type_name("N")
          ->check(wholeNumber(0, 1000));
  cmd->add_option("--synth-flows", o->synthFlows,
                  "The flows of --synth-top (default generic,xilinx; ice40 adds place and "
                  "route: about 10 s a design)")
      ->type_name("generic,xilinx,ice40");
  cmd->add_flag("--synth-memory-macros", o->synthMemoryMacros,
                "--synth-top's generic flow keeps each memory whole (as rubick synth "
                "--memory-macros): cells are the logic alone, a 'mem bits' column the memories")
      ->needs(synthTop);
  cmd->add_option("--json", o->json,
                  "Write the shown designs and the whole Pareto front in full detail as JSON")
      ->type_name("FILE");
  cmd->add_option("--csv", o->csv,
                  "Write every design's metrics as CSV, one row each in search order (streamed to "
                  "disk: memory grows by 8 bytes a design)")
      ->type_name("FILE");
  cmd->add_option(
         "--plot", o->plot,
         "Write latency against wires (or area) of the shown designs and the Pareto front as SVG")
      ->type_name("FILE.svg");
  cmd->add_option("--compare-target", o->compare,
                  "With a PIM target: the same problem on this PIM target too, rank 1 under the "
                  "table (default: logic-die.json beside the target, when there; 'none': no "
                  "comparison)")
      ->type_name("FILE");
  addShardFlags(*cmd, o->shard, "explore-shard-I-of-N.jsonl");
  cmd->add_flag("--force", o->force,
                "Overwrite existing --json/--csv/--plot files even when rubick did not write them");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress bar or timing on stderr");
  return [o] { return runExplore(*o); };
}

} // namespace rubick::cli
