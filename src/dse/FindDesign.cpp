// SPDX-License-Identifier: Apache-2.0
// From a design ID to its design without costing the whole space (see Select.h).

#include "ExploreCommon.h"

#include "rubick/dse/Select.h"
#include "rubick/dse/Tilings.h"
#include "rubick/support/Diagnostic.h"

namespace rubick::dse {
namespace {

// Whether explore() drops every tiling of a matrix on this shape for its entries (the checks
// of its final filter; ExploreCommon.cpp).
bool entriesAllowed(const Constraints& c, const std::vector<ir::OrientedEntry>& es,
                    const ArrayShape& s) {
  for (const ir::OrientedEntry& e : es) {
    if (!c.entries.empty() && !c.entries.count(e.kind)) return false;
    if (c.maxFanout && ir::fanout(e.kind, s.p, s.q) > c.maxFanout) return false;
    if (c.maxPorts && ir::ports(e.kind, s.p, s.q) > c.maxPorts) return false;
  }
  return true;
}

} // namespace

std::map<std::string, DesignPoint> findDesigns(const dataflow::StatementView& v,
                                               const ExploreOptions& o,
                                               const std::set<std::string>& ids) {
  const Constraints& c = o.constraints;
  std::map<std::string, DesignPoint> found;
  if (ids.empty()) return found;
  const std::vector<dataflow::FoundDataflow> matrices = spaceTimeMatrices(v, o);
  auto add = [&](DesignPoint d) {
    auto it = found.find(d.id);
    if (it != found.end())
      throw Error("explore", "internal: two designs share the ID " + d.id + " (" +
                                 dataflow::toSpec(it->second.dataflow, v) + ", and " +
                                 dataflow::toSpec(d.dataflow, v) +
                                 "); please report this with the program and flags");
    found.emplace(d.id, std::move(d));
  };
  for (const ArrayShape& shape : c.arrays) {
    // With a memory system the ID names the buffer tiling, so every design's search runs (as
    // in explore, sharing results between designs).
    std::optional<BufferSearchCache> cache;
    if (c.memory.enabled()) cache.emplace(v);
    for (const dataflow::FoundDataflow& f : matrices) {
      if (!entriesAllowed(c, f.entries, shape)) continue;
      for (const dataflow::Dataflow& t : exploreTilings(v, f.dataflow, shape.p, shape.q)) {
        if (cache) {
          std::optional<DesignPoint> d = detail::memoryDesign(v, o, t, f.entries, &*cache);
          if (d && ids.count(d->id)) add(std::move(*d));
          continue;
        }
        std::string id = designId(v, t, c.elementBits);
        if (!ids.count(id)) continue; // hashing is cheap, costing is not
        DesignPoint d;
        d.metrics = evaluate(v, t, f.entries, c.elementBits, o.costs);
        if (c.bufferBytes && d.metrics.bufferBytes > c.bufferBytes) continue;
        d.id = std::move(id);
        d.dataflow = t;
        d.entries = f.entries;
        add(std::move(d));
      }
    }
  }
  return found;
}

std::optional<DesignPoint> findDesign(const dataflow::StatementView& v, const ExploreOptions& o,
                                      const std::string& id) {
  if (!looksLikeId(id)) return std::nullopt;
  std::map<std::string, DesignPoint> found = findDesigns(v, o, {id});
  if (found.empty()) return std::nullopt;
  return std::move(found.begin()->second);
}

} // namespace rubick::dse
