// SPDX-License-Identifier: Apache-2.0
// From a written dataflow to its design with no search at all (see Select.h).

#include "ExploreCommon.h"

#include "rubick/dataflow/Decompose.h"
#include "rubick/dse/BufferSearch.h"
#include "rubick/dse/DesignId.h"
#include "rubick/dse/Select.h"
#include "rubick/support/Diagnostic.h"

namespace rubick::dse {
namespace {

std::string entryText(const ir::OrientedEntry& e) {
  return ir::toString(e) + " (#" + std::to_string(ir::info(e.kind).number) + ")";
}

} // namespace

DesignPoint buildDesign(const dataflow::StatementView& v, const ExploreOptions& o,
                        const dataflow::Dataflow& d) {
  const Constraints& c = o.constraints;
  dataflow::Decomposition dec = dataflow::decompose(v, d);
  if (!dec.reason.empty()) throw Error("--dataflow", dec.reason);
  DesignPoint out;
  for (const dataflow::TensorDecomposition& t : dec.tensors) {
    const dataflow::AccessView& a = v.accesses[t.access];
    if (!t.ok())
      throw Error("--dataflow",
                  "no access entry realises " + a.name + " under this dataflow: " + t.reason);
    out.entries.push_back(*t.entry);
  }
  // The checks of explore's final filter (ExploreCommon.cpp), each naming what it found.
  for (size_t i = 0; i < out.entries.size(); ++i) {
    const ir::OrientedEntry& e = out.entries[i];
    const dataflow::AccessView& a = v.accesses[i];
    const std::string uses = a.name + " uses " + entryText(e);
    if (!c.entries.empty() && !c.entries.count(e.kind))
      throw Error("--dataflow",
                  uses + ", which the allowed entries exclude (--entries or the target)");
    const int64_t fan = ir::fanout(e.kind, d.p, d.q);
    if (c.maxFanout && fan > c.maxFanout)
      throw Error("--dataflow", uses + " with a " + (a.write ? "fan-in" : "fan-out") + " of " +
                                    std::to_string(fan) + " on " + std::to_string(d.p) + "x" +
                                    std::to_string(d.q) + ", above the limit of " +
                                    std::to_string(c.maxFanout) + " (--max-fanout)");
    const int64_t ports = ir::ports(e.kind, d.p, d.q);
    if (c.maxPorts && ports > c.maxPorts)
      throw Error("--dataflow", uses + " with " + std::to_string(ports) + " ports on " +
                                    std::to_string(d.p) + "x" + std::to_string(d.q) +
                                    ", above the limit of " + std::to_string(c.maxPorts) +
                                    " (--max-ports)");
  }
  if (c.memory.enabled()) {
    // A dataflow explore lists may have its time loops cut into chunks by the buffer search:
    // the search starts from it uncut, as explore's did, and finds the same tiling.
    std::optional<DesignPoint> m = detail::memoryDesign(v, o, unchunked(v, d), out.entries);
    if (!m)
      throw Error("--dataflow", "no buffer tiling of this dataflow fits the budget of " +
                                    std::to_string(c.bufferBytes) + " bytes (--buffer-kib)");
    return std::move(*m);
  }
  out.metrics = evaluate(v, d, out.entries, c.elementBits, o.costs);
  if (c.bufferBytes && out.metrics.bufferBytes > c.bufferBytes)
    throw Error("--dataflow", "the design's banks need " + std::to_string(out.metrics.bufferBytes) +
                                  " bytes, above the budget of " + std::to_string(c.bufferBytes) +
                                  " bytes (--buffer-kib)");
  out.dataflow = d;
  out.id = designId(v, d, c.elementBits);
  return out;
}

} // namespace rubick::dse
