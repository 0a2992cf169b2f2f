// SPDX-License-Identifier: Apache-2.0
// `rubick merge`: the shards of one `rubick explore --shard I/N` run, combined into what the
// unsharded run prints and writes (docs/scale.md). The shards' header names explore's options:
// they are parsed again by explore's own command, which then prints from the shards' designs.
// The shards of one `rubick verify --shard I/N` run: one report, printed by verify's own code.

#include "Commands.h"
#include "VerifyPrint.h"

#include "rubick/dse/MergeShards.h"
#include "rubick/dse/ShardSet.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/workload/VerifyShard.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

namespace rubick::cli {
namespace {

struct MergeCli {
  std::vector<std::string> dirs;
  std::string json, csv, plot;
  bool quiet = false, force = false;
};

// The shards were written by this rubick, from the files that are here now.
void checkSameInputs(const std::string& version, const std::vector<std::string>& options,
                     const std::string& fingerprint) {
  if (version != RUBICK_VERSION)
    throw Error("merge", "the shards were written by rubick " + version + ", this is rubick " +
                             RUBICK_VERSION + "; run them again or merge with that version");
  if (dse::shardFingerprint(version, options) != fingerprint)
    throw Error("merge", "the inputs of the shards (the files their options name) are not the "
                         "same here: run merge where the shards ran, on the same files");
}

// Did every trial of `res` take the predicted cycles (with DRAM timing: within its tolerance)?
bool cyclesAsPredicted(const verify::Result& res, bool dram) {
  if (res.trials.empty()) return false;
  for (const verify::Trial& t : res.trials) {
    if (t.predicted <= 0) return false;
    const double d = double(t.measured) / double(t.predicted) - 1.0;
    if (dram ? std::abs(d) > verify::kDramTolerance : t.measured != t.predicted) return false;
  }
  return true;
}

// The report of one verify run from its shards: verify's table, then how each failure is
// reproduced and how many designs ran in the predicted cycles.
int mergeVerify(const MergeCli& o) {
  if (!o.json.empty() || !o.csv.empty() || !o.plot.empty())
    throw Error("merge", "--json, --csv and --plot are explore's: verify shards merge into a "
                         "report on stdout");
  const std::vector<workload::VerifyShard> shards = workload::readVerifyShardSet(o.dirs);
  const workload::VerifyShardHeader& h = shards.front().header;
  checkSameInputs(h.version, h.options, h.fingerprint);
  const workload::Verified v = workload::mergeVerifyShards(shards);
  dse::Selection sel;
  sel.skip = static_cast<int64_t>(h.skip);
  const int status = printDesigns(h.heading, v, sel, {false, h.dram}, h.trials);
  size_t exact = 0;
  for (const workload::VerifiedDesign& d : v.designs) {
    if (!d.result->pass())
      std::printf("reproduce %s: %s\n", d.id.c_str(), workload::reproduceCommand(h, d.id).c_str());
    exact += cyclesAsPredicted(*d.result, h.dram);
  }
  std::printf("cycles: %zu of %zu design(s) ran %s the predicted cycles in every trial (%zu "
              "shards merged)\n",
              exact, v.designs.size(), h.dram ? "within 3% of" : "in exactly", shards.size());
  return status;
}

int runMerge(const MergeCli& o) {
  const bool verify = !dse::findShardFiles(o.dirs, "verify").empty();
  if (verify && !dse::findShardFiles(o.dirs, "explore").empty())
    throw Error("merge", "the directories hold both explore and verify shards: merge each run "
                         "on its own");
  if (verify) return mergeVerify(o);
  // The CSV rows stay in the files: explore streams them from there (writeMergedCsvRows).
  const std::vector<dse::ShardContents> shards = dse::readShardSet(o.dirs, false);
  const dse::ShardHeader& h = shards.front().header;
  checkSameInputs(h.version, h.options, h.fingerprint);
  std::vector<std::string> args = {"rubick", "explore"};
  args.insert(args.end(), h.options.begin(), h.options.end());
  auto add = [&](const char* flag, const std::string& value) {
    if (!value.empty()) args.insert(args.end(), {flag, value});
  };
  add("--json", o.json);
  add("--csv", o.csv);
  add("--plot", o.plot);
  if (o.force) args.push_back("--force");
  if (o.quiet) args.push_back("--quiet");
  CLI::App app{"rubick", "rubick"};
  const Action explore = addExploreCommand(app, args, &shards);
  std::vector<std::string> reversed(args.rbegin(), args.rend() - 1); // CLI11: reversed, no argv[0]
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw Error("merge", std::string("the shards' explore options do not parse: ") + e.what());
  }
  return explore();
}

} // namespace

Action addMergeCommand(CLI::App& app) {
  auto o = std::make_shared<MergeCli>();
  CLI::App* cmd = app.add_subcommand(
      "merge",
      "Combine the shards of `rubick explore --shard I/N` into the unsharded run's output, or "
      "those of `rubick verify --shard I/N` into one report");
  cmd->footer("Examples:\n"
              "  rubick merge shards --csv all.csv --plot pareto.svg\n"
              "      after the two `--shard I/2 --shard-dir shards` examples of `rubick explore\n"
              "      --help`: the table, Pareto front and files of the unsharded explore\n\n"
              "The same for `rubick verify --shard I/N --shard-dir DIR` (see its --help): merge\n"
              "prints one report, every design's row as one verify prints it, a command\n"
              "reproducing each failure and how many ran in exactly the predicted cycles;\n"
              "exit status 1 when a design failed.\n\n"
              "Every shard 0..N-1 of one run must be there exactly once (in one directory or\n"
              "several, e.g. one per machine): a missing shard is named with the command that\n"
              "runs it; a shard given twice or one of another run (other options, inputs or\n"
              "rubick version) is refused. Run merge where the shards ran: the program and\n"
              "target files their options name must be the same. The table, --json, --csv and\n"
              "--plot are byte for byte the unsharded run's (only stderr's timing differs).\n"
              "For verify shards the designs' rows are those the unsharded verify prints.\n"
              "docs/scale.md explains sharding.");
  cmd->add_option("DIR", o->dirs,
                  "Directories holding the explore-shard-I-of-N.jsonl or verify-shard-I-of-N.jsonl "
                  "files of one run")
      ->required();
  cmd->add_option("--json", o->json,
                  "Write the shown designs and the whole Pareto front as JSON (as explore --json)")
      ->type_name("FILE");
  cmd->add_option("--csv", o->csv, "Write every design's metrics as CSV in search order")
      ->type_name("FILE");
  cmd->add_option("--plot", o->plot, "Write the Pareto plot as SVG (as explore --plot)")
      ->type_name("FILE.svg");
  cmd->add_flag("--force", o->force,
                "Overwrite existing --json/--csv/--plot files even when rubick did not write them");
  cmd->add_flag("-q,--quiet", o->quiet, "No timing on stderr");
  return [o] { return runMerge(*o); };
}

} // namespace rubick::cli
