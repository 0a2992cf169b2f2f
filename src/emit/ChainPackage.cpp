// SPDX-License-Identifier: Apache-2.0
// The files of a chain built as hardware: every stage's modules, the chain's top, design.json
// and README.md.

#include "rubick/emit/Chain.h"

#include "EpilogueModule.h"
#include "MemoryPackage.h"
#include "ReadmeText.h"

#include "rubick/arch/AxiOptions.h"
#include "rubick/attn/PipelineMemory.h"
#include "rubick/attn/SelectPipeline.h"
#include "rubick/dse/DesignId.h"
#include "rubick/emit/Attention.h"
#include "rubick/emit/Templates.h"
#include "rubick/emit/Verilog.h"
#include "rubick/support/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <sstream>

namespace rubick::emit {

using detail::Register;
using Json = nlohmann::ordered_json;

std::string chainId(const std::vector<ChainStageDesign>& stages) {
  std::string text = "chain";
  for (const ChainStageDesign& s : stages)
    text += " " + s.point.id;
  // The on-chip RAM's budget decides which intermediates it holds (none: the ID of before).
  if (const int64_t chip = stages.front().options.constraints.chipBudget(); chip != 0)
    text += " chip " + std::to_string(chip);
  if (const int64_t tiles = stages.front().options.constraints.rowTiles; tiles > 1)
    text += " tiles " + std::to_string(tiles);
  return dse::hashId(text);
}

ChainStageDesign attentionStage(std::vector<size_t> statements, std::vector<int> tensorOf,
                                tc::Program program, const attn::AttentionForm& f,
                                const attn::PipelinePoint& p, dse::ExploreOptions options) {
  ChainStageDesign d;
  d.statements = std::move(statements);
  d.tensorOf = std::move(tensorOf);
  d.program = std::move(program);
  d.statement = f.score;
  d.view = dataflow::viewStatement(d.program, f.score);
  d.point.id = p.id;
  d.point.dataflow = p.g1.design.dataflow;
  d.point.metrics.macs = p.macs;
  d.point.memory.cycles = p.latency;
  d.point.memory.computeCycles = p.transfers.computeCycles;
  // Q, K and V are read once and O written once (attn/PipelineMemory.h).
  for (int t : {f.q, f.k, f.v, f.o}) {
    const tc::Tensor& x = d.program.tensors[static_cast<size_t>(t)];
    d.point.memory.busBytes += x.elements() * (tc::bitWidth(x.type) / 8);
  }
  d.options = std::move(options);
  d.attention = f;
  d.pipeline = p;
  return d;
}

std::string stageSpec(const ChainStageDesign& d) {
  return d.pipeline ? attn::pipelineSpec(*d.pipeline) : dataflow::toSpec(d.point.dataflow, d.view);
}

arch::ChainPlan chainDesignPlan(const tc::Program& prog, const std::vector<ChainStageDesign>& s,
                                const std::string& name, int64_t busBytes) {
  std::vector<arch::MemoryPlan> plans;
  std::vector<dse::MemorySystem> memories;
  for (size_t k = 0; k < s.size(); ++k) {
    const std::string n = name + "_s" + std::to_string(k);
    if (const std::optional<attn::PipelinePoint>& p = s[k].pipeline)
      plans.push_back(attn::withSteps(
          attn::pipelineMemoryPlan(s[k].program, *s[k].attention, p->blockKeys, p->memory, n),
          p->timing));
    else
      plans.push_back(
          arch::designMemoryPlan(s[k].program, s[k].view, s[k].point, s[k].options, n, busBytes));
    memories.push_back(s[k].options.constraints.memory);
  }
  arch::ChainPlan c = arch::chainPlan(prog, name, std::move(plans), memories,
                                      s.front().options.constraints.rowTiles);
  const dse::Constraints& k = s.front().options.constraints;
  std::vector<size_t> groups;
  for (const ChainStageDesign& d : s)
    groups.push_back(d.group);
  arch::placeOnChip(c, k.chipBudget(), busBytes, arch::axiOptions(k.memory).addrBits, groups);
  return c;
}

namespace {

// The host's registers: a BASE register for each tensor in memory (not the on-chip ones).
std::vector<Register> chainRegisters(const arch::ChainPlan& c) {
  std::vector<std::pair<std::string, std::string>> tensors;
  for (const arch::ChainTensor& t : c.tensors)
    if (!t.onChip) tensors.push_back({t.tensor.name, arch::toString(t.role)});
  return detail::registerMap(tensors);
}

std::vector<uint64_t> memoryBases(const arch::ChainPlan& c, const std::vector<uint64_t>& all) {
  std::vector<uint64_t> b;
  for (size_t r = 0; r < c.tensors.size(); ++r)
    if (!c.tensors[r].onChip) b.push_back(all[r]);
  return b;
}

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string s;
  for (int64_t x : shape)
    s += (s.empty() ? "" : " x ") + std::to_string(x);
  return s;
}

Json designJson(const tc::Program& prog, const std::vector<ChainStageDesign>& s,
                const arch::ChainPlan& c, const MemoryTopOptions& o, const arch::ChainTiming& tm,
                const std::string& id) {
  const dse::MemorySystem& mem = s.front().options.constraints.memory;
  Json j;
  j["generator"] = std::string("rubick ") + RUBICK_VERSION;
  j["id"] = id;
  j["kind"] = "chain";
  j["program"] = prog.name;
  j["top"] = c.name + "_top";
  j["memory"] = {
      {"bus_bytes", mem.bytesPerCycle}, {"latency", mem.latency}, {"burst_bytes", mem.burstBytes}};
  j["axi"] = detail::axiJson(o);
  int64_t model = -arch::kChainHandoff;
  for (size_t k = 0; k < s.size(); ++k)
    model += c.tiles * (s[k].point.memory.cycles + arch::kChainHandoff);
  j["model"] = {{"cycles", model}};
  j["row_tiles"] = c.tiles;
  j["timing"] = {
      {"cycles", tm.cycles},
      {"assumes",
       "the tensors at base_addresses (or any addresses congruent to them modulo 4096): every "
       "stage's timing.cycles, plus " +
           std::to_string(arch::kChainHandoff) + " between stages" +
           (c.tiles > 1 ? ", once per tile (stages[k].timing: tile 0's run)" : "")},
      {"base_addresses", memoryBases(c, tm.bases)},
      {"handoff_cycles", arch::kChainHandoff}};
  j["registers"] = detail::registersJson(chainRegisters(c));
  // `tensors`: those in memory, by base register (what a host and the testbench place);
  // `on_chip`: the intermediates in the chain's RAM, which never leave it.
  Json tensors = Json::array(), chip = Json::array();
  const std::vector<int> regs = arch::baseRegisters(c);
  for (size_t r = 0; r < c.tensors.size(); ++r) {
    const arch::ChainTensor& t = c.tensors[r];
    Json x = {{"name", t.tensor.name},
              {"role", arch::toString(t.role)},
              {"type", tc::toString(prog.tensors[static_cast<size_t>(t.programTensor)].type)},
              {"element_bits", t.tensor.bits},
              {"shape", t.tensor.shape}};
    if (t.onChip) {
      x["offset_bytes"] = t.chipOffset;
      x["bytes"] = arch::chipTensorBytes(t);
      chip.push_back(x);
      continue;
    }
    x["base_register"] = regs[r];
    x["row_pitch_bytes"] = t.tensor.shape.back() * (t.tensor.bits / 8);
    if (t.tileBytes) x["tile_bytes"] = t.tileBytes;
    tensors.push_back(x);
  }
  j["tensors"] = tensors;
  j["on_chip"] = {{"bytes", c.chipBytes},
                  {"latency", c.chipLatency},
                  {"select_bit", c.chipSelectBit},
                  {"tensors", chip}};
  Json stages = Json::array();
  for (size_t k = 0; k < s.size(); ++k) {
    const arch::ChainStagePlan& st = c.stages[k];
    Json stmts = Json::array();
    for (const tc::Statement& x : s[k].program.statements)
      stmts.push_back(x.text);
    Json regs = Json::array();
    for (size_t r : st.registers)
      regs.push_back(r);
    const arch::MemoryTiming& t = tm.stages[k];
    Json stage = {
        {"module", st.plan.core.name + "_stage"}, {"design", s[k].point.id}, {"statements", stmts}};
    if (s[k].pipeline)
      // The fused attention pipeline: two arrays and a vector unit, a key block per buffer tile.
      stage.update({{"kind", "attention"},
                    {"pipeline", stageSpec(s[k])},
                    {"block_keys", s[k].pipeline->blockKeys}});
    else
      stage.update({{"kind", "contraction"},
                    {"dataflow", stageSpec(s[k])},
                    {"array", {{"p", st.plan.core.p}, {"q", st.plan.core.q}}},
                    {"buffer_tile", dse::toString(st.plan.tiling, s[k].view)}});
    stage.update({{"base_registers", regs},
                  {"fusion_group", s[k].group},
                  {"model_cycles", s[k].point.memory.cycles},
                  {"timing", detail::timingJson(t, st.memory)}});
    stages.push_back(stage);
  }
  j["stages"] = stages;
  return j;
}

std::string readme(const tc::Program& prog, const std::vector<ChainStageDesign>& s,
                   const arch::ChainPlan& c, const MemoryTopOptions& o, const arch::ChainTiming& tm,
                   const std::string& id, const std::vector<std::string>& files) {
  const std::string top = c.name + "_top";
  std::ostringstream os;
  os << "# " << top << "\n\n"
     << "Generated by rubick " << RUBICK_VERSION << " (chain " << id << " of program `" << prog.name
     << "`).\n\n"
     << "A chain of " << s.size()
     << " stages run one after another, each a memory design of "
        "its own; a stage's result goes to memory, where the stages after it read it"
     << (c.chipBytes > 0 ? ", or to the on-chip RAM (below) when it is an intermediate that fits"
                         : "")
     << ".\n\n"
     << "| stage | statements | design | core | cycles |\n|---|---|---|---|---|\n";
  for (size_t k = 0; k < s.size(); ++k) {
    std::string stmts;
    for (const tc::Statement& x : s[k].program.statements)
      stmts += (stmts.empty() ? "`" : "; `") + x.text + "`";
    const dataflow::Dataflow& df = s[k].point.dataflow;
    // A `|` inside a table cell ends the cell, code span or not: escaped.
    std::string spec;
    for (char ch : stageSpec(s[k]))
      spec += ch == '|' ? std::string("\\|") : std::string(1, ch);
    os << "| " << k << " | " << stmts << " | " << s[k].point.id << " | `" << spec << "` "
       << (s[k].pipeline ? "(attention pipeline, GEMM 1 on " : "on ") << df.p << "x" << df.q
       << (s[k].pipeline ? ")" : "") << " | " << tm.stages[k].cycles << " |\n";
  }
  if (c.tiles > 1)
    os << "\nThe stages run " << c.tiles
       << " times, each time on the next tile of rows: a tensor with a tile size below moves "
          "by that many bytes from one tile to the next (the others are read whole every "
          "tile); the table's cycles are tile 0's.\n";
  os << "\nCycles from start to done (CYCLES): " << tm.cycles
     << " with the tensors at 4 KiB boundaries: the stages' cycles plus " << arch::kChainHandoff
     << " between stages" << (c.tiles > 1 ? ", in every tile" : "")
     << " (design.json `timing`, each stage's in `stages`).\n\n"
     << "## Interface\n\n"
     << "All signals are synchronous to `aclk`; `aresetn` is synchronous and active low.\n\n"
     << "| port | meaning |\n|---|---|\n"
     << "| `s_axil_*` | AXI4-Lite control slave, 32-bit data (registers below) |\n"
     << detail::axiReadmeRow(o) << "| `irq` | level: DONE or ERROR with IE set |\n\n"
     << "## Registers\n\n"
     << detail::registerTable(chainRegisters(c)) << "\n## Tensors\n\n"
     << "| base register | tensor | role | shape | element bits | row pitch (bytes) |"
     << (c.tiles > 1 ? " tile (bytes) |" : "") << "\n|---|---|---|---|---|---|"
     << (c.tiles > 1 ? "---|" : "") << "\n";
  const std::vector<int> regs = arch::baseRegisters(c);
  for (size_t r = 0; r < c.tensors.size(); ++r) {
    const arch::MovedTensor& t = c.tensors[r].tensor;
    if (regs[r] < 0) continue;
    os << "| BASE_" << regs[r] << " | " << t.name << " | " << arch::toString(c.tensors[r].role)
       << " | " << shapeText(t.shape) << " | " << t.bits << " | " << t.shape.back() * (t.bits / 8)
       << " |";
    if (c.tiles > 1)
      os << " " << (c.tensors[r].tileBytes ? std::to_string(c.tensors[r].tileBytes) : "whole")
         << " |";
    os << "\n";
  }
  if (c.chipBytes > 0) {
    os << "\nOn chip (`rubick_scratch`, " << c.chipBytes << " bytes, "
       << "latency " << c.chipLatency << "; the stages address it with bit " << c.chipSelectBit
       << " set, so every tensor in memory must lie below 2^" << c.chipSelectBit << "):\n\n"
       << "| tensor | shape | element bits | offset (bytes) |\n|---|---|---|---|\n";
    for (const arch::ChainTensor& t : c.tensors)
      if (t.onChip)
        os << "| " << t.tensor.name << " | " << shapeText(t.tensor.shape) << " | " << t.tensor.bits
           << " | " << t.chipOffset << " |\n";
  }
  os << "\nAn intermediate in memory is written by one stage and read by later ones: give it "
        "room in memory like an output (its bytes are written).\n\n"
     << detail::readmeMemoryProtocol("choose where each output and intermediate goes.")
     << detail::readmeFilesAndChecking(files, top);
  return os.str();
}

} // namespace

std::vector<File> packageChain(const tc::Program& prog, const std::vector<ChainStageDesign>& s,
                               const std::string& name) {
  const MemoryTopOptions o = arch::axiOptions(s.front().options.constraints.memory);
  const arch::ChainPlan c = chainDesignPlan(prog, s, name, o.busBytes);
  const arch::ChainTiming tm = arch::chainTiming(c, o);
  const std::string id = chainId(s);
  std::set<std::string> templates;
  if (c.chipBytes > 0) templates.insert({"rubick_axi_route", "rubick_scratch"});
  // Each stage's own modules, the `_stage` wrapper last.
  std::vector<File> generated;
  for (size_t k = 0; k < c.stages.size(); ++k) {
    const arch::MemoryPlan& m = c.stages[k].plan;
    const std::string n = m.core.name;
    for (const std::string& t : memoryTemplatesUsed(m, o))
      templates.insert(t);
    if (s[k].pipeline) {
      // The attention pipeline's modules as its own package writes them, but its top.
      for (File& f : attentionPackage(s[k].program, *s[k].attention, *s[k].pipeline, n)) {
        if (f.path.rfind("rtl/", 0) != 0 || f.path == "rtl/" + n + "_top.v") continue;
        if (f.path.rfind("rtl/rubick_", 0) == 0)
          templates.insert(f.path.substr(4, f.path.size() - 6));
        else
          generated.push_back(std::move(f));
      }
    } else {
      for (const std::string& t : templatesUsed(m.core))
        templates.insert(t);
      std::vector<char> reload;
      for (const arch::TensorTransfer& x : m.tensors)
        reload.push_back(x.reload);
      generated.push_back({"rtl/" + n + "_array.v", arrayModule(m.core)});
      generated.push_back({"rtl/" + n + "_core.v", coreModule(m.core, reload)});
      if (m.epilogue) generated.push_back({"rtl/" + n + "_epilogue.v", detail::epilogueModule(m)});
    }
    generated.push_back({"rtl/" + n + "_stage.v", memoryStageModule(m, o)});
  }
  std::vector<File> files;
  std::vector<std::string> listed;
  for (const std::string& t : templates) {
    auto it = rtlTemplates().find(t);
    if (it == rtlTemplates().end()) throw Error("emit", "internal: template " + t + " missing");
    files.push_back({"rtl/" + t + ".v", it->second});
    listed.push_back("rtl/" + t + ".v");
  }
  for (File& f : generated) {
    listed.push_back(f.path);
    files.push_back(std::move(f));
  }
  files.push_back({"rtl/" + name + "_top.v", chainTopModule(c, o)});
  listed.push_back("rtl/" + name + "_top.v");
  std::string filelist;
  for (const std::string& f : listed)
    filelist += f + "\n";
  files.push_back({"filelist.f", filelist});
  files.push_back({"design.json", designJson(prog, s, c, o, tm, id).dump(2) + "\n"});
  std::vector<std::string> all = listed;
  all.push_back("filelist.f");
  all.push_back("design.json");
  files.push_back({"README.md", readme(prog, s, c, o, tm, id, all)});
  return files;
}

} // namespace rubick::emit
