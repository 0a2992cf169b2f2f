// SPDX-License-Identifier: Apache-2.0
// Sharded verify: a shard's file reads back as written, a complete set merges into the designs
// in rank order, and a missing, foreign or duplicated shard or rank is refused by name.

#include "temp_dir.h"

#include "rubick/dse/ShardSet.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/workload/VerifyShard.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace rubick::workload {
namespace {

// The window's designs 1..n (IDs d1, d2, ...), the even ranks failing their second trial.
VerifiedDesign design(size_t rank) {
  VerifiedDesign d;
  d.rank = rank;
  d.id = "d" + std::to_string(rank);
  verify::Result r;
  r.id = d.id;
  r.spec = "PE(i mod 2, j mod 2) | T(k)";
  r.p = r.q = 2;
  r.macs = 64;
  r.built = true;
  for (int t = 0; t < 2; ++t) {
    verify::Trial tr;
    tr.seed = 1 + t;
    tr.pass = !(rank % 2 == 0 && t == 1);
    tr.elements = 16;
    tr.mismatches = tr.pass ? 0 : 3;
    tr.measured = 26 + (tr.pass ? 0 : 1);
    tr.predicted = 26;
    tr.report = tr.pass ? "" : "mismatch C[0][0]: got 1, expected 2";
    r.trials.push_back(tr);
  }
  d.result = r;
  return d;
}

VerifyShardHeader header(dse::Shard s, size_t window) {
  VerifyShardHeader h;
  h.shard = s;
  h.version = "test";
  h.options = {"gemm.tc", "--all", "--limit", std::to_string(window), "--skip", "2"};
  h.fingerprint = "f";
  h.heading = "S0: C(i, j) +=! A(i, k) * B(k, j)";
  h.selected = 40;
  h.skip = 2;
  h.window = window;
  h.trials = 2;
  return h;
}

// Shard s of a window of `window` designs (ranks 3..window+2), written into `dir`.
void writeShard(const std::string& dir, dse::Shard s, size_t window) {
  Verified v;
  for (size_t i = 0; i < window; ++i)
    if (s.owns(i)) v.designs.push_back(design(3 + i));
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/" + verifyShardFileName(s)) << verifyShardText(header(s, window), v);
}

TEST(VerifyShard, FileReadsBackAsWritten) {
  test::TempDir dir;
  writeShard(dir / "s", {1, 3}, 7);
  const VerifyShard s = readVerifyShardFile(dir / "s/verify-shard-1-of-3.jsonl");
  EXPECT_EQ(s.header.shard, (dse::Shard{1, 3}));
  EXPECT_EQ(s.header.heading, "S0: C(i, j) +=! A(i, k) * B(k, j)");
  EXPECT_EQ(s.header.window, 7u);
  EXPECT_EQ(s.header.skip, 2u);
  EXPECT_EQ(s.header.trials, 2);
  ASSERT_EQ(s.designs.size(), 2u); // places 1 and 4: ranks 4 and 7
  EXPECT_EQ(s.designs[0].rank, 4u);
  EXPECT_EQ(s.designs[1].rank, 7u);
  const verify::Result& r = *s.designs[0].result;
  EXPECT_FALSE(r.pass());
  ASSERT_EQ(r.trials.size(), 2u);
  EXPECT_EQ(r.trials[1].report, "mismatch C[0][0]: got 1, expected 2");
  EXPECT_EQ(r.trials[1].measured, 27);
  EXPECT_TRUE(s.designs[1].result->pass());
}

TEST(VerifyShard, SetMergesInRankOrderFromSeveralDirectories) {
  test::TempDir dir;
  writeShard(dir / "a", {0, 3}, 7);
  writeShard(dir / "b", {2, 3}, 7);
  writeShard(dir / "b", {1, 3}, 7);
  const std::vector<VerifyShard> set = readVerifyShardSet({dir / "a", dir / "b"});
  ASSERT_EQ(set.size(), 3u);
  EXPECT_EQ(set[2].header.shard.index, 2u);
  const Verified v = mergeVerifyShards(set);
  ASSERT_EQ(v.designs.size(), 7u);
  for (size_t i = 0; i < 7; ++i)
    EXPECT_EQ(v.designs[i].id, "d" + std::to_string(3 + i));
  EXPECT_EQ(v.selected, 40u);
}

TEST(VerifyShard, MoreShardsThanDesignsLeaveEmptyShards) {
  test::TempDir dir;
  for (size_t i = 0; i < 4; ++i)
    writeShard(dir / "s", {i, 4}, 2);
  const Verified v = mergeVerifyShards(readVerifyShardSet({dir / "s"}));
  ASSERT_EQ(v.designs.size(), 2u);
  EXPECT_EQ(v.designs[1].rank, 4u);
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.diag().message;
  }
  return "no error";
}

TEST(VerifyShard, MissingShardIsNamedWithItsCommand) {
  test::TempDir dir;
  writeShard(dir / "s", {0, 3}, 7);
  writeShard(dir / "s", {2, 3}, 7);
  const std::string e = errorOf([&] { readVerifyShardSet({dir / "s"}); });
  EXPECT_NE(e.find("shard 1/3 is missing (no verify-shard-1-of-3.jsonl"), std::string::npos) << e;
  EXPECT_NE(e.find("run it: rubick verify gemm.tc --all --limit 7 --skip 2 --shard 1/3 "
                   "--shard-dir "),
            std::string::npos)
      << e;
}

TEST(VerifyShard, DuplicatedOrForeignShardsAreRefused) {
  test::TempDir dir;
  writeShard(dir / "a", {0, 2}, 4);
  writeShard(dir / "b", {0, 2}, 4);
  writeShard(dir / "b", {1, 2}, 4);
  EXPECT_NE(errorOf([&] {
              readVerifyShardSet({dir / "a", dir / "b"});
            }).find("shard 0/2 twice"),
            std::string::npos);
  writeShard(dir / "c", {0, 3}, 4);
  EXPECT_NE(errorOf([&] {
              readVerifyShardSet({dir / "a", dir / "c"});
            }).find("are shards of different runs (3 and 2 shards)"),
            std::string::npos);
}

TEST(VerifyShard, RankOfAnotherShardOrMissingRankIsRefused) {
  test::TempDir dir;
  writeShard(dir / "s", {0, 2}, 4);
  writeShard(dir / "s", {1, 2}, 4);
  std::vector<VerifyShard> set = readVerifyShardSet({dir / "s"});
  std::vector<VerifyShard> moved = set;
  moved[1].designs[0].rank = 3; // place 0: shard 0's
  EXPECT_NE(errorOf([&] { mergeVerifyShards(moved); }).find("is not this shard's"),
            std::string::npos);
  std::vector<VerifyShard> lost = set;
  lost[1].designs.pop_back();
  EXPECT_NE(errorOf([&] { mergeVerifyShards(lost); }).find("rank 6 is missing"), std::string::npos);
}

TEST(VerifyShard, IncompleteFileIsRefused) {
  test::TempDir dir;
  writeShard(dir / "s", {0, 1}, 3);
  const std::string path = dir / "s/verify-shard-0-of-1.jsonl";
  std::string text;
  {
    std::ifstream in(path);
    std::getline(in, text, '\0');
  }
  std::ofstream(path) << text.substr(0, text.rfind("\n{") + 1); // less the end line
  const std::string e = errorOf([&] { readVerifyShardFile(path); });
  EXPECT_NE(e.find("incomplete: no end line"), std::string::npos) << e;
}

TEST(VerifyShard, ReproduceCommandSelectsTheOneDesign) {
  VerifyShardHeader h = header({0, 2}, 4);
  h.options = {"gemm.tc", "--size",     "M=4,N=4,K=4", "--all",        "--cover=roles",
               "--limit", "12",         "--entries",   "C=stationary", "--seed",
               "7",       "--dataflow", "PE(i) | T(j)"};
  EXPECT_EQ(reproduceCommand(h, "d3"),
            "rubick verify gemm.tc --size M=4,N=4,K=4 --seed 7 --point d3");
  h.options = {"my file.tc"};
  EXPECT_EQ(reproduceCommand(h, "d3"), "rubick verify 'my file.tc' --point d3");
}

} // namespace
} // namespace rubick::workload
