// SPDX-License-Identifier: Apache-2.0
#pragma once
// The attention pipeline's top module: host port, query/key/value stores and the output store,
// the two GEMM arrays (driven through their host ports), the ROM tables, the vector unit and
// the sequencer that runs the phases of docs/attention.md (private to src/emit).

#include "AttentionTables.h"
#include "VectorUnit.h"

#include "rubick/attn/Pipeline.h"

#include <string>

namespace rubick::emit::detail {

/// With an external memory: one of the pipeline's ping-pong buffers, as the DMA engines of the
/// memory system's top reach it (attn/PipelineMemory.h): `banks` banks (a power of two) of
/// 2^addressBits words per half, the tile row-major (element x: word x / banks of bank
/// x mod banks).
struct BufferPort {
  std::string id; // port prefix: <id>_half, <id>_dma_*
  int64_t banks = 1, addressBits = 1, bits = 8;
};

struct TopParams {
  std::string name; // module prefix: <name>_top, <name>_g1_top, <name>_g2_top, <name>_vector
  int64_t heads = 1, l = 1, s = 1, blockKeys = 1, blocks = 1, dv = 1;
  int64_t qBits = 8, kBits = 8, vBits = 8, oBits = 8; // element widths
  int64_t qSize = 1, kSize = 1, vSize = 1, oSize = 1; // whole tensors, all heads
  HostPort g1, g2;
  int g1Query = 1, g1Key = 2, g1Score = 0, g2Exp = 1, g2Value = 2, g2Result = 0; // selects
  attn::PipelineTiming timing;
  VectorParams vec;
  /// With a memory: the module is `<name>_core`, the core of the memory system's top
  /// (src/emit/MemoryTop.cpp): one key block per start (block 0 also the query pass, the last
  /// also normalise), Q, K, V read from and O written to these buffers instead of the stores
  /// and the host port. Single-head.
  bool memory = false;
  BufferPort oBuf, qBuf, kBuf, vBuf;
};

/// `<name>_top` (`<name>_core` with a memory). Throws std::logic_error when the tables do not give
/// the phase lengths of `p.timing` (the explorer's model must equal the hardware).
std::string attentionTop(const TopParams& p, const AttentionTables& t);

} // namespace rubick::emit::detail
