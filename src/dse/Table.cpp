// The ranked table `rubick explore` prints.

#include "rubick/dataflow/Decompose.h"
#include "rubick/dse/Report.h"
#include "rubick/support/TextTable.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace rubick::dse {
namespace {

std::string compact(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", x);
  return buf;
}

} // namespace

std::string formatTable(const dataflow::StatementView& v, const ExploreResult& r, size_t top) {
  std::vector<std::string> head = {"rank", "id",     "P",     "array", "latency",
                                   "util", "buffer", "wires", "fan",   "area"};
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
    std::vector<std::string> row = {std::to_string(i + 1),
                                    d.id,
                                    d.pareto ? "*" : "",
                                    std::to_string(d.dataflow.p) + "x" +
                                        std::to_string(d.dataflow.q),
                                    std::to_string(m.latency),
                                    percentText(m.utilization),
                                    kibText(m.bufferBytes),
                                    std::to_string(m.wires),
                                    std::to_string(std::max(m.maxFanout, m.maxFanin)),
                                    compact(m.area)};
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
    return c == 0 || (c >= 4 && c <= 9) || (memory && (c == 11 || c == 12));
  });
  // stats.designs: with ExploreOptions::keepBest, `points` holds only part of them.
  const size_t all = std::max(r.stats.designs, r.points.size());
  if (all > top) os << "... " << all - top << " more (--top N to show more, --csv for all)\n";
  return os.str();
}

} // namespace rubick::dse
