// SPDX-License-Identifier: Apache-2.0
// `rubick verify`: emit designs, simulate them in Verilator, compare with the reference model.

#include "Commands.h"
#include "InputOptions.h"
#include "RequestOptions.h"
#include "SearchOptions.h"
#include "SelectionOptions.h"
#include "ShardOptions.h"
#include "VerifyPrint.h"

#include "rubick/arch/Dram.h"
#include "rubick/dse/ShardFile.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/OwnedOutput.h"
#include "rubick/workload/VerifyProgram.h"
#include "rubick/workload/VerifyShard.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <unistd.h>

namespace rubick::cli {
namespace {

// $TMPDIR/rubick-verify, as temporary files go by convention; /tmp without TMPDIR.
std::string defaultWorkDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string base = tmp && *tmp ? tmp : "/tmp";
  while (base.size() > 1 && base.back() == '/')
    base.pop_back();
  return base + "/rubick-verify";
}

struct VerifyCli {
  InputOptions input;
  SearchOptions search;
  dse::Selection selection; // --point, --dataflow, --pipeline, --entries, --layout, --all, ...
  SelectionOptions selectors;
  CLI::Option* limit = nullptr;
  int64_t limitValue = 0;
  std::string wave, work = defaultWorkDir(), runtimeDir;
  bool quiet = false, timing = false, force = false;
  std::string build = "auto";
  std::string dram; // --dram's value ("true" when given bare)
  CLI::Option* dramFlag = nullptr;
  uint64_t seed = 1;
  int trials = 1;
  unsigned jobs = 0;
  ShardFlags shard;              // --shard I/N --shard-dir DIR (docs/scale.md)
  std::vector<std::string> args; // the command line after `verify` (a shard's file names it)
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
  if (o.dramFlag->count() > 1) throw Error("--dram", "given more than once");
  if (o.dramFlag->count()) vo.dram = arch::parseDram(o.dram == "true" ? "" : o.dram, "--dram");
  return vo;
}

int runVerify(const VerifyCli& o) {
  const tc::Program prog = loadInput(o.input);
  verify::Options vo = runOptions(o);
  verify::checkTools(); // before the search, which may take a while
  std::mutex mu;
  if (!o.quiet && ::isatty(2))
    vo.progress = [&mu](size_t done, size_t total) {
      std::lock_guard<std::mutex> lock(mu);
      std::fprintf(stderr, "\r%zu/%zu designs verified", done, total);
      if (done == total) std::fprintf(stderr, "\r%*s\r", 40, "");
    };
  dse::Selection sel = o.selection;
  std::string shardPath;
  if (o.shard.given()) {
    sel.shard = openShard(o.shard);
    shardPath =
        (std::filesystem::path(o.shard.dir) / workload::verifyShardFileName(sel.shard)).string();
    checkOutputFile(shardPath, workload::kVerifyShardSignature,
                    o.force ? Overwrite::Force : Overwrite::OwnOnly);
  }
  const workload::Request r = makeRequest(o.input, o.search, sel, true);
  const workload::Verified v = workload::verifyProgram(prog, r, vo);
  const int status = printVerified(prog, v, sel, {o.timing, vo.dram.has_value()}, o.trials);
  if (!shardPath.empty()) {
    workload::VerifyShardHeader h;
    h.shard = sel.shard;
    h.version = RUBICK_VERSION;
    // Less what says only where, how fast or how verbosely this shard runs.
    h.options = shardRunOptions(o.args, {"--jobs", "--work", "--runtime-dir", "--wave"},
                                {"-q", "--quiet", "--force", "--timing"});
    h.fingerprint = dse::shardFingerprint(h.version, h.options);
    const tc::Statement& st = prog.statements[v.statement];
    h.heading = st.name + ": " + st.text;
    h.selected = v.selected;
    h.skip = static_cast<size_t>(sel.skip);
    h.window = v.window;
    h.trials = o.trials;
    h.dram = vo.dram.has_value();
    writeOutputFile(shardPath, workload::verifyShardText(h, v), workload::kVerifyShardSignature,
                    o.force ? Overwrite::Force : Overwrite::OwnOnly);
    std::cout << "shard " << dse::toString(sel.shard) << ": " << v.designs.size() << " of "
              << v.window << " designs, written to " << shardPath
              << " (combine the shards with `rubick merge " << o.shard.dir << "`)\n";
  }
  return status;
}

} // namespace

Action addVerifyCommand(CLI::App& app, const std::vector<std::string>& args) {
  auto o = std::make_shared<VerifyCli>();
  o->args = commandArgs(args, "verify");
  CLI::App* cmd =
      app.add_subcommand("verify", "Simulate designs in Verilator against the reference model");
  cmd->footer(
      "Examples:\n"
      "  rubick verify examples/gemm.tc --size M=6,N=5,K=7 --array 4x4\n"
      "      the best design by latency\n"
      "  rubick verify examples/gemm.tc --max-fanout 8 --point 174a4c3628b375f3 --trials 3\n"
      "  rubick verify examples/gemm.tc --size M=8,N=8,K=8 --array 4x4 \\\n"
      "      --dataflow 'PE(k mod 4, j mod 4) | T(i + j mod 4 + k mod 4, k / 4, j / 4)'\n"
      "      exactly this design (a dataflow from explore's last column), with no search\n"
      "  rubick verify examples/gemm.tc --size M=6,N=5,K=7 --array 4x4 --all --cover roles\n"
      "      one design for each access entry in each role\n"
      "  rubick verify examples/mlp.tc --size M=8,K=12,N=8,P=6 --array 4x4 --mem-bandwidth 8\n"
      "      a chain (docs/fusion.md): its stages run in turn, every output and intermediate\n"
      "      compared\n"
      "  rubick verify examples/gemm.tc --size M=4,N=4,K=4 --array 2x2 --all --limit 4 \\\n"
      "      --shard 0/2 --shard-dir vshards\n"
      "      designs 1 and 3 of the four (shard 1/2 verifies 2 and 4, anywhere); once both\n"
      "      ran, `rubick merge vshards` reports all four as one run (docs/scale.md)\n\n"
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
  addSelectionOptions(*cmd, o->search, o->selection, o->selectors);
  cmd->add_flag("--all", o->selection.all,
                "Every design the constraints allow (ranked order), or with --entries/--layout "
                "every design that has them");
  cmd->add_option("--cover", o->selection.cover,
                  "With --all: only the first design for each entry in each role (roles), or for "
                  "each entry combination (combinations)")
      ->type_name("roles|combinations");
  o->limit =
      cmd->add_option("--limit", o->limitValue, "At most N designs (N >= 1)")->type_name("N");
  cmd->add_option("--skip", o->selection.skip,
                  "Leave out the first N selected designs (with --limit: a sweep in pieces)")
      ->type_name("N");
  cmd->add_option("--seed", o->seed, "Seed of the first trial's random inputs (default 1)")
      ->type_name("S");
  cmd->add_option("--trials", o->trials, "Random input sets per design (default 1)")
      ->type_name("N");
  cmd->add_option("--wave", o->wave, "Write the first trial's waveform to FILE.fst")
      ->type_name("FILE.fst");
  cmd->add_option("--work", o->work,
                  "Work directory (default $TMPDIR/rubick-verify, /tmp/rubick-verify without "
                  "TMPDIR); must be new, empty or rubick's")
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
  o->dramFlag =
      cmd->add_flag("--dram", o->dram,
                    "Designs with a memory system: the memory with DRAM row timing (banks with "
                    "an open row each), cycles within 3% of its prediction. "
                    "--dram=banks=B,row=BYTES,trcd=C,trp=C,cl=C,tras=C sets any of them (defaults "
                    "8, 2048, 14, 14, 14, 0)");
  cmd->add_flag("--timing", o->timing,
                "Also print build seconds, simulated cycles, simulation seconds and cycles/s");
  addShardFlags(*cmd, o->shard, "verify-shard-I-of-N.jsonl");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress on stderr");
  return [o] {
    finishSelection(o->selectors, o->search, o->selection);
    if (o->limit->count()) o->selection.limit = o->limitValue;
    return runVerify(*o);
  };
}

} // namespace rubick::cli
