// SPDX-License-Identifier: Apache-2.0
// The metrics table (rubick/dse/Metrics.h): every row reaches each writer that gives it a
// position (the explore table, --csv, --json, design.json), at that position and with the value
// of the Metrics field it names; the objectives' names parse and print back; and ranking by each
// objective orders designs by that objective's metric, with ties and the Pareto front worked out
// here from the Metrics fields directly.

#include "dataflow_test_util.h"

#include "rubick/dse/Explore.h"
#include "rubick/dse/Metrics.h"
#include "rubick/dse/Report.h"
#include "rubick/emit/Package.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace rubick::dse {
namespace {

using dataflow::StatementView;

struct Problem {
  tc::Program prog;
  StatementView v;
};

// GEMM 6x5x7: ragged tiles on every array below, so the metrics differ from design to design.
Problem gemm675() {
  Problem p{dataflow::test::program(dataflow::test::kGemm, {{"M", 6}, {"N", 5}, {"K", 7}}), {}};
  p.v = dataflow::viewStatement(p.prog, 0);
  return p;
}

ExploreOptions options(Objective o) {
  ExploreOptions eo;
  eo.objective = o;
  eo.constraints.arrays = {{4, 4}, {3, 5}, {6, 2}, {2, 2}};
  eo.constraints.elementBits = {32, 8, 8};
  eo.threads = 2;
  return eo;
}

// Each key's value taken from the Metrics fields by hand, not through the table.
std::map<std::string, double> byField(const Metrics& m) {
  return {{"latency", double(m.latency)},
          {"tiles", double(m.tiles)},
          {"tile_cycles", double(m.tileCycles)},
          {"tile_interval", double(m.interval)},
          {"macs", double(m.macs)},
          {"utilization", m.utilization},
          {"accumulator_bits", double(m.accumulatorBits)},
          {"buffer_bytes", double(m.bufferBytes)},
          {"peak_words_per_cycle", double(m.peakWordsPerCycle)},
          {"words_per_cycle", m.wordsPerCycle},
          {"max_fanout", double(m.maxFanout)},
          {"max_fanin", double(m.maxFanin)},
          {"fan", double(std::max(m.maxFanout, m.maxFanin))},
          {"ports", double(m.ports)},
          {"wires", double(m.wires)},
          {"links", double(m.linkBits)},
          {"area", m.area},
          {"energy", m.energy}};
}

// The rows writer `w` shows, in its order, worked out from the positions.
std::vector<const MetricInfo*> shown(MetricWriter w) {
  std::vector<const MetricInfo*> out;
  for (const MetricInfo& m : kMetrics)
    if (position(m, w)) out.push_back(&m);
  std::sort(out.begin(), out.end(), [w](const MetricInfo* a, const MetricInfo* b) {
    return position(*a, w) < position(*b, w);
  });
  return out;
}

// Files round reals to 6 significant digits.
void expectNear(double printed, double exact, const std::string& what) {
  EXPECT_LE(std::abs(printed - exact), 1e-5 * std::abs(exact) + 1e-12) << what;
}

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : line)
    if (c == '"')
      quoted = !quoted;
    else if (c == sep && !quoted)
      out.emplace_back();
    else
      out.back() += c;
  return out;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

TEST(MetricsTable, ReadsTheFieldItNames) {
  Metrics m;
  // Distinct values, so a row reading the wrong field shows.
  m.latency = 101, m.tiles = 3, m.tileCycles = 37, m.interval = 35, m.macs = 210;
  m.utilization = 0.125, m.accumulatorBits = 19, m.bufferBytes = 4096;
  m.peakWordsPerCycle = 11, m.wordsPerCycle = 7.5, m.maxFanout = 8, m.maxFanin = 9;
  m.ports = 12, m.wires = 777, m.linkBits = 640, m.area = 12345.5, m.energy = 678.25;
  const std::map<std::string, double> want = byField(m);
  std::set<std::string> keys;
  for (const MetricInfo& row : kMetrics) {
    EXPECT_TRUE(keys.insert(row.key).second) << "key twice: " << row.key;
    auto it = want.find(row.key);
    if (it == want.end()) continue; // a metric newer than this test: its writers are still checked
    EXPECT_EQ(row.read(m).asDouble(), it->second) << row.key;
  }
  EXPECT_GE(keys.size(), want.size());
}

TEST(MetricsTable, EveryFlaggedMetricInTheCsvHeaderAndRows) {
  Problem p = gemm675();
  ExploreResult r = explore(p.v, options(Objective::Latency));
  ASSERT_GT(r.points.size(), 20u);
  std::vector<DesignPoint> pts(r.points.begin(), r.points.begin() + 20);
  std::vector<std::string> ls = lines(toCsv(p.v, pts));
  ASSERT_EQ(ls.size(), pts.size() + 1);
  const std::vector<std::string> head = split(ls[0], ',');
  const std::vector<const MetricInfo*> rows = shown(MetricWriter::Csv);
  // id, pareto, p, q; the metrics; one entry per access; the dataflow.
  ASSERT_EQ(head.size(), 4 + rows.size() + p.v.accesses.size() + 1);
  for (size_t i = 0; i < rows.size(); ++i)
    EXPECT_EQ(head[4 + i], rows[i]->key);
  EXPECT_EQ(head[4 + rows.size()], "C_entry");
  for (size_t d = 0; d < pts.size(); ++d) {
    const std::vector<std::string> cells = split(ls[d + 1], ',');
    ASSERT_EQ(cells.size(), head.size());
    const std::map<std::string, double> want = byField(pts[d].metrics);
    for (size_t i = 0; i < rows.size(); ++i) {
      const MetricValue x = rows[i]->read(pts[d].metrics);
      if (x.real)
        expectNear(std::stod(cells[4 + i]), x.number, head[4 + i]);
      else
        EXPECT_EQ(cells[4 + i], std::to_string(x.integer)) << head[4 + i];
      if (want.count(rows[i]->key)) {
        expectNear(std::stod(cells[4 + i]), want.at(rows[i]->key), rows[i]->key);
      }
    }
  }
}

TEST(MetricsTable, EveryFlaggedMetricInTheJsonInOrder) {
  Problem p = gemm675();
  const ExploreOptions o = options(Objective::Wires);
  ExploreResult r = explore(p.v, o);
  ASSERT_GE(r.points.size(), 3u);
  std::vector<DesignPoint> pts(r.points.begin(), r.points.begin() + 3);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(toJson(p.prog, p.v, pts, o));
  const std::vector<const MetricInfo*> rows = shown(MetricWriter::Json);
  for (size_t d = 0; d < pts.size(); ++d) {
    const nlohmann::ordered_json& metrics = j["designs"][d]["metrics"];
    std::vector<std::string> keys, want;
    for (auto& [k, val] : metrics.items())
      keys.push_back(k);
    for (const MetricInfo* m : rows)
      want.push_back(m->key);
    EXPECT_EQ(keys, want);
    const std::map<std::string, double> fields = byField(pts[d].metrics);
    for (const MetricInfo* m : rows) {
      const MetricValue x = m->read(pts[d].metrics);
      if (x.real) {
        expectNear(metrics[m->key].get<double>(), x.number, m->key);
      } else {
        ASSERT_TRUE(metrics[m->key].is_number_integer()) << m->key;
        EXPECT_EQ(metrics[m->key].get<int64_t>(), x.integer) << m->key;
      }
      if (fields.count(m->key)) {
        expectNear(metrics[m->key].get<double>(), fields.at(m->key), m->key);
      }
    }
  }
}

TEST(MetricsTable, EveryFlaggedMetricInTheTableHeader) {
  Problem p = gemm675();
  ExploreResult r = explore(p.v, options(Objective::Area));
  std::istringstream table(formatTable(p.v, r, 5));
  std::string first;
  std::getline(table, first);
  std::vector<std::string> words;
  std::istringstream in(first);
  for (std::string w; in >> w;)
    words.push_back(w);
  const std::vector<const MetricInfo*> rows = shown(MetricWriter::Table);
  ASSERT_GE(words.size(), 4 + rows.size());
  EXPECT_EQ(std::vector<std::string>(words.begin(), words.begin() + 4),
            (std::vector<std::string>{"rank", "id", "P", "array"}));
  for (size_t i = 0; i < rows.size(); ++i)
    EXPECT_EQ(words[4 + i], rows[i]->header);
  EXPECT_EQ(words[4 + rows.size()], "C"); // "C (out)": the tensors follow the metrics
}

TEST(MetricsTable, EveryFlaggedMetricInDesignJson) {
  Problem p = gemm675();
  const ExploreOptions o = options(Objective::Latency);
  ExploreResult r = explore(p.v, o);
  ASSERT_FALSE(r.points.empty());
  const DesignPoint& pt = r.points.front();
  std::vector<emit::File> files = emit::package(p.prog, p.v, pt, o, "t");
  auto it = std::find_if(files.begin(), files.end(),
                         [](const emit::File& f) { return f.path == "design.json"; });
  ASSERT_NE(it, files.end());
  nlohmann::ordered_json metrics = nlohmann::ordered_json::parse(it->content)["metrics"];
  std::vector<std::string> keys, want;
  for (auto& [k, val] : metrics.items())
    keys.push_back(k);
  for (const MetricInfo* m : shown(MetricWriter::Design))
    want.push_back(m->key);
  EXPECT_EQ(keys, want);
  const std::map<std::string, double> fields = byField(pt.metrics);
  for (const std::string& k : keys) {
    if (fields.count(k)) {
      EXPECT_EQ(metrics[k].get<double>(), fields.at(k)) << k; // all digits
    }
  }
}

TEST(MetricsTable, ObjectivesParseAndPrintBack) {
  const std::pair<Objective, const char*> named[] = {{Objective::Latency, "latency"},
                                                     {Objective::Wires, "wires"},
                                                     {Objective::Area, "area"},
                                                     {Objective::Buffer, "buffer"}};
  for (const auto& [o, name] : named) {
    EXPECT_STREQ(toString(o), name);
    EXPECT_EQ(parseObjective(name), o) << name;
    EXPECT_EQ(parseObjective(toString(o)), o) << name;
  }
  EXPECT_EQ(objectiveMetric(Objective::Latency).key, std::string("latency"));
  EXPECT_EQ(objectiveMetric(Objective::Wires).key, std::string("wires"));
  EXPECT_EQ(objectiveMetric(Objective::Area).key, std::string("area"));
  EXPECT_EQ(objectiveMetric(Objective::Buffer).key, std::string("buffer_bytes"));
  // Every objective row round-trips, whatever its number.
  size_t objectives = 0;
  for (const MetricInfo& m : kMetrics)
    if (m.objective) {
      ++objectives;
      EXPECT_EQ(parseObjective(m.objective), m.ranks) << m.objective;
      EXPECT_STREQ(toString(m.ranks), m.objective);
      EXPECT_EQ(&objectiveMetric(m.ranks), &m);
    }
  EXPECT_EQ(objectives, kObjectives);
  for (const char* bad : {"", "Latency", "latency ", "buffer_bytes", "fan", "energy", "speed"})
    EXPECT_FALSE(parseObjective(bad).has_value()) << bad;
  EXPECT_EQ(objectiveNames(), "latency, wires, area or buffer");
}

// The objective's metric, then latency, wires, buffer bytes and area: the ranking's key.
double primary(const Metrics& m, Objective o) {
  switch (o) {
  case Objective::Latency:
    return double(m.latency);
  case Objective::Wires:
    return double(m.wires);
  case Objective::Area:
    return m.area;
  case Objective::Buffer:
    return double(m.bufferBytes);
  }
  return 0;
}

std::tuple<double, int64_t, int64_t, int64_t, double> expectedKey(const Metrics& m, Objective o) {
  return {primary(m, o), m.latency, m.wires, m.bufferBytes, m.area};
}

TEST(MetricsTable, RankingByEachObjectiveOrdersByItsMetric) {
  Problem p = gemm675();
  std::set<std::string> best;
  for (Objective o : {Objective::Latency, Objective::Wires, Objective::Area, Objective::Buffer}) {
    ExploreResult r = explore(p.v, options(o));
    ASSERT_GT(r.points.size(), 50u);
    const std::vector<DesignPoint>& ps = r.points;
    // The objective's metric varies, so the order below says something.
    EXPECT_LT(primary(ps.front().metrics, o), primary(ps.back().metrics, o)) << toString(o);
    for (size_t i = 1; i < ps.size(); ++i) {
      auto a = expectedKey(ps[i - 1].metrics, o), b = expectedKey(ps[i].metrics, o);
      ASSERT_LE(a, b) << toString(o) << " at rank " << i + 1;
      if (a == b) {
        ASSERT_LT(ps[i - 1].id, ps[i].id) << toString(o) << " at rank " << i + 1;
      }
      // rankKey orders as the key worked out here.
      EXPECT_EQ(rankKey(ps[i - 1].metrics, o) < rankKey(ps[i].metrics, o), a < b);
    }
    best.insert(ps.front().id);

    // The front over (latency, area or wires, buffer bytes), by brute force.
    auto axes = [o](const Metrics& m) {
      return std::array<double, 3>{double(m.latency),
                                   o == Objective::Area ? m.area : double(m.wires),
                                   double(m.bufferBytes)};
    };
    size_t front = 0;
    for (const DesignPoint& d : ps) {
      const auto k = axes(d.metrics);
      const bool dominated = std::any_of(ps.begin(), ps.end(), [&](const DesignPoint& e) {
        const auto f = axes(e.metrics);
        return f[0] <= k[0] && f[1] <= k[1] && f[2] <= k[2] && f != k;
      });
      EXPECT_EQ(d.pareto, !dominated) << toString(o) << " " << d.id;
      front += !dominated;
    }
    EXPECT_EQ(r.stats.pareto, front);
  }
  // The objectives rank differently (else the test above could pass on any one ranking).
  EXPECT_GT(best.size(), 1u);
}

} // namespace
} // namespace rubick::dse
