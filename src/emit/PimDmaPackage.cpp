// SPDX-License-Identifier: Apache-2.0
// What `rubick emit` writes for a PIM design of units with a DMA (docs/pim.md, "Units with a
// DMA"): the unit's memory-system design whose memory is its banks, with design.json's `pim`
// block (the banks, where every tensor lies in them) and the README's section on them.

#include "MemoryPackage.h"
#include "PimUnit.h"

#include "rubick/arch/PimDma.h"
#include "rubick/emit/MemoryTop.h"
#include "rubick/emit/Templates.h"
#include "rubick/support/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace rubick::emit::detail {

using Json = nlohmann::ordered_json;

namespace {

std::string readmeSection(const dse::PimDesign& d, const dse::PimSystem& s,
                          const arch::MemoryPlan& m, const std::vector<uint64_t>& bases,
                          int64_t cycles, int64_t ways) {
  const dse::PimBank& b = s.bank;
  const int64_t units = s.units;
  const std::string port = units > 1 ? "`u<u>_" + std::string(ways > 1 ? "m<w>_axi_*`" : "m_axi_*`")
                           : ways > 1 ? "`m<w>_axi_*`"
                                      : "`m_axi_*`";
  std::ostringstream os;
  os << "\n## PIM units\n\n";
  if (units == 1)
    os << "This is the one unit of PIM design " << d.id << ": ";
  else
    os << "`" << m.core.name << "_pim` holds the " << units << " units of PIM design " << d.id
       << ", each a `" << m.core.name << "_top` computing its share (`design.json` "
       << "`pim.spread`) on ";
  os << "an array with a DMA on its own " << s.banksPerUnit << " DRAM bank(s), which take rows of "
     << b.rowBytes << " bytes in turn (row r of a unit's address space is row r / "
     << s.banksPerUnit << " of bank r mod " << s.banksPerUnit << "). " << port
     << " is a unit's port onto its "
     << "banks, not an external memory: the banks' controller answers it at " << b.bytesPerCycle
     << " bytes a cycle, opening and closing rows by the banks' timings (unit cycles: tRCD "
     << b.tRCD << ", tRP " << b.tRP << ", tRAS " << b.tRAS << ", CL " << b.tCL
     << "; an address reaches the banks the cycle after its handshake).\n\n";
  if (units > 1)
    os << "The AXI4-Lite slave writes every unit's registers at once (`rubick_axil_fan`): the "
          "units get the same base addresses, start together and finish in the same cycle; a "
          "read returns unit 0's register, SLVERR if any unit's differs. `irq` is high when "
          "every unit's is.\n\n"
       << "Unit u holds, of every tensor, the block that starts at `design.json` "
          "`pim.unit_offsets[u]` (per tensor, per dimension) with the unit's shape "
          "(`tensors[t].shape`; the whole tensors' shapes are `pim.shapes`): inputs indexed by "
          "no spread loop are copies of the whole tensor, and an output whose reduction loop is "
          "spread is a partial sum in each unit, which the host adds up.\n\n";
  os << "The tensors lie row-major in " << (units > 1 ? "each unit's" : "the") << " banks, each "
     << "from a row boundary (`design.json` `pim.placement`); write those addresses into the "
        "BASE registers:\n\n"
     << "| tensor | base address | rows |\n|---|---|---|\n";
  for (size_t t = 0; t < m.tensors.size(); ++t) {
    uint64_t bytes = static_cast<uint64_t>(m.core.tensors[t].elementBits / 8);
    for (int64_t e : m.tensors[t].shape)
      bytes *= static_cast<uint64_t>(e);
    const uint64_t row = static_cast<uint64_t>(b.rowBytes);
    os << "| " << m.core.tensors[t].name << " | " << bases[t] << " | " << (bytes + row - 1) / row
       << " |\n";
  }
  os << "\nWith them, a run takes " << cycles << " cycles (`timing.cycles`; the explorer's "
     << "model: " << d.modelUnitCycles << ").\n";
  return os.str();
}

} // namespace

PimPackage packagePimDma(const tc::Program& prog, const dataflow::StatementView& v,
                         const dse::PimDesign& d, const dse::PimSystem& s,
                         const dse::ExploreOptions& o, const std::string& name) {
  // Each unit runs the memory design of its share (every unit the same design on its own
  // block of each tensor, in its own banks).
  const auto [share, shareView] = arch::pimShareProblem(prog, v, d);
  dse::ExploreOptions uo = o;
  uo.constraints.memory = arch::pimUnitPort(s);
  const arch::MemoryPlan m = arch::pimUnitPlan(prog, v, d, o.constraints.elementBits, name);
  const MemoryPort port{arch::pimUnitAxi(s), arch::pimUnitDram(s), arch::pimUnitBases(m, s)};
  const int64_t units = s.units, ways = axiPorts(port.axi);
  PimPackage p;
  p.files = packageMemory(share, shareView, d.unit, uo, name, &port);
  p.explorerCycles = d.modelUnitCycles;
  p.bases = port.bases;
  p.dram = arch::toString(port.dram);
  p.top = name + (units > 1 ? "_pim" : "_top");
  p.topNote = units > 1 ? "AXI4-Lite control of every unit, each unit's AXI4 port onto its banks"
                        : "AXI4-Lite control, an AXI4 port onto the unit's banks";
  if (units > 1) {
    auto it = rtlTemplates().find("rubick_axil_fan");
    if (it == rtlTemplates().end())
      throw Error("emit", "internal: template rubick_axil_fan missing");
    p.files.push_back({"rtl/rubick_axil_fan.v", it->second});
    p.files.push_back({"rtl/" + name + "_pim.v", memoryUnitsModule(m, port.axi, units)});
    for (File& f : p.files)
      if (f.path == "filelist.f") f.content += "rtl/rubick_axil_fan.v\nrtl/" + name + "_pim.v\n";
  }
  for (File& f : p.files) {
    if (f.path != "design.json") continue;
    Json j = Json::parse(f.content);
    p.predictedCycles = j["timing"]["cycles"].get<int64_t>();
    j["top"] = p.top;
    j["timing"]["assumes"] = "the tensors at base_addresses in each unit's banks (pim.banks); the "
                             "port's address reaching the banks the cycle after its handshake";
    Json prefixes = Json::array();
    for (int64_t u = 0; u < units; ++u)
      for (int64_t w = 0; w < ways; ++w)
        prefixes.push_back(unitPortPrefix(u, units, w, ways));
    j["axi"]["port_prefixes"] = prefixes;
    Json placement = Json::array();
    for (size_t t = 0; t < m.tensors.size(); ++t)
      placement.push_back({{"tensor", m.core.tensors[t].name}, {"base", port.bases[t]}});
    const dse::PimBank& b = s.bank;
    j["pim"] = {{"id", d.id},
                {"access", "dma"},
                {"units", units},
                {"banks",
                 {{"banks", s.banksPerUnit},
                  {"row_bytes", b.rowBytes},
                  {"bytes_per_cycle", b.bytesPerCycle},
                  {"trcd", b.tRCD},
                  {"trp", b.tRP},
                  {"tras", b.tRAS},
                  {"cl", b.tCL}}},
                {"dram", arch::toString(port.dram)},
                {"placement", placement},
                {"explorer_cycles", d.modelUnitCycles}};
    if (units > 1) {
      Json spread = Json::array(), shapes = Json::array(), offsets = Json::array();
      for (size_t l = 0; l < d.spread.size(); ++l)
        spread.push_back({{"loop", v.loops[l]}, {"extent", v.extent[l]}, {"units", d.spread[l]}});
      for (const dataflow::AccessView& a : v.accesses)
        shapes.push_back(prog.tensors[static_cast<size_t>(a.tensor)].shape);
      for (int64_t u = 0; u < units; ++u)
        offsets.push_back(arch::pimUnitOffsets(v, d, u));
      j["pim"]["spread"] = spread;
      j["pim"]["shapes"] = shapes;
      j["pim"]["unit_offsets"] = offsets;
    }
    f.content = j.dump(2) + "\n";
  }
  for (File& f : p.files)
    if (f.path == "README.md")
      f.content += readmeSection(d, s, m, port.bases, p.predictedCycles, ways);
  return p;
}

} // namespace rubick::emit::detail
