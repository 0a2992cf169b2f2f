// SPDX-License-Identifier: Apache-2.0
// rubick_dut_core.h: what both per-design testbench parts (rubick_dut.cpp, rubick_mem_dut.cpp)
// share: the Verilated model (--prefix Vdut) with its context and optional FST trace, opened
// and closed. `rubick verify` writes it next to each design's dut.cpp.
#pragma once

#include "Vdut.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include <cstdint>
#include <memory>

namespace {

struct Dut {
  VerilatedContext ctx;
  std::unique_ptr<Vdut> model{new Vdut(&ctx)};
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> trace;
#endif
};

Dut* dut = nullptr;

// Records the signals at `time` (half cycles) when tracing.
void dump(uint64_t time) {
#if VM_TRACE
  if (dut->trace) dut->trace->dump(time);
#endif
  (void)time;
}

} // namespace

// Returns false when a waveform is asked for but this build has no tracing.
bool dutOpen(const char* wave) {
  const bool tracing = wave && *wave;
#if !VM_TRACE
  if (tracing) return false;
#endif
  dut = new Dut;
#if VM_TRACE
  if (tracing) {
    dut->ctx.traceEverOn(true);
    dut->trace = std::make_unique<VerilatedFstC>();
    dut->model->trace(dut->trace.get(), 99);
    dut->trace->open(wave);
  }
#endif
  return true;
}

void dutClose() {
  dut->model->final();
#if VM_TRACE
  if (dut->trace) dut->trace->close();
#endif
  delete dut;
  dut = nullptr;
}
