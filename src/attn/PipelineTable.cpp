// SPDX-License-Identifier: Apache-2.0
#include "rubick/attn/PipelineTable.h"

#include "rubick/attn/SelectPipeline.h"
#include "rubick/support/TextTable.h"

#include <cstdio>
#include <sstream>

namespace rubick::attn {
namespace {

// "X-systolic,Y-systolic,stationary" for the output, then the inputs.
std::string entriesText(const GemmStage& g) {
  std::string s;
  for (size_t a = 0; a < g.view.accesses.size(); ++a)
    s += (a ? "," : "") + g.view.accesses[a].name + "=" + ir::toString(g.design.entries[a]);
  return s;
}

// Rank 1's run with its tensors in external memory (attn/PipelineMemory.h).
std::string memoryLine(const PipelinePoint& p) {
  const arch::MemoryTiming& tm = p.transfers.timing;
  std::ostringstream os;
  os << "rank 1 with the external memory (" << p.memory.bytesPerCycle
     << " bytes per cycle, latency " << p.memory.latency << "): " << p.latency
     << " cycles, the pipeline alone " << p.transfers.computeCycles
     << "; Q and the first block's K, V load in " << tm.firstLoad << ", O stores in "
     << tm.lastStore << "; " << tm.loadBound << " of " << tm.tiles
     << " block phases wait for their loads; buffers " << p.transfers.bufferBytes << " bytes\n";
  return os.str();
}

} // namespace

std::string pipelineTable(const tc::Program& prog, const PipelineResult& r, size_t top) {
  const AttentionForm& f = r.form;
  std::ostringstream os;
  os << prog.name << ": attention pipeline, L=" << f.l << " S=" << f.s << " D=" << f.d
     << " Dv=" << f.dv << (f.multiHead ? " heads=" + std::to_string(f.heads) : "") << "\n"
     << "  GEMM 1 (scores):  " << prog.statements[f.score].text << "\n"
     << "  vector unit:      " << prog.statements[f.rowMax].text << "; "
     << prog.statements[f.exp].text << "; " << prog.statements[f.rowSum].text << "\n"
     << "  GEMM 2 (values):  " << prog.statements[f.values].text << "\n"
     << "  vector unit:      " << prog.statements[f.normalise].text << "\n"
     << r.points.size() << " pipelines from " << r.combinations << " combinations"
     << (r.overBudget ? " (" + std::to_string(r.overBudget) + " over the buffer budget)" : "")
     << (r.tooWide ? " (" + std::to_string(r.tooWide) +
                         " too wide for the vector unit: " + r.tooWideWhy + ")"
                   : "")
     << "\n\n";
  std::vector<std::string> head = {"rank", "id",     "P",      "block", "W",      "latency",
                                   "util", "buffer", "scores", "wires", "GEMM 1", "GEMM 2"};
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < r.points.size() && i < top; ++i) {
    const PipelinePoint& p = r.points[i];
    auto stage = [](const GemmStage& g) {
      return g.design.id + " " + std::to_string(g.design.dataflow.p) + "x" +
             std::to_string(g.design.dataflow.q) + " " + entriesText(g);
    };
    rows.push_back({std::to_string(i + 1), p.id, p.pareto ? "*" : "", std::to_string(p.blockKeys),
                    std::to_string(p.lanes), std::to_string(p.latency), percentText(p.utilization),
                    kibText(p.bufferBytes), kibText(p.scoreBytes), std::to_string(p.wires),
                    stage(p.g1), stage(p.g2)});
  }
  os << formatColumns(head, rows, [](size_t c) { return c == 0 || (c >= 3 && c <= 9); });
  if (r.points.size() > top) os << "... " << r.points.size() - top << " more (--top N)\n";
  if (!r.points.empty()) {
    const PipelinePoint& p = r.points.front();
    const PipelineTiming& t = p.timing;
    os << "\nrank 1 (" << p.lanes << " vector lane" << (p.lanes > 1 ? "s" : "")
       << ") per head: query " << t.query << " cycles; per block (" << t.blocks << " block"
       << (t.blocks > 1 ? "s" : "") << "): copy " << t.copy << ", GEMM 1 " << t.gemm1
       << ", row max " << t.rowMax << ", exp " << t.exp << ", GEMM 2 " << t.gemm2 << ", accumulate "
       << t.accumulate << " cycles; then normalise " << t.normalise << " cycles\n"
       << (p.memory.enabled() ? memoryLine(p) : "")
       << "rank 1 as a spec (emit/verify --pipeline SPEC, no pipeline search): " << pipelineSpec(p)
       << "\n";
  }
  return os.str();
}

} // namespace rubick::attn
