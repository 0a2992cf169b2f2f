// SPDX-License-Identifier: Apache-2.0
#pragma once
// The parts of a memory design's core that differ from a host-loaded one (private to src/emit):
// every bank is a ping-pong pair of rubick_bank instances. The core uses the half its tensor's
// `<id>_half` input names; the DMA ports reach the other half, which their address MSB names
// ({half, address}, as rubick_dma_scatter and rubick_dma_gather drive them).

#include "rubick/arch/Plan.h"

#include <ostream>
#include <string>
#include <vector>

namespace rubick::emit::detail {

struct BankNames {
  std::string id;   // the tensor's identifier
  std::string bank; // instance prefix
  size_t port = 0;
  int64_t width = 1, depth = 1, addressBits = 1;
  bool chain = false; // chained runs: the core's two contexts may use both halves
};

/// What the core does to one bank (Verilog expressions; empty strings where unused).
struct CoreAccess {
  std::string rd, raddr, wr, waddr, wdata, rdata; // rdata: the wire the core reads
  // Chained runs: true when the read / write is the previous tile's (it uses that one's half).
  std::string rdPrev = "1'b0", wrPrev = "1'b0";
};

/// The core's ports for its DMA: per tensor `_half`, `_acc_zero` for outputs whose sums span
/// buffer tiles, DMA writes for inputs and for outputs in `reload`, DMA reads for outputs.
void memoryPorts(std::ostream& os, const arch::Plan& pl, const std::vector<char>& reload);

/// One bank as a ping-pong pair. With chained runs the core owns a half while a context whose
/// half it is runs (`<id>_half_c` while busy, `<id>_half_p` while prev_on), each access goes
/// to its own context's half, and the read data comes from the half the read named.
void bankPair(std::ostream& os, const BankNames& b, const CoreAccess& c, bool dmaWrite,
              bool dmaRead);

} // namespace rubick::emit::detail
