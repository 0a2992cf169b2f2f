// SPDX-License-Identifier: Apache-2.0
#pragma once
// The design metrics, declared once. CostModel.cpp fills a dse::Metrics; everything that shows
// or compares a design's metrics iterates kMetrics below: the explore table (Table.cpp), --csv
// (Csv.cpp), --json (Json.cpp), a design package's design.json (emit/Package.cpp), the
// objectives and the ranking (ExploreCommon.cpp) and the Pareto front (Pareto.cpp). A new
// metric is its field in Metrics, its computation in CostModel.cpp and one row here.
//
// Each writer shows the rows that give it a position, in the order of those positions, so every
// file keeps its own column order while the rows stay in one list. The positions are checked at
// compile time (see the static_asserts at the end).

#include "rubick/dse/CostModel.h"

#include <algorithm>
#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace rubick::dse {

/// What ranks designs (`--objective`, lower is better); each is one row of kMetrics.
enum class Objective { Latency, Wires, Area, Buffer };

/// A metric's value: an integer (compared exactly) or a real.
struct MetricValue {
  bool real = false;
  int64_t integer = 0;
  double number = 0;

  double asDouble() const { return real ? number : double(integer); }
  // Values of one metric are all integers or all reals, so either member decides.
  friend std::partial_ordering operator<=>(const MetricValue& a, const MetricValue& b) {
    return a.real ? a.number <=> b.number : a.integer <=> b.integer;
  }
  friend bool operator==(const MetricValue& a, const MetricValue& b) {
    return a.real ? a.number == b.number : a.integer == b.integer;
  }
};

/// How the explore table prints a metric: a whole number (a real rounded), a percentage, or
/// bytes as KiB. The files print integers as they are and reals with the file's own rounding
/// (6 significant digits in --csv and --json, all digits in design.json).
enum class TableFormat { Number, Percent, Kib };

/// One metric. Positions are 1-based among the metrics a writer shows; 0: the writer omits it.
struct MetricInfo {
  const char* key; // --csv column, --json and design.json key
  MetricValue (*read)(const Metrics&);
  const char* header = nullptr; // explore table column (with tableAt)
  TableFormat format = TableFormat::Number;
  int tableAt = 0, csvAt = 0, jsonAt = 0, designAt = 0;
  const char* objective = nullptr;      // `--objective` name, or nullptr: not an objective
  Objective ranks = Objective::Latency; // the Objective it is (with `objective`)
  int tieBreak = 0;   // rank among the ties' keys after the objective's own metric; 0: none
  int paretoAxis = 0; // axis of the Pareto front (1-3); 0: off the front
};

namespace metric_read {
template <int64_t Metrics::*F>
MetricValue integer(const Metrics& m) {
  return {false, m.*F, 0};
}
template <double Metrics::*F>
MetricValue real(const Metrics& m) {
  return {true, 0, m.*F};
}
// The table shows one fan column: fan-out of inputs or fan-in of outputs, whichever is larger.
inline MetricValue fan(const Metrics& m) {
  return {false, std::max(m.maxFanout, m.maxFanin), 0};
}
} // namespace metric_read

// Rows in --json order (the longest list), with the table's fan and design.json's links beside
// their kin. A column inserted into a writer renumbers that writer's later positions; the
// static_asserts below catch a gap or a repeat. clang-format would spread the rows out.
// clang-format off
inline constexpr MetricInfo kMetrics[] = {
    {.key = "latency", .read = metric_read::integer<&Metrics::latency>, .header = "latency",
     .tableAt = 1, .csvAt = 1, .jsonAt = 1, .designAt = 1,
     .objective = "latency", .ranks = Objective::Latency, .tieBreak = 1, .paretoAxis = 1},
    {.key = "tiles", .read = metric_read::integer<&Metrics::tiles>, .csvAt = 2, .jsonAt = 2},
    {.key = "tile_cycles", .read = metric_read::integer<&Metrics::tileCycles>,
     .csvAt = 3, .jsonAt = 3},
    {.key = "tile_interval", .read = metric_read::integer<&Metrics::interval>, .jsonAt = 4},
    {.key = "macs", .read = metric_read::integer<&Metrics::macs>, .jsonAt = 5},
    {.key = "utilization", .read = metric_read::real<&Metrics::utilization>, .header = "util",
     .format = TableFormat::Percent, .tableAt = 2, .csvAt = 4, .jsonAt = 6, .designAt = 2},
    {.key = "accumulator_bits", .read = metric_read::integer<&Metrics::accumulatorBits>,
     .jsonAt = 7},
    {.key = "buffer_bytes", .read = metric_read::integer<&Metrics::bufferBytes>,
     .header = "buffer", .format = TableFormat::Kib,
     .tableAt = 3, .csvAt = 5, .jsonAt = 8, .designAt = 3,
     .objective = "buffer", .ranks = Objective::Buffer, .tieBreak = 3, .paretoAxis = 3},
    {.key = "peak_words_per_cycle", .read = metric_read::integer<&Metrics::peakWordsPerCycle>,
     .csvAt = 13, .jsonAt = 9},
    {.key = "words_per_cycle", .read = metric_read::real<&Metrics::wordsPerCycle>,
     .csvAt = 12, .jsonAt = 10},
    {.key = "max_fanout", .read = metric_read::integer<&Metrics::maxFanout>,
     .csvAt = 9, .jsonAt = 11, .designAt = 6},
    {.key = "max_fanin", .read = metric_read::integer<&Metrics::maxFanin>,
     .csvAt = 10, .jsonAt = 12, .designAt = 7},
    {.key = "fan", .read = metric_read::fan, .header = "fan", .tableAt = 5},
    {.key = "ports", .read = metric_read::integer<&Metrics::ports>, .csvAt = 11, .jsonAt = 13},
    {.key = "wires", .read = metric_read::integer<&Metrics::wires>, .header = "wires",
     .tableAt = 4, .csvAt = 6, .jsonAt = 14, .designAt = 4,
     .objective = "wires", .ranks = Objective::Wires, .tieBreak = 2, .paretoAxis = 2},
    {.key = "links", .read = metric_read::integer<&Metrics::linkBits>, .designAt = 5},
    {.key = "area", .read = metric_read::real<&Metrics::area>, .header = "area",
     .tableAt = 6, .csvAt = 7, .jsonAt = 15, .designAt = 8,
     .objective = "area", .ranks = Objective::Area, .tieBreak = 4, .paretoAxis = 2},
    {.key = "energy", .read = metric_read::real<&Metrics::energy>,
     .csvAt = 8, .jsonAt = 16, .designAt = 9},
};
// clang-format on

/// The places metrics are shown (MetricInfo's positions).
enum class MetricWriter { Table, Csv, Json, Design };

constexpr int position(const MetricInfo& m, MetricWriter w) {
  switch (w) {
  case MetricWriter::Table:
    return m.tableAt;
  case MetricWriter::Csv:
    return m.csvAt;
  case MetricWriter::Json:
    return m.jsonAt;
  case MetricWriter::Design:
    return m.designAt;
  }
  return 0;
}

namespace metric_detail {

// How many rows `field` gives a nonzero value, and whether those values are exactly 1..count.
template <typename Field>
constexpr int count(Field field) {
  int n = 0;
  for (const MetricInfo& m : kMetrics)
    n += field(m) != 0;
  return n;
}
template <typename Field>
constexpr bool dense(Field field) {
  const int n = count(field);
  for (int at = 1; at <= n; ++at) {
    int rows = 0;
    for (const MetricInfo& m : kMetrics)
      rows += field(m) == at;
    if (rows != 1) return false;
  }
  return true;
}

constexpr int objectiveOf(const MetricInfo& m) {
  return m.objective ? int(m.ranks) + 1 : 0;
}
constexpr int tieBreakOf(const MetricInfo& m) {
  return m.tieBreak;
}

// The rows a 1-based field numbers, by that number (field values are checked dense below).
template <size_t N, typename Field>
constexpr std::array<const MetricInfo*, N> rowsBy(Field field) {
  std::array<const MetricInfo*, N> out{};
  for (const MetricInfo& m : kMetrics)
    if (field(m) > 0 && size_t(field(m)) <= N) out[size_t(field(m) - 1)] = &m;
  return out;
}

template <MetricWriter W>
constexpr auto columns() {
  constexpr auto at = [](const MetricInfo& m) { return position(m, W); };
  return rowsBy<size_t(count(at))>(at);
}
template <MetricWriter W>
inline constexpr auto kColumns = columns<W>();

} // namespace metric_detail

/// The metrics writer `w` shows, in its order.
inline std::span<const MetricInfo* const> metricsShownBy(MetricWriter w) {
  switch (w) {
  case MetricWriter::Table:
    return metric_detail::kColumns<MetricWriter::Table>;
  case MetricWriter::Csv:
    return metric_detail::kColumns<MetricWriter::Csv>;
  case MetricWriter::Json:
    return metric_detail::kColumns<MetricWriter::Json>;
  case MetricWriter::Design:
    return metric_detail::kColumns<MetricWriter::Design>;
  }
  return {};
}

inline constexpr size_t kObjectives = size_t(metric_detail::count(metric_detail::objectiveOf));
inline constexpr size_t kTieBreaks = size_t(metric_detail::count(metric_detail::tieBreakOf));
inline constexpr size_t kParetoAxes = 3;

namespace metric_detail {
inline constexpr auto kObjectiveRows = rowsBy<kObjectives>(objectiveOf);
inline constexpr auto kTieBreakRows = rowsBy<kTieBreaks>(tieBreakOf);
} // namespace metric_detail

/// The row of objective `o`.
const MetricInfo& objectiveMetric(Objective o);
/// The objective's `--objective` name ("latency", "wires", "area", "buffer").
const char* toString(Objective o);
/// The objective named `name`, or nullopt.
std::optional<Objective> parseObjective(std::string_view name);
/// Every objective's name in Objective order, as prose: "latency, wires, area or buffer".
std::string objectiveNames();

/// What ranks designs under objective `o`: its metric, then the tie-break metrics in order.
/// Compared lexicographically, lower is better.
using RankKey = std::array<MetricValue, 1 + kTieBreaks>;
RankKey rankKey(const Metrics& m, Objective o);

/// The Pareto front's metrics, axis by axis. An axis that several rows share (wires and area)
/// is the objective's metric when it is one of them, else the first of them in kMetrics.
std::array<const MetricInfo*, kParetoAxes> paretoAxes(Objective o);

static_assert(metric_detail::dense([](const MetricInfo& m) { return m.tableAt; }),
              "table positions must be 1..n, each once");
static_assert(metric_detail::dense([](const MetricInfo& m) { return m.csvAt; }),
              "CSV positions must be 1..n, each once");
static_assert(metric_detail::dense([](const MetricInfo& m) { return m.jsonAt; }),
              "JSON positions must be 1..n, each once");
static_assert(metric_detail::dense([](const MetricInfo& m) { return m.designAt; }),
              "design.json positions must be 1..n, each once");
static_assert(metric_detail::dense(metric_detail::objectiveOf),
              "every Objective must be exactly one row's");
static_assert(metric_detail::dense(metric_detail::tieBreakOf),
              "tie-breaks must be 1..n, each once");
static_assert(
    [] {
      for (const MetricInfo& m : kMetrics)
        if (bool(m.tableAt) != bool(m.header) || m.paretoAxis < 0 ||
            m.paretoAxis > int(kParetoAxes))
          return false;
      for (int axis = 1; axis <= int(kParetoAxes); ++axis)
        if (!metric_detail::count([axis](const MetricInfo& m) { return m.paretoAxis == axis; }))
          return false;
      return true;
    }(),
    "a table column needs a header, and every Pareto axis a metric");

} // namespace rubick::dse
