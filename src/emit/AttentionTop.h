#pragma once
// The attention pipeline's top module: host port, query/key/value stores and the output store,
// the two GEMM arrays (driven through their host ports), the ROM tables, the vector unit and
// the sequencer that runs the phases of docs/attention.md (private to src/emit).

#include "AttentionTables.h"
#include "VectorUnit.h"

#include "rubick/attn/Pipeline.h"

#include <string>

namespace rubick::emit::detail {

struct TopParams {
  std::string name; // module prefix: <name>_top, <name>_g1_top, <name>_g2_top, <name>_vector
  int64_t heads = 1, l = 1, s = 1, blockKeys = 1, blocks = 1, dv = 1;
  int64_t qBits = 8, kBits = 8, vBits = 8, oBits = 8; // element widths
  int64_t qSize = 1, kSize = 1, vSize = 1, oSize = 1; // whole tensors, all heads
  HostPort g1, g2;
  int g1Query = 1, g1Key = 2, g1Score = 0, g2Exp = 1, g2Value = 2, g2Result = 0; // selects
  attn::PipelineTiming timing;
  VectorParams vec;
};

/// `<name>_top`. Throws std::logic_error when the tables do not give the phase lengths of
/// `p.timing` (the explorer's model must equal the hardware).
std::string attentionTop(const TopParams& p, const AttentionTables& t);

} // namespace rubick::emit::detail
