// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sharded verify (docs/scale.md): shard I of N verifies the selected designs at place I modulo
// N (rubick/dse/Select.h, Selection::shard) and writes verify-shard-I-of-N.jsonl: a header line
// naming the run, one line per design with its whole result, and an end line (without it the
// file is incomplete). `rubick merge` reads a complete set back into one report.

#include "rubick/dse/Shard.h"
#include "rubick/workload/VerifyProgram.h"

#include <string>
#include <vector>

namespace rubick::workload {

/// The start of every verify shard file (how rubick recognises one it may replace).
inline constexpr const char* kVerifyShardSignature = "{\"rubick_verify_shard\":";

/// verify-shard-I-of-N.jsonl
std::string verifyShardFileName(dse::Shard s);

struct VerifyShardHeader {
  dse::Shard shard;
  std::string version; // rubick's
  /// verify's command line after `verify`, less --shard, --shard-dir and what says only where
  /// or how fast it runs (--jobs, --work, --runtime-dir, --force, --timing, -q).
  std::vector<std::string> options;
  std::string fingerprint; // dse::shardFingerprint(version, options)
  std::string heading;     // the report's first line: the statement
  size_t selected = 0;     // designs the selection chose, before --skip and --limit
  size_t skip = 0;         // --skip
  size_t window = 0;       // designs after --skip and --limit, over all shards
  int trials = 1;
  bool dram = false;
};

struct VerifyShard {
  std::string path;
  VerifyShardHeader header;
  std::vector<VerifiedDesign> designs; // by rank
};

/// The whole file of shard `h` holding `v`'s designs.
std::string verifyShardText(const VerifyShardHeader& h, const Verified& v);

/// Reads a shard file; throws rubick::Error naming the path (and line) when it is not one.
VerifyShard readVerifyShardFile(const std::string& path);

/// The verify shard files in `dirs`, read and checked to be one complete set of one run
/// (rubick/dse/ShardSet.h), sorted by shard index.
std::vector<VerifyShard> readVerifyShardSet(const std::vector<std::string>& dirs);

/// The set's designs in rank order, as one unsharded verify returns them. Throws rubick::Error
/// when a shard holds a rank that is not its own, or a rank is missing or twice.
Verified mergeVerifyShards(const std::vector<VerifyShard>& shards);

/// The command that verifies one design of the run again: `rubick verify OPTIONS --point ID`,
/// the selection flags (--all, --cover, --skip, --limit, --entries, --layout, ...) left out.
std::string reproduceCommand(const VerifyShardHeader& h, const std::string& id);

} // namespace rubick::workload
