// SPDX-License-Identifier: Apache-2.0
// design.json and README sections of an attention pipeline with an external memory (see
// AttentionMemoryPackage.h).

#include "AttentionMemoryPackage.h"

#include "MemoryPackage.h"

#include "rubick/arch/AxiOptions.h"

#include <sstream>

namespace rubick::emit::detail {

using Json = nlohmann::ordered_json;

void addMemoryJson(Json& j, const tc::Program& prog, const attn::PipelinePoint& pt,
                   const arch::MemoryPlan& m, const arch::MemoryTiming& tm) {
  const dse::MemorySystem& mem = pt.memory;
  j["memory"] = {
      {"bus_bytes", mem.bytesPerCycle}, {"latency", mem.latency}, {"burst_bytes", mem.burstBytes}};
  j["axi"] = axiJson(arch::axiOptions(mem));
  // The explorer ranks by the exact cycles (for the tensors at 4 KiB boundaries).
  j["model"] = {{"cycles", pt.latency},
                {"compute_cycles", pt.transfers.computeCycles},
                {"buffer_tiles", tm.tiles},
                {"bank_bytes", pt.transfers.bufferBytes}};
  j["timing"] = timingJson(tm, mem);
  j["timing"]["core_cycles_per_block"] = m.stepCycles;
  j["registers"] = registersJson(m);
  Json tensors = Json::array();
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const arch::TensorTransfer& x = m.tensors[i];
    const arch::TensorPlan& t = m.core.tensors[i];
    std::string type;
    for (const tc::Tensor& ten : prog.tensors)
      if (ten.name == t.name) type = tc::toString(ten.type);
    tensors.push_back({{"name", t.name},
                       {"select", i},
                       {"role", t.output ? "output" : "input"},
                       {"type", type},
                       {"element_bits", t.elementBits},
                       {"shape", x.shape},
                       {"base_register", i},
                       {"row_pitch_bytes", x.shape.back() * (t.elementBits / 8)},
                       {"tile", x.tile},
                       {"banks", t.ports.size()},
                       {"depth_per_half", t.depth},
                       {"dma", arch::toString(x.dma)}});
  }
  j["tensors"] = tensors;
}

std::string memoryReadme(const attn::PipelinePoint& pt, const arch::MemoryPlan& m,
                         const arch::MemoryTiming& tm) {
  const arch::AxiOptions o = arch::axiOptions(pt.memory);
  const attn::PipelineTiming& t = pt.timing;
  std::ostringstream os;
  os << "## Interface\n\n"
     << "All signals are synchronous to `aclk`; `aresetn` is synchronous and active low.\n\n"
     << "| port | meaning |\n|---|---|\n"
     << "| `s_axil_*` | AXI4-Lite control slave, 32-bit data (registers below) |\n"
     << axiReadmeRow(o) << "| `irq` | level: DONE or ERROR with IE set |\n\n"
     << "## Registers\n\n"
     << registerTable(m) << "\n## Tensors\n\n"
     << "| base register | tensor | role | shape | element bits | row pitch (bytes) | moved in "
        "tiles of |\n|---|---|---|---|---|---|---|\n";
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const arch::TensorPlan& tp = m.core.tensors[i];
    const arch::TensorTransfer& x = m.tensors[i];
    os << "| BASE_" << i << " | " << tp.name << " | " << (tp.output ? "output" : "input") << " | "
       << x.shape[0] << " x " << x.shape[1] << " | " << tp.elementBits << " | "
       << x.shape.back() * (tp.elementBits / 8) << " | " << x.tile[0] << " x " << x.tile[1]
       << " |\n";
  }
  os << "\n## Protocol\n\n"
     << "1. Put Q, K and V in memory, row-major with no padding, at any addresses that are "
        "multiples of their element sizes; choose where O goes (its bytes are the only ones "
        "written).\n"
     << "2. Write the BASE registers, then CTRL = 1 (or 3 for an interrupt).\n"
     << "3. Wait for STATUS.DONE (or `irq`); CYCLES holds the run's cycles. STATUS.ERROR says "
        "an AXI response was not OKAY.\n\n"
     << "## Timing\n\n"
     << "The key blocks are the memory system's buffer tiles: phase -1 loads Q and block 0's K "
        "and V; phase b runs block b through the pipeline while the DMA loads block b + 1's K and "
        "V; phase "
     << t.blocks
     << " stores O. A phase lasts one cycle more than the longer of "
        "the pipeline's run and its loads one after the other (docs/attention.md, \"With an "
        "external memory\").\n\n"
     << "| pipeline phase | cycles | runs |\n|---|---:|---|\n"
     << "| query (Q into GEMM 1) | " << t.query << " | block 0 |\n"
     << "| copy (K, V of the block into the arrays) | " << t.copy << " | per block |\n"
     << "| GEMM 1 | " << t.gemm1 << " | per block |\n"
     << "| row max | " << t.rowMax << " | per block |\n"
     << "| exp and row sum | " << t.exp << " | per block |\n"
     << "| GEMM 2 | " << t.gemm2 << " | per block |\n"
     << "| accumulate | " << t.accumulate << " | per block |\n"
     << "| normalise | " << t.normalise << " | last block |\n\n"
     << "Cycles from start to done (CYCLES): **" << tm.cycles
     << "** with the tensors at 4 KiB boundaries (design.json `timing`; other placements move "
        "the bursts and change it by a few cycles): the first load "
     << tm.firstLoad << ", the last store " << tm.lastStore << ", the pipeline alone "
     << pt.transfers.computeCycles << "; " << tm.loadBound << " of " << tm.tiles
     << " block phases wait for their loads.\n\n";
  return os.str();
}

} // namespace rubick::emit::detail
