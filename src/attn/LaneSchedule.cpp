// SPDX-License-Identifier: Apache-2.0
// Packing the vector passes' items into W lanes per cycle without bank conflicts.

#include "rubick/attn/LaneSchedule.h"

#include "rubick/arch/Plan.h"
#include "rubick/attn/Pipeline.h"

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace rubick::attn {
namespace {

// How far past the oldest waiting item the packer looks for a lane partner: bounds the work per
// row (the passes have up to tens of thousands of items) while still finding partners on other
// banks, which the host maps interleave within a few items.
constexpr size_t kWindow = 64;

bool conflict(const LaneItem& a, const LaneItem& b) {
  if (a.writeBank >= 0 && a.writeBank == b.writeBank) return true;
  return a.readBank >= 0 && a.readBank == b.readBank && a.readAddr != b.readAddr;
}

const arch::TensorMap& mapOf(const std::vector<arch::TensorMap>& maps, const GemmStage& g,
                             int tensor) {
  for (size_t a = 0; a < g.view.accesses.size(); ++a)
    if (g.view.accesses[a].tensor == tensor) return maps.at(a);
  throw std::logic_error("attention: a tensor is missing from its GEMM stage");
}

// Row-major index `dim` of element `lin` of a tensor of `shape`.
int64_t indexOf(int64_t lin, const std::vector<int64_t>& shape, size_t dim) {
  for (size_t r = shape.size(); r-- > dim + 1;)
    lin /= shape[r];
  return lin % shape[dim];
}

std::vector<LaneItem> writes(const arch::TensorMap& m) {
  std::vector<LaneItem> out;
  for (const auto& places : m.elements)
    for (const arch::Location& loc : places)
      out.push_back({0, -1, 0, loc.bank});
  return out;
}

} // namespace

LaneRows laneSchedule(const std::vector<LaneItem>& items, int64_t lanes) {
  if (lanes < 1) throw std::logic_error("lane schedule: at least one lane");
  LaneRows rows;
  size_t begin = 0;
  while (begin < items.size()) {
    size_t end = begin;
    while (end < items.size() && items[end].group == items[begin].group)
      ++end;
    // One group: greedy, oldest waiting item first.
    std::deque<int64_t> waiting;
    for (size_t i = begin; i < end; ++i)
      waiting.push_back(int64_t(i));
    while (!waiting.empty()) {
      std::vector<int64_t> row;
      std::vector<size_t> taken;
      for (size_t w = 0; w < waiting.size() && w < kWindow && int64_t(row.size()) < lanes; ++w) {
        const LaneItem& it = items[size_t(waiting[w])];
        bool ok = std::none_of(row.begin(), row.end(),
                               [&](int64_t r) { return conflict(items[size_t(r)], it); });
        if (!ok) continue;
        row.push_back(waiting[w]);
        taken.push_back(w);
      }
      for (size_t k = taken.size(); k-- > 0;)
        waiting.erase(waiting.begin() + std::ptrdiff_t(taken[k]));
      rows.push_back(std::move(row));
    }
    begin = end;
  }
  return rows;
}

PassItems passItems(const AttentionForm& f, const GemmStage& g1, const GemmStage& g2,
                    const std::vector<arch::TensorMap>& maps1,
                    const std::vector<arch::TensorMap>& maps2) {
  const size_t rowDim = f.multiHead ? 1 : 0;
  PassItems p;
  p.query = writes(mapOf(maps1, g1, f.q));
  p.key = writes(mapOf(maps1, g1, f.k));
  p.value = writes(mapOf(maps2, g2, f.v));
  const arch::TensorMap& sc = mapOf(maps1, g1, f.scores);
  for (size_t e = 0; e < sc.elements.size(); ++e) {
    if (sc.elements[e].size() != 1)
      throw std::logic_error("attention: a score without exactly one place");
    const arch::Location& s = sc.elements[e][0];
    p.score.push_back({indexOf(int64_t(e), sc.shape, rowDim), s.bank, s.address, -1});
  }
  const arch::TensorMap& em = mapOf(maps2, g2, f.e);
  for (size_t e = 0; e < em.elements.size(); ++e) {
    const arch::Location& s = sc.elements[e][0]; // same shape, same element
    for (const arch::Location& loc : em.elements[e])
      p.expo.push_back({indexOf(int64_t(e), em.shape, rowDim), s.bank, s.address, loc.bank});
  }
  const arch::TensorMap& um = mapOf(maps2, g2, f.u);
  for (const auto& places : um.elements) {
    if (places.size() != 1)
      throw std::logic_error("attention: a GEMM 2 result without exactly one place");
    p.result.push_back({0, places[0].bank, places[0].address, -1});
  }
  return p;
}

PassSchedules schedulePasses(const PassItems& items, int64_t lanes) {
  PassSchedules s;
  s.lanes = lanes;
  s.query = laneSchedule(items.query, lanes);
  s.key = laneSchedule(items.key, lanes);
  s.value = laneSchedule(items.value, lanes);
  s.score = laneSchedule(items.score, lanes);
  s.expo = laneSchedule(items.expo, lanes);
  s.result = laneSchedule(items.result, lanes);
  return s;
}

std::vector<arch::TensorMap> stageMaps(const GemmStage& g) {
  arch::Plan plan =
      arch::makePlan(g.prog, g.view, g.design.dataflow, g.design.entries, g.elementBits, "probe");
  return arch::hostMap(g.prog, g.view, g.design.dataflow, plan);
}

} // namespace rubick::attn
