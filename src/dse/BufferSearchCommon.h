// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pieces shared by the buffer-tiling search, its reference and its cache (private to src/dse).

#include "MemoryCommon.h"

#include "rubick/dse/BufferSearch.h"
#include "rubick/dse/Schedule.h"

#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace rubick::dse::detail {

enum class Role { Spatial, Time, Outer };

/// A design's candidates: per loop its role, array factor and the sizes a buffer tile may give
/// it (largest first).
struct Space {
  std::vector<Role> role;
  std::vector<int64_t> factor;
  std::vector<std::vector<int64_t>> sizes;
  std::vector<int> timeLoops;
};

/// One chunking of the time loops (their sizes' odometer, the first time loop fastest). The
/// schedule gives the search's key; the problem is made only when the search needs it.
struct Chunking {
  std::vector<size_t> pick; // per time loop (Space::timeLoops): the index of its chunk size
  Schedule schedule;        // of the chunked dataflow
  int64_t compute = 0;      // array tiles x tile cycles
  std::optional<MemoryProblem> problem;
};

/// What one search reads: the design's candidates and chunkings, and what makes their problems.
struct SearchInput {
  const dataflow::StatementView& view;
  const dataflow::Dataflow& design; // not chunked
  const Space& space;
  std::vector<Chunking>& chunkings;
  const std::vector<ir::OrientedEntry>& entries;
  const std::vector<int64_t>& elementBits;
  const MemorySystem& memory;
  int64_t bankBudget = 0;
  /// Some tiling's tiles may not be boxes the DMA moves (dse::boxesMayFail): each candidate's
  /// are checked (dse::boxesFit).
  bool boxes = false;
  /// The design's dataflow chunked as chunking `c` says.
  dataflow::Dataflow dataflow(size_t c) const;
  /// Chunking `c`'s problem, made on first use.
  const MemoryProblem& problem(size_t c) const;
};

/// A search's outcome: the chunking taken (its index in search order) with its tiling and
/// metrics; `found` false when no candidate fits the budget.
struct SearchResult {
  bool found = false;
  size_t chunking = 0;
  BufferTiling tiling;
  MemoryMetrics metrics;
};

/// Per access, over the size choices of the loops it depends on (mixed radix, `stride` per loop,
/// 0 for the others): the transfer units (the larger of beats and DMA write groups) of its first
/// tile (every loop at its full size), of its last tile, and of every distinct tile once. They
/// depend on the sizes and the DMA lanes, which chunking a time loop does not change.
struct TileBeats {
  std::vector<int64_t> stride;
  std::vector<int64_t> first, last, least;
};
struct BeatTables {
  std::vector<TileBeats> access;
};

Space searchSpace(const dataflow::StatementView& v, const dataflow::Dataflow& d);

/// Every order of the loops with several tiles in `t`, loops read by the same tensors kept
/// together in loop order.
std::vector<std::vector<int>> orders(const MemoryProblem& p, const BufferTiling& t);

/// The model's inputs for dataflow `d` whose schedule is `s`.
MemoryProblem memoryProblem(const dataflow::StatementView& v, const dataflow::Dataflow& d,
                            const Schedule& s, const std::vector<ir::OrientedEntry>& entries,
                            const std::vector<int64_t>& elementBits, const MemorySystem& memory);

/// Every candidate evaluated in full (the reference).
SearchResult searchAll(const SearchInput& in);

/// The same result, best first with lower bounds; `cache` (may be null) shares the orders' cycle
/// sums and the tiles' beats between designs.
SearchResult searchBestFirst(const SearchInput& in, BufferSearchCache* cache);

// The cache's maps: per kind of value, numbers (everything the value reads besides the
// statement) to the value.
struct KeyHash {
  size_t operator()(const std::vector<int64_t>& k) const noexcept {
    uint64_t h = 1469598103934665603ull; // FNV-1a over the numbers
    for (int64_t x : k)
      h = (h ^ uint64_t(x)) * 1099511628211ull;
    return size_t(h);
  }
};
template <class V>
using KeyMap = std::unordered_map<std::vector<int64_t>, std::shared_ptr<const V>, KeyHash>;

} // namespace rubick::dse::detail

namespace rubick::dse {

struct BufferSearchCache::Maps {
  std::mutex mu;
  size_t lookups = 0;
  detail::KeyMap<detail::SearchResult> results;
  detail::KeyMap<detail::SizeProfiles> profiles;
  detail::KeyMap<detail::BeatTables> tables;
  template <class V>
  detail::KeyMap<V>& of();
};
template <>
inline detail::KeyMap<detail::SearchResult>& BufferSearchCache::Maps::of() {
  return results;
}
template <>
inline detail::KeyMap<detail::SizeProfiles>& BufferSearchCache::Maps::of() {
  return profiles;
}
template <>
inline detail::KeyMap<detail::BeatTables>& BufferSearchCache::Maps::of() {
  return tables;
}

} // namespace rubick::dse

namespace rubick::dse::detail {

/// The value under `key` in `cache`, made by `make()` when there is none yet (outside the lock:
/// two threads may both make it, and the first stored is kept; both are equal). Without a cache,
/// `make()`.
template <class V, class Make>
std::shared_ptr<const V> cached(BufferSearchCache* cache, const std::vector<int64_t>& key,
                                Make&& make) {
  if (!cache) return std::make_shared<const V>(make());
  BufferSearchCache::Maps& m = cache->maps();
  {
    std::lock_guard<std::mutex> lock(m.mu);
    if constexpr (std::is_same_v<V, SearchResult>) ++m.lookups;
    auto it = m.of<V>().find(key);
    if (it != m.of<V>().end()) return it->second;
  }
  std::shared_ptr<const V> made = std::make_shared<const V>(make());
  std::lock_guard<std::mutex> lock(m.mu);
  return m.of<V>().emplace(key, std::move(made)).first->second;
}

} // namespace rubick::dse::detail
