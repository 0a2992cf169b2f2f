// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/PimDma.h"

#include "rubick/arch/DramTiming.h"

namespace rubick::arch {

std::pair<tc::Program, dataflow::StatementView> pimShareProblem(const tc::Program& prog,
                                                                const dataflow::StatementView& v,
                                                                const dse::PimDesign& d) {
  dse::BufferTiling whole;
  whole.size = d.share.extent;
  return bufferTileProblem(prog, v, whole);
}

MemoryPlan pimUnitPlan(const tc::Program& prog, const dataflow::StatementView& v,
                       const dse::PimDesign& d, const std::vector<int64_t>& elementBits,
                       const std::string& name) {
  const auto [share, view] = pimShareProblem(prog, v, d);
  return makeMemoryPlan(share, view, d.unit.dataflow, d.unit.entries, elementBits, d.unit.buffer,
                        name);
}

std::vector<int64_t> pimUnitLoopStarts(const dse::PimDesign& d, int64_t u) {
  std::vector<int64_t> start(d.spread.size(), 0);
  for (size_t l = 0; l < d.spread.size(); ++l) {
    start[l] = (u % d.spread[l]) * d.share.extent[l];
    u /= d.spread[l];
  }
  return start;
}

std::vector<std::vector<int64_t>> pimUnitOffsets(const dataflow::StatementView& v,
                                                 const dse::PimDesign& d, int64_t u) {
  const std::vector<int64_t> loopStart = pimUnitLoopStarts(d, u);
  std::vector<std::vector<int64_t>> out;
  for (const dataflow::AccessView& a : v.accesses) {
    std::vector<int64_t> dims;
    for (const auto& row : a.coeffs) {
      int64_t at = 0;
      for (size_t l = 0; l < row.size(); ++l)
        at += row[l] * loopStart[l];
      dims.push_back(at);
    }
    out.push_back(std::move(dims));
  }
  return out;
}

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
