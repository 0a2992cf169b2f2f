// SPDX-License-Identifier: Apache-2.0
// rubick's testbench, the per-design part: the pins of the Verilated model (--prefix Vdut).
// The model itself is opened and closed by rubick_dut_core.h.
// `rubick verify` writes it next to every design as dut.cpp; rubick_harness.cpp, compiled
// once per work directory, holds everything else. Kept to verilated.h and Vdut.h so that the
// per-design build compiles little besides the model.

#include "rubick_dut_core.h"

#include <cstdint>

void dutControl(bool rst, bool start) {
  dut->model->rst = rst;
  dut->model->start = start;
}

void dutWrite(bool we, uint32_t tensor, uint32_t bank, uint32_t addr, uint64_t data) {
  Vdut& m = *dut->model;
  m.host_we = we;
  m.host_wtensor = tensor;
  m.host_wbank = bank;
  m.host_waddr = addr;
  m.host_wdata = data;
}

void dutRead(bool re, uint32_t tensor, uint32_t bank, uint32_t addr) {
  Vdut& m = *dut->model;
  m.host_re = re;
  m.host_rtensor = tensor;
  m.host_rbank = bank;
  m.host_raddr = addr;
}

// One clock cycle; `cycle` numbers it, for the waveform's time axis.
void dutTick(uint64_t cycle) {
  Vdut& m = *dut->model;
  m.clk = 0;
  m.eval();
  dump(2 * cycle);
  m.clk = 1;
  m.eval();
  dump(2 * cycle + 1);
}

bool dutDone() {
  return dut->model->done;
}

uint64_t dutReadData() {
  dut->model->eval();
  return dut->model->host_rdata;
}
