// SPDX-License-Identifier: Apache-2.0
// rubick's testbench for designs with a memory system, the per-design part: the pins of the
// Verilated `<name>_top` (--prefix Vdut): aclk, aresetn, the AXI4-Lite slave s_axil_*, the AXI4
// master port(s) (m_axi_*, or m00_axi_*, m01_axi_*, ... in lock-step) and irq. `rubick verify`
// writes it next to every such design as dut.cpp;
// rubick_mem_harness.cpp, compiled once per work directory, holds everything else. Only
// built-in types cross between the two, so a mismatch is a link error, never a silent layout
// difference. The AXI data bus may be wider than 64 bits (Verilator's VlWide): the data crosses
// as bytes, the strobes as one byte per bit.

#include "rubick_dut_core.h"

#include <cstdint>

namespace {

// 64-bit word i of a port, for ports of any width.
template <typename T>
uint64_t word(const T& port, unsigned i) {
  return i == 0 ? uint64_t(port) : 0;
}
template <std::size_t N>
uint64_t word(const VlWide<N>& port, unsigned i) {
  const uint64_t lo = 2 * i < N ? port[2 * i] : 0;
  const uint64_t hi = 2 * i + 1 < N ? port[2 * i + 1] : 0;
  return lo | (hi << 32);
}

template <typename T>
void setBytes(T& port, const uint8_t* bytes, unsigned n) {
  uint64_t v = 0;
  for (unsigned b = 0; b < n && b < 8; ++b)
    v |= uint64_t(bytes[b]) << (8 * b);
  port = static_cast<T>(v);
}
template <std::size_t N>
void setBytes(VlWide<N>& port, const uint8_t* bytes, unsigned n) {
  for (std::size_t w = 0; w < N; ++w) {
    uint32_t v = 0;
    for (unsigned b = 0; b < 4 && 4 * w + b < n; ++b)
      v |= uint32_t(bytes[4 * w + b]) << (8 * b);
    port[w] = v;
  }
}

template <typename T>
void getBytes(const T& port, uint8_t* bytes, unsigned n) {
  for (unsigned b = 0; b < n; ++b)
    bytes[b] = uint8_t(word(port, b / 8) >> (8 * (b % 8)));
}
template <typename T>
void getBits(const T& port, uint8_t* bits, unsigned n) {
  for (unsigned b = 0; b < n; ++b)
    bits[b] = uint8_t((word(port, b / 64) >> (b % 64)) & 1);
}

} // namespace

void dutReset(bool aresetn) {
  dut->model->aresetn = aresetn;
}

void dutAxilDrive(bool awvalid, uint32_t awaddr, bool wvalid, uint32_t wdata, bool bready,
                  bool arvalid, uint32_t araddr, bool rready) {
  Vdut& m = *dut->model;
  m.s_axil_awvalid = awvalid;
  m.s_axil_awaddr = awaddr;
  m.s_axil_wvalid = wvalid;
  m.s_axil_wdata = wdata;
  m.s_axil_wstrb = 0xf;
  m.s_axil_bready = bready;
  m.s_axil_arvalid = arvalid;
  m.s_axil_araddr = araddr;
  m.s_axil_rready = rready;
}

void dutAxilSample(bool* awready, bool* wready, bool* bvalid, unsigned* bresp, bool* arready,
                   bool* rvalid, uint32_t* rdata, unsigned* rresp) {
  const Vdut& m = *dut->model;
  *awready = m.s_axil_awready;
  *wready = m.s_axil_wready;
  *bvalid = m.s_axil_bvalid;
  *bresp = m.s_axil_bresp;
  *arready = m.s_axil_arready;
  *rvalid = m.s_axil_rvalid;
  *rdata = m.s_axil_rdata;
  *rresp = m.s_axil_rresp;
}

// The top's AXI4 master ports (design.json `axi.port_prefixes`): `rubick verify` writes
// dut_axi_ports.h with RUBICK_AXI_PORTS(X), X(index, prefix) for each (X(0, m_axi_) for one).
#include "dut_axi_ports.h"

unsigned dutAxiPorts() {
#define RUBICK_COUNT_PORT(n, p) +1
  return 0 RUBICK_AXI_PORTS(RUBICK_COUNT_PORT);
#undef RUBICK_COUNT_PORT
}

// Port `port`'s memory side (the master's inputs); rdata holds `bytes` bytes, byte i =
// RDATA[8i+7:8i].
void dutAxiDrive(unsigned port, bool arready, bool rvalid, bool rlast, unsigned rresp, unsigned rid,
                 const uint8_t* rdata, unsigned bytes, bool awready, bool wready, bool bvalid,
                 unsigned bresp, unsigned bid) {
  Vdut& m = *dut->model;
#define RUBICK_DRIVE_PORT(n, p)                                                                    \
  case n:                                                                                          \
    m.p##arready = arready;                                                                        \
    m.p##rvalid = rvalid;                                                                          \
    m.p##rlast = rlast;                                                                            \
    m.p##rresp = rresp;                                                                            \
    m.p##rid = rid;                                                                                \
    setBytes(m.p##rdata, rdata, bytes);                                                            \
    m.p##awready = awready;                                                                        \
    m.p##wready = wready;                                                                          \
    m.p##bvalid = bvalid;                                                                          \
    m.p##bresp = bresp;                                                                            \
    m.p##bid = bid;                                                                                \
    break;
  switch (port) {
    RUBICK_AXI_PORTS(RUBICK_DRIVE_PORT)
  default:
    break;
  }
#undef RUBICK_DRIVE_PORT
}

// Port `port`'s master outputs. wdata gets `bytes` bytes, wstrb one byte (0 or 1) per data
// byte.
void dutAxiSample(unsigned port, bool* arvalid, uint64_t* araddr, unsigned* arlen, unsigned* arsize,
                  unsigned* arburst, unsigned* arid, bool* rready, bool* awvalid, uint64_t* awaddr,
                  unsigned* awlen, unsigned* awsize, unsigned* awburst, unsigned* awid,
                  bool* wvalid, bool* wlast, uint8_t* wdata, uint8_t* wstrb, unsigned bytes,
                  bool* bready) {
  const Vdut& m = *dut->model;
#define RUBICK_SAMPLE_PORT(n, p)                                                                   \
  case n:                                                                                          \
    *arvalid = m.p##arvalid;                                                                       \
    *araddr = m.p##araddr;                                                                         \
    *arlen = m.p##arlen;                                                                           \
    *arsize = m.p##arsize;                                                                         \
    *arburst = m.p##arburst;                                                                       \
    *arid = m.p##arid;                                                                             \
    *rready = m.p##rready;                                                                         \
    *awvalid = m.p##awvalid;                                                                       \
    *awaddr = m.p##awaddr;                                                                         \
    *awlen = m.p##awlen;                                                                           \
    *awsize = m.p##awsize;                                                                         \
    *awburst = m.p##awburst;                                                                       \
    *awid = m.p##awid;                                                                             \
    *wvalid = m.p##wvalid;                                                                         \
    *wlast = m.p##wlast;                                                                           \
    getBytes(m.p##wdata, wdata, bytes);                                                            \
    getBits(m.p##wstrb, wstrb, bytes);                                                             \
    *bready = m.p##bready;                                                                         \
    break;
  switch (port) {
    RUBICK_AXI_PORTS(RUBICK_SAMPLE_PORT)
  default:
    break;
  }
#undef RUBICK_SAMPLE_PORT
}

// The first half of cycle `cycle`: the clock low and the outputs settled on this cycle's inputs.
void dutSettle(uint64_t cycle) {
  dut->model->aclk = 0;
  dut->model->eval();
  dump(2 * cycle);
}

// The second half: the rising edge.
void dutEdge(uint64_t cycle) {
  dut->model->aclk = 1;
  dut->model->eval();
  dump(2 * cycle + 1);
}

bool dutIrq() {
  return dut->model->irq;
}
