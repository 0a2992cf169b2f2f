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
  for (size_t e = 0; e < m.elements.size(); ++e)
    for (const arch::Location& loc : m.elements[e])
      out.push_back({0, -1, 0, loc.bank, -1, int64_t(e)});
  return out;
}

// The items with their lanes pinned: key mod `lanes`.
std::vector<LaneItem> pinned(std::vector<LaneItem> items, int64_t lanes) {
  for (LaneItem& it : items)
    it.lane = it.key % lanes;
  return items;
}

} // namespace

LaneRows laneSchedule(const std::vector<LaneItem>& items, int64_t lanes) {
  if (lanes < 1) throw std::logic_error("lane schedule: at least one lane");
  for (const LaneItem& it : items)
    if (it.lane >= lanes) throw std::logic_error("lane schedule: an item's lane is out of range");
  LaneRows rows;
  size_t begin = 0;
  while (begin < items.size()) {
    size_t end = begin;
    while (end < items.size() && items[end].group == items[begin].group)
      ++end;
    // One group: the items of a fixed lane wait in that lane's queue, the others in one queue.
    std::vector<std::deque<int64_t>> fixed(static_cast<size_t>(lanes));
    std::deque<int64_t> any;
    size_t left = end - begin;
    for (size_t i = begin; i < end; ++i)
      (items[i].lane >= 0 ? fixed[size_t(items[i].lane)] : any).push_back(int64_t(i));
    while (left > 0) {
      std::vector<int64_t> row(size_t(lanes), -1);
      auto fits = [&](const LaneItem& it) {
        return std::none_of(row.begin(), row.end(),
                            [&](int64_t r) { return r >= 0 && conflict(items[size_t(r)], it); });
      };
      // The oldest waiting item that fits, within the window; it leaves its queue.
      auto take = [&](std::deque<int64_t>& queue) -> int64_t {
        for (size_t w = 0; w < queue.size() && w < kWindow; ++w) {
          const int64_t x = queue[w];
          if (!fits(items[size_t(x)])) continue;
          queue.erase(queue.begin() + std::ptrdiff_t(w));
          --left;
          return x;
        }
        return -1;
      };
      for (size_t l = 0; l < row.size(); ++l)
        row[l] = take(fixed[l]);
      for (size_t l = 0; l < row.size(); ++l)
        if (row[l] < 0) row[l] = take(any);
      while (row.back() < 0)
        row.pop_back();
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
  for (size_t e = 0; e < um.elements.size(); ++e) {
    const auto& places = um.elements[e];
    if (places.size() != 1)
      throw std::logic_error("attention: a GEMM 2 result without exactly one place");
    p.result.push_back(
        {0, places[0].bank, places[0].address, -1, -1, indexOf(int64_t(e), um.shape, rowDim)});
  }
  p.rows = f.l;
  return p;
}

PassSchedules schedulePasses(const PassItems& items, int64_t lanes) {
  PassSchedules s;
  s.lanes = lanes;
  s.query = laneSchedule(pinned(items.query, lanes), lanes);
  s.key = laneSchedule(pinned(items.key, lanes), lanes);
  s.value = laneSchedule(pinned(items.value, lanes), lanes);
  s.score = laneSchedule(items.score, lanes);
  s.expo = laneSchedule(items.expo, lanes);
  s.result = laneSchedule(pinned(items.result, normaliseLanes(lanes, items.rows)), lanes);
  return s;
}

std::vector<arch::TensorMap> stageMaps(const GemmStage& g) {
  arch::Plan plan =
      arch::makePlan(g.prog, g.view, g.design.dataflow, g.design.entries, g.elementBits, "probe");
  return arch::hostMap(g.prog, g.view, g.design.dataflow, plan);
}

} // namespace rubick::attn
