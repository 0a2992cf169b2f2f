// SPDX-License-Identifier: Apache-2.0
// Attention decode on PIM units (emit/PimDecode.h): the block size keeps U within int32 and
// divides S, both designs have what the sequencer needs, every unit's stream holds every K and V
// element of its share, and the decode's run adds up from its phases. Prefill (L > 1) is refused.

#include "attn_test_util.h"
#include "tc_test_util.h"

#include "rubick/emit/PimDecode.h"
#include "rubick/support/Unsupported.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <set>

namespace rubick::emit {
namespace {

tc::Program attention(int64_t l, int64_t s, int64_t d) {
  tc::SemaOptions o;
  o.sizes = {{"L", l, {}}, {"S", s, {}}, {"D", d, {}}, {"Dv", d, {}}};
  return test::analyzeText(test::kAttentionSingleHead, o);
}

// Four units of 2x2 or 1x4 PEs, one bank each with short rows (many row changes).
dse::PimSystem fourUnits() {
  dse::PimSystem s;
  s.units = 4;
  s.banksPerUnit = 1;
  s.access = dse::PimAccess::stream;
  s.arrays = {{1, 4}, {2, 2}};
  s.bufferBytes = 256;
  s.bank = {4, 16, 3, 2, 6, 2};
  s.hostBytesPerCycle = 8;
  s.clockMhz = 500;
  return s;
}

dse::ExploreOptions base(const dse::PimSystem& s) {
  dse::ExploreOptions o;
  o.threads = 1;
  o.constraints.arrays = s.arrays;
  o.constraints.bufferBytes = s.bufferBytes;
  o.constraints.memory = dse::unitMemory(s);
  return o;
}

nlohmann::json designJson(const PimDecodePackage& p) {
  for (const File& f : p.files.files)
    if (f.path == "design.json") return nlohmann::json::parse(f.content);
  return {};
}

TEST(PimDecode, BlocksOfKeysAndTheirStreams) {
  const tc::Program prog = attention(1, 256, 8);
  const attn::AttentionForm f = attn::recogniseAttention(prog, nullptr);
  const dse::PimSystem s = fourUnits();
  const PimDecodePlan plan = planPimDecode(prog, f, s, base(s));
  // Blocks divide S; int8 V keeps U within int32 up to 512 keys a block.
  ASSERT_GT(plan.blockKeys, 0);
  EXPECT_EQ(f.s % plan.blockKeys, 0);
  EXPECT_LE(plan.blockKeys, 512);
  EXPECT_EQ(plan.blocks * plan.blockKeys, f.s);
  // What the sequencer relies on: scores on chip, each in one unit; E on chip; U on chip.
  EXPECT_EQ(plan.scores.reduceUnits, 1);
  EXPECT_EQ(plan.block.tensors[f.k].shape[0], plan.blockKeys);
  EXPECT_EQ(plan.block.tensors[f.v].shape[0], plan.blockKeys);

  const PimDecodePackage pkg = packagePimDecode(prog, f, plan, s, "dec");
  const nlohmann::json j = designJson(pkg);
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.at("kind"), "pim");
  EXPECT_EQ(j.at("top"), "dec_decode_axil");
  EXPECT_EQ(j.at("axil").at("core"), "dec_decode");
  // Every unit's words cover its columns, and over all units every element of K and V is there
  // (selects 2 and 3), none outside the tensors.
  const nlohmann::json& st = j.at("stream");
  const int64_t words = st.at("columns").get<int64_t>() * st.at("words_per_column").get<int64_t>();
  std::set<int64_t> seen[4];
  for (int64_t u = 0; u < s.units; ++u) {
    const nlohmann::json& runs =
        u == 0 ? st.at("words") : st.at("unit_words").at(std::to_string(u));
    int64_t count = 0;
    for (const auto& r : runs) {
      const int64_t t = r[0], e = r[1], n = r[2], stride = r[3];
      count += n;
      if (t < 0) continue;
      ASSERT_TRUE(t == 2 || t == 3) << "select " << t;
      for (int64_t i = 0; i < n; ++i) {
        const int64_t x = e + i * stride;
        ASSERT_GE(x, 0);
        ASSERT_LT(x, 256 * 8);
        seen[t].insert(x);
      }
    }
    EXPECT_EQ(count, words) << "unit " << u;
  }
  EXPECT_EQ(seen[2].size(), 256u * 8);
  EXPECT_EQ(seen[3].size(), 256u * 8);
  // The run: its phases add up, each block running both designs once.
  const PimDecodeTiming& t = pkg.timing;
  EXPECT_EQ(t.total, t.scores + t.max + t.exp + t.values + t.accumulate + t.normalise);
  EXPECT_GE(t.scores, plan.blocks * (pkg.scoreCycles + 2));
  EXPECT_GE(t.values, plan.blocks * (pkg.valueCycles + 2));
  EXPECT_EQ(t.max, plan.blocks * (plan.blockKeys + 1));
  EXPECT_EQ(j.at("prediction").at("cycles"), t.total);
}

TEST(PimDecode, RefusesPrefill) {
  const tc::Program prog = attention(2, 16, 4);
  const attn::AttentionForm f = attn::recogniseAttention(prog, nullptr);
  const dse::PimSystem s = fourUnits();
  try {
    planPimDecode(prog, f, s, base(s));
    FAIL() << "L = 2 planned";
  } catch (const Unsupported& e) {
    EXPECT_NE(e.diag().message.find("one query (L = 1)"), std::string::npos) << e.diag().message;
  }
}

} // namespace
} // namespace rubick::emit
