// SPDX-License-Identifier: Apache-2.0
// `rubick explore --target <a PIM target> --json`: the system and the ranked PIM designs, laid
// out as explore's other JSON (src/dse/Json.cpp): header fields one per line, one design per
// line, doubles rounded so that the same designs always give the same bytes.

#include "JsonText.h"
#include "NumberText.h"

#include "rubick/dataflow/Dataflow.h"
#include "rubick/dse/Pim.h"

namespace rubick::dse {
namespace {

using json::compact;
using json::Json;

std::string shape(const ArrayShape& a) {
  return std::to_string(a.p) + "x" + std::to_string(a.q);
}

Json systemJson(const std::string& name, const PimSystem& s) {
  Json arrays = Json::array();
  for (const ArrayShape& a : s.arrays)
    arrays.push_back(shape(a));
  const PimBank& b = s.bank;
  return Json{{"name", name},
              {"units", s.units},
              {"banks_per_unit", s.banksPerUnit},
              {"access", toString(s.access)},
              {"unit_arrays", arrays},
              {"unit_buffer_bytes", s.bufferBytes},
              {"clock_mhz", s.clockMhz},
              {"bank",
               {{"bytes_per_cycle", b.bytesPerCycle},
                {"row_bytes", b.rowBytes},
                {"trcd", b.tRCD},
                {"trp", b.tRP},
                {"tras", b.tRAS},
                {"cl", b.tCL}}},
              {"read_ahead_bytes", readAheadColumns(s) * s.bank.bytesPerCycle},
              {"broadcast_bytes", s.broadcastBytes},
              {"broadcast_bytes_per_cycle", s.broadcastBytesPerCycle},
              {"host_bytes_per_cycle", s.hostBytesPerCycle}};
}

Json designJson(const dataflow::StatementView& v, const PimSystem& s, const PimDesign& d) {
  Json spread = Json::object(), share = Json::object(), placement = Json::object(),
       entries = Json::object();
  for (size_t l = 0; l < v.loops.size(); ++l) {
    spread[v.loops[l]] = d.spread[l];
    share[v.loops[l]] = d.share.extent[l];
  }
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    placement[v.accesses[a].name] = toString(d.placement[a]);
    entries[v.accesses[a].name] = ir::toString(d.unit.entries[a]);
  }
  Json unit = Json{{"id", d.unit.id},    {"array", shape({d.unit.dataflow.p, d.unit.dataflow.q})},
                   {"share", share},     {"dataflow", dataflow::toSpec(d.unit.dataflow, d.share)},
                   {"entries", entries}, {"latency", d.unit.metrics.latency}};
  if (!d.unit.buffer.size.empty()) unit["buffer_tile"] = toString(d.unit.buffer, d.share);
  return Json{{"id", d.id},
              {"spread", spread},
              {"cycles", d.cycles},
              {"microseconds", roundSignificant(double(d.cycles) / double(s.clockMhz))},
              {"host_in_cycles", d.hostInCycles},
              {"unit_cycles", d.unitCycles},
              {"unit_cycles_exact", d.exact},
              {"unit_cycles_model", d.modelUnitCycles},
              {"host_out_cycles", d.hostOutCycles},
              {"reduce_units", d.reduceUnits},
              {"placement", placement},
              {"bank_bytes", d.bankBytes},
              {"activates", d.activates},
              {"macs", d.macs},
              {"intensity", roundSignificant(d.intensity)},
              {"attainable_macs_per_cycle", roundSignificant(d.attainable)},
              {"roofline", roundSignificant(d.roofline)},
              {"bank_fraction", roundSignificant(d.bankFraction)},
              {"row_hit_rate", roundSignificant(d.rowHitRate)},
              {"utilization", roundSignificant(d.utilization)},
              {"unit", unit}};
}

} // namespace

std::string pimToJson(const tc::Program& prog, const dataflow::StatementView& v,
                      const std::string& targetName, const PimSystem& s, const PimExploreResult& r,
                      size_t top) {
  std::string out = json::opening(prog, v);
  json::field(out, "pim", systemJson(targetName, s));
  json::field(out, "spreads", r.spreads);
  out += "  \"designs\": [";
  const size_t n = std::min(top, r.designs.size());
  for (size_t i = 0; i < n; ++i)
    out += (i ? ",\n    " : "\n    ") + compact(designJson(v, s, r.designs[i]));
  out += n == 0 ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

} // namespace rubick::dse
