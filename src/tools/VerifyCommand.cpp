// `rubick verify`: emit designs, simulate them in Verilator, compare with the reference model.

#include "AttentionCommands.h"
#include "Commands.h"
#include "InputOptions.h"
#include "PipelineOptions.h"
#include "SearchOptions.h"
#include "VerifyReport.h"

#include "rubick/dataflow/Decompose.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/verify/Verify.h"

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <unistd.h>

namespace rubick::cli {
namespace {

struct VerifyCli {
  InputOptions input;
  SearchOptions search;
  std::string point, cover, wave, work = "/tmp/rubick-verify", runtimeDir;
  bool all = false, quiet = false, timing = false, force = false;
  std::string build = "auto";
  size_t limit = 0, skip = 0;
  uint64_t seed = 1;
  int trials = 1;
  unsigned jobs = 0;
};

verify::Build buildMode(const std::string& s) {
  if (s == "auto") return verify::Build::Auto;
  if (s == "quick") return verify::Build::Quick;
  if (s == "optimised") return verify::Build::Optimised;
  throw Error("--build", "expected auto, quick or optimised, found '" + s + "'");
}

// The run flags both single designs and attention pipelines take.
verify::Options runOptions(const VerifyCli& o) {
  if (o.trials < 1) throw Error("--trials", "needs at least 1 trial");
  verify::Options vo;
  vo.workDir = o.work;
  vo.runtimeDir = o.runtimeDir;
  vo.force = o.force;
  vo.seed = o.seed;
  vo.trials = o.trials;
  vo.wave = o.wave;
  vo.jobs = o.jobs;
  vo.build = buildMode(o.build);
  return vo;
}

int runVerify(const VerifyCli& o) {
  tc::Program prog = loadInput(o.input);
  verify::Options vo = runOptions(o);
  verify::checkTools();                // before the search, which may take a while
  if (wantsPipeline(prog, o.search)) { // attention: the whole fused pipeline
    if (o.all || !o.cover.empty() || o.limit)
      throw Error("verify", "--all, --cover and --limit are for single statements (use --stmt)");
    return verifyPipeline(prog, o.input, o.search, {o.point, o.timing, vo});
  }
  size_t stmt = pickStatement(prog, o.search.df.stmt);
  dataflow::StatementView v = dataflow::viewStatement(prog, stmt);
  SearchOptions search = o.search;
  std::string entries;
  if (search.entries.find('=') != std::string::npos) std::swap(entries, search.entries);
  std::string targetName;
  dse::ExploreOptions eo = makeExploreOptions(search, prog, v, o.input.file, targetName);
  int modes = !o.point.empty() + !entries.empty() + o.all;
  if (modes > 1) throw Error("verify", "give one of --point, --entries T=ENTRY,... or --all");
  if (!o.cover.empty() && !o.all) throw Error("--cover", "--cover selects among --all");
  if (!o.cover.empty() && o.cover != "roles" && o.cover != "combinations")
    throw Error("--cover", "expected roles or combinations, found '" + o.cover + "'");

  dse::ExploreResult r = dse::explore(v, eo);
  if (r.points.empty())
    throw Error("verify", "no design satisfies the constraints; " + r.mostRestrictive());
  std::vector<dse::DesignPoint> chosen;
  if (o.all) {
    chosen = o.cover.empty() ? r.points : verify::sample(r.points, o.cover);
  } else if (!o.point.empty()) {
    for (const dse::DesignPoint& d : r.points)
      if (d.id == o.point) chosen.push_back(d);
    if (chosen.empty())
      throw Error("--point", "no design " + o.point + " among the " +
                                 std::to_string(r.points.size()) +
                                 " designs these constraints allow");
  } else {
    std::map<std::string, ir::EntryKind> want;
    size_t i = 0;
    while (i <= entries.size() && !entries.empty()) {
      size_t comma = entries.find(',', i);
      std::string item =
          entries.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
      size_t eq = item.find('=');
      auto k = eq == std::string::npos ? std::nullopt : ir::parseEntryKind(item.substr(eq + 1));
      if (!k) throw Error("--entries", "expected TENSOR=ENTRY, found '" + item + "'");
      want[item.substr(0, eq)] = *k;
      if (comma == std::string::npos) break;
      i = comma + 1;
    }
    for (const dse::DesignPoint& d : r.points) {
      bool ok = true;
      for (size_t a = 0; a < v.accesses.size(); ++a) {
        auto it = want.find(v.accesses[a].name);
        ok &= it == want.end() || it->second == d.entries[a].kind;
      }
      if (ok) {
        chosen.push_back(d);
        break;
      }
    }
    if (chosen.empty() && entries.empty()) chosen.push_back(r.points.front());
    if (chosen.empty()) throw Error("--entries", "no design has these entries");
  }
  // --skip and --limit cut a window out of the selection, so a long sweep can run in pieces.
  const size_t selected = chosen.size();
  if (o.skip >= selected && o.skip > 0)
    throw Error("--skip", "skips all " + std::to_string(selected) + " selected designs");
  chosen.erase(chosen.begin(), chosen.begin() + static_cast<std::ptrdiff_t>(o.skip));
  if (o.limit && chosen.size() > o.limit) chosen.resize(o.limit);

  std::mutex mu;
  bool tty = !o.quiet && ::isatty(2);
  if (tty)
    vo.progress = [&](size_t done, size_t total) {
      std::lock_guard<std::mutex> lock(mu);
      std::fprintf(stderr, "\r%zu/%zu designs verified", done, total);
      if (done == total) std::fprintf(stderr, "\r%*s\r", 40, "");
    };
  double runtimeSeconds = 0;
  std::vector<verify::Result> results =
      verify::verifyDesigns(prog, stmt, chosen, eo, vo, &runtimeSeconds);
  size_t failed = 0;
  std::printf("%s: %s\n%-6s %-10s %9s %9s %7s  ", prog.statements[stmt].name.c_str(),
              prog.statements[stmt].text.c_str(), "result", "id", "measured", "predicted", "util");
  if (o.timing) printTimingHeader();
  std::printf("dataflow\n");
  for (const verify::Result& res : results) {
    bool pass = res.pass();
    failed += !pass;
    const verify::Trial* t = res.trials.empty() ? nullptr : &res.trials.front();
    std::printf("%-6s %-10s %9lld %9lld %6.1f%%  ", pass ? "PASS" : "FAIL", res.id.c_str(),
                t ? static_cast<long long>(t->measured) : 0LL,
                t ? static_cast<long long>(t->predicted) : 0LL, 100.0 * res.utilization());
    if (o.timing) printTiming(res, t);
    std::printf("%s on %lldx%lld\n", res.spec.c_str(), static_cast<long long>(res.p),
                static_cast<long long>(res.q));
    printProblems(res);
  }
  if (o.timing) printRuntime(runtimeSeconds);
  if (chosen.size() < selected)
    std::printf("designs %zu-%zu of the %zu selected\n", o.skip + 1, o.skip + chosen.size(),
                selected);
  std::printf("%zu design(s), %zu trial(s) each: %zu passed, %zu failed\n", results.size(),
              static_cast<size_t>(o.trials), results.size() - failed, failed);
  return failed ? 1 : 0;
}

} // namespace

Action addVerifyCommand(CLI::App& app) {
  auto o = std::make_shared<VerifyCli>();
  CLI::App* cmd =
      app.add_subcommand("verify", "Simulate designs in Verilator against the reference model");
  cmd->footer(
      "Examples:\n"
      "  rubick verify examples/gemm.tc --size M=6,N=5,K=7 --array 4x4\n"
      "      the best design by latency\n"
      "  rubick verify examples/gemm.tc --max-fanout 8 --point 047b034bce --trials 3\n"
      "  rubick verify examples/gemm.tc --size M=6,N=5,K=7 --array 4x4 --all --cover roles\n"
      "      one design for each access entry in each role\n\n"
      "Each design is emitted into WORK/<id>/, built with Verilator together with rubick's\n"
      "testbench (reused while unchanged; what every design shares is compiled once per work\n"
      "directory, in WORK/.runtime/), and run per trial: random inputs over the whole type\n"
      "range (extremes included) go in through the host port, every output is compared with\n"
      "the reference model, and the cycles from start to done with the explorer's latency.\n"
      "A failing trial prints its first mismatches and leaves a waveform. Exit status 1 when\n"
      "any design fails. docs/verification.md explains how to read a failure.\n\n"
      "With --timing, each design's line also gives build_s (Verilator code generation,\n"
      "compile and link, in seconds; 'reused' when an earlier build was still valid),\n"
      "sim_cycles (clock cycles simulated in the first trial: loading, run and read-back),\n"
      "sim_s (seconds that simulation took) and cycles/s (their ratio), and a last line says\n"
      "how long the runtime every design links (Verilator's library and the testbench core,\n"
      "compiled once per work directory) took to build.\n\n"
      "--build auto (the default) compiles a design quickly (modules kept apart, no C++\n"
      "optimisation: about half the build time) unless its simulation is long (cycles x PEs\n"
      "over 2e7), where the optimised build (simulating 20x faster) pays. A long sweep runs\n"
      "in pieces with --skip and --limit, e.g. --all --skip 1000 --limit 1000 for designs "
      "1001-2000.");
  addInputOptions(*cmd, o->input);
  addSearchOptions(*cmd, o->search);
  cmd->add_option("--point", o->point, "The design ID from `rubick explore`")->type_name("ID");
  cmd->add_flag("--all", o->all, "Every design the constraints allow (ranked order)");
  cmd->add_option("--cover", o->cover,
                  "With --all: only the first design for each entry in each role (roles), or for "
                  "each entry combination (combinations)")
      ->type_name("roles|combinations");
  cmd->add_option("--limit", o->limit, "At most N designs")->type_name("N");
  cmd->add_option("--skip", o->skip,
                  "Leave out the first N selected designs (with --limit: a sweep in pieces)")
      ->type_name("N");
  cmd->add_option("--seed", o->seed, "Seed of the first trial's random inputs (default 1)")
      ->type_name("S");
  cmd->add_option("--trials", o->trials, "Random input sets per design (default 1)")
      ->type_name("N");
  cmd->add_option("--wave", o->wave, "Write the first trial's waveform to FILE.fst")
      ->type_name("FILE.fst");
  cmd->add_option("--work", o->work,
                  "Work directory (default /tmp/rubick-verify); must be new, empty or rubick's")
      ->type_name("DIR");
  cmd->add_flag("--force", o->force,
                "Use --work and --runtime-dir even when they hold files rubick did not write");
  cmd->add_option("--runtime-dir", o->runtimeDir,
                  "Where the parts every design links are compiled once and reused (default "
                  "WORK/.runtime); work directories may share one")
      ->type_name("DIR");
  cmd->add_option("--jobs", o->jobs, "Designs built and simulated at once (default: all cores)")
      ->type_name("N");
  cmd->add_option("--build", o->build,
                  "How each design is compiled: quick (no C++ optimisation), optimised "
                  "(Verilator's usual -Os, inlined) or auto (default: optimised only for long "
                  "simulations)")
      ->type_name("auto|quick|optimised");
  cmd->add_flag("--timing", o->timing,
                "Also print build seconds, simulated cycles, simulation seconds and cycles/s");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress on stderr");
  return [o] { return runVerify(*o); };
}

} // namespace rubick::cli
