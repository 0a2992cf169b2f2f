#pragma once
// Target files (designs/targets/NAME.json) bundle the constraints of a hardware target so a user
// can say `--target designs/targets/fpga.json` instead of repeating flags. Command-line flags
// override what the target sets. Format (every field optional):
//
//   {
//     "name": "fpga",
//     "description": "...",
//     "arrays": ["8x8", "16x16"],          or  "array_range": [4, 16]   (every PxQ, P and Q in
//     range) "max_fanout": 16, "max_ports": 64, "buffer_kib": 1024, "dtype": "int8", "entries":
//     "fpga"                     or "all", or a list of entry names/numbers "memory": { external
//     memory (docs/memory.md)
//       "bytes_per_cycle": 64,              bus width: one beat of this many bytes a cycle
//       "latency": 100,                     cycles to a transfer's first beat (default 100)
//       "burst_bytes": 4096                 longest burst (default 256 beats, at most 4096)
//     }
//   }

#include "rubick/dse/CostModel.h"
#include "rubick/dse/Explore.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rubick::dse {

struct Target {
  std::string name;
  std::string description;
  std::vector<ArrayShape> arrays; // empty: not set
  std::optional<int64_t> maxFanout, maxPorts, bufferKib;
  std::optional<std::string> dtype;
  std::optional<std::set<ir::EntryKind>> entries;
  std::optional<MemorySystem> memory;
};

/// Defaults of a memory system's fields.
inline constexpr int64_t kDefaultMemoryLatency = 100;
int64_t defaultBurstBytes(int64_t bytesPerCycle);

/// Throws rubick::Error naming the file (and the field) on unreadable or malformed input.
Target loadTarget(const std::string& path);

/// "all" (every entry), "fpga" (the 11 without diagonal vectors), or a comma-separated list of
/// entry names or numbers. Throws rubick::Error(origin, ...) naming an unknown entry.
std::set<ir::EntryKind> parseEntrySet(const std::string& text, const std::string& origin);

/// Cost tables in JSON with the field names of CostTable (see designs/cost_table.json).
CostTable loadCostTable(const std::string& path);

} // namespace rubick::dse
