// SPDX-License-Identifier: Apache-2.0
// rubick's testbench for processing-in-memory designs (docs/pim.md), the per-design part: the
// pins of the Verilated `<top>_axil` (--prefix Vdut): aclk, aresetn, the AXI4-Lite control and
// host-window slaves, irq, and one DRAM command port per unit (ACT, PRE, RD and WR: a WR is
// dram_col_valid with dram_col_write, its column on dram_wr_data). `rubick verify` writes it next
// to every PIM design as dut.cpp; rubick_pim_harness.cpp, compiled once per work directory,
// holds everything else, the bank models included. Only built-in types cross between the two,
// so a mismatch is a link error, never a silent layout difference. The per-unit fields are
// packed (unit u in bits [u*X +: X]) and may be wider than 64 bits (Verilator's VlWide): they
// are read and written as bit fields at the widths dutSetup gives (design.json's "widths").

#include "rubick_dut_core.h"

#include <cstdint>

namespace {

struct Widths {
  unsigned units = 1, data = 64, bankSelect = 1, row = 1, column = 1, colBytes = 1;
};
Widths widths;

uint64_t ones(unsigned w) {
  return w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
}

// Bits [lo, lo + w) of a port of any width (w <= 64).
template <typename T>
uint64_t field(const T& port, unsigned lo, unsigned w) {
  return lo >= 64 ? 0 : (uint64_t(port) >> lo) & ones(w);
}
template <std::size_t N>
uint64_t field(const VlWide<N>& port, unsigned lo, unsigned w) {
  uint64_t v = 0;
  for (unsigned got = 0; got < w;) {
    const unsigned bit = lo + got, take = w - got < 32 - bit % 32 ? w - got : 32 - bit % 32;
    if (bit / 32 < N) v |= ((uint64_t(port.at(bit / 32)) >> (bit % 32)) & ones(take)) << got;
    got += take;
  }
  return v;
}

template <typename T>
void setField(T& port, unsigned lo, unsigned w, uint64_t v) {
  if (lo >= 64) return;
  const uint64_t m = ones(w) << lo;
  port = static_cast<T>((uint64_t(port) & ~m) | ((v << lo) & m));
}
template <std::size_t N>
void setField(VlWide<N>& port, unsigned lo, unsigned w, uint64_t v) {
  for (unsigned put = 0; put < w;) {
    const unsigned bit = lo + put, take = w - put < 32 - bit % 32 ? w - put : 32 - bit % 32;
    if (bit / 32 < N) {
      const uint32_t m = uint32_t(ones(take) << (bit % 32));
      const uint64_t part = put < 64 ? v >> put : 0;
      port.at(bit / 32) = (port.at(bit / 32) & ~m) | (uint32_t(part << (bit % 32)) & m);
    }
    put += take;
  }
}

} // namespace

// The widths of the packed fields and of the host's data (design.json "widths"), and the bytes
// of a column; before any other call but dutOpen.
void dutSetup(unsigned units, unsigned dataBits, unsigned bankSelectBits, unsigned rowBits,
              unsigned columnBits, unsigned colBytes) {
  widths = {units, dataBits, bankSelectBits, rowBits, columnBits, colBytes};
}

void dutControl(bool rst) {
  dut->model->aresetn = !rst;
}

// Slave 0: the control registers (s_axil_*); 1: the host window (s_axil_host_*). The same
// code for both, over their pins' names.
#define RUBICK_AXIL_DRIVE(P)                                                                       \
  do {                                                                                             \
    m.P##awvalid = awvalid;                                                                        \
    m.P##awaddr = awaddr;                                                                          \
    m.P##wvalid = wvalid;                                                                          \
    m.P##wdata = wdata;                                                                            \
    m.P##wstrb = 0xF;                                                                              \
    m.P##bready = bready;                                                                          \
    m.P##arvalid = arvalid;                                                                        \
    m.P##araddr = araddr;                                                                          \
    m.P##rready = rready;                                                                          \
  } while (0)
#define RUBICK_AXIL_SAMPLE(P)                                                                      \
  do {                                                                                             \
    *awready = m.P##awready;                                                                       \
    *wready = m.P##wready;                                                                         \
    *bvalid = m.P##bvalid;                                                                         \
    *bresp = m.P##bresp;                                                                           \
    *arready = m.P##arready;                                                                       \
    *rvalid = m.P##rvalid;                                                                         \
    *rdata = m.P##rdata;                                                                           \
    *rresp = m.P##rresp;                                                                           \
  } while (0)

void dutAxilDrive(unsigned slave, bool awvalid, uint32_t awaddr, bool wvalid, uint32_t wdata,
                  bool bready, bool arvalid, uint32_t araddr, bool rready) {
  Vdut& m = *dut->model;
  if (slave == 0)
    RUBICK_AXIL_DRIVE(s_axil_);
  else
    RUBICK_AXIL_DRIVE(s_axil_host_);
}

void dutAxilSample(unsigned slave, bool* awready, bool* wready, bool* bvalid, unsigned* bresp,
                   bool* arready, bool* rvalid, uint32_t* rdata, unsigned* rresp) {
  const Vdut& m = *dut->model;
  if (slave == 0)
    RUBICK_AXIL_SAMPLE(s_axil_);
  else
    RUBICK_AXIL_SAMPLE(s_axil_host_);
}

bool dutIrq() {
  return dut->model->irq;
}

// The first half of a cycle: the clock low and the outputs settled (the DRAM commands do not
// depend on the read data, so they do not wait for it).
void dutSettle() {
  dut->model->aclk = 0;
  dut->model->eval();
}

// Unit `unit`'s commands of this cycle.
void dutCommands(unsigned unit, bool* rowValid, bool* rowAct, uint32_t* rowBank, uint64_t* rowAddr,
                 bool* colValid, bool* colWrite, uint32_t* colBank, uint32_t* colAddr) {
  const Vdut& m = *dut->model;
  const Widths& w = widths;
  *rowValid = field(m.dram_row_valid, unit, 1);
  *rowAct = field(m.dram_row_act, unit, 1);
  *rowBank = uint32_t(field(m.dram_row_bank, unit * w.bankSelect, w.bankSelect));
  *rowAddr = field(m.dram_row_addr, unit * w.row, w.row);
  *colValid = field(m.dram_col_valid, unit, 1);
  *colWrite = field(m.dram_col_write, unit, 1);
  *colBank = uint32_t(field(m.dram_col_bank, unit * w.bankSelect, w.bankSelect));
  *colAddr = uint32_t(field(m.dram_col_addr, unit * w.column, w.column));
}

// Unit `unit`'s write data of this cycle (for its WR): colBytes bytes, byte i from bits [8i +: 8].
void dutWriteData(unsigned unit, uint8_t* bytes) {
  const Vdut& m = *dut->model;
  const unsigned lo = unit * widths.colBytes * 8;
  for (unsigned i = 0; i < widths.colBytes; i += 8) {
    const unsigned n = widths.colBytes - i < 8 ? widths.colBytes - i : 8;
    const uint64_t v = field(m.dram_wr_data, lo + 8 * i, 8 * n);
    for (unsigned b = 0; b < n; ++b)
      bytes[i + b] = uint8_t(v >> (8 * b));
  }
}

// Unit `unit`'s read data of this cycle: colBytes bytes, byte i in bits [8i +: 8].
void dutDram(unsigned unit, bool valid, const uint8_t* bytes) {
  Vdut& m = *dut->model;
  setField(m.dram_rd_valid, unit, 1, valid);
  const unsigned lo = unit * widths.colBytes * 8;
  for (unsigned i = 0; i < widths.colBytes; i += 8) {
    uint64_t v = 0;
    const unsigned n = widths.colBytes - i < 8 ? widths.colBytes - i : 8;
    for (unsigned b = 0; b < n; ++b)
      v |= uint64_t(bytes[i + b]) << (8 * b);
    setField(m.dram_rd_data, lo + 8 * i, 8 * n, v);
  }
}

// The rest of cycle `cycle` (which numbers it for the waveform's time axis): settled on the
// read data, then the rising edge.
void dutEdge(uint64_t cycle) {
  Vdut& m = *dut->model;
  m.eval();
  dump(2 * cycle);
  m.aclk = 1;
  m.eval();
  dump(2 * cycle + 1);
}
