// SPDX-License-Identifier: Apache-2.0
#pragma once
// What `rubick explore` prints and writes: the ranked table, and the --json, --csv and --plot
// files. All output is deterministic (no timestamps, no absolute paths).

#include "rubick/dse/Explore.h"
#include "rubick/frontend/Program.h"
#include "rubick/support/StreamedFile.h"

#include <atomic>
#include <exception>
#include <string>
#include <vector>

namespace rubick::dse {

/// The ranked table of the first `top` designs (Pareto-optimal ones marked with '*').
std::string formatTable(const dataflow::StatementView& v, const ExploreResult& r, size_t top);

/// One JSON object per design with the full detail: array, dataflow (spec and S, tiling, outer
/// order), per tensor the entry, Omega, layout and its metrics, and the design's metrics.
std::string toJson(const tc::Program& prog, const dataflow::StatementView& v,
                   const std::vector<DesignPoint>& points, const ExploreOptions& o);

/// One CSV row per design with the scalar metrics and per-tensor entries, in the order given;
/// with `memory` (the designs have a memory system), also the table's memory columns.
std::string toCsv(const dataflow::StatementView& v, const std::vector<DesignPoint>& points,
                  bool memory = false);

/// The same CSV written to disk while the search runs (`explore --csv`), for any number of
/// designs: add() every design as ExploreOptions::onDesign delivers it (search order, which does
/// not depend on the thread count); each row goes straight to the file's temporary
/// (support/StreamedFile.h). Then finish() with the ranked result checks that no two rows share
/// an ID (a rubick::Error as requireUniqueIds throws, naming both rows) and, reading the
/// temporary back in one pass, sets the pareto cell of its Pareto-optimal designs (matched by
/// DesignPoint::order); commitOutputFile(file(), ...) then puts it in place. Memory: 8 bytes a
/// design (its ID, for the uniqueness check), not the text. The bytes equal toCsv's.
class CsvFile {
public:
  /// Creates the temporary next to `path` (throws rubick::Error naming it when it cannot).
  CsvFile(const dataflow::StatementView& v, const std::string& path, bool memory = false);
  /// Never throws (it runs on worker threads): a failure, such as a full disk, is recorded and
  /// thrown by check() and finish().
  void add(const DesignPoint& d) noexcept;
  /// Throws the first failure add() recorded, if any (callable while add() runs elsewhere).
  void check() const;
  void finish(const std::vector<DesignPoint>& ranked);
  StreamedFile& file() { return file_; }

private:
  std::string describeRow(uint64_t lineStart, size_t line);

  const dataflow::StatementView& v_;
  bool memory_;
  StreamedFile file_;
  IdSet ids_;
  size_t rows_ = 0;
  std::string row_; // reused for each row
  std::atomic<bool> failed_{false};
  std::exception_ptr failure_; // set before failed_
};

/// Scatter of latency against wires (or area) with the Pareto front drawn, as standalone SVG.
std::string paretoSvg(const dataflow::StatementView& v, const std::vector<DesignPoint>& points,
                      Objective o);

} // namespace rubick::dse
