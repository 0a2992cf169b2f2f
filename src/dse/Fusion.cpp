// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/Fusion.h"

#include <algorithm>
#include <bit>
#include <map>
#include <tuple>

namespace rubick::dse {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

// The order of plans and groups: fewest cycles, then fewest bytes moved.
bool better(int64_t cycles, int64_t bytes, int64_t bestCycles, int64_t bestBytes) {
  return std::tie(cycles, bytes) < std::tie(bestCycles, bestBytes);
}

} // namespace

int64_t chipRamBytes(const std::vector<int64_t>& bytes, int64_t wordBytes) {
  int64_t used = 0;
  for (int64_t b : bytes)
    used += ceilDiv(b, wordBytes) * wordBytes;
  return std::max(2 * wordBytes, static_cast<int64_t>(std::bit_ceil(
                                     static_cast<uint64_t>(std::max<int64_t>(used, 1)))));
}

std::vector<int64_t> fusionTiles(const FusionChain& c, size_t first, size_t last) {
  if (first == last) return {1};
  const int64_t rows = c.stages[first].rows;
  for (size_t s = first; s <= last; ++s)
    if (c.stages[s].rows != rows) return {1};
  std::vector<int64_t> t;
  for (int64_t d = 1; d <= rows; ++d)
    if (rows % d == 0) t.push_back(d);
  return t;
}

std::string fusionGroup(const FusionChain& c, size_t first, size_t last, int64_t tiles,
                        const FusionLimits& l, FusionGroup& out) {
  out = FusionGroup{};
  out.first = first;
  out.last = last;
  out.tiles = tiles;
  int64_t solo = 0;
  for (size_t s = first; s <= last; ++s) {
    out.computeCycles += c.stages[s].computeCycles;
    solo += c.stages[s].soloBytes;
  }
  if (first == last) {
    // Alone: the statement's own memory-system design, with its own buffer tiling.
    const FusionStage& st = c.stages[first];
    out.bytes = st.soloBytes;
    out.cycles = st.soloCycles;
    return tiles == 1 ? "" : "a single statement is tiled by its own design";
  }
  const std::vector<int64_t> allowed = fusionTiles(c, first, last);
  if (std::find(allowed.begin(), allowed.end(), tiles) == allowed.end())
    return std::to_string(tiles) + " tiles do not divide the group's rows (" +
           std::to_string(c.stages[first].rows) + ")";
  // Where each tensor the group touches comes from and goes to.
  std::map<int, size_t> producer; // tensor -> stage in the group that writes it
  std::map<int, bool> inputByRow; // tensors read from memory -> every read by rows
  for (size_t s = first; s <= last; ++s) {
    const FusionStage& st = c.stages[s];
    for (const FusionRead& r : st.reads) {
      auto p = producer.find(r.tensor);
      if (p != producer.end()) {
        if (tiles > 1 && !r.byRow)
          return st.statement + " reads " + c.tensors[static_cast<size_t>(r.tensor)].name +
                 " other than by rows: a tile of rows does not hold what it needs";
        continue;
      }
      auto [it, fresh] = inputByRow.insert({r.tensor, r.byRow});
      if (!fresh) it->second = it->second && r.byRow;
    }
    producer[st.output] = s;
  }
  int64_t rowBytes = 0, wholeBytes = 0, outBytes = 0, chipTile = 0;
  std::vector<int64_t> onChip; // the intermediates' tiles
  for (const auto& [t, byRow] : inputByRow) {
    const int64_t b = c.tensors[static_cast<size_t>(t)].bytes;
    (byRow ? rowBytes : wholeBytes) += b;
  }
  for (const auto& [t, s] : producer) {
    const FusionTensor& x = c.tensors[static_cast<size_t>(t)];
    bool leaves = x.external;
    for (size_t later = last + 1; later < c.stages.size() && !leaves; ++later)
      for (const FusionRead& r : c.stages[later].reads)
        leaves |= r.tensor == t;
    if (leaves)
      outBytes += x.bytes;
    else
      onChip.push_back(ceilDiv(x.bytes, tiles)); // an intermediate's tile, in the on-chip RAM
  }
  for (int64_t b : onChip)
    chipTile += b;
  const int64_t ram =
      l.chipWordBytes > 0 && !onChip.empty() ? chipRamBytes(onChip, l.chipWordBytes) : chipTile;
  if (l.chipBytes >= 0 && ram > l.chipBytes)
    return "its intermediates' tiles take " +
           (ram == chipTile ? std::to_string(chipTile) + " bytes"
                            : "an on-chip RAM of " + std::to_string(ram) + " bytes") +
           ", more than the on-chip budget of " + std::to_string(l.chipBytes);
  // As built (arch/ChainPlan.h): the stages take turns, once per tile, each overlapping its
  // own transfers with its computing and paying its fixed cost (the memory's latency, its
  // pipeline's fill and drain, the handoff: its cycles alone less the larger of computing and
  // transfers) on every run; each tile reads its stage's inputs not read by rows again.
  const int64_t bw = std::max<int64_t>(1, l.bytesPerCycle);
  for (size_t s = first; s <= last; ++s) {
    const FusionStage& st = c.stages[s];
    const int64_t fixed =
        std::max<int64_t>(0, st.soloCycles - std::max(st.computeCycles, ceilDiv(st.soloBytes, bw)));
    int64_t again = 0;
    for (const FusionRead& r : st.reads)
      if (!r.byRow) again += c.tensors[static_cast<size_t>(r.tensor)].bytes;
    const int64_t moved = st.soloBytes + (tiles - 1) * again;
    out.cycles += tiles * fixed + std::max(st.computeCycles, ceilDiv(moved, bw));
  }
  out.keepsWhole = tiles == 1;
  out.bufferBytes = chipTile;
  out.bytes = rowBytes + tiles * wholeBytes + outBytes;
  out.savedBytes = solo - out.bytes;
  return "";
}

std::string bestFusionGroup(const FusionChain& c, size_t first, size_t last, const FusionLimits& l,
                            FusionGroup& out) {
  std::string why = "no tile count";
  bool found = false;
  for (int64_t t : fusionTiles(c, first, last)) {
    FusionGroup g;
    const std::string w = fusionGroup(c, first, last, t, l, g);
    if (!w.empty()) {
      why = w;
      continue;
    }
    if (!found || better(g.cycles, g.bytes, out.cycles, out.bytes)) out = g;
    found = true;
  }
  return found ? "" : why;
}

FusionPlan fuseChain(const FusionChain& c, const FusionLimits& l) {
  const size_t n = c.stages.size();
  struct Best {
    bool set = false;
    int64_t cycles = 0, bytes = 0;
    size_t from = 0; // the last group starts at this stage
    FusionGroup group;
  };
  std::vector<Best> best(n + 1);
  best[0].set = true;
  for (size_t b = 1; b <= n; ++b)
    for (size_t a = 1; a <= b; ++a) {
      if (!best[a - 1].set) continue;
      FusionGroup g;
      if (!bestFusionGroup(c, a - 1, b - 1, l, g).empty()) continue;
      const int64_t cycles = best[a - 1].cycles + g.cycles, bytes = best[a - 1].bytes + g.bytes;
      if (!best[b].set || better(cycles, bytes, best[b].cycles, best[b].bytes))
        best[b] = {true, cycles, bytes, a - 1, g};
    }
  FusionPlan p;
  p.cycles = best[n].cycles;
  p.bytes = best[n].bytes;
  for (size_t b = n; b > 0; b = best[b].from)
    p.groups.insert(p.groups.begin(), best[b].group);
  return p;
}

FusionPlan fuseChainExhaustively(const FusionChain& c, const FusionLimits& l) {
  const size_t n = c.stages.size();
  FusionPlan best;
  bool found = false;
  // Bit s of `cuts` set: a group ends after stage s.
  for (uint64_t cuts = 0; cuts < (uint64_t(1) << (n - 1)); ++cuts) {
    std::vector<std::pair<size_t, size_t>> ranges;
    size_t start = 0;
    for (size_t s = 0; s < n; ++s)
      if (s + 1 == n || (cuts >> s & 1)) {
        ranges.push_back({start, s});
        start = s + 1;
      }
    // Every tile count of every group.
    std::vector<std::vector<int64_t>> options;
    for (const auto& [a, b] : ranges)
      options.push_back(fusionTiles(c, a, b));
    std::vector<size_t> pick(ranges.size(), 0);
    while (true) {
      FusionPlan p;
      bool ok = true;
      for (size_t g = 0; g < ranges.size() && ok; ++g) {
        FusionGroup fg;
        ok = fusionGroup(c, ranges[g].first, ranges[g].second, options[g][pick[g]], l, fg).empty();
        p.cycles += fg.cycles;
        p.bytes += fg.bytes;
        p.groups.push_back(fg);
      }
      if (ok && (!found || better(p.cycles, p.bytes, best.cycles, best.bytes))) {
        best = p;
        found = true;
      }
      size_t g = 0;
      while (g < pick.size() && ++pick[g] == options[g].size())
        pick[g++] = 0;
      if (g == pick.size()) break;
    }
  }
  return best;
}

} // namespace rubick::dse
