// SPDX-License-Identifier: Apache-2.0
// The memory model's cycle sum in closed form (include/rubick/dse/Memory.h). Tiles are grouped by
// the class of each level's index (first, middle, next to last, last): within a class every term
// of the sum is the same, so the sum costs at most 4^levels terms, whatever the tile count. A
// term needs the transfers of a tile whose loops are each at a full or at their last size:
// those are memoised, so every order of the same sizes shares them.

#include "MemoryCommon.h"

#include <algorithm>
#include <array>
#include <tuple>

namespace rubick::dse::detail {
namespace {

// Masks are kept for up to this many loops with several tiles (4096 values per access).
constexpr size_t kMemoBits = 12;

} // namespace

void ClosedForm::reset(const MemoryProblem& p, const std::vector<int64_t>& size) {
  p_ = &p;
  const std::vector<int64_t>& extent = p.view->extent;
  const size_t n = extent.size();
  full_.resize(n);
  tiles_.resize(n);
  last_.resize(n);
  bit_.assign(n, -1);
  bits_ = 0;
  for (size_t l = 0; l < n; ++l) {
    full_[l] = std::min(size[l], extent[l]);
    tiles_[l] = ceilDiv(extent[l], full_[l]);
    last_[l] = extent[l] - (tiles_[l] - 1) * full_[l];
    if (tiles_[l] > 1) bit_[l] = int(bits_++);
  }
  const size_t accesses = p.view->accesses.size();
  dep_.clear();
  for (size_t a = 0; a < accesses; ++a) {
    if (a < p.dep.size()) {
      dep_.insert(dep_.end(), p.dep[a].begin(), p.dep[a].end());
      continue;
    }
    std::vector<char> d(n, 0);
    for (const IntVec& row : p.view->accesses[a].coeffs)
      for (size_t l = 0; l < n; ++l)
        d[l] |= row[l] != 0;
    dep_.insert(dep_.end(), d.begin(), d.end());
  }
  memo_ = bits_ <= kMemoBits;
  if (memo_) {
    beatMemo_.assign(accesses << bits_, -1);
    loadMemo_.assign(accesses << bits_, -1);
    storeMemo_.assign(accesses << bits_, -1);
  }
}

const std::vector<int64_t>& ClosedForm::sizeAt(uint64_t mask) {
  std::vector<int64_t>& s = size_;
  s = full_;
  for (size_t l = 0; l < s.size(); ++l)
    if (bit_[l] >= 0 && (mask >> bit_[l]) & 1) s[l] = last_[l];
  return s;
}

int64_t ClosedForm::beats(size_t a, uint64_t mask) {
  if (!memo_) return tileBeats(*p_, a, sizeAt(mask));
  int64_t& b = beatMemo_[(a << bits_) | mask];
  if (b < 0) b = tileBeats(*p_, a, sizeAt(mask));
  return b;
}

int64_t ClosedForm::transfer(size_t a, uint64_t mask, bool load) {
  if (!memo_) return tileTransferCycles(*p_, a, sizeAt(mask), load);
  int64_t& c = (load ? loadMemo_ : storeMemo_)[(a << bits_) | mask];
  if (c < 0) c = tileTransferCycles(*p_, a, sizeAt(mask), load);
  return c;
}

OrderProfile ClosedForm::profile(const std::vector<int>& order) {
  const dataflow::StatementView& v = *p_->view;
  const size_t levels = order.size(), accesses = v.accesses.size(), n = full_.size();
  const uint64_t allLast = bits_ >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits_) - 1;
  auto dep = [&](size_t a, int loop) { return dep_[a * n + size_t(loop)] != 0; };
  OrderProfile pr;
  pr.order = order;
  pr.readBeats.assign(accesses, 0);
  pr.writeBeats.assign(accesses, 0);
  terms_.clear();

  // Prologue and epilogue: the first tile's inputs (every level at index 0: full sizes) and the
  // last tile's outputs (every level at its last index).
  for (size_t a = 0; a < accesses; ++a) {
    const bool write = v.accesses[a].write;
    const int64_t b = write ? beats(a, allLast) : beats(a, 0);
    (write ? pr.outLast : pr.in0) += write ? transfer(a, allLast, false) : transfer(a, 0, true);
    (write ? pr.writeBeats : pr.readBeats)[a] += b;
    pr.busBeats += b;
    if (write && v.accumulates) { // `+=`: the first tile's start values come in first
      const int64_t b0 = beats(a, 0);
      pr.in0 += transfer(a, 0, true);
      pr.readBeats[a] += b0;
      pr.busBeats += b0;
    }
  }
  pr.fullTiles = detail::arrayTiles(*p_, full_);

  // Per access, the innermost level of a loop it depends on (-1: none).
  deepest_.assign(accesses, -1);
  for (size_t a = 0; a < accesses; ++a)
    for (size_t i = 0; i < levels; ++i)
      if (dep(a, order[i])) deepest_[a] = int(i);
  pr.outputsMove = levels > 0;
  for (size_t a = 0; a < accesses; ++a)
    if (v.accesses[a].write && deepest_[a] != int(levels) - 1 &&
        !severalArrayTiles(*p_, full_, [&](int l) { return dep(a, l); }))
      pr.outputsMove = false;

  // Per level, the classes of its index: first, middle (tiles - 3 of them), next to last, last.
  std::vector<std::array<Class, 4>>& classes = classes_;
  std::vector<size_t>& nclass = nclass_;
  std::vector<size_t>& pick = pick_;
  classes.resize(levels);
  nclass.resize(levels);
  pick.assign(levels, 0);
  for (size_t i = 0; i < levels; ++i) {
    const int64_t b = tiles_[size_t(order[i])];
    auto& c = classes[i];
    if (b == 1) {
      c[0] = {true, false, true, 1};
      nclass[i] = 1;
    } else if (b == 2) {
      c[0] = {true, true, false, 1};
      c[1] = {false, false, true, 1};
      nclass[i] = 2;
    } else {
      size_t k = 0;
      c[k++] = {true, false, false, 1};
      if (b >= 4) c[k++] = {false, false, false, b - 3};
      c[k++] = {false, true, false, 1};
      c[k++] = {false, false, true, 1};
      nclass[i] = k;
    }
  }
  for (;;) {
    int64_t count = 1;
    int jOut = -1, jIn = -1;
    for (size_t i = 0; i < levels; ++i) {
      const Class& c = classes[i][pick[i]];
      count *= c.count;
      if (!c.last) jOut = int(i);
      if (!c.first) jIn = int(i);
    }
    // Which loops are at their last size in this tile, the next and the previous one (levels
    // inside the stepping level restart at index 0 in the next tile, and were at their last
    // index in the previous one).
    uint64_t next = 0, prev = 0, cur = 0;
    for (size_t i = 0; i < levels; ++i) {
      const int b = bit_[size_t(order[i])];
      if (b < 0) continue; // one tile: its full size is its last
      const Class& c = classes[i][pick[i]];
      const uint64_t m = uint64_t(1) << b;
      const bool atLast = c.last;
      if (atLast) cur |= m;
      if (int(i) < jOut ? atLast : int(i) == jOut && c.penult) next |= m;
      if (int(i) < jIn ? atLast : int(i) > jIn) prev |= m;
    }
    // The stores of the previous tile, then the loads of the next one, each chain in access
    // order (the sequencer's); a reload waits for its own tensor's store.
    pr.phases += count;
    int64_t store = 0, load = 0;
    storeEnd_.assign(accesses, -1);
    for (size_t a = 0; a < accesses && jIn >= 0; ++a)
      if (v.accesses[a].write && deepest_[a] >= jIn) {
        const int64_t b = beats(a, prev);
        store += transfer(a, prev, false);
        storeEnd_[a] = store;
        pr.writeBeats[a] += count * b;
        pr.busBeats += count * b;
      }
    for (size_t a = 0; a < accesses && jOut >= 0; ++a) {
      if (deepest_[a] < jOut) continue; // its tile does not change
      bool read = !v.accesses[a].write;
      if (!read) { // partial sums written out before come back (with `+=` every tile's values)
        read = v.accumulates || !dep(a, order[size_t(jOut)]);
        for (int i = 0; i < jOut && !read; ++i)
          read = !dep(a, order[size_t(i)]) && !classes[size_t(i)][pick[size_t(i)]].first;
      }
      if (!read) continue;
      const int64_t b = beats(a, next);
      load = std::max(load, storeEnd_[a]) + transfer(a, next, true);
      pr.readBeats[a] += count * b;
      pr.busBeats += count * b;
    }
    // An epilogue's full operands: loaded for this tile, after the other loads, when the
    // output's tile (access 0) starts here.
    if (!p_->memory.lateOperandBytes.empty() && (jIn < 0 || deepest_[0] >= jIn))
      for (int64_t eb : p_->memory.lateOperandBytes) {
        const int64_t b = tileBeats(*p_, 0, sizeAt(cur), eb);
        load += tileTransferCycles(*p_, 0, sizeAt(cur), true, eb);
        pr.readBeats[0] += count * b;
        pr.busBeats += count * b;
      }
    if (jIn < 0) pr.load0 = load;
    terms_.push_back({count, load, store});
    size_t i = 0;
    for (; i < levels; ++i) {
      if (++pick[i] < nclass[i]) break;
      pick[i] = 0;
    }
    if (i == levels) break;
  }
  // Classes with the same chains add up (profiles are kept: no spare capacity).
  std::sort(terms_.begin(), terms_.end(), [](const auto& x, const auto& y) {
    return std::tie(x.load, x.store) < std::tie(y.load, y.store);
  });
  size_t w = 0;
  for (size_t r = 0; r < terms_.size(); ++r)
    if (w && terms_[w - 1].load == terms_[r].load && terms_[w - 1].store == terms_[r].store)
      terms_[w - 1].count += terms_[r].count;
    else
      terms_[w++] = terms_[r];
  pr.terms.assign(terms_.begin(), terms_.begin() + ptrdiff_t(w));
  return pr;
}

OrderProfile::Sum OrderProfile::sum(int64_t tileCycles, int64_t interval,
                                    int64_t intervalCarry) const {
  Sum s;
  s.transferCycles = in0 + outLast;
  s.computeCycles = phases * coreRun(fullTiles, tileCycles, interval);
  for (const Term& t : terms)
    s.transferCycles += t.count * std::max(t.load, t.store);
  s.cycles = cycles(tileCycles, interval, intervalCarry, &s.chained);
  // Chained runs fill and drain the array once for all buffer tiles.
  if (s.chained) s.computeCycles = phases * fullTiles * interval + tileCycles - interval;
  return s;
}

int64_t OrderProfile::cycles(int64_t tileCycles, int64_t interval, int64_t intervalCarry,
                             bool* chained) const {
  const int64_t core = corePhase(fullTiles, tileCycles, interval);
  int64_t c = in0 + outLast;
  for (const Term& t : terms)
    c += t.count * std::max({core, t.load, t.store});
  if (chained) *chained = false;
  if (!mayChain(phases, fullTiles, tileCycles, interval, intervalCarry, outputsMove)) return c;
  // Chained: every phase but the first tile's waits g for its transfers (include/rubick/dse/
  // Memory.h); the first tile's phase is one of the terms, taken out again.
  const int64_t cc = chainedCorePhase(fullTiles, interval), g = chainGate(tileCycles, interval);
  auto gated = [g](int64_t x) { return x > 0 ? g + x : 0; };
  int64_t ch = in0 + gated(outLast) - std::max({cc, gated(load0)}) + std::max(cc, load0);
  for (const Term& t : terms)
    ch += t.count * std::max({cc, gated(t.load), gated(t.store)});
  if (ch >= c) return c;
  if (chained) *chained = true;
  return ch;
}

} // namespace rubick::dse::detail
