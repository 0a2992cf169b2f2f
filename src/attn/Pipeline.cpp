// SPDX-License-Identifier: Apache-2.0
// Exploring the fused attention pipeline: block sizes x the best designs of each GEMM.

#include "rubick/attn/Pipeline.h"

#include "PipelineCost.h"

#include "rubick/support/Diagnostic.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace rubick::attn {
namespace {

using namespace detail;

double objectiveValue(const PipelinePoint& p, dse::Objective o) {
  switch (o) {
  case dse::Objective::Wires:
    return double(p.wires);
  case dse::Objective::Area:
    return p.area;
  case dse::Objective::Buffer:
    return double(p.bufferBytes);
  case dse::Objective::Latency:
    break;
  }
  return double(p.latency);
}

void markPareto(std::vector<PipelinePoint>& ps, bool useArea) {
  for (PipelinePoint& a : ps) {
    a.pareto = true;
    double a2 = useArea ? a.area : double(a.wires);
    for (const PipelinePoint& b : ps) {
      double b2 = useArea ? b.area : double(b.wires);
      bool noWorse = b.latency <= a.latency && b2 <= a2 && b.bufferBytes <= a.bufferBytes;
      bool better = b.latency < a.latency || b2 < a2 || b.bufferBytes < a.bufferBytes;
      if (noWorse && better) {
        a.pareto = false;
        break;
      }
    }
  }
}

} // namespace

PipelineTiming pipelineTiming(const AttentionForm& f, const PipelineCounts& c, int64_t blockKeys,
                              int64_t latency1, int64_t latency2) {
  // One row of W items per cycle in every pass; each constant is the pass's pipeline depth after
  // its last item is issued (src/emit/AttentionTop.cpp): a store read before a bank write (+1), a
  // bank read, max and exp before the row state is written (+2), a bank read, exp and the rescale
  // of the row sum (+3), a bank read and the rescale of U_acc (+2). A GEMM phase is its latency
  // plus the cycle in which start is given. Normalisation: N = c.normaliseLanes rows at a
  // time, each lane with its own divider; a group's reciprocals start every
  // max(kRecipCycles, Dv) cycles (each result is held while its row's Dv outputs, one per
  // cycle per lane, use it); the last group's outputs come 2 cycles after its results (hold
  // register, rubick_scale's register).
  // Every pass but normalise issues one row of its lane schedule per cycle.
  PipelineTiming t;
  t.blocks = (f.s + blockKeys - 1) / blockKeys;
  t.query = c.queryRows + 1;
  t.copy = std::max(c.keyRows, c.valueRows) + 1;
  t.gemm1 = latency1 + 1;
  t.rowMax = c.scoreRows + 2;
  t.exp = c.expRows + 3;
  t.gemm2 = latency2 + 1;
  t.accumulate = c.resultRows + 2;
  const int64_t groups = (f.l + c.normaliseLanes - 1) / c.normaliseLanes;
  t.normalise = (groups - 1) * std::max(kRecipCycles, f.dv) + kRecipCycles + 2 + f.dv;
  return t;
}

PipelineResult explorePipeline(const tc::Program& prog, const AttentionForm& form,
                               const PipelineOptions& o) {
  PipelineResult r;
  r.form = form;
  const PipelineContext c = makeContext(prog, form, o);
  const std::vector<int64_t> lanes = laneCandidates(o);
  for (int64_t bk : blockCandidates(form, o)) {
    const auto [base1, base2] = baseStages(c, bk);
    const std::optional<arch::MemoryPlan> plan = blockMemoryPlan(c, bk);
    auto best = [&](const GemmStage& g) {
      dse::ExploreOptions x = c.gemm;
      x.constraints.elementBits = g.elementBits;
      dse::ExploreResult er = dse::explore(g.view, x);
      if (er.points.size() > o.perGemm) er.points.resize(o.perGemm);
      std::vector<StageWithMaps> out;
      for (const dse::DesignPoint& d : er.points)
        out.push_back(withDesign(g, d));
      return out;
    };
    const std::vector<StageWithMaps> s1 = best(base1), s2 = best(base2);
    for (const StageWithMaps& g1 : s1)
      for (const StageWithMaps& g2 : s2) {
        const PassItems items = passItems(form, g1.stage, g2.stage, g1.maps, g2.maps);
        for (int64_t w : lanes) {
          ++r.combinations;
          PipelinePoint pt = costPipeline(c, bk, w, g1, g2, items, plan);
          if (std::string why = widthProblem(prog, form, pt); !why.empty()) {
            if (!r.tooWide++) r.tooWideWhy = why;
            continue;
          }
          if (c.budget && pt.bufferBytes > c.budget) {
            ++r.overBudget;
            continue;
          }
          r.points.push_back(std::move(pt));
        }
      }
  }
  if (r.points.empty() && r.tooWide == r.combinations && r.tooWide)
    throw Error("explore", "no attention pipeline suits the vector unit: " + r.tooWideWhy);
  if (r.points.empty())
    throw Error("explore", r.combinations
                               ? "no attention pipeline fits the buffer budget: " +
                                     std::to_string(r.overBudget) +
                                     " combinations need more (raise --buffer-kib or allow "
                                     "smaller key blocks)"
                               : "no design of the two GEMMs satisfies the constraints");
  const dse::Objective obj = o.explore.objective;
  std::stable_sort(
      r.points.begin(), r.points.end(), [&](const PipelinePoint& x, const PipelinePoint& y) {
        return std::make_tuple(objectiveValue(x, obj), x.latency, x.bufferBytes, x.wires, x.id) <
               std::make_tuple(objectiveValue(y, obj), y.latency, y.bufferBytes, y.wires, y.id);
      });
  markPareto(r.points, obj == dse::Objective::Area);
  dse::requireUniqueIds(
      r.points.size(), [&](size_t i) -> const std::string& { return r.points[i].id; },
      [&](size_t i) {
        const PipelinePoint& p = r.points[i];
        return "block " + std::to_string(p.blockKeys) + ", " + std::to_string(p.lanes) +
               " lane(s), GEMMs " + p.g1.design.id + " and " + p.g2.design.id;
      },
      "attention pipeline");
  return r;
}

std::string widthProblem(const tc::Program& prog, const AttentionForm& f, const PipelinePoint& pt) {
  const int64_t scores = pt.g1.design.metrics.accumulatorBits;
  const int64_t scoreBits = pt.g1.elementBits.at(0);
  const int64_t values = pt.g2.design.metrics.accumulatorBits;
  const int64_t valueBits = pt.g2.elementBits.at(0);
  if (scores > 32)
    return "the scores need " + std::to_string(scores) +
           " bits, more than the 32 the exp unit takes (narrower queries and keys or a smaller "
           "head dimension)";
  if (scores > scoreBits || scoreBits > 32)
    return "the scores need " + std::to_string(scores) + " bits but " +
           prog.tensors[f.scores].name + " has " + std::to_string(scoreBits) +
           "; declare it with " + std::to_string(scores) + " to 32 bits";
  if (values > valueBits)
    return "a key block's weighted values need " + std::to_string(values) + " bits but " +
           prog.tensors[f.u].name + " has " + std::to_string(valueBits) +
           " (use smaller key blocks or a wider type)";
  if (sumBits(f) > 32)
    return "the row sum of " + std::to_string(f.s) + " keys exceeds the reciprocal's 32 bits";
  return "";
}

} // namespace rubick::attn
