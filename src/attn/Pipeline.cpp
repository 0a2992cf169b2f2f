// Exploring the fused attention pipeline: block sizes x the best designs of each GEMM.

#include "rubick/attn/Pipeline.h"

#include "rubick/arch/HostMap.h"
#include "rubick/arch/Plan.h"
#include "rubick/attn/LaneSchedule.h"
#include "rubick/dataflow/StatementView.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace rubick::attn {
namespace {

int64_t bytesOf(int64_t bits) {
  return (bits + 7) / 8;
}

// Bits of the running sum: at most S values below 2^15.
int64_t sumBits(const AttentionForm& f) {
  return 15 + arch::bitsFor(f.s) + 1;
}

std::vector<int64_t> blockCandidates(const AttentionForm& f, const PipelineOptions& o) {
  if (!o.blockKeys.empty()) {
    std::vector<int64_t> out;
    for (int64_t b : o.blockKeys) {
      if (b < 1) throw Error("--block-keys", "a key block needs at least 1 key");
      if (b > f.s)
        throw Error("--block-keys", "a key block of " + std::to_string(b) +
                                        " keys is larger than the " + std::to_string(f.s) +
                                        " keys there are");
      if (b < f.s && f.keySize.empty())
        throw Error("--block-keys", "the key dimension is a literal; only one block of all " +
                                        std::to_string(f.s) + " keys is possible");
      out.push_back(b);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }
  std::vector<int64_t> out = {f.s};
  if (!f.keySize.empty())
    for (int64_t b = 4; b < f.s; b *= 2)
      out.push_back(b);
  return out;
}

std::vector<int64_t> stageBits(const tc::Program& p, const dataflow::StatementView& v,
                               int eTensor) {
  std::vector<int64_t> bits;
  for (const dataflow::AccessView& a : v.accesses)
    bits.push_back(a.tensor == eTensor && !a.write ? 16 : tc::bitWidth(p.tensors[a.tensor].type));
  return bits;
}

std::vector<int64_t> laneCandidates(const PipelineOptions& o) {
  if (o.lanes.empty()) return kLaneChoices;
  std::vector<int64_t> out = o.lanes;
  for (int64_t w : out)
    if (w < 1 || w > 64)
      throw Error("--vector-lanes",
                  "a vector unit of " + std::to_string(w) + " lanes; the width must be 1 to 64");
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string pipelineId(const tc::Program& prog, const AttentionForm& f, const PipelinePoint& p) {
  // The GEMM design IDs cover the two arrays; the vector unit and the key/value store also
  // depend on every statement, tensor type and shape, and the attention sizes.
  std::string text = "pipeline/2|";
  for (const tc::Statement& s : prog.statements)
    text += s.text + ";";
  for (const tc::Tensor& t : prog.tensors) {
    text += std::string(tc::toString(t.type)) + " " + t.name + "(";
    for (int64_t d : t.shape)
      text += std::to_string(d) + ",";
    text += ")";
  }
  for (int64_t x : {f.heads, f.l, f.s, f.d, f.dv})
    text += "|" + std::to_string(x);
  text += "|" + p.g1.design.id + "|" + p.g2.design.id + "|" + std::to_string(p.blockKeys) + "|" +
          std::to_string(p.heads) + "|W" + std::to_string(p.lanes);
  return dse::hashId(text);
}

// Gates of one vector lane, from the cost table: the exp unit (a 32 x 17-bit multiply and a
// table), the rescale of U_acc (an accBits x 15-bit multiply), the lane's max compare and sum
// add, and its registers.
double laneArea(const dse::CostTable& c, int64_t scoreBits, int64_t accBits, int64_t sumBits) {
  return c.multiplierAreaPerBit2 * double(32 * 17 + accBits * 15) +
         c.adderAreaPerBit * double(scoreBits + sumBits + accBits) +
         c.registerAreaPerBit * double(scoreBits + 16 + accBits);
}

// Wire bits from the vector unit to the banks of one array: with W lanes every bank port can
// be reached by every lane (the lane schedule puts any bank in any lane), so each lane has a
// word-wide path to each bank (src/emit/VerilogTop.cpp, laneSelect and laneReads).
int64_t crossbarBits(const dse::Metrics& m, int64_t lanes) {
  int64_t bits = 0;
  for (const dse::TensorMetrics& t : m.tensors)
    bits += t.ports * t.elementBits;
  return lanes * bits;
}

// Gates of one normalise lane: the divider (rtl_templates/rubick_recip.v: a 34-bit subtract,
// divisor, remainder, quotient and step count), the held reciprocal and the U_acc x 33-bit
// output multiply.
double normaliseLaneArea(const dse::CostTable& c, int64_t accBits) {
  return c.multiplierAreaPerBit2 * double(accBits * 33) + c.adderAreaPerBit * 34.0 +
         c.registerAreaPerBit * double(32 + 32 + 33 + 6 + 33);
}

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
  if (o.explore.constraints.memory.enabled())
    throw Unsupported("attention", "attention pipelines with an external memory are not "
                                   "modelled yet: drop --mem-bandwidth or the target's 'memory'");
  PipelineResult r;
  r.form = form;
  dse::ExploreOptions eo = o.explore;
  const int64_t budget = eo.constraints.bufferBytes;
  eo.constraints.bufferBytes = 0; // applies to the whole pipeline
  eo.progress = nullptr;

  const AttentionForm& f = form;
  // Everything outside the two arrays, as src/emit/AttentionTop.cpp and VectorUnit.cpp build
  // it: the query, key/value and output stores (all heads), the row state (m, alpha, l) and
  // U_acc.
  const tc::Tensor& qt = prog.tensors[f.q];
  const tc::Tensor& kt = prog.tensors[f.k];
  const tc::Tensor& vt = prog.tensors[f.v];
  const tc::Tensor& ot = prog.tensors[f.o];
  const int64_t storeBytes =
      f.heads *
      (f.l * f.d * bytesOf(tc::bitWidth(qt.type)) + f.s * f.d * bytesOf(tc::bitWidth(kt.type)) +
       f.s * f.dv * bytesOf(tc::bitWidth(vt.type)) + f.l * f.dv * bytesOf(tc::bitWidth(ot.type)));
  const int64_t stateBytes = f.l * (4 + 2 + bytesOf(sumBits(f))) + f.l * f.dv * 4;

  if (f.multiHead && (f.headSize.empty() || !o.rebind))
    throw Error("explore", "multi-head attention needs the number of heads as a size symbol "
                           "(such as H in int8(H, L, D) Q), so that the arrays can be designed "
                           "for one head");
  const std::vector<int64_t> lanes = laneCandidates(o);
  // U_acc's width (src/emit/AttentionPackage.cpp), for the lanes' rescale multipliers.
  const int64_t accBits =
      std::max<int64_t>(32, tc::bitWidth(vt.type) + 15 + arch::bitsFor(f.s) + 1);
  for (int64_t bk : blockCandidates(f, o)) {
    // The arrays compute one head over one key block: the heads run one after another, so a
    // multi-head program's GEMMs are designed for a single head.
    tc::Program p = (bk == f.s && !f.multiHead) || !o.rebind ? prog : [&] {
      std::vector<std::pair<std::string, int64_t>> sizes = prog.sizes;
      for (auto& [n, val] : sizes) {
        if (n == f.keySize) val = bk;
        if (f.multiHead && n == f.headSize) val = 1;
      }
      return o.rebind(sizes);
    }();
    GemmStage base1, base2;
    for (GemmStage* g : {&base1, &base2}) {
      g->prog = p;
      g->stmt = g == &base1 ? f.score : f.values;
      g->view = dataflow::viewStatement(p, g->stmt);
      g->elementBits = stageBits(p, g->view, f.e);
    }
    auto best = [&](const GemmStage& g) {
      dse::ExploreOptions x = eo;
      x.constraints.elementBits = g.elementBits;
      dse::ExploreResult er = dse::explore(g.view, x);
      if (er.points.size() > o.perGemm) er.points.resize(o.perGemm);
      return er.points;
    };
    std::vector<dse::DesignPoint> d1 = best(base1), d2 = best(base2);
    std::vector<std::vector<arch::TensorMap>> maps1, maps2;
    std::vector<GemmStage> s1, s2;
    for (const dse::DesignPoint& d : d1) {
      s1.push_back(base1);
      s1.back().design = d;
      maps1.push_back(stageMaps(s1.back()));
    }
    for (const dse::DesignPoint& d : d2) {
      s2.push_back(base2);
      s2.back().design = d;
      maps2.push_back(stageMaps(s2.back()));
    }
    for (size_t a = 0; a < d1.size(); ++a)
      for (size_t b = 0; b < d2.size(); ++b) {
        const PassItems items = passItems(f, s1[a], s2[b], maps1[a], maps2[b]);
        auto places = [&](const std::vector<LaneItem>& v) { return int64_t(v.size()); };
        for (int64_t w : lanes) {
          ++r.combinations;
          const PassSchedules ps = schedulePasses(items, w);
          auto rows = [](const LaneRows& v) { return int64_t(v.size()); };
          PipelinePoint pt;
          pt.blockKeys = bk;
          pt.heads = f.heads;
          pt.lanes = w;
          pt.g1 = s1[a];
          pt.g2 = s2[b];
          pt.counts.keyPlaces = places(items.key);
          pt.counts.valuePlaces = places(items.value);
          pt.counts.expPlaces = places(items.expo);
          pt.counts.queryPlaces = places(items.query);
          pt.counts.queryRows = rows(ps.query);
          pt.counts.keyRows = rows(ps.key);
          pt.counts.valueRows = rows(ps.value);
          pt.counts.scoreRows = rows(ps.score);
          pt.counts.expRows = rows(ps.expo);
          pt.counts.resultRows = rows(ps.result);
          pt.counts.normaliseLanes = normaliseLanes(w, f.l);
          pt.timing =
              pipelineTiming(f, pt.counts, bk, d1[a].metrics.latency, d2[b].metrics.latency);
          pt.latency = f.heads * pt.timing.perHead();
          pt.scoreBytes = d1[a].metrics.tensors.front().bufferBytes;
          pt.bufferBytes =
              d1[a].metrics.bufferBytes + d2[b].metrics.bufferBytes + storeBytes + stateBytes;
          pt.crossbarWires = crossbarBits(d1[a].metrics, w) + crossbarBits(d2[b].metrics, w);
          pt.wires = d1[a].metrics.wires + d2[b].metrics.wires + pt.crossbarWires;
          pt.area = d1[a].metrics.area + d2[b].metrics.area +
                    eo.costs.wireAreaPerBit * double(pt.crossbarWires) +
                    eo.costs.sramAreaPerBit * double(8 * (storeBytes + stateBytes)) +
                    double(w) * laneArea(eo.costs, base1.elementBits.at(0), accBits, sumBits(f)) +
                    double(pt.counts.normaliseLanes) * normaliseLaneArea(eo.costs, accBits);
          pt.macs = f.heads * (f.l * f.s * f.d + f.l * f.s * f.dv);
          const int64_t pes =
              d1[a].dataflow.p * d1[a].dataflow.q + d2[b].dataflow.p * d2[b].dataflow.q;
          pt.utilization = double(pt.macs) / double(pes * pt.latency);
          if (std::string why = widthProblem(prog, f, pt); !why.empty()) {
            if (!r.tooWide++) r.tooWideWhy = why;
            continue;
          }
          if (budget && pt.bufferBytes > budget) {
            ++r.overBudget;
            continue;
          }
          pt.id = pipelineId(prog, f, pt);
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
