// SPDX-License-Identifier: Apache-2.0
// Costing one attention pipeline (see PipelineCost.h).

#include "PipelineCost.h"

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/Plan.h"
#include "rubick/attn/PipelineMemory.h"
#include "rubick/dataflow/StatementView.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"

#include <algorithm>

namespace rubick::attn::detail {
namespace {

int64_t bytesOf(int64_t bits) {
  return (bits + 7) / 8;
}

std::vector<int64_t> stageBits(const tc::Program& p, const dataflow::StatementView& v,
                               int eTensor) {
  std::vector<int64_t> bits;
  for (const dataflow::AccessView& a : v.accesses)
    bits.push_back(a.tensor == eTensor && !a.write ? 16 : tc::bitWidth(p.tensors[a.tensor].type));
  return bits;
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
  // Another top around the same pipeline: the memory system's (pipelines without one keep the
  // IDs they had before there was one).
  if (p.memory.enabled())
    text += "|mem " + std::to_string(p.memory.bytesPerCycle) + " " +
            std::to_string(p.memory.latency) + " " + std::to_string(p.memory.burstBytes);
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

} // namespace

int64_t sumBits(const AttentionForm& f) {
  return 15 + arch::bitsFor(f.s) + 1;
}

PipelineContext makeContext(const tc::Program& prog, const AttentionForm& f,
                            const PipelineOptions& o) {
  if (f.multiHead && (f.headSize.empty() || !o.rebind))
    throw Error("explore", "multi-head attention needs the number of heads as a size symbol "
                           "(such as H in int8(H, L, D) Q), so that the arrays can be designed "
                           "for one head");
  PipelineContext c{prog, f, o, o.explore};
  c.budget = c.gemm.constraints.bufferBytes;
  c.gemm.constraints.bufferBytes = 0; // applies to the whole pipeline
  c.gemm.progress = nullptr;
  // With a memory the arrays still hold a whole key block in their banks (the pipeline's
  // buffers meet the memory, not the arrays).
  c.memory = c.gemm.constraints.memory;
  c.gemm.constraints.memory = {};
  if (c.memory.enabled())
    if (std::string why = pipelineMemoryProblem(prog, f); !why.empty())
      throw Unsupported("attention", why);
  // Everything outside the two arrays, as src/emit/AttentionTop.cpp and VectorUnit.cpp build
  // it: the query, key/value and output stores (all heads), the row state (m, alpha, l) and
  // U_acc.
  const tc::Tensor& qt = prog.tensors[f.q];
  const tc::Tensor& kt = prog.tensors[f.k];
  const tc::Tensor& vt = prog.tensors[f.v];
  const tc::Tensor& ot = prog.tensors[f.o];
  c.storeBytes = c.memory.enabled() ? 0
                                    : f.heads * (f.l * f.d * bytesOf(tc::bitWidth(qt.type)) +
                                                 f.s * f.d * bytesOf(tc::bitWidth(kt.type)) +
                                                 f.s * f.dv * bytesOf(tc::bitWidth(vt.type)) +
                                                 f.l * f.dv * bytesOf(tc::bitWidth(ot.type)));
  c.stateBytes = f.l * (4 + 2 + bytesOf(sumBits(f))) + f.l * f.dv * 4;
  // U_acc's width (src/emit/AttentionPackage.cpp), for the lanes' rescale multipliers.
  c.accBits = std::max<int64_t>(32, tc::bitWidth(vt.type) + 15 + arch::bitsFor(f.s) + 1);
  return c;
}

void checkBlock(const AttentionForm& f, int64_t b, const std::string& origin) {
  if (b < 1) throw Error(origin, "a key block needs at least 1 key");
  if (b > f.s)
    throw Error(origin, "a key block of " + std::to_string(b) + " keys is larger than the " +
                            std::to_string(f.s) + " keys there are");
  if (b < f.s && f.keySize.empty())
    throw Error(origin, "the key dimension is a literal; only one block of all " +
                            std::to_string(f.s) + " keys is possible");
}

std::vector<int64_t> blockCandidates(const AttentionForm& f, const PipelineOptions& o) {
  if (!o.blockKeys.empty()) {
    std::vector<int64_t> out;
    for (int64_t b : o.blockKeys) {
      checkBlock(f, b, "--block-keys");
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

void checkLanes(int64_t w, const std::string& origin) {
  if (w < 1 || w > 64)
    throw Error(origin,
                "a vector unit of " + std::to_string(w) + " lanes; the width must be 1 to 64");
}

std::vector<int64_t> laneCandidates(const PipelineOptions& o) {
  if (o.lanes.empty()) return kLaneChoices;
  std::vector<int64_t> out = o.lanes;
  for (int64_t w : out)
    checkLanes(w, "--vector-lanes");
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::pair<GemmStage, GemmStage> baseStages(const PipelineContext& c, int64_t bk) {
  const AttentionForm& f = c.form;
  // The arrays compute one head over one key block: the heads run one after another, so a
  // multi-head program's GEMMs are designed for a single head.
  tc::Program p = (bk == f.s && !f.multiHead) || !c.options.rebind ? c.prog : [&] {
    std::vector<std::pair<std::string, int64_t>> sizes = c.prog.sizes;
    for (auto& [n, val] : sizes) {
      if (n == f.keySize) val = bk;
      if (f.multiHead && n == f.headSize) val = 1;
    }
    return c.options.rebind(sizes);
  }();
  std::pair<GemmStage, GemmStage> out;
  for (GemmStage* g : {&out.first, &out.second}) {
    g->prog = p;
    g->stmt = g == &out.first ? f.score : f.values;
    g->view = dataflow::viewStatement(p, g->stmt);
    g->elementBits = stageBits(p, g->view, f.e);
  }
  return out;
}

StageWithMaps withDesign(const GemmStage& base, const dse::DesignPoint& d) {
  StageWithMaps s{base, {}};
  s.stage.design = d;
  s.maps = stageMaps(s.stage);
  return s;
}

std::optional<arch::MemoryPlan> blockMemoryPlan(const PipelineContext& c, int64_t bk) {
  if (!c.memory.enabled()) return std::nullopt;
  return pipelineMemoryPlan(c.prog, c.form, bk, c.memory, "attention");
}

PipelinePoint costPipeline(const PipelineContext& c, int64_t bk, int64_t w, const StageWithMaps& g1,
                           const StageWithMaps& g2, const PassItems& items,
                           const std::optional<arch::MemoryPlan>& plan) {
  const AttentionForm& f = c.form;
  const dse::DesignPoint& d1 = g1.stage.design;
  const dse::DesignPoint& d2 = g2.stage.design;
  const PassSchedules ps = schedulePasses(items, w);
  auto places = [](const std::vector<LaneItem>& v) { return int64_t(v.size()); };
  auto rows = [](const LaneRows& v) { return int64_t(v.size()); };
  PipelinePoint pt;
  pt.blockKeys = bk;
  pt.heads = f.heads;
  pt.lanes = w;
  pt.g1 = g1.stage;
  pt.g2 = g2.stage;
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
  pt.timing = pipelineTiming(f, pt.counts, bk, d1.metrics.latency, d2.metrics.latency);
  pt.latency = f.heads * pt.timing.perHead();
  pt.scoreBytes = d1.metrics.tensors.front().bufferBytes;
  int64_t storeBytes = c.storeBytes;
  if (plan) {
    // The run as the memory system's sequencer makes it: the key blocks are its buffer tiles.
    pt.memory = c.memory;
    pt.transfers.computeCycles = pt.latency;
    pt.transfers.bufferBytes = memoryBufferBytes(*plan);
    pt.transfers.timing =
        arch::memoryTiming(withSteps(*plan, pt.timing), arch::axiOptions(c.memory), c.memory);
    pt.latency = pt.transfers.timing.cycles;
    storeBytes = pt.transfers.bufferBytes;
  }
  pt.bufferBytes = d1.metrics.bufferBytes + d2.metrics.bufferBytes + storeBytes + c.stateBytes;
  pt.crossbarWires = crossbarBits(d1.metrics, w) + crossbarBits(d2.metrics, w);
  pt.wires = d1.metrics.wires + d2.metrics.wires + pt.crossbarWires;
  const dse::CostTable& costs = c.gemm.costs;
  pt.area = d1.metrics.area + d2.metrics.area + costs.wireAreaPerBit * double(pt.crossbarWires) +
            costs.sramAreaPerBit * double(8 * (storeBytes + c.stateBytes)) +
            double(w) * laneArea(costs, g1.stage.elementBits.at(0), c.accBits, sumBits(f)) +
            double(pt.counts.normaliseLanes) * normaliseLaneArea(costs, c.accBits);
  pt.macs = f.heads * (f.l * f.s * f.d + f.l * f.s * f.dv);
  const int64_t pes = d1.dataflow.p * d1.dataflow.q + d2.dataflow.p * d2.dataflow.q;
  pt.utilization = double(pt.macs) / double(pes * pt.latency);
  pt.id = pipelineId(c.prog, f, pt);
  return pt;
}

} // namespace rubick::attn::detail
