#pragma once
// What `rubick explore` prints and writes: the ranked table, and the --json, --csv and --plot
// files. All output is deterministic (no timestamps, no absolute paths).

#include "rubick/dse/Explore.h"
#include "rubick/frontend/Program.h"

#include <string>
#include <vector>

namespace rubick::dse {

/// The ranked table of the first `top` designs (Pareto-optimal ones marked with '*').
std::string formatTable(const dataflow::StatementView& v, const ExploreResult& r, size_t top);

/// One JSON object per design with the full detail: array, dataflow (spec and S, tiling, outer
/// order), per tensor the entry, Omega, layout and its metrics, and the design's metrics.
std::string toJson(const tc::Program& prog, const dataflow::StatementView& v,
                   const std::vector<DesignPoint>& points, const ExploreOptions& o);

/// One CSV row per design with the scalar metrics and per-tensor entries, in the order given.
std::string toCsv(const dataflow::StatementView& v, const std::vector<DesignPoint>& points);

/// The same CSV built while the search runs: add() every design as ExploreOptions::onDesign
/// delivers it (search order, which does not depend on the thread count), then text() with the
/// ranked result sets the pareto cell of its Pareto-optimal designs (matched by
/// DesignPoint::order), so no design has to be kept. Memory: the text, plus 8 bytes a row.
class CsvRows {
public:
  explicit CsvRows(const dataflow::StatementView& v);
  void add(const DesignPoint& d);
  const std::string& text(const std::vector<DesignPoint>& ranked);

private:
  const dataflow::StatementView& v_;
  std::string text_;
  std::vector<size_t> pareto_; // offset of each row's pareto cell, by DesignPoint::order
};

/// Scatter of latency against wires (or area) with the Pareto front drawn, as standalone SVG.
std::string paretoSvg(const dataflow::StatementView& v, const std::vector<DesignPoint>& points,
                      Objective o);

} // namespace rubick::dse
