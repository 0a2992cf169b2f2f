// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/MemoryPlan.h"

#include "rubick/arch/AxiOptions.h"

#include "rubick/dse/CostModel.h"
#include "rubick/support/Unsupported.h"

#include <algorithm>

namespace rubick::arch {

namespace {

// The dataflow on one buffer tile: outer stamps that take a single value there are left out
// (a well-formed dataflow has none).
dataflow::Dataflow tileDataflow(const dataflow::Dataflow& d, const dataflow::StatementView& tile) {
  dataflow::Dataflow out = d;
  out.outer.clear();
  for (size_t o = 0; o < d.outer.size(); ++o)
    if (d.outerExtent(o, tile.extent) > 1) out.outer.push_back(d.outer[o]);
  return out;
}

} // namespace

std::string memoryBuildProblem(const dataflow::StatementView& v,
                               const std::vector<int64_t>& elementBits) {
  for (size_t i = 0; i < v.accesses.size(); ++i) {
    const dataflow::AccessView& a = v.accesses[i];
    const int64_t bits = i < elementBits.size() ? elementBits[i] : 8;
    if (a.shape.empty()) return a.name + " is a scalar; the DMA moves tiles of tensors";
    if (bits % 8 != 0)
      return a.name + " has " + std::to_string(bits) +
             "-bit elements; the DMA moves tiles of whole bytes";
    for (size_t r = 0; r < a.coeffs.size(); ++r) {
      bool backwards = false;
      for (int64_t c : a.coeffs[r])
        backwards |= c < 0;
      if (backwards || a.constant[r] != 0)
        return "dimension " + std::to_string(r) + " of " + a.name +
               " is not a sum of loops (times positive factors); the memory system moves only "
               "boxes of a tensor";
    }
  }
  return "";
}

std::pair<tc::Program, dataflow::StatementView> bufferTileProblem(const tc::Program& prog,
                                                                  const dataflow::StatementView& v,
                                                                  const dse::BufferTiling& t) {
  tc::Program p = prog;
  dataflow::StatementView s = v;
  s.extent = t.size;
  // Each dimension's tile is the index range the tile's loops cover (h + r: h_t + r_t - 1).
  for (dataflow::AccessView& a : s.accesses)
    for (size_t r = 0; r < a.coeffs.size(); ++r) {
      int64_t range = 1;
      for (size_t l = 0; l < v.extent.size(); ++l) {
        if (a.coeffs[r][l] < 0 || a.constant[r] != 0)
          throw Unsupported("emit", "dimension " + std::to_string(r) + " of " + a.name +
                                        " is not a sum of loops (times positive factors); the "
                                        "memory system moves only boxes of a tensor");
        range += a.coeffs[r][l] * (std::min(t.size[l], v.extent[l]) - 1);
      }
      a.shape[r] = std::min(range, a.shape[r]);
      p.tensors[static_cast<size_t>(a.tensor)].shape[r] = a.shape[r];
    }
  return {std::move(p), std::move(s)};
}

MemoryPlan makeMemoryPlan(const tc::Program& prog, const dataflow::StatementView& v,
                          const dataflow::Dataflow& d,
                          const std::vector<ir::OrientedEntry>& entries,
                          const std::vector<int64_t>& elementBits, const dse::BufferTiling& t,
                          const std::string& name, uint32_t outputIndexDims,
                          uint32_t outputSplitDims) {
  if (t.size.size() != v.loops.size())
    throw std::logic_error("memory plan: a buffer tiling with " + std::to_string(t.size.size()) +
                           " sizes for " + std::to_string(v.loops.size()) + " loops");
  auto [tileProg, tileView] = bufferTileProblem(prog, v, t);
  MemoryPlan m;
  m.dataflow = tileDataflow(d, tileView);
  m.tiling = t;
  for (size_t l = 0; l < v.loops.size(); ++l)
    m.tileCount.push_back((v.extent[l] + t.size[l] - 1) / t.size[l]);
  // An output whose reduction loop spans several buffer tiles keeps adding to its partial sums.
  std::vector<char> bufferRecurs(v.accesses.size(), 0);
  for (size_t i = 0; i < v.accesses.size(); ++i)
    for (size_t l = 0; l < v.loops.size(); ++l) {
      bool indexes = false;
      for (const IntVec& row : v.accesses[i].coeffs)
        indexes |= row[l] != 0;
      bufferRecurs[i] |= v.accesses[i].write && m.tileCount[l] > 1 && !indexes;
    }
  m.core = makePlan(tileProg, tileView, m.dataflow, entries, elementBits, name, bufferRecurs);
  // Partial sums that span buffer tiles (kept in the banks or reloaded) add up the whole
  // reduction, not one tile's: the accumulator needs the whole statement's width. (A maximum or
  // minimum keeps the output's width whatever it spans: makePlan's.)
  const std::vector<int64_t> inBits(elementBits.begin() + 1, elementBits.end());
  const int64_t accumulator = dse::accumulatorBits(v, inBits);
  if (v.fold == dataflow::Fold::Sum && accumulator > m.core.accumulatorBits) {
    m.core.accumulatorBits = accumulator;
    for (TensorPlan& t : m.core.tensors)
      if (t.output) t.wireBits = accumulator;
  }
  const std::vector<TensorMap> maps = hostMap(tileProg, tileView, m.dataflow, m.core);
  for (size_t i = 0; i < v.accesses.size(); ++i) {
    TensorTransfer x;
    x.access = i;
    x.tile = tileView.accesses[i].shape;
    x.shape = v.accesses[i].shape;
    std::string why;
    std::optional<dse::TileBox> box =
        dse::tileBox(v.accesses[i], v.extent, t.size, i == 0 ? outputIndexDims : 0, why,
                     i == 0 ? outputSplitDims : 0);
    if (!box) throw Unsupported("emit", why);
    x.box = std::move(*box);
    // The DMA map sees the tile as its box: rows x cols in the same row-major order.
    TensorMap boxMap = maps[i];
    boxMap.shape = {x.box.rows, x.box.cols};
    std::optional<DmaMap> dma =
        deriveDmaMap(boxMap, static_cast<int64_t>(m.core.tensors[i].ports.size()), why);
    if (!dma)
      throw Unsupported("emit", "the bank layout of " + v.accesses[i].name + " (" +
                                    ir::toString(m.core.tensors[i].entry) +
                                    ") has no DMA map: " + why);
    x.dma = std::move(*dma);
    int innermost = -1;
    for (size_t pos = 0; pos < t.order.size(); ++pos) {
      const size_t l = static_cast<size_t>(t.order[pos]);
      bool indexes = false;
      for (const IntVec& row : v.accesses[i].coeffs)
        indexes |= row[l] != 0;
      x.indexedBy.push_back(indexes);
      if (indexes) innermost = static_cast<int>(pos);
    }
    for (size_t pos = 0; pos < t.order.size(); ++pos) {
      const bool r = v.accesses[i].write && static_cast<int>(pos) < innermost && !x.indexedBy[pos];
      x.revisits.push_back(r);
      x.reload |= r;
    }
    // `+=`: the output's start values come from memory on every first visit too.
    x.startValues = v.accesses[i].write && v.accumulates;
    x.reload |= x.startValues;
    m.tensors.push_back(std::move(x));
  }
  // Chained runs as the explorer chose them, where they are safe (dse/Memory.h): overlapping
  // array tiles, and no output read back by the next run before the previous run wrote it.
  const dse::Schedule& s = m.core.schedule;
  bool outputsMove = !t.order.empty();
  for (const TensorTransfer& x : m.tensors) {
    if (!v.accesses[x.access].write || (!x.indexedBy.empty() && x.indexedBy.back())) continue;
    // Otherwise the first and the last array tile must write different elements.
    const TensorPlan& tp = m.core.tensors[x.access];
    bool apart = false;
    for (size_t o = 0; o < m.core.outer.size() && o < tp.strides.size(); ++o)
      apart |= m.core.outer[o].extent > 1 && tp.strides[o] != 0;
    outputsMove &= apart;
  }
  m.core.chain =
      t.chain && s.interval < s.tileCycles && (s.interval + 1 >= s.intervalCarry || outputsMove);
  return m;
}

} // namespace rubick::arch

namespace rubick::arch {

int64_t coreCycles(const MemoryPlan& m, int64_t step) {
  const dse::Schedule& s = m.core.schedule;
  if (m.core.chain) return s.tiles * s.interval;
  if (m.stepCycles.empty()) return s.latency + 1;
  return m.stepCycles.at(static_cast<size_t>(step));
}

} // namespace rubick::arch

namespace rubick::arch {

std::vector<MovedTensor> movedTensors(const MemoryPlan& m) {
  std::vector<MovedTensor> r;
  for (size_t t = 0; t < m.tensors.size(); ++t) {
    const TensorPlan& tp = m.core.tensors[t];
    const bool after = tp.output && m.epilogue; // the epilogue's result goes to memory
    r.push_back({after ? m.epilogue->outputName : tp.name, tp.output,
                 after ? m.epilogueBits : tp.elementBits, m.tensors[t].shape});
  }
  for (const OperandTransfer& o : m.operands)
    r.push_back({o.operand.name, false, o.operand.bits, o.operand.shape});
  return r;
}

MemoryPlan designMemoryPlan(const tc::Program& prog, const dataflow::StatementView& v,
                            const dse::DesignPoint& pt, const dse::ExploreOptions& o,
                            const std::string& name, int64_t busBytes) {
  MemoryPlan m = makeMemoryPlan(prog, v, pt.dataflow, pt.entries, o.constraints.elementBits,
                                pt.buffer, name, o.epilogue ? dse::indexDims(*o.epilogue) : 0,
                                o.epilogue ? dse::splitDims(*o.epilogue) : 0);
  if (o.epilogue) addEpilogue(m, prog, v, o.epilogue, busBytes);
  return m;
}

std::string designMemoryProblem(const tc::Program& prog, const dataflow::StatementView& v,
                                const dse::DesignPoint& pt, const dse::ExploreOptions& o) {
  if (pt.buffer.size.empty()) return "";
  try {
    designMemoryPlan(prog, v, pt, o, "check", axiOptions(o.constraints.memory).busBytes);
  } catch (const Unsupported& e) {
    return e.diag().message;
  }
  return "";
}

void addEpilogue(MemoryPlan& m, const tc::Program& prog, const dataflow::StatementView& v,
                 std::shared_ptr<const dse::Epilogue> e, int64_t busBytes) {
  const tc::Tensor& acc = prog.tensors[static_cast<size_t>(e->accumulator)];
  const tc::Tensor& out = prog.tensors[static_cast<size_t>(e->output)];
  const TensorPlan& core = m.core.tensors.front();
  if (core.elementBits != tc::bitWidth(acc.type))
    throw Unsupported("emit", "the epilogue reads " + acc.name + " at the width of its type (" +
                                  tc::toString(acc.type) + "), but its banks hold " +
                                  std::to_string(core.elementBits) +
                                  "-bit elements (--dtype does not go with an epilogue)");
  auto movable = [](int64_t bits) { return bits == 8 || bits == 16 || bits == 32; };
  if (!movable(tc::bitWidth(out.type)))
    throw Unsupported("emit", "the DMA writes elements of 8, 16 or 32 bits; " + out.name + " is " +
                                  tc::toString(out.type));
  if (m.tensors.front().reload)
    throw Unsupported("emit", "an epilogue takes " + acc.name +
                                  " when its reduction is complete on chip; this design writes its "
                                  "partial sums out and reads them back (a reduction loop outside "
                                  "its loops in the buffer order)");
  m.epilogue = std::move(e);
  m.epilogueBits = tc::bitWidth(out.type);
  for (const dse::EpilogueOperand& op : m.epilogue->operands) {
    if (!movable(op.bits))
      throw Unsupported("emit", "the DMA reads elements of 8, 16 or 32 bits; the operand " +
                                    op.name + " has " + std::to_string(op.bits));
    OperandTransfer o;
    o.operand = op;
    o.lanes = std::clamp<int64_t>(busBytes / (op.bits / 8), 1, op.extent);
    if (op.full()) {
      // The output's write groups, in the output's walk, one bank per lane: group (gr, gc) at
      // address gr x groupCols + gc. Its gather then yields the groups in the output's order and
      // cycles (a gather's timing does not depend on its map's tables).
      const DmaMap& out = m.tensors.front().dma;
      DmaMap& d = o.dma;
      d.rows = out.rows;
      d.cols = out.cols;
      d.rowLanes = out.rowLanes;
      d.lanes = out.lanes;
      d.rowStep = out.groupCols();
      d.colStep = 1;
      d.cells.assign(1, {});
      for (int64_t l = 0; l < d.lanes; ++l)
        d.cells[0].push_back({static_cast<int>(l), 0});
      o.lanes = d.lanes;
      o.banks = d.lanes;
      o.depth = out.groupRows() * out.groupCols();
      o.addressBits = bitsFor(o.depth);
      // Its tiles: the output's boxes in its own layout (the output's split dimensions make them
      // alike), from its offset on.
      dataflow::AccessView a = v.accesses.front();
      a.name = op.name;
      a.shape = op.shape;
      std::string why;
      std::optional<dse::TileBox> box =
          dse::tileBox(a, v.extent, m.tiling.size, dse::indexDims(*m.epilogue), why,
                       dse::splitDims(*m.epilogue));
      const dse::TileBox& ob = m.tensors.front().box;
      if (!box || box->rows != ob.rows || box->cols != ob.cols || box->rstep != ob.rstep ||
          box->cstep != ob.cstep || box->rowLoop != ob.rowLoop || box->colLoop != ob.colLoop)
        throw Unsupported("emit", "the tiles of " + op.name + " are not boxes like " +
                                      m.epilogue->outputName + "'s" + (box ? "" : ": " + why));
      o.box = std::move(*box);
      int64_t stride = 1;
      for (size_t d = op.offset.size(); d-- > 0;) {
        o.offsetBytes += op.offset[d] * stride * (op.bits / 8);
        stride *= op.shape[d];
      }
    }
    m.operands.push_back(o);
  }
}

} // namespace rubick::arch
