// What `rubick emit` writes for a PIM design of units with a DMA (docs/pim.md, "Units with a
// DMA"): the unit's memory-system design whose memory is its banks, with design.json's `pim`
// block (the banks, where every tensor lies in them) and the README's section on them.

#include "MemoryPackage.h"
#include "PimUnit.h"

#include "rubick/arch/PimDma.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace rubick::emit::detail {

using Json = nlohmann::ordered_json;

namespace {

std::string readmeSection(const dse::PimDesign& d, const dse::PimSystem& s,
                          const arch::MemoryPlan& m, const std::vector<uint64_t>& bases,
                          int64_t cycles) {
  const dse::PimBank& b = s.bank;
  std::ostringstream os;
  os << "\n## A PIM unit\n\n"
     << "This is the one unit of PIM design " << d.id << ": an array with a DMA on its own "
     << s.banksPerUnit << " DRAM bank(s), which take rows of " << b.rowBytes
     << " bytes in turn (row r of the unit's address space is row r / " << s.banksPerUnit
     << " of bank r mod " << s.banksPerUnit << "). `m_axi_*` is the unit's port onto its "
     << "banks, not an external memory: the banks' controller answers it at " << b.bytesPerCycle
     << " bytes a cycle, opening and closing rows by the banks' timings (unit cycles: tRCD "
     << b.tRCD << ", tRP " << b.tRP << ", tRAS " << b.tRAS << ", CL " << b.tCL
     << "; an address reaches the banks the cycle after its handshake).\n\n"
     << "The tensors lie row-major in the banks, each from a row boundary (`design.json` "
        "`pim.placement`); write those addresses into the BASE registers:\n\n"
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
  // One unit: its share is the whole statement (v, whose tensors have their shapes).
  dse::ExploreOptions uo = o;
  uo.constraints.memory = arch::pimUnitPort(s);
  const arch::MemoryPlan m = arch::makeMemoryPlan(prog, v, d.unit.dataflow, d.unit.entries,
                                                  o.constraints.elementBits, d.unit.buffer, name);
  const MemoryPort port{arch::pimUnitAxi(s), arch::pimUnitDram(s), arch::pimUnitBases(m, s)};
  PimPackage p;
  p.files = packageMemory(prog, v, d.unit, uo, name, &port);
  p.explorerCycles = d.modelUnitCycles;
  p.top = name + "_top";
  p.topNote = "AXI4-Lite control, an AXI4 port onto the unit's banks";
  for (File& f : p.files) {
    if (f.path != "design.json") continue;
    Json j = Json::parse(f.content);
    p.predictedCycles = j["timing"]["cycles"].get<int64_t>();
    j["timing"]["assumes"] = "the tensors at base_addresses in the unit's banks (pim.banks); the "
                             "port's address reaching the banks the cycle after its handshake";
    Json placement = Json::array();
    for (size_t t = 0; t < m.tensors.size(); ++t)
      placement.push_back({{"tensor", m.core.tensors[t].name}, {"base", port.bases[t]}});
    const dse::PimBank& b = s.bank;
    j["pim"] = {{"id", d.id},
                {"access", "dma"},
                {"units", s.units},
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
    f.content = j.dump(2) + "\n";
  }
  for (File& f : p.files)
    if (f.path == "README.md") f.content += readmeSection(d, s, m, port.bases, p.predictedCycles);
  return p;
}

} // namespace rubick::emit::detail
