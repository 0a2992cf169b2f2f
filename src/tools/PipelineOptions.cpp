// SPDX-License-Identifier: Apache-2.0
#include "PipelineOptions.h"

#include "rubick/attn/SelectPipeline.h"
#include "rubick/dataflow/Decompose.h"
#include "rubick/frontend/Sema.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/TextTable.h"
#include "rubick/support/Unsupported.h"

#include <cstdio>
#include <sstream>

namespace rubick::cli {
namespace {

// "X-systolic,Y-systolic,stationary" for the output, then the inputs.
std::string entriesText(const attn::GemmStage& g) {
  std::string s;
  for (size_t a = 0; a < g.view.accesses.size(); ++a)
    s += (a ? "," : "") + g.view.accesses[a].name + "=" + ir::toString(g.design.entries[a]);
  return s;
}

// Rank 1's run with its tensors in external memory (attn/PipelineMemory.h).
std::string memoryLine(const attn::PipelinePoint& p) {
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

workload::Workload programWorkload(const tc::Program& prog, const InputOptions& input,
                                   const SearchOptions& search,
                                   const std::function<bool()>& chains) {
  auto file = std::make_shared<const SourceFile>(readSourceFile(input.file));
  workload::Workload w = workload::recogniseWorkload(prog, search.df.stmt, chains, file);
  if (rowTiles(search) != 1 && w.kind != workload::Kind::Chain)
    throw Error("--row-tiles", "tiles of rows are for chains of statements with a memory system "
                               "(docs/fusion.md); '" +
                                   prog.name + "' is " +
                                   (w.kind == workload::Kind::Attention ? "attention"
                                    : search.df.stmt.empty()            ? "one statement"
                                                             : "taken one statement (--stmt)"));
  return w;
}

void setEpilogue(dse::ExploreOptions& eo, std::shared_ptr<const dse::Epilogue> epilogue,
                 const dse::PimSystem& pim) {
  if (!epilogue) return;
  if (pim.enabled())
    throw Unsupported("epilogue", "an epilogue on PIM units is not built yet; explore the "
                                  "contraction alone with --stmt S0");
  if (!eo.constraints.memory.enabled())
    throw Unsupported("epilogue",
                      "an epilogue is built on the output's way to external memory: give a "
                      "memory system (--mem-bandwidth B, or a target with 'memory'), or take the "
                      "contraction alone with --stmt S0");
  // The output moves at its final width, and its partial sums stay on chip.
  eo.constraints.memory = dse::withEpilogue(eo.constraints.memory, *epilogue);
  eo.epilogue = std::move(epilogue);
}

PipelineSetup pipelineSetup(const tc::Program& prog, const InputOptions& input,
                            const SearchOptions& search) {
  auto file = std::make_shared<const SourceFile>(readSourceFile(input.file));
  PipelineSetup setup{attn::recogniseAttention(prog, file), {}, {}};
  const attn::AttentionForm& form = setup.form;
  if (!search.dtype.empty())
    throw Error("--dtype", "attention pipelines take their element types from the program");
  std::string targetName;
  dataflow::StatementView v = dataflow::viewStatement(prog, form.score);
  attn::PipelineOptions& po = setup.options;
  po.explore = makeExploreOptions(search, prog, v, input.file, targetName, &setup.pim);
  po.blockKeys = search.blockKeys;
  po.lanes = search.vectorLanes;
  po.rebind = rebindInput(input);
  return setup;
}

std::function<tc::Program(const std::vector<std::pair<std::string, int64_t>>&)>
rebindInput(const InputOptions& input) {
  return [&input](const std::vector<std::pair<std::string, int64_t>>& sizes) {
    tc::SemaOptions sema;
    sema.defName = input.def;
    for (const auto& [n, val] : sizes)
      sema.sizes.push_back({n, val, {}});
    return tc::loadProgram(input.file, sema);
  };
}

attn::PipelineResult explorePipelines(const tc::Program& prog, const InputOptions& input,
                                      const SearchOptions& search) {
  PipelineSetup setup = pipelineSetup(prog, input, search);
  if (setup.pim.enabled()) throw std::logic_error("explorePipelines: a PIM target");
  return attn::explorePipeline(prog, setup.form, setup.options);
}

std::string pipelineTable(const tc::Program& prog, const attn::PipelineResult& r, size_t top) {
  const attn::AttentionForm& f = r.form;
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
    const attn::PipelinePoint& p = r.points[i];
    auto stage = [](const attn::GemmStage& g) {
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
    const attn::PipelinePoint& p = r.points.front();
    const attn::PipelineTiming& t = p.timing;
    os << "\nrank 1 (" << p.lanes << " vector lane" << (p.lanes > 1 ? "s" : "")
       << ") per head: query " << t.query << " cycles; per block (" << t.blocks << " block"
       << (t.blocks > 1 ? "s" : "") << "): copy " << t.copy << ", GEMM 1 " << t.gemm1
       << ", row max " << t.rowMax << ", exp " << t.exp << ", GEMM 2 " << t.gemm2 << ", accumulate "
       << t.accumulate << " cycles; then normalise " << t.normalise << " cycles\n"
       << (p.memory.enabled() ? memoryLine(p) : "")
       << "rank 1 as a spec (emit/verify --pipeline SPEC, no pipeline search): "
       << attn::pipelineSpec(p) << "\n";
  }
  return os.str();
}

} // namespace rubick::cli
