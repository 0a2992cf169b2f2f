// SPDX-License-Identifier: Apache-2.0
#pragma once
// Target files (designs/targets/NAME.json) bundle the constraints of a hardware target so a user
// can say `--target designs/targets/fpga.json` instead of repeating flags. Command-line flags
// override what the target sets. Every field is optional; keys starting with '_' are comments.
//
//   name             string; default: the file's name without its extension
//   description      string
//   arrays           PE array shapes, such as ["8x8", "16x16"]
//   array_range      [LO, HI]: every PxQ with LO <= P, Q <= HI (instead of arrays)
//   max_fanout       positive integer
//   max_ports        positive integer
//   buffer_kib       positive integer
//   dtype            "int8", "int16" or "int32"
//   entries          "all", "fpga", or a list of entry names or numbers
//   memory           external memory (docs/memory.md), an object:
//     bytes_per_cycle     required, a power of two: one beat of this many bytes a cycle
//     latency             cycles to a transfer's first beat; default 100
//     burst_bytes         longest burst; default 256 beats, at most 4096
//   pim              a processing-in-memory system (docs/pim.md), an object; not with memory:
//     units               required: compute units working on one problem
//     banks_per_unit      default 1
//     unit_array          required: the PxQ PE array of one unit, such as "1x16"
//     unit_buffer_bytes   required: each unit's own buffer
//     clock_mhz           required: the units' clock
//     bank                required, an object:
//       bytes_per_cycle   required, a power of two: column data per unit cycle
//       row_bytes         required, a power of two, at least bytes_per_cycle
//       tck_per_cycle     DRAM clocks per unit cycle; default 1
//       trcd, trp, tras, cl   required, in DRAM clocks (0 allowed)
//     broadcast_bytes     a buffer broadcasting one input to every unit; default 0 (none)
//     broadcast_bytes_per_cycle   required when broadcast_bytes > 0 (a power of two), else 0
//     host_bytes_per_cycle        required, a power of two: the external interface
//     source              free text: where the numbers come from
//
// The bank's timings are converted to unit cycles when the file is read, rounding up.

#include "rubick/dse/CostModel.h"
#include "rubick/dse/Explore.h"
#include "rubick/dse/Pim.h"

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
  std::optional<PimSystem> pim; // never together with memory
};

/// Defaults of a memory system's fields.
inline constexpr int64_t kDefaultMemoryLatency = 100;
int64_t defaultBurstBytes(int64_t bytesPerCycle);

/// Throws rubick::Error naming the file (and the field) on unreadable or malformed input.
/// `path` may also be a preset's name (`aim`, designs/targets/aim.json compiled into rubick):
/// a bare word with no '/' or '.' that names no file in the current folder.
Target loadTarget(const std::string& path);

/// Whether loadTarget takes `name` as a preset's name rather than a file.
bool isPresetName(const std::string& name);

/// "all" (every entry), "fpga" (the 11 without diagonal vectors), or a comma-separated list of
/// entry names or numbers. Throws rubick::Error(origin, ...) naming an unknown entry.
std::set<ir::EntryKind> parseEntrySet(const std::string& text, const std::string& origin);

/// Cost tables in JSON with the field names of CostTable (see designs/cost_table.json).
CostTable loadCostTable(const std::string& path);

} // namespace rubick::dse
