// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/MemoryTiming.h"

#include "TimingParts.h"

#include "rubick/support/Diagnostic.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace rubick::arch {

std::vector<uint64_t> defaultBases(const MemoryPlan& m) {
  std::vector<uint64_t> b;
  uint64_t next = 4096;
  for (const MovedTensor& x : movedTensors(m)) {
    b.push_back(next);
    int64_t bytes = x.bits / 8;
    for (int64_t s : x.shape)
      bytes *= s;
    next += (static_cast<uint64_t>(bytes) + 4095) / 4096 * 4096;
  }
  return b;
}

namespace timing {

int64_t mostCoreCycles(const MemoryPlan& m) {
  int64_t most = m.core.schedule.latency + 1;
  if (!m.stepCycles.empty()) most = *std::max_element(m.stepCycles.begin(), m.stepCycles.end());
  return most;
}

std::vector<uint64_t> basesFor(const MemoryPlan& m, const std::vector<uint64_t>& given) {
  std::vector<uint64_t> b = given.empty() ? defaultBases(m) : given;
  const size_t n = m.tensors.size() + m.operands.size();
  if (b.size() != n)
    throw Error("timing",
                std::to_string(b.size()) + " base addresses for " + std::to_string(n) + " tensors");
  return b;
}

BusTiming busTiming(const AxiOptions& o, const dse::MemorySystem& mem) {
  BusTiming bus;
  bus.busBytes = o.busBytes;
  bus.beatSpacing = mem.bytesPerCycle >= o.busBytes
                        ? 1
                        : (o.busBytes + mem.bytesPerCycle - 1) / mem.bytesPerCycle;
  bus.latency = std::max<int64_t>(1, mem.latency);
  bus.burstBeats = o.burstBeats;
  bus.outstanding = o.outstanding;
  return bus;
}

BusTiming onChipBus(const BusTiming& bus, const OnChip& onChip) {
  BusTiming b = bus;
  b.beatSpacing = 1;
  b.latency = std::max<int64_t>(1, onChip.latency);
  b.memory = nullptr;
  return b;
}

std::vector<DmaEngine> engines(const MemoryPlan& m) {
  std::vector<DmaEngine> e;
  const std::vector<MovedTensor> moved = movedTensors(m);
  for (size_t t = 0; t < m.tensors.size(); ++t)
    e.push_back(dmaEngine(m.tensors[t].dma, moved[t].bits));
  // A vector operand's load: one row of the whole vector in groups of `lanes` (rubick_vec_reg
  // takes them as the scatter would); a full operand's: the output's map.
  for (const OperandTransfer& o : m.operands) {
    if (o.operand.full()) {
      e.push_back(dmaEngine(o.dma, o.operand.bits));
      continue;
    }
    DmaEngine x;
    x.elemBytes = o.operand.bits / 8;
    x.lanes = o.lanes;
    x.cols = o.operand.extent;
    e.push_back(x);
  }
  return e;
}

int64_t transferCycles(const SequencerConfig& c, const DmaEngine& e, const SeqEvent& ev,
                       const BusTiming& bus) {
  const SequencedTensor& x = c.tensors[static_cast<size_t>(ev.tensor)];
  TileGeometry g;
  g.base = ev.addr;
  g.pitch = static_cast<uint64_t>(x.rowPitch() * x.ebytes);
  g.rows = ev.rows;
  g.cols = ev.cols;
  return ev.kind == SeqKind::load ? dmaReadDone(e, g, bus) + 1 : dmaWriteDone(e, g, bus, 3);
}

void summarize(const SeqTimeline& tl, MemoryTiming& r) {
  const int64_t n = static_cast<int64_t>(tl.phases.size()) - 2;
  r.tiles = n;
  r.cycles = tl.done - 1;
  r.firstLoad = tl.phases.front().last - tl.phases.front().first + 1;
  r.lastStore = tl.phases.back().last - tl.phases.back().first + 1;
  // What ended each compute phase: its latest done (the core first on a tie, then loads).
  std::vector<int> bound(tl.phases.size(), -1);
  std::vector<int64_t> latest(tl.phases.size(), -1);
  size_t phase = 0;
  int64_t phaseEnd = tl.phases[0].last;
  for (const SeqEvent& ev : tl.events) {
    while (ev.start > phaseEnd)
      phaseEnd = tl.phases[++phase].last;
    if (ev.kind == SeqKind::load) ++r.loads, r.loadCycles += ev.done - ev.start;
    if (ev.kind == SeqKind::store) ++r.stores, r.storeCycles += ev.done - ev.start;
    const int kind = ev.kind == SeqKind::core ? 0 : ev.kind == SeqKind::load ? 1 : 2;
    if (ev.done > latest[phase] || (ev.done == latest[phase] && kind < bound[phase]))
      latest[phase] = ev.done, bound[phase] = kind;
  }
  // Phases 0 .. N-1 (a reload waiting for its tensor's store ends after it: the loads').
  for (size_t k = 1; k + 1 < tl.phases.size(); ++k) {
    const int64_t len = tl.phases[k].last - tl.phases[k].first + 1;
    if (bound[k] == 0) ++r.computeBound, r.computePhaseCycles += len;
    if (bound[k] == 1) ++r.loadBound, r.loadPhaseCycles += len;
    if (bound[k] == 2) ++r.storeBound, r.storePhaseCycles += len;
  }
}

} // namespace timing

MemoryTiming memoryTiming(const MemoryPlan& m, const AxiOptions& o, const dse::MemorySystem& mem,
                          const std::vector<uint64_t>& given, const OnChip& onChip) {
  const SequencerConfig c = sequencerConfig(m);
  MemoryTiming r;
  r.bases = timing::basesFor(m, given);
  const BusTiming bus = timing::busTiming(o, mem);
  const BusTiming chip = timing::onChipBus(bus, onChip);
  const std::vector<DmaEngine> engines = timing::engines(m);
  // The core runs its full schedule on every tile (edge tiles are padded): busy for `latency`
  // cycles from the edge after core_start, and core_done is the registered fall of busy.
  r.coreCycles = timing::mostCoreCycles(m);
  // A transfer's cycles depend on its tile's offset in a 4 KiB page (beats and bursts) and its
  // valid rows and columns; edge tiles aside, most tiles repeat.
  std::map<std::tuple<int, int, uint64_t, int64_t, int64_t>, int64_t> memo;
  auto delay = [&](const SeqEvent& ev) -> int64_t {
    if (ev.kind == SeqKind::core) return coreCycles(m, ev.step);
    const auto key =
        std::make_tuple(static_cast<int>(ev.kind), ev.tensor, ev.addr % 4096, ev.rows, ev.cols);
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
    const size_t t = static_cast<size_t>(ev.tensor);
    const int64_t d = timing::transferCycles(c, engines[t], ev, onChip.has(t) ? chip : bus);
    memo.emplace(key, d);
    return d;
  };
  timing::summarize(sequencerTimeline(c, r.bases, delay), r);
  return r;
}

} // namespace rubick::arch
