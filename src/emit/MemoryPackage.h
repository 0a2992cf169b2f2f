// SPDX-License-Identifier: Apache-2.0
#pragma once
// The files of a design with a memory system (private to src/emit; emit::package calls it for
// designs with a buffer tiling).

#include "rubick/arch/Dram.h"
#include "rubick/arch/MemoryTiming.h"
#include "rubick/dse/Explore.h"
#include "rubick/emit/MemoryTop.h"
#include "rubick/emit/Package.h"
#include "rubick/frontend/Program.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rubick::emit::detail {

/// One register of a memory design's AXI4-Lite map (docs/hardware.md, "Registers").
struct Register {
  std::string name;
  int64_t offset;
  std::string access, meaning;
};

/// The register map of `m`'s top: control, status, cycles, a base address per tensor.
std::vector<Register> registerMap(const arch::MemoryPlan& m);

/// The same for base registers of these tensors: (name, role) in base-register order.
std::vector<Register>
registerMap(const std::vector<std::pair<std::string, std::string>>& baseTensors);

/// design.json's `registers`, `axi` and `timing` of a memory design (shared with the attention
/// pipeline's).
nlohmann::ordered_json registersJson(const arch::MemoryPlan& m);
nlohmann::ordered_json registersJson(const std::vector<Register>& map);
nlohmann::ordered_json axiJson(const MemoryTopOptions& o);
nlohmann::ordered_json timingJson(const arch::MemoryTiming& tm, const dse::MemorySystem& mem);

/// The README's interface row of the AXI4 master port(s).
std::string axiReadmeRow(const MemoryTopOptions& o);

/// The README's register table (a Markdown table and the line after it).
std::string registerTable(const arch::MemoryPlan& m);
std::string registerTable(const std::vector<Register>& map);

/// What a memory design is built with and timed against when its memory is not an external
/// one of fixed latency: a PIM unit's port onto its banks (arch/PimDma.h).
struct MemoryPort {
  arch::AxiOptions axi;
  arch::Dram dram;
  std::vector<uint64_t> bases; // where the tensors lie
};

/// The files of design `pt` (with a buffer tiling) on `o.constraints.memory`, or with `port`
/// on that port.
std::vector<File> packageMemory(const tc::Program& prog, const dataflow::StatementView& v,
                                const dse::DesignPoint& pt, const dse::ExploreOptions& o,
                                const std::string& name, const MemoryPort* port = nullptr);

} // namespace rubick::emit::detail
