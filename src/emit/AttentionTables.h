// SPDX-License-Identifier: Apache-2.0
#pragma once
// The (bank, address) sequences the attention pipeline walks through its GEMM arrays' host
// ports, taken from each array's host map and stored in the pipeline top as ROM tables
// (private to src/emit).

#include "VerilogHostPorts.h"
#include "rubick/arch/Plan.h"
#include "rubick/attn/Pipeline.h"

#include <string>
#include <vector>

namespace rubick::emit::detail {

/// A table: one row per item, one value per field (unsigned, `bits` wide).
struct Rom {
  std::string name;
  std::vector<std::pair<std::string, int64_t>> fields; // (name, bits)
  std::vector<std::vector<int64_t>> rows;
};

/// The width of field `name` of `rom`; throws std::logic_error when it has none.
int64_t fieldBits(const Rom& rom, const std::string& name);

/// The select number (position in the statement) of `tensor` in a GEMM stage.
int selectOf(const attn::GemmStage& g, int tensor);

/// Every table has one row per cycle of its pass: the row of the pass's lane schedule
/// (attn/LaneSchedule.h). Per lane l the fields end in l and start with v<l>, the lane's valid
/// bit (an unused lane is all zeros); the row-wise passes add fields for the whole row first.
struct AttentionTables {
  int64_t lanes = 1;
  Rom query;  // per Q place of one head: store offset, G1 bank, address
  Rom key;    // per K place of one block: store offset, key in the block, G1 bank, address
  Rom value;  // per V place of one block: store offset, key in the block, G2 bank, address
  Rom score;  // row: i, first and last cycle of the row (rs, re); per score: G1 bank, address, j
  Rom expo;   // row: i, rs, re; per E place: the score's G1 bank and address, the E G2 bank and
              // address, j, first place of the element (count)
  Rom result; // per U element: G2 bank, address, i, its word in its lane's U_acc part
  int64_t keyStep = 0, valueStep = 0; // store offset of one key block in K and V
  // Whether the Q, K and V stores are split into `lanes` parts by offset mod W: each lane then
  // reads only its own part (every offset lane l reads is l mod W, and the head and block
  // offsets are multiples of W), so a part is a memory with one read and one write port. Only
  // without tile offsets, for W a power of two and stores of at least 2W words.
  bool splitQuery = false, splitKey = false, splitValue = false;
};

/// The tables of pipeline `p`. Store offsets are in the whole tensor (all heads) or, with
/// `tileOffsets` (a memory: the buffers hold one tile), in the GEMM's own tensor: Q, or K and
/// V of one key block.
AttentionTables attentionTables(const tc::Program& prog, const attn::AttentionForm& f,
                                const attn::PipelinePoint& p, const arch::Plan& plan1,
                                const arch::Plan& plan2, bool tileOffsets = false);

} // namespace rubick::emit::detail
