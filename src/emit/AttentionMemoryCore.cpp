// SPDX-License-Identifier: Apache-2.0
// The attention pipeline as the core of a memory system's top (TopParams::memory): its ports,
// the sequencer of one key block per start, and the ping-pong buffers the DMA engines fill
// (Q, K, V) and drain (O) in place of the host port's stores.

#include "AttentionTopWriter.h"

#include "VerilogText.h"

#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace rubick::emit::detail {
namespace {

// log2 of a buffer's banks: a tile's element x is word x / banks of bank x mod banks, so the
// bank number is the index's low bits.
int64_t bankBits(const BufferPort& b) {
  int64_t k = 0;
  while ((int64_t(1) << k) < b.banks)
    ++k;
  if ((int64_t(1) << k) != b.banks)
    throw std::logic_error("attention: a buffer's banks are not a power of two");
  return k;
}

// {address with its half, bank b}: where the DMA's bank b access lands in the buffer.
std::string dmaIndex(const BufferPort& b, const std::string& addr, int64_t bank) {
  const int64_t ab = b.addressBits + 1, k = bankBits(b);
  const std::string a =
      addr + "[" + std::to_string(bank * ab + ab - 1) + ":" + std::to_string(bank * ab) + "]";
  return k ? "{" + a + ", " + ulit(bank, k) + "}" : a;
}

} // namespace

int64_t bufferIndexBits(const BufferPort& b) {
  return 1 + b.addressBits + bankBits(b);
}

void TopWriter::coreHeader() {
  os << generatedBanner() << "// Fused attention pipeline " << p.name
     << " as the core of its memory system's top: L=" << p.l << " S=" << p.s << " Dv=" << p.dv
     << ", " << p.blocks << " key block(s) of " << p.blockKeys << ".\n"
     << "// Each start runs one key block (block 0 also copies Q, the last also normalises O);\n"
     << "// busy falls after it. Q, K and V come from the half of their ping-pong buffers that "
        "<id>_half\n// names, filled by the DMA through the other; O goes to its half the same "
        "way (README.md).\n"
     << "`default_nettype none\n\n"
     << "module " << p.name << "_core (\n"
     << "  input  wire clk,\n"
     << "  input  wire rst,\n"
     << "  input  wire start,\n"
     << "  output reg  busy,\n"
     << "  output reg  done";
  for (const BufferPort* b : {&p.oBuf, &p.qBuf, &p.kBuf, &p.vBuf}) {
    const int64_t g = b->banks, ab = b->addressBits + 1;
    os << ",\n  input  wire " << b->id << "_half";
    if (b == &p.oBuf)
      os << ",\n  input  wire " << range(g) << " " << b->id << "_dma_re"
         << ",\n  input  wire " << range(g * ab) << " " << b->id << "_dma_raddr"
         << ",\n  output wire " << range(g * b->bits) << " " << b->id << "_dma_rdata";
    else
      os << ",\n  input  wire " << range(g) << " " << b->id << "_dma_we"
         << ",\n  input  wire " << range(g * ab) << " " << b->id << "_dma_waddr"
         << ",\n  input  wire " << range(g * b->bits) << " " << b->id << "_dma_wdata";
  }
  os << "\n);\n\n";
}

void TopWriter::coreSequencer() {
  // The phases of the host-port pipeline, one key block per start; the block counter and the
  // keys left persist between starts and wrap after the last block's normalise.
  os << "  // Sequencer: per start one key block: (query,) copy, GEMM 1, row max, exp, GEMM 2,\n"
     << "  // accumulate(, normalise); every phase has a fixed length.\n"
     << "  localparam [2:0] PH_Q = 3'd0, PH_KV = 3'd1, PH_G1 = 3'd2, PH_MAX = 3'd3, PH_EXP = "
        "3'd4,\n"
     << "                   PH_G2 = 3'd5, PH_ACC = 3'd6, PH_NORM = 3'd7;\n"
     << "  reg [2:0] phase;\n"
     << "  reg " << range(cw) << " cnt;\n"
     << "  reg " << range(bw) << " blk;\n"
     << "  reg " << range(jl) << " kleft; // keys from the block's first to S\n"
     << "  reg " << range(cw) << " len_m1;\n"
     << "  always @(*) begin\n"
     << "    case (phase)\n";
  const char* names[] = {"PH_Q", "PH_KV", "PH_G1", "PH_MAX", "PH_EXP", "PH_G2", "PH_ACC"};
  for (size_t i = 0; i < 7; ++i)
    os << "      " << names[i] << ": len_m1 = " << ulit(lens[i] - 1, cw) << ";\n";
  os << "      default: len_m1 = " << ulit(lens[7] - 1, cw) << ";\n"
     << "    endcase\n"
     << "  end\n"
     << "  wire last = (cnt == len_m1);\n"
     << "  wire last_block = (blk == " << ulit(p.blocks - 1, bw) << ");\n"
     << "  wire step_end = last && (((phase == PH_ACC) && !last_block) || (phase == PH_NORM));\n"
     << "  always @(posedge clk) begin\n"
     << "    if (rst) begin\n"
     << "      busy <= 1'b0;\n"
     << "      done <= 1'b0;\n"
     << "    end else if (!busy) begin\n"
     << "      if (start) begin\n"
     << "        busy <= 1'b1;\n"
     << "        done <= 1'b0;\n"
     << "      end\n"
     << "    end else if (step_end) begin\n"
     << "      busy <= 1'b0;\n"
     << "      done <= 1'b1;\n"
     << "    end\n"
     << "  end\n"
     << "  // The ROM tables are read a cycle ahead, at cnt_next.\n"
     << "  wire " << range(cw) << " cnt_next = (rst || !busy || last) ? " << ulit(0, cw)
     << " : cnt + " << ulit(1, cw) << ";\n"
     << "  always @(posedge clk) cnt <= cnt_next;\n"
     << "  always @(posedge clk) begin\n"
     << "    if (rst) begin\n"
     << "      phase <= PH_Q;\n"
     << "      blk <= " << ulit(0, bw) << ";\n"
     << "      kleft <= " << ulit(p.s, jl) << ";\n"
     << "    end else if (!busy) begin\n"
     << "      phase <= (blk == " << ulit(0, bw) << ") ? PH_Q : PH_KV;\n"
     << "    end else if (last) begin\n";
  // A step ends after ACC: the next block runs at the next start.
  std::ostringstream norm;
  norm << " // PH_NORM: the run is over\n"
       << "          phase <= PH_Q;\n"
       << "          blk <= " << ulit(0, bw) << ";\n"
       << "          kleft <= " << ulit(p.s, jl) << ";\n";
  phaseChain("", norm.str());
  os << "    end\n"
     << "  end\n\n";
}

void TopWriter::buffers() {
  os << "  // Ping-pong buffers, each tile row-major: the pipeline uses the half <id>_half names,\n"
     << "  // the DMA the other (its bank b, word a is element a * banks + b). Each is split into\n"
     << "  // memories <id>_buf<k> by its index's select bits (bank, and for O the row's part)\n"
     << "  // so that every memory has one write port.\n";
  for (const BufferPort* b : {&p.oBuf, &p.qBuf, &p.kBuf, &p.vBuf}) {
    const BufferSplit s = split(*b);
    const int64_t g = b->banks, ib = s.indexBits;
    declareSplit(s);
    std::vector<BufferWriter> writes;
    for (int64_t k = 0; k < g; ++k) {
      const bool o = b == &p.oBuf;
      const std::string ix = b->id + (o ? "_rix" : "_wix") + std::to_string(k);
      os << "  wire " << range(ib) << " " << ix << " = "
         << dmaIndex(*b, b->id + (o ? "_dma_raddr" : "_dma_waddr"), k) << ";\n";
      // DMA port k reaches bank k of every part.
      std::set<int64_t> ids;
      for (int64_t part = 0; part < (int64_t(1) << s.partBits); ++part)
        ids.insert((part << s.bankBits) | k);
      const std::string data =
          slice(b->id + (o ? "_dma_rdata" : "_dma_wdata"), k, b->bits, b->bits);
      if (o)
        splitRead(s, b->id + "_dma_re[" + std::to_string(k) + "]", ix, ids,
                  b->id + "_rd" + std::to_string(k), "assign " + data);
      else
        writes.push_back({b->id + "_dma_we[" + std::to_string(k) + "]", ix, data, ids});
    }
    if (!writes.empty()) splitWrites(s, writes, false);
  }
  os << "\n";
}

} // namespace rubick::emit::detail
