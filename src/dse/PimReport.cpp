// SPDX-License-Identifier: Apache-2.0
// The ranked table of `rubick explore --target <a PIM target>` (docs/pim.md, "Reading the
// table").

#include "rubick/dse/Pim.h"

#include "NumberText.h"

#include "rubick/dataflow/Decompose.h"
#include "rubick/support/TextTable.h"

#include <sstream>

namespace rubick::dse {

std::string describePim(const std::string& name, const PimSystem& s) {
  const MemorySystem m = unitMemory(s);
  auto gbs = [&](int64_t bytesPerCycle) {
    return formatSignificant(double(bytesPerCycle) * double(s.clockMhz) / 1000, 4) + " GB/s";
  };
  std::ostringstream os;
  std::string arrays;
  for (const ArrayShape& a : s.arrays)
    arrays += (arrays.empty() ? "" : " or ") + std::to_string(a.p) + "x" + std::to_string(a.q);
  os << "target " << (name.empty() ? "(unnamed)" : name) << ": " << s.units
     << (s.units == 1 ? " unit of " : " units of ") << arrays << " PEs at " << s.clockMhz
     << " MHz, " << s.bufferBytes << " B of buffer each; " << s.banksPerUnit
     << (s.banksPerUnit == 1 ? " bank" : " banks") << " per unit at " << s.bank.bytesPerCycle
     << " B/cycle (" << gbs(s.units * s.bank.bytesPerCycle) << " in all), rows of "
     << s.bank.rowBytes << " B (tRCD " << s.bank.tRCD << ", tRP " << s.bank.tRP << ", tRAS "
     << s.bank.tRAS << ", CL " << s.bank.tCL << " cycles), ";
  if (s.access == PimAccess::stream)
    os << "read in place (" << readAheadColumns(s) * s.bank.bytesPerCycle << " B read ahead); ";
  else
    os << "copied by a DMA (a further row costs a transfer " << m.rowCycles << " cycles); ";
  if (s.broadcastBytes > 0)
    os << "broadcast " << s.broadcastBytes << " B at " << s.broadcastBytesPerCycle << " B/cycle; ";
  os << "host " << s.hostBytesPerCycle << " B/cycle (" << gbs(s.hostBytesPerCycle) << ")";
  return os.str();
}

std::string pimTimeText(int64_t cycles, const PimSystem& s) {
  if (s.clockMhz <= 0) return "?";
  return formatSignificant(double(cycles) / double(s.clockMhz), 4) + " us";
}

std::string formatPimTable(const dataflow::StatementView& v, const PimSystem& s,
                           const PimExploreResult& r, size_t top) {
  std::vector<std::string> head = {"rank",    "id",      "spread", "cycles",  "time",  "roofline",
                                   "bank bw", "row hit", "util",   "host in", "units", "host out"};
  for (const dataflow::AccessView& a : v.accesses)
    head.push_back(a.name + (a.write ? " (out)" : ""));
  head.push_back("unit tile");
  head.push_back("unit dataflow");
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < r.designs.size() && i < top; ++i) {
    const PimDesign& d = r.designs[i];
    std::string spread;
    for (size_t l = 0; l < d.spread.size(); ++l)
      if (d.spread[l] > 1)
        spread += (spread.empty() ? "" : " ") + v.loops[l] + ":" + std::to_string(d.spread[l]);
    std::vector<std::string> row = {std::to_string(i + 1),         d.id,
                                    spread.empty() ? "-" : spread, std::to_string(d.cycles),
                                    pimTimeText(d.cycles, s),      percentText(d.roofline),
                                    percentText(d.bankFraction),   percentText(d.rowHitRate),
                                    percentText(d.utilization),    std::to_string(d.hostInCycles),
                                    std::to_string(d.unitCycles),  std::to_string(d.hostOutCycles)};
    const dataflow::Decomposition dec = dataflow::decompose(d.share, d.unit.dataflow);
    for (size_t a = 0; a < v.accesses.size(); ++a)
      row.push_back(std::string(toString(d.placement[a])) + " " + ir::toString(d.unit.entries[a]) +
                    "/" + ir::transformName(dec.tensors[a].layout));
    row.push_back(toString(d.unit.buffer, d.share));
    row.push_back(dataflow::toSpec(d.unit.dataflow, d.share));
    rows.push_back(std::move(row));
  }
  std::ostringstream os;
  os << formatColumns(head, rows, [](size_t c) { return c == 0 || (c >= 3 && c <= 11); });
  if (r.designs.size() > top)
    os << "... " << r.designs.size() - top << " more (--top N to show more)\n";
  // Why rank 1 is where it is on the banks' roofline: its MACs per byte from the banks against
  // the ratio of the units' peak to the banks' rate.
  if (!r.designs.empty()) {
    const PimDesign& d = r.designs.front();
    const int64_t peak = s.units * unitPes(s), rate = s.units * s.bank.bytesPerCycle;
    os << "rank 1 on the banks' roofline: ";
    if (d.intensity > 0)
      os << formatSignificant(d.intensity, 4) << " MACs per byte from the banks x " << rate
         << " B/cycle = " << formatSignificant(d.intensity * double(rate), 4)
         << " MACs/cycle against the units' peak of " << peak << ": "
         << (d.intensity * double(rate) < double(peak) ? "bound by the banks" : "bound by compute")
         << ", reaches " << percentText(d.roofline) << " of " << formatSignificant(d.attainable, 4)
         << " MACs/cycle\n";
    else
      os << "nothing comes from the banks: bound by compute, reaches " << percentText(d.roofline)
         << " of " << peak << " MACs/cycle\n";
    // Which cycles these are: the hardware's (replayed, what verify measures) or the model's.
    if (d.exact)
      os << "units: the run of the hardware emit builds, replayed cycle by cycle (verify "
            "measures it); the closed form gave rank 1 "
         << d.modelUnitCycles << "\n";
    else
      os << "units: the explorer's closed form (this design is not built as hardware)\n";
  }
  return os.str();
}

} // namespace rubick::dse
