// SPDX-License-Identifier: Apache-2.0
#pragma once
// rubick_lib's DRAM row-buffer state (rubick/arch/Dram.h) as the BurstMemory of one DMA engine
// on a fresh rubick_axi_mem.h in DRAM mode, so that tests can compare the library's engine
// timing under DRAM timing with the RTL.

#include "rubick/arch/Dram.h"
#include "rubick_axi_mem.h"

namespace rtl {

class DramReplay final : public rubick::arch::BurstMemory {
public:
  explicit DramReplay(const rubick_sim::AxiMemConfig& c)
      : banks_(dram(c)), latency_(std::max(1u, c.latency)), busBytes_(c.dataBytes) {}
  const std::vector<rubick::arch::BeatsReady>& burst(bool, int64_t at, uint64_t addr,
                                                     int64_t beats) override {
    banks_.access(at + latency_, addr, beats, busBytes_, true, runs_);
    return runs_;
  }

private:
  static rubick::arch::Dram dram(const rubick_sim::AxiMemConfig& c) {
    rubick::arch::Dram d;
    d.banks = c.banks;
    d.rowBytes = c.rowBytes;
    d.tRCD = c.tRCD;
    d.tRP = c.tRP;
    d.CL = c.CL;
    return d;
  }
  rubick::arch::DramBanks banks_;
  int64_t latency_, busBytes_;
  std::vector<rubick::arch::BeatsReady> runs_;
};

} // namespace rtl
