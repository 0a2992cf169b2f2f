// SPDX-License-Identifier: Apache-2.0
// The emitted attention pipeline: its files, its design.json against the explorer's point, and
// the stimulus of its simulation against the reference model.

#include "rubick/attn/AttentionForm.h"
#include "rubick/attn/Pipeline.h"
#include "rubick/emit/Attention.h"
#include "rubick/emit/Package.h"
#include "rubick/ref/Attention.h"
#include "rubick/verify/Attention.h"

#include "attn_test_util.h"
#include "tc_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace rubick::attn {
namespace {

const char* kHeads = R"(
def mha(int8(H,L,D) Q, int8(H,D,S) Kt, int8(H,S,D) V) -> (int8 O) {
    Sc(h,i,j) +=! Q(h,i,d) * Kt(h,d,j)
    mx(h,i) max=! Sc(h,i,j)
    E(h,i,j) = exp(Sc(h,i,j) - mx(h,i))
    sm(h,i) +=! E(h,i,j)
    U(h,i,d) +=! E(h,i,j) * V(h,j,d)
    O(h,i,d) = U(h,i,d) / sm(h,i)
})";

tc::Program program(const std::vector<std::pair<std::string, int64_t>>& sizes) {
  tc::SemaOptions o;
  for (const auto& [n, v] : sizes)
    o.sizes.push_back({n, v, {}});
  return test::analyzeText(kHeads, o);
}

PipelineResult explore(const tc::Program& p, int64_t block, std::vector<int64_t> lanes = {1}) {
  PipelineOptions o = test::smallPipeline(kHeads, 2, {block}, 1, std::move(lanes));
  return explorePipeline(p, recogniseAttention(p, nullptr), o);
}

TEST(AttentionForm, DimensionsOfTransposedKeysAndHeads) {
  tc::Program p = program({{"H", 3}, {"L", 4}, {"S", 5}, {"D", 2}});
  AttentionForm f = recogniseAttention(p, nullptr);
  EXPECT_EQ(f.headSize, "H");
  EXPECT_EQ(f.queryDim, 1);
  EXPECT_EQ(f.keyDimK, 2); // Kt(h, d, j)
  EXPECT_EQ(f.keyDimV, 1);
}

TEST(Pipeline, MultiHeadArraysComputeOneHead) {
  tc::Program p = program({{"H", 3}, {"L", 4}, {"S", 5}, {"D", 2}});
  PipelineResult r = explore(p, 2);
  const PipelinePoint& pt = r.points.front();
  // The head loop of both GEMMs has extent 1; the heads multiply the whole schedule.
  EXPECT_EQ(pt.g1.view.extent[0], 1);
  EXPECT_EQ(pt.g2.view.extent[0], 1);
  EXPECT_EQ(pt.g1.view.extent[2], 2); // the key block
  EXPECT_EQ(pt.latency, 3 * pt.timing.perHead());
  EXPECT_EQ(pt.timing.blocks, 3);
  EXPECT_GE(pt.counts.queryPlaces, 4 * 2); // every Q element of one head at least once
}

TEST(EmitAttention, FilesAndDesignJson) {
  tc::Program p = program({{"H", 2}, {"L", 3}, {"S", 5}, {"D", 2}});
  PipelineResult r = explore(p, 2);
  const PipelinePoint& pt = r.points.front();
  std::vector<emit::File> files = emit::attentionPackage(p, r.form, pt, "att");
  std::map<std::string, std::string> byPath;
  for (const emit::File& f : files)
    byPath[f.path] = f.content;
  for (const char* path :
       {"rtl/att_top.v", "rtl/att_vector.v", "rtl/att_g1_top.v", "rtl/att_g1_array.v",
        "rtl/att_g2_top.v", "rtl/att_g2_array.v", "rtl/rubick_exp.v", "rtl/rubick_recip.v",
        "rtl/rubick_scale.v", "filelist.f", "design.json", "README.md", "gemm1/design.json",
        "gemm2/design.json"})
    EXPECT_TRUE(byPath.count(path)) << path;
  // The top module is listed last, after everything it instantiates.
  EXPECT_EQ(byPath["filelist.f"].substr(byPath["filelist.f"].size() - 14), "rtl/att_top.v\n");
  nlohmann::json j = nlohmann::json::parse(byPath["design.json"]);
  EXPECT_EQ(j["top"], "att_top");
  EXPECT_EQ(j["schedule"]["latency"].get<int64_t>(), pt.latency);
  EXPECT_EQ(j["cost"]["wires"].get<int64_t>(), pt.wires);
  EXPECT_EQ(j["cost"]["crossbar_wires"].get<int64_t>(), pt.crossbarWires);
  EXPECT_EQ(j["cost"]["buffer_bytes"].get<int64_t>(), pt.bufferBytes);
  EXPECT_EQ(j["schedule"]["phases"]["normalise"].get<int64_t>(), pt.timing.normalise);
  ASSERT_EQ(j["tensors"].size(), 4u);
  EXPECT_EQ(j["tensors"][0]["name"], "O");
  EXPECT_EQ(j["tensors"][0]["role"], "output");
  EXPECT_EQ(j["tensors"][2]["name"], "Kt");
  EXPECT_EQ(j["tensors"][2]["elements"].size(), 2u * 2 * 5);
  EXPECT_EQ(j["tensors"][2]["elements"][7], nlohmann::json::parse("[[0, 7]]"));
  // Deterministic: the same point gives the same bytes.
  std::vector<emit::File> again = emit::attentionPackage(p, r.form, pt, "att");
  ASSERT_EQ(again.size(), files.size());
  for (size_t i = 0; i < files.size(); ++i)
    EXPECT_EQ(again[i].content, files[i].content) << files[i].path;
}

TEST(EmitAttention, LanesWidenOnlyThePipelinesPorts) {
  tc::Program p = program({{"H", 1}, {"L", 4}, {"S", 6}, {"D", 2}});
  const PipelinePoint one = explore(p, 3, {1}).points.front();
  PipelineResult r = explore(p, 3, {4});
  const PipelinePoint& pt = r.points.front();
  ASSERT_EQ(pt.lanes, 4);
  EXPECT_NE(pt.id, one.id); // W is part of the ID
  std::map<std::string, std::string> byPath;
  for (const emit::File& f : emit::attentionPackage(p, r.form, pt, "att"))
    byPath[f.path] = f.content;
  nlohmann::json j = nlohmann::json::parse(byPath["design.json"]);
  EXPECT_EQ(j["vector_lanes"].get<int64_t>(), 4);
  // Each array's top gets a 4-lane host port; its own package (a single design) keeps one.
  EXPECT_NE(byPath["rtl/att_g1_top.v"].find("input  wire [3:0] host_we,"), std::string::npos);
  dse::ExploreOptions eo;
  eo.constraints.elementBits = pt.g1.elementBits;
  for (const emit::File& f : emit::package(pt.g1.prog, pt.g1.view, pt.g1.design, eo, "att_g1"))
    if (f.path == "rtl/att_g1_top.v") {
      EXPECT_NE(f.content.find("input  wire host_we,"), std::string::npos);
      EXPECT_NE(f.content, byPath["rtl/att_g1_top.v"]);
    }
  // The vector unit has four exp units for E (and one for alpha), four U_acc rescales.
  const std::string& vec = byPath["rtl/att_vector.v"];
  EXPECT_NE(vec.find("e_exp3 "), std::string::npos);
  EXPECT_EQ(vec.find("e_exp4 "), std::string::npos);
  EXPECT_NE(vec.find("u_scale3 "), std::string::npos);
}

TEST(EmitAttention, MemoriesReadByLanesAreSplitPerLane) {
  // W = 4, L = 4, Dv = 2, blocks of 3 keys: Q (8 words, head offsets 0) is split in four parts,
  // and so is O (by row); K's block offset (3 keys x 2 = 6 words) is no multiple of 4, so K
  // stays whole; U_acc is in min(W, L) = 4 parts of one row each (2 words).
  tc::Program p = program({{"H", 1}, {"L", 4}, {"S", 6}, {"D", 2}});
  PipelineResult r = explore(p, 3, {4});
  const PipelinePoint& pt = r.points.front();
  std::map<std::string, std::string> byPath;
  for (const emit::File& f : emit::attentionPackage(p, r.form, pt, "att"))
    byPath[f.path] = f.content;
  const std::string& top = byPath["rtl/att_top.v"];
  EXPECT_NE(top.find("qmem3 [0:1];"), std::string::npos);
  EXPECT_EQ(top.find("qmem [0:"), std::string::npos);
  EXPECT_NE(top.find("kmem [0:11];"), std::string::npos);
  EXPECT_EQ(top.find("kmem0 "), std::string::npos);
  // O (4 rows of 2) in four parts of one row each, written by one normalise lane each.
  EXPECT_NE(top.find("omem3 [0:1];"), std::string::npos);
  EXPECT_EQ(top.find("omem [0:"), std::string::npos);
  const std::string& vec = byPath["rtl/att_vector.v"];
  EXPECT_NE(vec.find("uacc_mem3 [0:1];"), std::string::npos);
  EXPECT_EQ(vec.find("uacc_mem4 "), std::string::npos);
  EXPECT_EQ(vec.find("uacc_mem ["), std::string::npos);
}

TEST(EmitAttention, StimulusExpectsTheReferenceModelPerHead) {
  tc::Program p = program({{"H", 2}, {"L", 3}, {"S", 5}, {"D", 2}});
  AttentionForm f = recogniseAttention(p, nullptr);
  std::istringstream in(verify::attentionStimulus(p, f, 2, 7));
  std::string word;
  int version = 0;
  in >> word >> version;
  std::map<int, std::vector<int64_t>> t;
  int expectSel = -1;
  while (in >> word) {
    int sel = 0;
    size_t n = 0;
    in >> sel >> n;
    if (word == "expect") expectSel = sel;
    t[sel].resize(n);
    for (int64_t& v : t[sel])
      in >> v;
  }
  ASSERT_EQ(expectSel, 0);
  ASSERT_EQ(t[1].size(), 12u); // Q[2][3][2]
  ASSERT_EQ(t[2].size(), 20u); // Kt[2][2][5]
  ASSERT_EQ(t[0].size(), 12u);
  // Head 1 by hand: Kt transposed into K[j][d].
  std::vector<int64_t> q(t[1].begin() + 6, t[1].end()), k(10), v(t[3].begin() + 10, t[3].end());
  for (int64_t j = 0; j < 5; ++j)
    for (int64_t d = 0; d < 2; ++d)
      k[size_t(j * 2 + d)] = t[2][size_t(10 + d * 5 + j)];
  std::vector<int64_t> o =
      ref::saturateValues(ref::attentionFixed(q, k, v, 3, 5, 2, p.expFrac, 2), 8);
  EXPECT_EQ(std::vector<int64_t>(t[0].begin() + 6, t[0].end()), o);
}

} // namespace
} // namespace rubick::attn
