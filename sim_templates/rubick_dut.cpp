// rubick's testbench, the per-design part: the pins of the Verilated model (--prefix Vdut).
// `rubick verify` writes it next to every design as dut.cpp; rubick_harness.cpp, compiled
// once per work directory, holds everything else. Kept to verilated.h and Vdut.h so that the
// per-design build compiles little besides the model.

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
#if VM_TRACE
  if (dut->trace) dut->trace->dump(2 * cycle);
#endif
  m.clk = 1;
  m.eval();
#if VM_TRACE
  if (dut->trace) dut->trace->dump(2 * cycle + 1);
#endif
  (void)cycle;
}

bool dutDone() {
  return dut->model->done;
}

uint64_t dutReadData() {
  dut->model->eval();
  return dut->model->host_rdata;
}

void dutClose() {
  dut->model->final();
#if VM_TRACE
  if (dut->trace) dut->trace->close();
#endif
  delete dut;
  dut = nullptr;
}
