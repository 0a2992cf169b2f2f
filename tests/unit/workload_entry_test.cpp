// SPDX-License-Identifier: Apache-2.0
// The library's entry points (workload/EmitProgram.h, ExploreProgram.h): every kind of program
// goes through one call, the design emitted is the one the search ranks first, and the
// selection is checked the same way whatever the kind.

#include "tc_test_util.h"

#include "rubick/dse/Explore.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/workload/EmitProgram.h"
#include "rubick/workload/ExploreProgram.h"

#include <gtest/gtest.h>

namespace rubick {
namespace {

tc::Program atSizes(const std::string& text,
                    const std::vector<std::pair<std::string, int64_t>>& s) {
  tc::SemaOptions o;
  for (const auto& [n, v] : s)
    o.sizes.push_back({n, v, {}});
  return test::analyzeText(text, o);
}

// A request as the CLI makes one: 4x4, 1 KiB of buffer, the program's widths, with a memory of
// 8 bytes per cycle when `memory`.
workload::Request request(const std::string& text, bool memory) {
  workload::Request r;
  r.options = [memory](const tc::Program&, const dataflow::StatementView& v, dse::PimSystem*) {
    dse::ExploreOptions o;
    o.constraints.arrays = {{4, 4}};
    o.constraints.bufferBytes = 1024;
    for (const dataflow::AccessView& a : v.accesses)
      o.constraints.elementBits.push_back(a.elementBits);
    if (memory) o.constraints.memory = {8, 20, 2048};
    return o;
  };
  r.rebind = [text](const std::vector<std::pair<std::string, int64_t>>& sizes) {
    return atSizes(text, sizes);
  };
  return r;
}

bool hasModule(const workload::Emitted& e, const std::string& module) {
  for (const emit::File& f : e.files)
    if (f.content.find("module " + module + " ") != std::string::npos ||
        f.content.find("module " + module + "(") != std::string::npos ||
        f.content.find("module " + module + "\n") != std::string::npos)
      return true;
  return false;
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.origin() + ": " + e.diag().message;
  }
  return "<no error>";
}

TEST(EntryPoint, EveryKindOfProgramIsEmittedByOneCall) {
  struct Case {
    const char* example;
    std::vector<std::pair<std::string, int64_t>> sizes;
    bool memory;
    const char* summary; // how the summary starts
  };
  const Case cases[] = {
      {"gemm.tc", {{"M", 4}, {"N", 4}, {"K", 4}}, false, "design "},
      {"gemm_layer.tc", {{"M", 4}, {"K", 8}, {"N", 4}}, true, "design "},
      {"mlp.tc", {{"M", 4}, {"K", 8}, {"N", 4}, {"P", 4}}, true, "chain "},
      {"attention.tc", {{"L", 4}, {"S", 8}, {"D", 4}}, false, "attention pipeline "},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.example);
    const std::string text = test::readExample(c.example);
    const tc::Program p = atSizes(text, c.sizes);
    const workload::Emitted e = workload::emitProgram(p, request(text, c.memory), "t");
    EXPECT_EQ(e.summary.rfind(c.summary, 0), 0u) << e.summary;
    EXPECT_NE(e.summary.find("top module t_"), std::string::npos) << e.summary;
    EXPECT_TRUE(hasModule(e, "t_top")) << e.summary;
  }
}

TEST(EntryPoint, TheDesignEmittedIsTheOneExploreRanksFirst) {
  const std::string text = test::readExample("gemm.tc");
  const tc::Program p = atSizes(text, {{"M", 6}, {"N", 5}, {"K", 7}});
  const workload::Request r = request(text, false);
  const dse::ExploreResult ranked = dse::explore(
      dataflow::viewStatement(p, 0), r.options(p, dataflow::viewStatement(p, 0), nullptr));
  ASSERT_FALSE(ranked.points.empty());
  const workload::Emitted e = workload::emitProgram(p, r, "");
  EXPECT_EQ(e.summary.rfind("design " + ranked.points.front().id + ":", 0), 0u) << e.summary;
  // --point names another design: that one is emitted.
  ASSERT_GT(ranked.points.size(), 1u);
  workload::Request second = r;
  second.selection.point = ranked.points[1].id;
  EXPECT_EQ(workload::emitProgram(p, second, "").summary.rfind("design " + ranked.points[1].id, 0),
            0u);
}

TEST(EntryPoint, SelectionsAreCheckedForEveryKind) {
  const std::string mlp = test::readExample("mlp.tc");
  const tc::Program chain = atSizes(mlp, {{"M", 4}, {"K", 8}, {"N", 4}, {"P", 4}});
  workload::Request r = request(mlp, true);
  // --point names a chain as explore lists it (its ID); another ID is refused.
  const workload::Emitted built = workload::emitProgram(chain, r, "");
  const std::string id = built.summary.substr(6, built.summary.find(':') - 6);
  r.selection.point = id;
  EXPECT_EQ(workload::emitProgram(chain, r, "").summary, built.summary);
  r.selection.point = "0123456789abcdef";
  EXPECT_EQ(errorOf([&] {
              workload::emitProgram(chain, r, "");
            }).rfind("--point: these flags build chain " + id + ", not '0123456789abcdef'", 0),
            0u);
  r.selection.point.reset();
  r.selection.layouts = "X=skew";
  EXPECT_EQ(errorOf([&] { workload::emitProgram(chain, r, ""); }).rfind("--layout: a chain's", 0),
            0u);
  const std::string gemm = test::readExample("gemm.tc");
  const tc::Program one = atSizes(gemm, {{"M", 4}, {"N", 4}, {"K", 4}});
  workload::Request tiles = request(gemm, false);
  tiles.rowTiles = 2;
  EXPECT_EQ(errorOf([&] { workload::emitProgram(one, tiles, ""); }).rfind("--row-tiles: ", 0), 0u);
  // A chain is taken only with a memory system; without one the attention form's error stands.
  EXPECT_NE(errorOf([&] { workload::emitProgram(chain, request(mlp, false), ""); }), "<no error>");
}

TEST(EntryPoint, ExploreOfAChainIsHowEmitBuildsIt) {
  const std::string mlp = test::readExample("mlp.tc");
  const tc::Program p = atSizes(mlp, {{"M", 4}, {"K", 8}, {"N", 4}, {"P", 4}});
  const workload::Request r = request(mlp, true);
  const workload::Explored x = workload::exploreProgram(p, r, workload::recognise(p, r), 20);
  const workload::Emitted e = workload::emitProgram(p, r, "");
  // Both name the chain's ID and its exact cycles.
  const std::string id = e.summary.substr(6, e.summary.find(':') - 6);
  EXPECT_NE(x.text.find(id), std::string::npos) << x.text << "\n" << e.summary;
  EXPECT_FALSE(x.pipelines.has_value());
}

} // namespace
} // namespace rubick
