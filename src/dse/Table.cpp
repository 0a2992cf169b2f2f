// SPDX-License-Identifier: Apache-2.0
// The ranked table `rubick explore` prints.

#include "rubick/dataflow/Decompose.h"
#include "rubick/dse/Metrics.h"
#include "rubick/dse/Report.h"
#include "rubick/support/TextTable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <sstream>

namespace rubick::dse {
namespace {

std::string compact(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", x);
  return buf;
}

std::string cell(const MetricInfo& metric, const MetricValue& x) {
  switch (metric.format) {
  case TableFormat::Percent:
    return percentText(x.asDouble());
  case TableFormat::Kib:
    return kibText(x.real ? std::llround(x.number) : x.integer);
  case TableFormat::Number:
    break;
  }
  return x.real ? compact(x.number) : std::to_string(x.integer);
}

} // namespace

std::string formatTable(const dataflow::StatementView& v, const ExploreResult& r, size_t top) {
  std::vector<std::string> head = {"rank", "id", "P", "array"};
  const size_t firstMetric = head.size();
  const std::span<const MetricInfo* const> metrics = metricsShownBy(MetricWriter::Table);
  for (const MetricInfo* m : metrics)
    head.push_back(m->header);
  const size_t firstMemory = head.size();
  // With a memory system: what sets the pace, the bytes moved against the compulsory ones, and
  // the buffer tile.
  const bool memory = !r.points.empty() && !r.points.front().buffer.size.empty();
  if (memory)
    for (const char* h : {"bound", "traffic", "min", "buffer tile"})
      head.push_back(h);
  for (const dataflow::AccessView& a : v.accesses)
    head.push_back(a.name + (a.write ? " (out)" : ""));
  head.push_back("dataflow");
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < r.points.size() && i < top; ++i) {
    const DesignPoint& d = r.points[i];
    const Metrics& m = d.metrics;
    std::vector<std::string> row = {std::to_string(i + 1), d.id, d.pareto ? "*" : "",
                                    std::to_string(d.dataflow.p) + "x" +
                                        std::to_string(d.dataflow.q)};
    for (const MetricInfo* metric : metrics)
      row.push_back(cell(*metric, metric->read(m)));
    if (memory) {
      row.push_back(d.memory.memoryBound ? "memory" : "compute");
      row.push_back(kibText(d.memory.busBytes));
      row.push_back(kibText(d.memory.compulsoryBytes));
      row.push_back(toString(d.buffer, v));
    }
    dataflow::Decomposition dec = dataflow::decompose(v, d.dataflow);
    for (size_t a = 0; a < v.accesses.size(); ++a)
      row.push_back(ir::toString(d.entries[a]) + "/" + ir::transformName(dec.tensors[a].layout));
    row.push_back(dataflow::toSpec(d.dataflow, v));
    rows.push_back(std::move(row));
  }
  // Numbers right-aligned, names left-aligned.
  std::ostringstream os;
  os << formatColumns(head, rows, [&](size_t c) {
    return c == 0 || (c >= firstMetric && c < firstMemory) ||
           (memory && (c == firstMemory + 1 || c == firstMemory + 2));
  });
  // stats.designs: with ExploreOptions::keepBest, `points` holds only part of them.
  const size_t all = std::max(r.stats.designs, r.points.size());
  if (all > top) os << "... " << all - top << " more (--top N to show more, --csv for all)\n";
  return os.str();
}

} // namespace rubick::dse
