// SPDX-License-Identifier: Apache-2.0
// `rubick explore --json`: every design in full detail. nlohmann::ordered_json keeps keys in
// the order written here, and doubles go through roundSignificant, so the same designs always
// give the same bytes.
//
// Layout: the header fields one per line, then one design per line. A search over a range of
// arrays gives hundreds of thousands of designs; an indented dump would be three times larger,
// while one line per design keeps `grep ID` and `diff` useful and lets each design's JSON tree
// be freed as soon as it is written (`jq` pretty-prints for reading).

#include "JsonText.h"
#include "NumberText.h"

#include "rubick/dataflow/Decompose.h"
#include "rubick/dse/Metrics.h"
#include "rubick/dse/Report.h"
#include "rubick/linalg/AffineText.h"

#include <stdexcept>

namespace rubick::dse {
namespace {

using json::compact;
using json::Json;

Json number(double x) {
  return roundSignificant(x);
}

Json constraintsJson(const dataflow::StatementView& v, const Constraints& c) {
  Json j = Json::object();
  Json arrays = Json::array();
  for (const ArrayShape& a : c.arrays)
    arrays.push_back(std::to_string(a.p) + "x" + std::to_string(a.q));
  j["arrays"] = arrays;
  // 0 means "no limit" in Constraints; null says so without a magic number.
  auto limit = [](int64_t x) { return x ? Json(x) : Json(nullptr); };
  j["max_fanout"] = limit(c.maxFanout);
  j["max_ports"] = limit(c.maxPorts);
  j["buffer_bytes"] = limit(c.bufferBytes);
  // An empty set allows every entry; list them all so the file reads the same either way.
  Json entries = Json::array();
  for (const ir::EntryInfo& e : ir::allEntries())
    if (c.entries.empty() || c.entries.count(e.kind)) entries.push_back(e.name);
  j["entries"] = entries;
  Json bits = Json::object();
  for (size_t a = 0; a < v.accesses.size() && a < c.elementBits.size(); ++a)
    bits[v.accesses[a].name] = c.elementBits[a];
  j["element_bits"] = bits;
  // Only with a memory system, so files without one read as before.
  if (c.memory.enabled())
    j["memory"] = Json{{"bytes_per_cycle", c.memory.bytesPerCycle},
                       {"latency", c.memory.latency},
                       {"burst_bytes", c.memory.burstBytes}};
  return j;
}

Json dataflowJson(const dataflow::StatementView& v, const dataflow::Dataflow& d) {
  Json j = Json::object();
  j["spec"] = dataflow::toSpec(d, v);
  Json s = Json::array();
  for (const IntVec& row : d.s)
    s.push_back(Json(row));
  j["S"] = s;
  Json inner = Json::array();
  for (const dataflow::InnerDim& in : d.inner) {
    Json u = Json::object();
    u["loop"] = v.loops[in.loop];
    u["factor"] = in.factor;
    u["split"] = in.factor != v.extent[in.loop];
    inner.push_back(u);
  }
  j["inner"] = inner;
  Json outer = Json::array();
  for (size_t o = 0; o < d.outer.size(); ++o) {
    Json t = Json::object();
    t["stamp"] = "t" + std::to_string(o + 2);
    t["loop"] = v.loops[d.outer[o].loop];
    t["factor"] = d.outer[o].factor;
    t["extent"] = d.outerExtent(o, v.extent);
    outer.push_back(t);
  }
  j["outer"] = outer;
  IntVec e = d.extent();
  j["extent"] = Json{{"x", e[0]}, {"y", e[1]}, {"t1", e[2]}};
  return j;
}

Json tensorMetricsJson(const TensorMetrics& t) {
  return Json{{"element_bits", t.elementBits},
              {"wire_bits", t.wireBits},
              {"ports", t.ports},
              {"bank_depth", t.bankDepth},
              {"buffer_bytes", t.bufferBytes},
              {"fan", t.fan},
              {"links", t.links},
              {"wires", t.wires},
              {"accesses", t.accesses},
              {"recurs", t.recurs}};
}

Json metricsJson(const Metrics& m) {
  Json j = Json::object();
  for (const MetricInfo* metric : metricsShownBy(MetricWriter::Json)) {
    const MetricValue x = metric->read(m);
    j[metric->key] = x.real ? number(x.number) : Json(x.integer);
  }
  return j;
}

Json memoryJson(const dataflow::StatementView& v, const DesignPoint& pt) {
  const MemoryMetrics& m = pt.memory;
  Json sizes = Json::object();
  for (size_t l = 0; l < v.loops.size(); ++l)
    sizes[v.loops[l]] = std::min(pt.buffer.size[l], v.extent[l]);
  Json order = Json::array();
  for (int l : pt.buffer.order)
    order.push_back(v.loops[l]);
  Json tensors = Json::array();
  for (const TensorTraffic& t : m.tensors)
    tensors.push_back(Json{{"name", t.name},
                           {"read_bytes", t.readBytes},
                           {"write_bytes", t.writeBytes},
                           {"compulsory_bytes", t.compulsoryBytes},
                           {"bank_bytes", t.bankBytes}});
  return Json{
      {"buffer_tile", sizes},
      {"order", order},
      {"buffer_tiles", m.bufferTiles},
      {"cycles", m.cycles},
      {"compute_cycles", m.computeCycles},
      {"bank_bytes", m.bankBytes},
      {"bus_bytes", m.busBytes},
      {"compulsory_bytes", m.compulsoryBytes},
      {"macs_per_byte", number(double(pt.metrics.macs) / double(std::max<int64_t>(m.busBytes, 1)))},
      {"bound", m.memoryBound ? "memory" : "compute"},
      {"tensors", tensors}};
}

Json tensorsJson(const tc::Program& prog, const dataflow::StatementView& v, const DesignPoint& pt) {
  const dataflow::Dataflow& d = pt.dataflow;
  dataflow::Decomposition dec = dataflow::decompose(v, d);
  if (dec.tensors.size() != v.accesses.size() || pt.entries.size() != v.accesses.size())
    throw std::logic_error("design " + pt.id + ": entries do not match the statement's accesses");
  Json out = Json::array();
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    const dataflow::AccessView& av = v.accesses[a];
    const dataflow::TensorDecomposition& t = dec.tensors[a];
    const ir::OrientedEntry& e = pt.entries[a];
    // The layout printed must belong to the entry printed; a mismatch is a bug upstream.
    if (!t.ok() || *t.entry != e)
      throw std::logic_error("design " + pt.id + ": the dataflow does not decompose to entry " +
                             ir::toString(e) + " for " + av.name);
    const std::string& tensor = prog.tensors.at(av.tensor).name;
    Json j = Json::object();
    j["name"] = av.name;
    j["tensor"] = tensor;
    j["role"] = av.write ? "output" : "input";
    j["entry"] = ir::toString(e);
    j["entry_number"] = ir::info(e.kind).number;
    j["omega"] = ir::omegaText(e, d.p, d.q, d.outer.size());
    j["layout"] = ir::toString(t.layout, tensor);
    j["transform"] = ir::transformName(t.layout);
    if (a < pt.metrics.tensors.size()) j["metrics"] = tensorMetricsJson(pt.metrics.tensors[a]);
    out.push_back(j);
  }
  return out;
}

} // namespace

std::string toJson(const tc::Program& prog, const dataflow::StatementView& v,
                   const std::vector<DesignPoint>& points, const ExploreOptions& o) {
  std::string out = json::opening(prog, v);
  json::field(out, "objective", toString(o.objective));
  json::field(out, "constraints", constraintsJson(v, o.constraints));
  if (o.epilogue) {
    // The contraction's epilogue (docs/fusion.md): what every design below applies on the way out.
    Json stmts = Json::array(), operands = Json::array();
    for (size_t s : o.epilogue->statements)
      stmts.push_back(prog.statements[s].text);
    for (const EpilogueOperand& op : o.epilogue->operands)
      operands.push_back(Json{{"name", op.name},
                              {"kind", op.full() ? "output_shape" : "vector"},
                              {"along_dimension", op.dim},
                              {"elements", op.extent},
                              {"element_bits", op.bits}});
    json::field(out, "epilogue",
                Json{{"output", o.epilogue->outputName},
                     {"output_bits", o.epilogue->outputBits},
                     {"statements", stmts},
                     {"expression", toString(o.epilogue->expr, *o.epilogue)},
                     {"operands", operands}});
  }
  out += "  \"designs\": [";
  for (size_t i = 0; i < points.size(); ++i) {
    const DesignPoint& pt = points[i];
    Json j = Json::object();
    j["id"] = pt.id;
    j["pareto"] = pt.pareto;
    j["array"] = Json{{"p", pt.dataflow.p}, {"q", pt.dataflow.q}};
    j["dataflow"] = dataflowJson(v, pt.dataflow);
    j["metrics"] = metricsJson(pt.metrics);
    j["tensors"] = tensorsJson(prog, v, pt);
    if (!pt.buffer.size.empty()) j["memory"] = memoryJson(v, pt);
    out += (i ? ",\n    " : "\n    ") + compact(j);
  }
  out += points.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

} // namespace rubick::dse
