// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/DmaMap.h"

#include <algorithm>
#include <set>

namespace rubick::arch {

int64_t DmaMap::groupRows() const {
  return rowLanes ? (rows + lanes - 1) / lanes : rows;
}

int64_t DmaMap::groupCols() const {
  return rowLanes ? cols : (cols + lanes - 1) / lanes;
}

std::pair<int64_t, int64_t> DmaMap::element(int64_t gr, int64_t gc, int64_t lane) const {
  return rowLanes ? std::pair{gr * lanes + lane, gc} : std::pair{gr, gc * lanes + lane};
}

Location DmaMap::place(int64_t gr, int64_t gc, int64_t lane, int64_t copy) const {
  auto [r, c] = element(gr, gc, lane);
  if (r >= rows || c >= cols) return {-1, 0};
  const int64_t phase = (gr % rowPeriod) * colPeriod + gc % colPeriod;
  Location l = cells[static_cast<size_t>(phase)][static_cast<size_t>(lane * copies + copy)];
  l.address += rowStep * (gr / rowPeriod) + colStep * (gc / colPeriod);
  return l;
}

namespace {

// One candidate shape of write groups over the host map.
struct Candidate {
  const TensorMap& m;
  DmaMap d;

  bool inside(int64_t gr, int64_t gc, int64_t lane) const {
    auto [r, c] = d.element(gr, gc, lane);
    return r < d.rows && c < d.cols;
  }

  // Null past the tile's edge and for a copy the element does not have (an input element that
  // fewer PEs read, as at a convolution window's edge, has fewer places).
  const Location* at(int64_t gr, int64_t gc, int64_t lane, int64_t copy) const {
    auto [r, c] = d.element(gr, gc, lane);
    if (r >= d.rows || c >= d.cols) return nullptr;
    const std::vector<Location>& places = m.elements[static_cast<size_t>(r * d.cols + c)];
    return static_cast<size_t>(copy) < places.size() ? &places[static_cast<size_t>(copy)] : nullptr;
  }

  // Every group's places go to distinct banks (they are written in one cycle).
  bool conflictFree() const {
    std::vector<char> used;
    for (int64_t gr = 0; gr < d.groupRows(); ++gr)
      for (int64_t gc = 0; gc < d.groupCols(); ++gc) {
        std::set<int> banks;
        for (int64_t l = 0; l < d.lanes; ++l)
          for (int64_t c = 0; c < d.copies; ++c)
            if (const Location* p = at(gr, gc, l, c); p && !banks.insert(p->bank).second)
              return false;
      }
    return true;
  }

  // The smallest period p (in groups, along rows or columns) after which every place repeats
  // its bank and moves its address by one common step; the whole extent when none does.
  std::pair<int64_t, int64_t> period(bool alongRows) const {
    const int64_t n = alongRows ? d.groupRows() : d.groupCols();
    for (int64_t p = 1; p < n; ++p) {
      bool ok = true, stepKnown = false;
      int64_t step = 0;
      for (int64_t gr = alongRows ? p : 0; ok && gr < d.groupRows(); ++gr)
        for (int64_t gc = alongRows ? 0 : p; ok && gc < d.groupCols(); ++gc)
          for (int64_t l = 0; ok && l < d.lanes; ++l)
            for (int64_t c = 0; ok && c < d.copies; ++c) {
              const int64_t br = alongRows ? gr - p : gr, bc = alongRows ? gc : gc - p;
              if (!inside(gr, gc, l) || !inside(br, bc, l)) continue;
              const Location* a = at(gr, gc, l, c);
              const Location* b = at(br, bc, l, c);
              if (!a || !b) {
                ok = !a && !b; // a copy repeats only where both elements lack it
                continue;
              }
              if (a->bank != b->bank)
                ok = false;
              else if (!stepKnown)
                step = a->address - b->address, stepKnown = true;
              else if (a->address - b->address != step)
                ok = false;
            }
      if (ok) return {p, step};
    }
    return {std::max<int64_t>(n, 1), 0};
  }

  bool fit() {
    auto [pr, sr] = period(true);
    auto [pc, sc] = period(false);
    d.rowPeriod = pr, d.rowStep = sr, d.colPeriod = pc, d.colStep = sc;
    if (pr * pc * d.lanes * d.copies > kMaxCells) return false;
    d.cells.assign(static_cast<size_t>(pr * pc),
                   std::vector<Location>(static_cast<size_t>(d.lanes * d.copies), {-1, 0}));
    for (int64_t gr = 0; gr < std::min(pr, d.groupRows()); ++gr)
      for (int64_t gc = 0; gc < std::min(pc, d.groupCols()); ++gc)
        for (int64_t l = 0; l < d.lanes; ++l)
          for (int64_t c = 0; c < d.copies; ++c)
            if (const Location* p = at(gr, gc, l, c))
              d.cells[static_cast<size_t>(gr * pc + gc)][static_cast<size_t>(l * d.copies + c)] =
                  *p;
    // Lanes past the edge in the first period may hold elements further on (a short first
    // group); fill them from the first group where they exist. A cell is a place of every
    // element that falls on it or of none (the scatter writes every cell's place).
    std::vector<char> absent(static_cast<size_t>(pr * pc * d.lanes * d.copies), 0);
    for (int64_t gr = 0; gr < d.groupRows(); ++gr)
      for (int64_t gc = 0; gc < d.groupCols(); ++gc)
        for (int64_t l = 0; l < d.lanes; ++l)
          for (int64_t c = 0; c < d.copies; ++c) {
            if (!inside(gr, gc, l)) continue;
            const size_t phase = static_cast<size_t>((gr % pr) * pc + gc % pc);
            const size_t k = static_cast<size_t>(l * d.copies + c);
            Location& cell = d.cells[phase][k];
            char& none = absent[phase * static_cast<size_t>(d.lanes * d.copies) + k];
            const Location* p = at(gr, gc, l, c);
            if (!p) {
              if (cell.bank >= 0) return false;
              none = 1;
              continue;
            }
            if (none) return false;
            const int64_t base = sr * (gr / pr) + sc * (gc / pc);
            if (cell.bank < 0) cell = {p->bank, p->address - base};
            if (cell.bank != p->bank || cell.address + base != p->address) return false;
          }
    return conflictFree();
  }
};

} // namespace

std::optional<DmaMap> deriveDmaMap(const TensorMap& m, int64_t banks, std::string& why) {
  if (m.shape.empty() || m.elements.empty()) {
    why = "the tensor has no elements";
    return std::nullopt;
  }
  DmaMap base;
  base.cols = m.shape.back();
  base.rows = static_cast<int64_t>(m.elements.size()) / base.cols;
  size_t hi = 0;
  for (const std::vector<Location>& places : m.elements)
    hi = std::max(hi, places.size());
  if (hi == 0) {
    why = "its elements have no place in the banks";
    return std::nullopt;
  }
  // The scatter writes one place per bank a cycle: an element kept twice in one bank (read at
  // several times from its own address) cannot be written in one group.
  for (size_t e = 0; e < m.elements.size(); ++e) {
    const std::vector<Location>& places = m.elements[e];
    for (size_t a = 0; a < places.size(); ++a)
      for (size_t b = a + 1; b < places.size(); ++b)
        if (places[a].bank == places[b].bank) {
          why = "element " + std::to_string(e) + " (row-major) has several places in bank " +
                std::to_string(places[a].bank) +
                " (it is read at several times from each); the DMA writes a place per bank a "
                "cycle";
          return std::nullopt;
        }
  }
  base.copies = static_cast<int64_t>(hi);
  const int64_t most = std::max<int64_t>(1, banks / base.copies);
  for (int64_t lanes = std::min(most, std::max(base.rows, base.cols)); lanes >= 1; --lanes) {
    for (bool rowLanes : {false, true}) {
      if (lanes > (rowLanes ? base.rows : base.cols)) continue;
      if (lanes == 1 && rowLanes) continue; // the same as one column lane
      Candidate cand{m, base};
      cand.d.rowLanes = rowLanes;
      cand.d.lanes = lanes;
      if (cand.fit()) return cand.d;
    }
  }
  why = "no write pattern with a table of at most " + std::to_string(kMaxCells) +
        " cells reproduces its bank layout";
  return std::nullopt;
}

std::string toString(const DmaMap& d) {
  return std::string(d.rowLanes ? "row" : "column") + " lanes " + std::to_string(d.lanes) +
         ", copies " + std::to_string(d.copies) + ", phases " + std::to_string(d.rowPeriod) + "x" +
         std::to_string(d.colPeriod) + ", steps " + std::to_string(d.rowStep) + "/" +
         std::to_string(d.colStep);
}

} // namespace rubick::arch
