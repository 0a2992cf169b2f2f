// SPDX-License-Identifier: Apache-2.0
#include "VerilogMemoryCore.h"

#include "VerilogText.h"

namespace rubick::emit::detail {

namespace {

std::string slice(const std::string& v, int64_t index, int64_t width) {
  return v + "[" + std::to_string((index + 1) * width - 1) + ":" + std::to_string(index * width) +
         "]";
}

} // namespace

void memoryPorts(std::ostream& os, const arch::Plan& pl, const std::vector<char>& reload) {
  for (size_t ti = 0; ti < pl.tensors.size(); ++ti) {
    const arch::TensorPlan& t = pl.tensors[ti];
    const int64_t banks = static_cast<int64_t>(t.ports.size());
    const int64_t a = t.addressBits + 1, w = t.elementBits;
    os << ",\n  input  wire " << t.id << "_half";
    if (t.bufferRecurs) os << ",\n  input  wire " << t.id << "_acc_zero";
    if (!t.output || reload[ti])
      os << ",\n  input  wire " << range(banks) << " " << t.id << "_dma_we"
         << ",\n  input  wire " << range(banks * a) << " " << t.id << "_dma_waddr"
         << ",\n  input  wire " << range(banks * w) << " " << t.id << "_dma_wdata";
    if (t.output)
      os << ",\n  input  wire " << range(banks) << " " << t.id << "_dma_re"
         << ",\n  input  wire " << range(banks * a) << " " << t.id << "_dma_raddr"
         << ",\n  output wire " << range(banks * w) << " " << t.id << "_dma_rdata";
  }
}

void bankPair(std::ostream& os, const BankNames& b, const CoreAccess& c, bool dmaWrite,
              bool dmaRead) {
  const int64_t p = static_cast<int64_t>(b.port), a = b.addressBits + 1;
  const std::string half = b.id + "_half";
  const std::string msbW = b.id + "_dma_waddr[" + std::to_string(p * a + b.addressBits) + "]";
  const std::string msbR = b.id + "_dma_raddr[" + std::to_string(p * a + b.addressBits) + "]";
  const std::string we = b.id + "_dma_we[" + std::to_string(p) + "]";
  const std::string re = b.id + "_dma_re[" + std::to_string(p) + "]";
  auto low = [&](const std::string& v) {
    return v + "[" + std::to_string(p * a + b.addressBits - 1) + ":" + std::to_string(p * a) + "]";
  };
  const std::string wdata = slice(b.id + "_dma_wdata", p, b.width);
  os << "  wire " << range(b.width) << " " << b.bank << "_q0, " << b.bank << "_q1;\n";
  // Chained runs: the half each access uses (its context's), registered for the read data.
  const std::string rh = b.bank + "_rh", wh = b.bank + "_wh";
  if (b.chain)
    os << "  wire " << rh << " = " << c.rdPrev << " ? " << b.id << "_half_p : " << b.id
       << "_half_c;\n";
  if (b.chain && !c.wdata.empty())
    os << "  wire " << wh << " = " << c.wrPrev << " ? " << b.id << "_half_p : " << b.id
       << "_half_c;\n";
  for (int h = 0; h < 2; ++h) {
    const std::string is = h ? "" : "!";
    // The core owns this half when its tensor's half says so (with chained runs: the half of a
    // context that runs); the DMA may use it otherwise.
    const std::string core =
        b.chain ? "((busy && " + is + b.id + "_half_c) || (prev_on && " + is + b.id + "_half_p))"
                : is + half;
    const std::string coreRd = b.chain ? "(" + c.rd + ") && " + is + rh : c.rd;
    const std::string coreWr = b.chain ? "(" + c.wr + ") && " + is + wh : c.wr;
    const std::string dmaW = we + " && " + (h ? msbW : "!" + msbW);
    const std::string dmaR = re + " && " + (h ? msbR : "!" + msbR);
    std::string rdEn = core + " && (" + coreRd + ")", rdAddr = c.raddr;
    if (dmaRead) {
      rdEn = core + " ? (" + coreRd + ") : (" + dmaR + ")";
      rdAddr = core + " ? " + c.raddr + " : " + low(b.id + "_dma_raddr");
    }
    std::string wrEn = dmaW, wrAddr = low(b.id + "_dma_waddr"), wrData = wdata;
    if (!c.wdata.empty() && dmaWrite) {
      wrEn = core + " ? (" + coreWr + ") : (" + dmaW + ")";
      wrAddr = core + " ? " + c.waddr + " : " + wrAddr;
      wrData = core + " ? " + c.wdata + " : " + wdata;
    } else if (!c.wdata.empty()) {
      wrEn = core + " && (" + coreWr + ")";
      wrAddr = c.waddr;
      wrData = c.wdata;
    }
    os << "  rubick_bank #(.WIDTH(" << b.width << "), .DEPTH(" << b.depth << "), .AW("
       << b.addressBits << ")) " << b.bank << "_h" << h << " (\n"
       << "    .clk(clk),\n"
       << "    .rd_en(" << rdEn << "),\n"
       << "    .rd_addr(" << rdAddr << "),\n"
       << "    .rd_data(" << b.bank << "_q" << h << "),\n"
       << "    .wr_en(" << wrEn << "),\n"
       << "    .wr_addr(" << wrAddr << "),\n"
       << "    .wr_data(" << wrData << "));\n";
  }
  if (b.chain) {
    os << "  reg " << b.bank << "_rsel;\n"
       << "  always @(posedge clk) if (" << c.rd << ") " << b.bank << "_rsel <= " << rh << ";\n"
       << "  assign " << c.rdata << " = " << b.bank << "_rsel ? " << b.bank << "_q1 : " << b.bank
       << "_q0;\n";
  } else {
    os << "  assign " << c.rdata << " = " << half << " ? " << b.bank << "_q1 : " << b.bank
       << "_q0;\n";
  }
  if (dmaRead) {
    // The DMA's data comes the cycle after its read, from the half that read named.
    os << "  reg " << b.bank << "_dsel;\n"
       << "  always @(posedge clk) if (" << re << ") " << b.bank << "_dsel <= " << msbR << ";\n"
       << "  assign " << slice(b.id + "_dma_rdata", p, b.width) << " = " << b.bank << "_dsel ? "
       << b.bank << "_q1 : " << b.bank << "_q0;\n";
  }
}

} // namespace rubick::emit::detail
