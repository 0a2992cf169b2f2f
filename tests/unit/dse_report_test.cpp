// SPDX-License-Identifier: Apache-2.0
// The explore report files: --json (parsed back with nlohmann), --csv (parsed as RFC 4180) and
// --plot (checked as XML). Designs are built by hand from written dataflows on GEMM 4x4x4; the
// expected entries and layouts are worked out by hand in the comments.

#include "dataflow_test_util.h"

#include "rubick/dse/CostModel.h"
#include "rubick/dse/Report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <regex>
#include <stdexcept>
#include <tuple>

namespace rubick::dse {
namespace {

using dataflow::StatementView;

struct Fixture {
  tc::Program prog;
  StatementView v;
};

Fixture gemm444() {
  auto file = std::make_shared<const SourceFile>("t.tc", dataflow::test::kGemm);
  tc::SemaOptions o;
  for (const char* n : {"M", "N", "K"})
    o.sizes.push_back({n, 4, {}});
  Fixture f{tc::analyze(tc::parse(file), file, o), {}};
  f.v = dataflow::viewStatement(f.prog, 0);
  return f;
}

std::vector<int64_t> bits(const StatementView& v) {
  std::vector<int64_t> out;
  for (const dataflow::AccessView& a : v.accesses)
    out.push_back(a.elementBits);
  return out;
}

// A design as the explorer would make it: entries from the decomposition, metrics from the
// cost model.
DesignPoint design(const StatementView& v, const std::string& spec, int64_t p, int64_t q,
                   bool pareto) {
  DesignPoint d;
  d.dataflow = dataflow::parseDataflowSpec(spec, v, p, q);
  dataflow::Decomposition dec = dataflow::decompose(v, d.dataflow);
  EXPECT_TRUE(dec.ok()) << spec;
  for (const dataflow::TensorDecomposition& t : dec.tensors)
    d.entries.push_back(*t.entry);
  d.metrics = evaluate(v, d.dataflow, d.entries, bits(v));
  d.id = designId(v, d.dataflow, bits(v));
  d.pareto = pareto;
  return d;
}

// x = j, y = i, t1 = i + j + k; so j = x, i = y, k = t1 - x - y:
//   C(i, j) = C(y, x)               reuse (0,0|1): stationary, layout transposed
//   A(i, k) = A(y, t1 - x - y)      reuse (1,0|1): X-systolic, te = t1 - x, A(y, te - y): skew
//   B(k, j) = B(t1 - x - y, x)      reuse (0,1|1): Y-systolic, te = t1 - y, B(te - x, x)
const char* kSkewed = "PE(j, i) | T(i + j + k)";
// x = k, y = j mod 2, t1 = i, outer t2 = j / 2 on a 4x2 array:
//   C(i, j) = C(t1, y + 2*t2)       reuse (1,0|0): X-multicast (adder tree over k)
//   A(i, k) = A(t1, x)              reuse (0,1|0): Y-multicast
//   B(k, j) = B(x, y + 2*t2)        reuse (0,0|1): stationary, reloaded per t2
const char* kTiled = "PE(k, j mod 2) | T(i, j / 2)";

std::vector<DesignPoint> twoDesigns(const StatementView& v) {
  return {design(v, kSkewed, 4, 4, true), design(v, kTiled, 4, 2, false)};
}

ExploreOptions options() {
  ExploreOptions o;
  o.objective = Objective::Wires;
  o.constraints.arrays = {{4, 4}, {4, 2}};
  o.constraints.maxFanout = 4;
  o.constraints.entries = {ir::EntryKind::Stationary, ir::EntryKind::XSystolic};
  o.constraints.elementBits = {32, 8, 8};
  return o;
}

TEST(DseJson, ParsesBackWithDesignsEntriesAndLayouts) {
  Fixture f = gemm444();
  std::vector<DesignPoint> pts = twoDesigns(f.v);
  nlohmann::json j = nlohmann::json::parse(toJson(f.prog, f.v, pts, options()));

  EXPECT_EQ(j["program"], "gemm");
  EXPECT_EQ(j["statement"], "C(i, j) +=! A(i, k) * B(k, j)");
  EXPECT_EQ(j["objective"], "wires");
  EXPECT_EQ(j["constraints"]["arrays"], nlohmann::json({"4x4", "4x2"}));
  EXPECT_EQ(j["constraints"]["max_fanout"], 4);
  EXPECT_TRUE(j["constraints"]["max_ports"].is_null()); // 0: no limit
  EXPECT_EQ(j["constraints"]["entries"], nlohmann::json({"X-systolic", "stationary"}));
  EXPECT_EQ(j["constraints"]["element_bits"]["A"], 8);
  ASSERT_EQ(j["designs"].size(), 2u);

  const nlohmann::json& d0 = j["designs"][0];
  EXPECT_EQ(d0["id"], pts[0].id);
  EXPECT_EQ(d0["pareto"], true);
  EXPECT_EQ(d0["array"]["p"], 4);
  EXPECT_EQ(d0["dataflow"]["spec"], kSkewed);
  EXPECT_EQ(d0["dataflow"]["S"], nlohmann::json({{0, 1, 0}, {1, 0, 0}, {1, 1, 1}}));
  EXPECT_EQ(d0["dataflow"]["inner"][2]["loop"], "k");
  EXPECT_EQ(d0["dataflow"]["inner"][2]["split"], false);
  EXPECT_TRUE(d0["dataflow"]["outer"].empty());
  // t1 = i + j + k takes 0..9.
  EXPECT_EQ(d0["dataflow"]["extent"]["t1"], 10);
  EXPECT_EQ(d0["metrics"]["latency"], pts[0].metrics.latency);
  EXPECT_EQ(d0["metrics"]["macs"], 64);

  const nlohmann::json& t = d0["tensors"];
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0]["name"], "C");
  EXPECT_EQ(t[0]["role"], "output");
  EXPECT_EQ(t[0]["entry"], "stationary");
  EXPECT_EQ(t[0]["entry_number"], 4);
  EXPECT_EQ(t[0]["omega"], "(x, y | t1) -> E(x, y | 0)");
  EXPECT_EQ(t[0]["layout"], "E(x, y | 0) -> C(y, x)");
  EXPECT_EQ(t[0]["transform"], "transpose");
  EXPECT_EQ(t[1]["name"], "A");
  EXPECT_EQ(t[1]["role"], "input");
  EXPECT_EQ(t[1]["entry"], "X-systolic");
  EXPECT_EQ(t[1]["entry_number"], 1);
  EXPECT_EQ(t[1]["omega"], "(x, y | t1) -> E(0, y | t1 - x)");
  EXPECT_EQ(t[1]["layout"], "E(0, y | t1) -> A(y, t1 - y)");
  EXPECT_EQ(t[1]["transform"], "skew"); // [1 0; -1 1] over (y, t1): triangular
  EXPECT_EQ(t[2]["entry"], "Y-systolic");
  EXPECT_EQ(t[2]["entry_number"], 2);
  EXPECT_EQ(t[2]["omega"], "(x, y | t1) -> E(x, 0 | t1 - y)");
  EXPECT_EQ(t[2]["layout"], "E(x, 0 | t1) -> B(t1 - x, x)");
  EXPECT_EQ(t[2]["transform"], "transpose+skew"); // [-1 1; 1 0]: unimodular, not triangular
  // Per-tensor metrics: A on X-systolic has one port per row (4), fan-out 1, 3x4 links.
  EXPECT_EQ(t[1]["metrics"]["ports"], 4);
  EXPECT_EQ(t[1]["metrics"]["fan"], 1);
  EXPECT_EQ(t[1]["metrics"]["links"], 12);
  EXPECT_EQ(t[1]["metrics"]["element_bits"], 8);

  const nlohmann::json& d1 = j["designs"][1];
  EXPECT_EQ(d1["id"], pts[1].id);
  EXPECT_EQ(d1["pareto"], false);
  EXPECT_EQ(d1["array"]["q"], 2);
  EXPECT_EQ(d1["dataflow"]["spec"], kTiled);
  EXPECT_EQ(d1["dataflow"]["inner"][1]["loop"], "j");
  EXPECT_EQ(d1["dataflow"]["inner"][1]["factor"], 2);
  EXPECT_EQ(d1["dataflow"]["inner"][1]["split"], true);
  ASSERT_EQ(d1["dataflow"]["outer"].size(), 1u);
  EXPECT_EQ(d1["dataflow"]["outer"][0]["stamp"], "t2");
  EXPECT_EQ(d1["dataflow"]["outer"][0]["loop"], "j");
  EXPECT_EQ(d1["dataflow"]["outer"][0]["extent"], 2);
  const nlohmann::json& t1 = d1["tensors"];
  EXPECT_EQ(t1[0]["entry"], "X-multicast");
  EXPECT_EQ(t1[0]["omega"], "(x, y | t1, t2) -> E(0, y | t1, t2)");
  EXPECT_EQ(t1[0]["layout"], "E(0, y | t1, t2) -> C(t1, y + 2*t2)");
  EXPECT_EQ(t1[1]["entry"], "Y-multicast");
  EXPECT_EQ(t1[1]["layout"], "E(x, 0 | t1, t2) -> A(t1, x)");
  EXPECT_EQ(t1[2]["entry"], "stationary");
  EXPECT_EQ(t1[2]["layout"], "E(x, y | 0, t2) -> B(x, y + 2*t2)");
}

TEST(DseJson, KeysInFixedOrderAndEveryMetric) {
  Fixture f = gemm444();
  std::vector<DesignPoint> pts = twoDesigns(f.v);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(toJson(f.prog, f.v, pts, options()));
  std::vector<std::string> keys;
  for (auto& [k, val] : j.items())
    keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"program", "statement", "loops", "objective",
                                            "constraints", "designs"}));
  keys.clear();
  for (auto& [k, val] : j["designs"][0]["metrics"].items())
    keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "latency", "tiles", "tile_cycles", "tile_interval", "macs", "utilization",
                      "accumulator_bits", "buffer_bytes", "peak_words_per_cycle", "words_per_cycle",
                      "max_fanout", "max_fanin", "ports", "wires", "area", "energy"}));
  // Doubles are rounded to 6 significant digits: utilization = 64 MACs / (8 PEs x latency).
  const Metrics& m = pts[1].metrics;
  char expected[32];
  std::snprintf(expected, sizeof expected, "%.6g", 64.0 / (8.0 * double(m.latency)));
  EXPECT_EQ(j["designs"][1]["metrics"]["utilization"].get<double>(), std::stod(expected));
}

TEST(DseJson, ByteIdenticalAcrossCalls) {
  Fixture f = gemm444();
  std::vector<DesignPoint> pts = twoDesigns(f.v);
  std::string a = toJson(f.prog, f.v, pts, options());
  std::string b = toJson(f.prog, f.v, twoDesigns(f.v), options());
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.back(), '\n');
}

TEST(DseJson, OneDesignPerLine) {
  Fixture f = gemm444();
  std::string json = toJson(f.prog, f.v, twoDesigns(f.v), options());
  // Header fields one per line, then each design on its own line, so grep and diff work.
  size_t designLines = 0;
  for (size_t at = json.find("\n    {\"id\":"); at != std::string::npos;
       at = json.find("\n    {\"id\":", at + 1))
    ++designLines;
  EXPECT_EQ(designLines, 2u);
  EXPECT_EQ(std::count(json.begin(), json.end(), '\n'), 11); // {, 5 fields, designs [, 2, ], }
}

TEST(DseJson, NoDesigns) {
  Fixture f = gemm444();
  nlohmann::json j = nlohmann::json::parse(toJson(f.prog, f.v, {}, ExploreOptions{}));
  EXPECT_TRUE(j["designs"].is_array());
  EXPECT_TRUE(j["designs"].empty());
  EXPECT_EQ(j["constraints"]["entries"].size(), 14u); // empty set: every entry allowed
}

TEST(DseJson, EntryThatDoesNotMatchTheDataflowIsABug) {
  Fixture f = gemm444();
  std::vector<DesignPoint> pts = twoDesigns(f.v);
  pts[0].entries[1] = {ir::EntryKind::YSystolic, false, false};
  EXPECT_THROW(toJson(f.prog, f.v, pts, options()), std::logic_error);
}

// RFC 4180 fields of one line (no line breaks inside fields in these files).
std::vector<std::string> csvFields(const std::string& line) {
  std::vector<std::string> out(1);
  bool inQuotes = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (inQuotes) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        inQuotes = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      inQuotes = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  EXPECT_FALSE(inQuotes) << line;
  return out;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    out.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

TEST(DseCsv, HeaderRowsColumnsAndQuoting) {
  Fixture f = gemm444();
  std::vector<DesignPoint> pts = twoDesigns(f.v);
  std::string csv = toCsv(f.v, pts);
  EXPECT_EQ(csv.back(), '\n');
  std::vector<std::string> ls = lines(csv);
  ASSERT_EQ(ls.size(), 3u);
  EXPECT_EQ(ls[0], "id,pareto,p,q,latency,tiles,tile_cycles,utilization,buffer_bytes,wires,area,"
                   "energy,max_fanout,max_fanin,ports,words_per_cycle,peak_words_per_cycle,"
                   "C_entry,A_entry,B_entry,dataflow");
  const size_t columns = 17 + 3 + 1;
  for (const std::string& l : ls)
    EXPECT_EQ(csvFields(l).size(), columns) << l;
  std::vector<std::string> r0 = csvFields(ls[1]);
  EXPECT_EQ(r0[0], pts[0].id);
  EXPECT_EQ(r0[1], "1");
  EXPECT_EQ(r0[2], "4");
  EXPECT_EQ(r0[4], std::to_string(pts[0].metrics.latency));
  EXPECT_EQ(r0[17], "stationary");
  EXPECT_EQ(r0[18], "X-systolic");
  EXPECT_EQ(r0[19], "Y-systolic");
  EXPECT_EQ(r0[20], kSkewed);
  // The spec is quoted as written (it holds a comma).
  EXPECT_NE(ls[1].find(std::string(",\"") + kSkewed + "\""), std::string::npos);
  EXPECT_EQ(csvFields(ls[2])[1], "0");
  EXPECT_EQ(csvFields(ls[2])[3], "2");
}

TEST(DseCsv, QuotesFieldsWithCommasAndQuotes) {
  Fixture f = gemm444();
  std::vector<DesignPoint> pts = {design(f.v, kSkewed, 4, 4, true)};
  pts[0].entries[1] = {ir::EntryKind::XSystolic, true, true}; // prints "X-systolic(-x,-y)"
  f.v.accesses[2].name = "B\"2";
  std::string csv = toCsv(f.v, pts);
  std::vector<std::string> ls = lines(csv);
  EXPECT_NE(ls[0].find(",\"B\"\"2_entry\","), std::string::npos);
  EXPECT_NE(ls[1].find(",\"X-systolic(-x,-y)\","), std::string::npos);
  EXPECT_EQ(csvFields(ls[0])[19], "B\"2_entry");
  EXPECT_EQ(csvFields(ls[1])[18], "X-systolic(-x,-y)");
  EXPECT_EQ(csvFields(ls[1]).size(), 21u);
}

TEST(DseCsv, MemoryColumns) {
  Fixture f = gemm444();
  std::vector<DesignPoint> pts = twoDesigns(f.v);
  pts[0].memory.memoryBound = true;
  pts[0].memory.busBytes = 1234;
  pts[0].memory.compulsoryBytes = 96;
  pts[0].buffer = {{2, 4, 4}, {0}}; // "i:2, order i": quoted
  pts[1].buffer = {{4, 4, 4}, {}};  // "whole"
  std::vector<std::string> ls = lines(toCsv(f.v, pts, true));
  ASSERT_EQ(ls.size(), 3u);
  const std::vector<std::string> head = csvFields(ls[0]);
  ASSERT_EQ(head.size(), 25u);
  EXPECT_EQ(head[16], "peak_words_per_cycle");
  EXPECT_EQ(
      std::vector<std::string>(head.begin() + 17, head.begin() + 22),
      (std::vector<std::string>{"bound", "traffic_bytes", "min_bytes", "buffer_tile", "C_entry"}));
  const std::vector<std::string> r0 = csvFields(ls[1]), r1 = csvFields(ls[2]);
  ASSERT_EQ(r0.size(), 25u);
  EXPECT_EQ(r0[17], "memory");
  EXPECT_EQ(r0[18], "1234");
  EXPECT_EQ(r0[19], "96");
  EXPECT_EQ(r0[20], toString(pts[0].buffer, f.v));
  EXPECT_EQ(r0[21], "stationary");
  EXPECT_EQ(r1[17], "compute");
  EXPECT_EQ(r1[20], "whole");
}

TEST(DseCsv, NoDesignsGivesTheHeaderOnly) {
  Fixture f = gemm444();
  EXPECT_EQ(lines(toCsv(f.v, {})).size(), 1u);
}

// Checks that tags nest: every opening tag is closed in order, one root <svg>.
bool wellFormed(const std::string& svg, std::string* why) {
  std::vector<std::string> stack;
  size_t roots = 0;
  size_t i = 0;
  while ((i = svg.find('<', i)) != std::string::npos) {
    size_t end = svg.find('>', i);
    if (end == std::string::npos) return *why = "unterminated tag", false;
    std::string tag = svg.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty()) return *why = "empty tag", false;
    if (tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      std::string name = tag.substr(1);
      if (stack.empty() || stack.back() != name) return *why = "unbalanced </" + name + ">", false;
      stack.pop_back();
      continue;
    }
    std::string name = tag.substr(0, tag.find_first_of(" \n/"));
    if (stack.empty()) ++roots;
    if (tag.back() != '/') stack.push_back(name);
  }
  // Text must not hold a raw '&' that is not an entity.
  std::regex badAmp("&(?!amp;|lt;|gt;|quot;|apos;)");
  if (std::regex_search(svg, badAmp)) return *why = "raw &", false;
  if (!stack.empty()) return *why = "unclosed <" + stack.back() + ">", false;
  if (roots != 1) return *why = "roots: " + std::to_string(roots), false;
  return true;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t i = s.find(what); i != std::string::npos; i = s.find(what, i + 1))
    ++n;
  return n;
}

TEST(DseSvg, WellFormedWithOneCirclePerPointAndLabels) {
  Fixture f = gemm444();
  std::vector<DesignPoint> pts = twoDesigns(f.v);
  pts.push_back(design(f.v, "PE(i, j) | T(i + j + k)", 4, 4, true));
  std::string svg = paretoSvg(f.v, pts, Objective::Latency);
  std::string why;
  EXPECT_TRUE(wellFormed(svg, &why)) << why;
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_EQ(count(svg, "<circle class=\"point"), 3u);
  EXPECT_EQ(count(svg, "<circle class=\"point pareto\""), 2u);
  EXPECT_NE(svg.find(">latency (cycles)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">wires (wire bits)</text>"), std::string::npos);
  EXPECT_NE(svg.find("S0"), std::string::npos);      // the statement in the title
  EXPECT_NE(svg.find(pts[1].id), std::string::npos); // tooltips name the design
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg, paretoSvg(f.v, pts, Objective::Latency)); // deterministic
}

TEST(DseSvg, AreaObjectivePlotsArea) {
  Fixture f = gemm444();
  std::string svg = paretoSvg(f.v, twoDesigns(f.v), Objective::Area);
  EXPECT_NE(svg.find(">area (area proxy, NAND2-equivalent gates)</text>"), std::string::npos);
  EXPECT_EQ(svg.find("wires (wire bits"), std::string::npos);
}

TEST(DseSvg, NoDesignsAndOneDesign) {
  Fixture f = gemm444();
  std::string why;
  std::string empty = paretoSvg(f.v, {}, Objective::Wires);
  EXPECT_TRUE(wellFormed(empty, &why)) << why;
  EXPECT_NE(empty.find(">no designs</text>"), std::string::npos);
  EXPECT_EQ(count(empty, "<circle class=\"point"), 0u);
  EXPECT_NE(empty.find("latency (cycles)"), std::string::npos);
  EXPECT_NE(empty.find("wires (wire bits)"), std::string::npos);

  std::string one = paretoSvg(f.v, {design(f.v, kSkewed, 4, 4, true)}, Objective::Wires);
  EXPECT_TRUE(wellFormed(one, &why)) << why;
  EXPECT_EQ(count(one, "<circle class=\"point"), 1u);
  EXPECT_EQ(one.find("no designs"), std::string::npos);
  EXPECT_EQ(one.find("nan"), std::string::npos);
  EXPECT_EQ(one.find("inf"), std::string::npos);
  EXPECT_EQ(count(one, "<polyline"), 0u); // a front of one point is just the point
}

// Designs with hand-set metrics, to place points exactly.
std::vector<DesignPoint> placed(const StatementView& v,
                                std::vector<std::tuple<int64_t, int64_t, bool>> xyPareto) {
  DesignPoint base = design(v, kSkewed, 4, 4, false);
  std::vector<DesignPoint> out;
  for (auto [latency, wires, pareto] : xyPareto) {
    DesignPoint d = base;
    d.metrics.latency = latency;
    d.metrics.wires = wires;
    d.pareto = pareto;
    out.push_back(d);
  }
  return out;
}

TEST(DseSvg, FrontIsTheStaircaseOfThe2DNonDominatedParetoPoints) {
  Fixture f = gemm444();
  // (30, 70) is Pareto-optimal in 3-D (through its buffer) but dominated by (20, 50) here.
  std::vector<DesignPoint> pts =
      placed(f.v, {{30, 70, true}, {10, 100, true}, {40, 200, false}, {20, 50, true}});
  std::string svg = paretoSvg(f.v, pts, Objective::Wires);
  ASSERT_EQ(count(svg, "<polyline class=\"front\""), 1u);
  size_t at = svg.find("points=\"", svg.find("<polyline class=\"front\"")) + 8;
  std::string coords = svg.substr(at, svg.find('"', at) - at);
  // (10, 100) -> (20, 100) -> (20, 50): three vertices.
  EXPECT_EQ(count(coords, ","), 3u) << coords;
  // Linear axes: the data spans less than two decades.
  EXPECT_EQ(svg.find("log scale"), std::string::npos);
}

TEST(DseSvg, LogScaleWhenDataSpansMoreThanTwoDecades) {
  Fixture f = gemm444();
  std::vector<DesignPoint> pts = placed(f.v, {{10, 100, true}, {50000, 120, false}});
  std::string svg = paretoSvg(f.v, pts, Objective::Wires);
  std::string why;
  EXPECT_TRUE(wellFormed(svg, &why)) << why;
  EXPECT_NE(svg.find(">latency (cycles, log scale)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">wires (wire bits)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">10k</text>"), std::string::npos); // a decade tick
}

TEST(DseSvg, EscapesText) {
  Fixture f = gemm444();
  f.v.statement = "S<&>\"'";
  std::string svg = paretoSvg(f.v, twoDesigns(f.v), Objective::Wires);
  std::string why;
  EXPECT_TRUE(wellFormed(svg, &why)) << why;
  EXPECT_NE(svg.find("S&lt;&amp;&gt;&quot;&apos;"), std::string::npos);
  EXPECT_EQ(svg.find("S<&"), std::string::npos);
}

TEST(DseSvg, ManyDesignsShareDotsPerPixel) {
  Fixture f = gemm444();
  // 6000 identical non-Pareto designs and one Pareto design: one grey dot, one red dot.
  std::vector<DesignPoint> pts = placed(f.v, {{10, 100, true}});
  DesignPoint grey = placed(f.v, {{20, 150, false}})[0];
  pts.insert(pts.end(), 6000, grey);
  std::string svg = paretoSvg(f.v, pts, Objective::Wires);
  std::string why;
  EXPECT_TRUE(wellFormed(svg, &why)) << why;
  EXPECT_EQ(count(svg, "<circle class=\"point\""), 1u);
  EXPECT_EQ(count(svg, "<circle class=\"point pareto\""), 1u);
  EXPECT_NE(svg.find("6000 designs here"), std::string::npos);
}

} // namespace
} // namespace rubick::dse
