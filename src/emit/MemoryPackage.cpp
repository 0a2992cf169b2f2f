// SPDX-License-Identifier: Apache-2.0
// What `rubick emit` writes for a design whose tensors live in external memory: the core for
// one buffer tile, the top with its AXI interfaces, design.json with the register map, and a
// README that says how to drive it.

#include "MemoryPackage.h"
#include "ReadmeText.h"

#include "EpilogueModule.h"

#include "rubick/arch/DramTiming.h"
#include "rubick/arch/MemoryTiming.h"
#include "rubick/emit/MemoryTop.h"
#include "rubick/emit/Templates.h"
#include "rubick/emit/Verilog.h"
#include "rubick/support/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace rubick::emit::detail {

using Json = nlohmann::ordered_json;

std::vector<Register>
registerMap(const std::vector<std::pair<std::string, std::string>>& baseTensors) {
  std::vector<Register> r = {
      {"CTRL", 0x00, "rw",
       "bit 0 START: writing 1 starts a run (ignored while busy); bit 1 IE: interrupt enable"},
      {"STATUS", 0x04, "rw1c",
       "bit 0 DONE (cleared by a start or by writing 1), bit 1 BUSY (read only), bit 2 ERROR (an "
       "AXI error response; cleared by a start or by writing 1)"},
      {"ISR", 0x08, "rw1c",
       "bit 0 done interrupt, bit 1 error interrupt; write 1 to clear; irq = IE and ISR != 0"},
      {"CYCLES_LO", 0x10, "ro",
       "cycles with BUSY high since the last start, low half; reading it latches the high half"},
      {"CYCLES_HI", 0x14, "ro", "the high half latched by the last CYCLES_LO read"}};
  for (size_t i = 0; i < baseTensors.size(); ++i) {
    const int64_t at = 0x20 + 8 * static_cast<int64_t>(i);
    r.push_back({"BASE_" + std::to_string(i) + "_LO", at, "rw",
                 "byte address of " + baseTensors[i].first + "[0...0] (" + baseTensors[i].second +
                     "), bits 31..0"});
    r.push_back({"BASE_" + std::to_string(i) + "_HI", at + 4, "rw", "bits 63..32"});
  }
  return r;
}

std::vector<Register> registerMap(const arch::MemoryPlan& m) {
  std::vector<std::pair<std::string, std::string>> tensors;
  const std::vector<arch::MovedTensor> moved = arch::movedTensors(m);
  for (size_t i = 0; i < moved.size(); ++i)
    tensors.push_back({moved[i].name, moved[i].output         ? "output"
                                      : i >= m.tensors.size() ? "epilogue operand"
                                                              : "input"});
  return registerMap(tensors);
}

namespace {

std::string hex(int64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << (v < 16 ? "0" : "") << v;
  return os.str();
}

} // namespace

Json registersJson(const arch::MemoryPlan& m) {
  return registersJson(registerMap(m));
}

Json registersJson(const std::vector<Register>& map) {
  Json regs = Json::array();
  for (const Register& r : map)
    regs.push_back(
        {{"name", r.name}, {"offset", r.offset}, {"access", r.access}, {"meaning", r.meaning}});
  return regs;
}

Json axiJson(const MemoryTopOptions& o) {
  const int64_t ports = axiPorts(o);
  Json names = Json::array();
  for (int64_t w = 0; w < ports; ++w)
    names.push_back(axiPortPrefix(w, ports));
  return {{"addr_bits", o.addrBits},
          {"data_bits", o.busBytes * 8},
          {"ports", ports},
          {"port_prefixes", names},
          {"port_data_bits", o.busBytes * 8 / ports},
          {"id_bits", 1},
          {"max_burst_beats", o.burstBeats},
          {"max_outstanding", o.outstanding}};
}

Json timingJson(const arch::MemoryTiming& tm, const dse::MemorySystem& mem) {
  return {{"cycles", tm.cycles},
          {"assumes", "the tensors at base_addresses (or any addresses congruent to them modulo "
                      "4096); a memory of bus_bytes per beat, bytes_per_cycle, latency, no limit "
                      "on bursts in flight"},
          {"base_addresses", tm.bases},
          {"bytes_per_cycle", mem.bytesPerCycle},
          {"buffer_tiles", tm.tiles},
          {"core_cycles_per_tile", tm.coreCycles},
          {"first_load_cycles", tm.firstLoad},
          {"last_store_cycles", tm.lastStore},
          {"phases_bound_by",
           {{"compute", tm.computeBound}, {"loads", tm.loadBound}, {"stores", tm.storeBound}}},
          {"phase_cycles_bound_by",
           {{"compute", tm.computePhaseCycles},
            {"loads", tm.loadPhaseCycles},
            {"stores", tm.storePhaseCycles}}},
          {"loads", tm.loads},
          {"load_cycles", tm.loadCycles},
          {"stores", tm.stores},
          {"store_cycles", tm.storeCycles}};
}

std::string axiReadmeRow(const MemoryTopOptions& o) {
  std::ostringstream os;
  const int64_t ports = axiPorts(o);
  if (ports == 1) {
    os << "| `m_axi_*` | AXI4 master to memory: " << o.busBytes * 8 << "-bit data, " << o.addrBits
       << "-bit addresses, ID 0, INCR bursts of at most " << o.burstBeats
       << " beats that never cross 4 KiB, AxCACHE 0011 |\n";
    return os.str();
  }
  const int64_t pb = o.busBytes / ports;
  os << "| `" << axiPortPrefix(0, ports) << "*` .. `" << axiPortPrefix(ports - 1, ports) << "*` | "
     << ports << " AXI4 masters to memory in lock-step, together one " << o.busBytes * 8
     << "-bit bus: each " << pb * 8 << "-bit data, " << o.addrBits
     << "-bit addresses, ID 0; byte b of the memory is byte b mod " << pb << " of word b / "
     << o.busBytes << " of port (b / " << pb << ") mod " << ports << " (at its address (b / "
     << o.busBytes << ") x " << pb << " + b mod " << pb
     << "); every burst goes to every port at once with the same length (at most " << o.burstBeats
     << " beats), and the design takes a beat or a response when every port has it, AxCACHE 0011 "
        "|\n";
  return os.str();
}

std::string registerTable(const arch::MemoryPlan& m) {
  return registerTable(registerMap(m));
}

std::string registerTable(const std::vector<Register>& map) {
  std::ostringstream os;
  os << "| offset | name | access | meaning |\n|---|---|---|---|\n";
  for (const Register& r : map)
    os << "| " << hex(r.offset) << " | " << r.name << " | " << r.access << " | " << r.meaning
       << " |\n";
  os << "\nOther addresses answer SLVERR.\n";
  return os.str();
}

namespace {

Json designJson(const tc::Program& prog, const dataflow::StatementView& v,
                const dse::DesignPoint& pt, const arch::MemoryPlan& m, const MemoryTopOptions& o,
                const dse::MemorySystem& mem, const arch::MemoryTiming& tm) {
  const arch::Plan& core = m.core;
  Json j;
  j["generator"] = std::string("rubick ") + RUBICK_VERSION;
  j["id"] = pt.id;
  j["program"] = prog.name;
  j["statement"] = core.statement;
  j["top"] = core.name + "_top";
  Json loops = Json::array();
  for (size_t l = 0; l < v.loops.size(); ++l)
    loops.push_back({{"name", v.loops[l]},
                     {"extent", v.extent[l]},
                     {"buffer_tile", m.tiling.size[l]},
                     {"buffer_tiles", m.tileCount[l]}});
  j["loops"] = loops;
  Json order = Json::array();
  for (int l : m.tiling.order)
    order.push_back(v.loops[static_cast<size_t>(l)]);
  j["buffer_order"] = order;
  j["chained_runs"] = core.chain; // docs/memory.md, "Chained runs"
  j["dataflow"] = {{"spec", pt.dataflow.p ? dataflow::toSpec(pt.dataflow, v) : ""},
                   {"core_spec", core.spec},
                   {"array", {{"p", core.p}, {"q", core.q}}}};
  j["core_schedule"] = {{"tile_cycles", core.schedule.tileCycles},
                        {"interval", core.schedule.interval},
                        {"tiles", core.schedule.tiles},
                        {"latency", core.schedule.latency}};
  j["memory"] = {
      {"bus_bytes", mem.bytesPerCycle}, {"latency", mem.latency}, {"burst_bytes", mem.burstBytes}};
  j["axi"] = axiJson(o);
  j["model"] = {{"cycles", pt.memory.cycles},
                {"compute_cycles", pt.memory.computeCycles},
                {"buffer_tiles", pt.memory.bufferTiles},
                {"bank_bytes", pt.memory.bankBytes},
                {"bus_bytes", pt.memory.busBytes}};
  j["timing"] = timingJson(tm, mem);
  j["registers"] = registersJson(m);
  Json tensors = Json::array();
  const std::vector<arch::MovedTensor> moved = arch::movedTensors(m);
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const arch::TensorTransfer& x = m.tensors[i];
    const arch::TensorPlan& t = core.tensors[i];
    // With an epilogue the output in memory is its result; the banks hold the accumulator.
    const int tensorIndex = t.output && m.epilogue ? m.epilogue->output : v.accesses[i].tensor;
    const tc::Tensor& ten = prog.tensors[static_cast<size_t>(tensorIndex)];
    Json e = {{"name", moved[i].name},
              {"role", t.output ? "output" : "input"},
              {"type", tc::toString(ten.type)},
              {"element_bits", moved[i].bits},
              {"shape", x.shape},
              {"base_register", i},
              {"row_pitch_bytes", x.shape.back() * (moved[i].bits / 8)},
              {"tile", x.tile},
              {"entry", ir::toString(t.entry)},
              {"banks", t.ports.size()},
              {"depth_per_half", t.depth},
              {"dma", arch::toString(x.dma)},
              {"partial_sums_reloaded", x.reload}};
    if (t.output && m.epilogue)
      e["accumulator"] = {{"name", t.name}, {"element_bits", t.elementBits}};
    tensors.push_back(e);
  }
  for (size_t k = 0; k < m.operands.size(); ++k) {
    const arch::OperandTransfer& o = m.operands[k];
    const size_t i = m.tensors.size() + k;
    const Json how =
        o.operand.full()
            ? Json{{"kind", "output_shape"},
                   {"banks", o.banks},
                   {"depth_per_half", o.depth},
                   {"dma", arch::toString(o.dma)}}
            : Json{{"kind", "vector"}, {"along_dimension", o.operand.dim}, {"load_lanes", o.lanes}};
    tensors.push_back(
        {{"name", o.operand.name},
         {"role", "input"},
         {"type", tc::toString(prog.tensors[static_cast<size_t>(o.operand.tensor)].type)},
         {"element_bits", o.operand.bits},
         {"shape", o.operand.shape},
         {"base_register", i},
         {"row_pitch_bytes", o.operand.shape.back() * (o.operand.bits / 8)},
         {"epilogue_operand", how}});
  }
  j["tensors"] = tensors;
  if (m.epilogue) {
    Json stmts = Json::array();
    for (size_t s : m.epilogue->statements)
      stmts.push_back(prog.statements[s].text);
    j["epilogue"] = {{"statements", stmts},
                     {"expression", dse::toString(m.epilogue->expr, *m.epilogue)},
                     {"module", core.name + "_epilogue"}};
  }
  return j;
}

std::string readme(const arch::MemoryPlan& m, const dse::DesignPoint& pt,
                   const dataflow::StatementView& v, const MemoryTopOptions& o,
                   const arch::MemoryTiming& tm, const std::vector<std::string>& files) {
  const arch::Plan& core = m.core;
  const std::string top = core.name + "_top";
  std::ostringstream os;
  os << "# " << top << "\n\n"
     << "Generated by rubick " << RUBICK_VERSION << " (design " << pt.id << ").\n\n"
     << "- statement: `" << core.statement << "`, tensors in external memory (row-major)\n"
     << "- buffer tile: " << dse::toString(m.tiling, v) << " (" << pt.memory.bufferTiles
     << " buffer tiles)\n"
     << "- core: `" << core.spec << "` on a " << core.p << "x" << core.q << " PE array, "
     << core.schedule.latency << " cycles per buffer tile\n"
     << "- cycles from start to done (CYCLES): " << tm.cycles << " with the tensors at 4 KiB "
     << "boundaries (design.json `timing`; the explorer's model: " << pt.memory.cycles << ")\n\n"
     << "## Interface\n\n"
     << "All signals are synchronous to `aclk`; `aresetn` is synchronous and active low.\n\n"
     << "| port | meaning |\n|---|---|\n"
     << "| `s_axil_*` | AXI4-Lite control slave, 32-bit data (registers below) |\n"
     << axiReadmeRow(o) << "| `irq` | level: DONE or ERROR with IE set |\n\n"
     << "## Registers\n\n"
     << registerTable(m) << "\n## Tensors\n\n"
     << "| base register | tensor | role | shape | element bits | row pitch (bytes) |\n"
        "|---|---|---|---|---|---|\n";
  const std::vector<arch::MovedTensor> moved = arch::movedTensors(m);
  for (size_t i = 0; i < moved.size(); ++i) {
    const arch::MovedTensor& t = moved[i];
    std::string shape;
    for (int64_t s : t.shape)
      shape += (shape.empty() ? "" : " x ") + std::to_string(s);
    os << "| BASE_" << i << " | " << t.name << " | "
       << (t.output                ? "output"
           : i >= m.tensors.size() ? "epilogue operand"
                                   : "input")
       << " | " << shape << " | " << t.bits << " | " << t.shape.back() * (t.bits / 8) << " |\n";
  }
  if (m.epilogue)
    os << "\nThe output is the epilogue's result: `" << dse::toString(m.epilogue->expr, *m.epilogue)
       << "` (acc: " << core.tensors.front().name
       << " as the banks hold it), applied as it leaves the banks (`" << core.name
       << "_epilogue`); the operands are read once, before the first buffer tile.\n";
  os << "\n"
     << detail::readmeMemoryProtocol(
            "choose where each output goes (its bytes are the only ones written).")
     << detail::readmeFilesAndChecking(files, top);
  return os.str();
}

} // namespace

std::vector<File> packageMemory(const tc::Program& prog, const dataflow::StatementView& v,
                                const dse::DesignPoint& pt, const dse::ExploreOptions& eo,
                                const std::string& name, const MemoryPort* port) {
  const dse::MemorySystem& mem = eo.constraints.memory;
  const MemoryTopOptions o = port ? port->axi : arch::axiOptions(mem);
  const arch::MemoryPlan m = arch::designMemoryPlan(prog, v, pt, eo, name, o.busBytes);
  const arch::MemoryTiming tm =
      port ? arch::dramTiming(m, o, mem, port->dram, port->bases) : arch::memoryTiming(m, o, mem);
  std::vector<char> reload;
  for (const arch::TensorTransfer& x : m.tensors)
    reload.push_back(x.reload);
  std::vector<std::string> templates = templatesUsed(m.core);
  for (const std::string& t : memoryTemplatesUsed(m, o))
    if (std::find(templates.begin(), templates.end(), t) == templates.end()) templates.push_back(t);
  std::sort(templates.begin(), templates.end());
  std::vector<File> files;
  std::vector<std::string> listed;
  for (const std::string& t : templates) {
    auto it = rtlTemplates().find(t);
    if (it == rtlTemplates().end()) throw Error("emit", "internal: template " + t + " missing");
    files.push_back({"rtl/" + t + ".v", it->second});
    listed.push_back("rtl/" + t + ".v");
  }
  files.push_back({"rtl/" + name + "_array.v", arrayModule(m.core)});
  files.push_back({"rtl/" + name + "_core.v", coreModule(m.core, reload)});
  if (m.epilogue) {
    files.push_back({"rtl/" + name + "_epilogue.v", epilogueModule(m)});
    listed.push_back("rtl/" + name + "_epilogue.v");
  }
  files.push_back({"rtl/" + name + "_top.v", memoryTopModule(m, o)});
  for (const char* f : {"_array.v", "_core.v", "_top.v"})
    listed.push_back("rtl/" + name + f);
  std::string filelist;
  for (const std::string& f : listed)
    filelist += f + "\n";
  files.push_back({"filelist.f", filelist});
  files.push_back(
      {"design.json", designJson(prog, v, pt, m, o, eo.constraints.memory, tm).dump(2) + "\n"});
  std::vector<std::string> all = listed;
  all.push_back("filelist.f");
  all.push_back("design.json");
  files.push_back({"README.md", readme(m, pt, v, o, tm, all)});
  return files;
}

} // namespace rubick::emit::detail
