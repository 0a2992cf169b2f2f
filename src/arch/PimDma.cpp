#include "rubick/arch/PimDma.h"

#include "rubick/arch/DramTiming.h"

namespace rubick::arch {

Dram pimUnitDram(const dse::PimSystem& s) {
  Dram d;
  d.banks = s.banksPerUnit;
  d.rowBytes = s.bank.rowBytes;
  d.tRCD = s.bank.tRCD;
  d.tRP = s.bank.tRP;
  d.CL = s.bank.tCL;
  d.tRAS = s.bank.tRAS;
  return d;
}

dse::MemorySystem pimUnitPort(const dse::PimSystem& s) {
  dse::MemorySystem m = dse::unitMemory(s);
  m.latency = 1;
  return m;
}

AxiOptions pimUnitAxi(const dse::PimSystem& s) {
  return axiOptions(dse::unitMemory(s));
}

std::vector<uint64_t> pimUnitBases(const MemoryPlan& m, const dse::PimSystem& s) {
  const uint64_t row = static_cast<uint64_t>(s.bank.rowBytes);
  std::vector<uint64_t> bases;
  uint64_t next = 0;
  for (size_t t = 0; t < m.tensors.size(); ++t) {
    bases.push_back(next);
    uint64_t bytes = static_cast<uint64_t>(m.core.tensors[t].elementBits / 8);
    for (int64_t e : m.tensors[t].shape)
      bytes *= static_cast<uint64_t>(e);
    next += (bytes + row - 1) / row * row;
  }
  return bases;
}

MemoryTiming pimUnitTiming(const MemoryPlan& m, const dse::PimSystem& s) {
  return dramTiming(m, pimUnitAxi(s), pimUnitPort(s), pimUnitDram(s), pimUnitBases(m, s));
}

} // namespace rubick::arch
