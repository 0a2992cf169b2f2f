// SPDX-License-Identifier: Apache-2.0
// `rubick merge`: the shards of one `rubick explore --shard I/N` run, combined into what the
// unsharded run prints and writes (docs/scale.md). The shards' header names explore's options:
// they are parsed again by explore's own command, which then prints from the shards' designs.

#include "Commands.h"

#include "rubick/dse/MergeShards.h"
#include "rubick/support/Diagnostic.h"

#include <algorithm>
#include <memory>

namespace rubick::cli {
namespace {

struct MergeCli {
  std::vector<std::string> dirs;
  std::string json, csv, plot;
  bool quiet = false, force = false;
};

int runMerge(const MergeCli& o) {
  const std::vector<dse::ShardContents> shards = dse::readShardSet(o.dirs, !o.csv.empty());
  const dse::ShardHeader& h = shards.front().header;
  if (h.version != RUBICK_VERSION)
    throw Error("merge", "the shards were written by rubick " + h.version + ", this is rubick " +
                             RUBICK_VERSION + "; run them again or merge with that version");
  if (dse::shardFingerprint(h.version, h.options) != h.fingerprint)
    throw Error("merge", "the inputs of the shards (the files their options name) are not the "
                         "same here: run merge where the shards ran, on the same files");
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
      "Combine the shards of `rubick explore --shard I/N` into the unsharded run's output");
  cmd->footer("Examples:\n"
              "  rubick merge shards --csv all.csv --plot pareto.svg\n"
              "      after the two `--shard I/2 --shard-dir shards` examples of `rubick explore\n"
              "      --help`: the table, Pareto front and files of the unsharded explore\n\n"
              "Every shard 0..N-1 of one run must be there exactly once (in one directory or\n"
              "several, e.g. one per machine): a missing shard is named with the command that\n"
              "runs it; a shard given twice or one of another run (other options, inputs or\n"
              "rubick version) is refused. Run merge where the shards ran: the program and\n"
              "target files their options name must be the same. The table, --json, --csv and\n"
              "--plot are byte for byte the unsharded run's (only stderr's timing differs).\n"
              "docs/scale.md explains sharding.");
  cmd->add_option("DIR", o->dirs, "Directories holding explore-shard-I-of-N.jsonl files")
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
