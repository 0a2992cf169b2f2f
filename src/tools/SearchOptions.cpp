// SPDX-License-Identifier: Apache-2.0
#include "SearchOptions.h"

#include "Numbers.h"

#include "rubick/dse/Metrics.h"
#include "rubick/dse/Target.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"

#include <limits>

namespace rubick::cli {
namespace {

std::vector<dse::ArrayShape> parseRange(const std::string& text) {
  size_t dots = text.find("..");
  auto bad = [&] {
    throw Error("--array-range",
                "expected LO..HI with 1 <= LO <= HI <= 256 (such as 4..16), found '" + text + "'");
  };
  if (dots == std::string::npos || dots == 0 || dots + 2 >= text.size()) bad();
  std::string lo = text.substr(0, dots), hi = text.substr(dots + 2);
  for (const std::string& s : {lo, hi})
    if (s.size() > 3 || s.find_first_not_of("0123456789") != std::string::npos) bad();
  int64_t a = std::stoll(lo), b = std::stoll(hi);
  if (a < 1 || b < a || b > 256) bad();
  std::vector<dse::ArrayShape> out;
  for (int64_t p = a; p <= b; ++p)
    for (int64_t q = a; q <= b; ++q)
      out.push_back({p, q});
  return out;
}

int64_t dtypeBits(const std::string& t, const std::string& origin) {
  if (t == "int8") return 8;
  if (t == "int16") return 16;
  if (t == "int32") return 32;
  throw Error(origin, "unsupported element type '" + t + "' (int8, int16 or int32)");
}

dse::Objective parseObjective(const std::string& t) {
  if (std::optional<dse::Objective> o = dse::parseObjective(t)) return *o;
  throw Error("--objective", "unknown objective '" + t + "' (" + dse::objectiveNames() + ")");
}

} // namespace

void addSearchOptions(CLI::App& cmd, SearchOptions& o) {
  addStatementOption(cmd, o.df);
  addArrayOption(cmd, o.df, "Default 8x8.");
  cmd.add_option("--array-range", o.arrayRange, "Every PxQ with LO <= P, Q <= HI, e.g. 4..16")
      ->type_name("LO..HI");
  cmd.add_option("--max-fanout", o.maxFanout,
                 "Largest fan-out (inputs) or fan-in (outputs) of any access entry; 'none' "
                 "lifts a target's limit")
      ->type_name("N|none");
  cmd.add_option("--max-ports", o.maxPorts,
                 "Most buffer ports (banks) per tensor; 'none' lifts a target's limit")
      ->type_name("N|none");
  cmd.add_option("--buffer-kib", o.bufferKib,
                 "On-chip buffer budget for all banks, in KiB; 'none' lifts a target's limit")
      ->type_name("N|none");
  cmd.add_option("--chip-kib", o.chipKib,
                 "A chain's on-chip RAM for its intermediates, in KiB: each that fits stays on "
                 "chip, the others go through memory (default: the --buffer-kib budget; 0: all "
                 "through memory; 'none': no limit)")
      ->type_name("N|none");
  cmd.add_option("--row-tiles", o.rowTiles,
                 "A chain's stages run N times, each on the next 1/N of the rows (the first "
                 "dimension of what they compute), so that on chip an intermediate needs only a "
                 "tile's rows; weights are read again every tile. 'auto': the count of 1, 2, 4, "
                 "... 32 whose chain takes the fewest cycles (default 1: each stage once)")
      ->type_name("N|auto")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            if (text == "auto" || wholeNumber(1, int64_t{1} << 20)(text).empty()) return "";
            return "expected a number of tiles from 1 to 1048576 or 'auto', found '" + text + "'";
          },
          ""));
  cmd.add_option("--mem-bandwidth", o.memBandwidth,
                 "External memory: bus width and bandwidth in bytes per cycle (a power of two); "
                 "tensors then live in memory and move through the banks in buffer tiles. "
                 "'none' drops a target's memory")
      ->type_name("B|none");
  cmd.add_option("--mem-latency", o.memLatency,
                 "External memory: cycles from a request to its first beat (default 100)")
      ->type_name("CYCLES")
      ->check(wholeNumber(0, 1000000));
  cmd.add_option("--mem-burst", o.memBurst,
                 "External memory: longest burst in bytes (default 256 beats, at most 4096)")
      ->type_name("BYTES")
      ->check(wholeNumber(1, 4096));
  cmd.add_option("--entries", o.entries,
                 "Allowed access entries: all, fpga (no diagonals), or a list of names/numbers")
      ->type_name("all|fpga|LIST");
  cmd.add_option("--dtype", o.dtype, "Input element type for the hardware: int8, int16, int32")
      ->type_name("TYPE");
  cmd.add_option("--target", o.target,
                 "Constraints from a target file, or a shipped preset by name: fpga, asic, aim, "
                 "hbm-pim, upmem, logic-die (designs/targets/)")
      ->type_name("FILE|NAME");
  cmd.add_option("--cost-table", o.costTable,
                 "Area and energy coefficients (JSON; default: designs/cost_table.json values)")
      ->type_name("FILE");
  cmd.add_option("--objective", o.objective, "Rank by " + dse::objectiveNames())->type_name("NAME");
  cmd.add_option("--block-keys", o.blockKeys,
                 "Attention pipelines: key-block sizes to consider, e.g. 16,128 (default: all keys "
                 "in one block, and every power of two from 4 below that)")
      ->type_name("N,...")
      ->delimiter(',')
      ->check(wholeNumber(1, int64_t(1) << 30));
  cmd.add_option("--vector-lanes", o.vectorLanes,
                 "Attention pipelines: vector unit widths W to consider (elements per cycle in "
                 "the vector passes), e.g. 1,4 (default: 1,2,4,8)")
      ->type_name("W,...")
      ->delimiter(',')
      ->check(wholeNumber(1, 1024));
  cmd.add_option("--threads", o.threads, "Worker threads (default: all cores)")
      ->type_name("N")
      ->check(wholeNumber(1, 4096));
}

int64_t rowTiles(const SearchOptions& o) {
  if (o.rowTiles.empty()) return 1;
  if (o.rowTiles == "auto") return 0;
  return std::stoll(o.rowTiles); // checked by the flag's validator
}

dse::ExploreOptions makeExploreOptions(const SearchOptions& o, const tc::Program& prog,
                                       const dataflow::StatementView& v, const std::string& file,
                                       std::string& targetName, dse::PimSystem* pim) {
  dse::ExploreOptions eo;
  eo.objective = parseObjective(o.objective);
  if (!o.costTable.empty()) eo.costs = dse::loadCostTable(o.costTable);
  eo.threads = o.threads;
  dse::Constraints& c = eo.constraints;
  std::string dtype;
  if (!o.target.empty()) {
    dse::Target t = dse::loadTarget(o.target);
    targetName = t.name;
    c.arrays = t.arrays;
    c.maxFanout = t.maxFanout.value_or(0);
    c.maxPorts = t.maxPorts.value_or(0);
    c.bufferBytes = t.bufferKib.value_or(0) * 1024;
    if (t.entries) c.entries = *t.entries;
    if (t.dtype) dtype = *t.dtype;
    if (t.memory) c.memory = *t.memory;
    if (t.pim) {
      if (!pim)
        throw Unsupported(o.target, "a PIM target (docs/pim.md) takes one contraction or the "
                                    "attention form; a chain of statements on PIM units is not "
                                    "built yet (take one statement with --stmt)");
      // The unit fixes the array, its buffer and its memory: flags cannot change them (so the
      // code below leaves them as set here).
      const std::pair<const char*, bool> fixed[] = {{"--array", !o.df.array.empty()},
                                                    {"--array-range", !o.arrayRange.empty()},
                                                    {"--buffer-kib", !o.bufferKib.empty()},
                                                    {"--mem-bandwidth", !o.memBandwidth.empty()},
                                                    {"--mem-latency", o.memLatency.has_value()},
                                                    {"--mem-burst", o.memBurst.has_value()}};
      for (const auto& [flag, given] : fixed)
        if (given)
          throw Error(flag, std::string("target '") + o.target +
                                "' is a PIM system, which fixes each unit's array, buffer and "
                                "banks; change them in the target file");
      if (eo.objective != dse::Objective::Latency)
        throw Error("--objective", "PIM designs are ranked by cycles only (latency)");
      *pim = *t.pim;
      c.arrays = pim->arrays;
      c.bufferBytes = pim->bufferBytes;
      c.memory = dse::unitMemory(*pim);
    }
  }
  if (!o.df.array.empty() && !o.arrayRange.empty())
    throw Error("--array", "give either --array or --array-range, not both");
  if (!o.df.array.empty()) {
    auto [p, q] = parseArray(o.df.array);
    c.arrays = {{p, q}};
  }
  if (!o.arrayRange.empty()) c.arrays = parseRange(o.arrayRange);
  if (c.arrays.empty()) c.arrays = {{8, 8}};
  // The library's 0 means "no limit"; the flags spell that "none" and refuse 0.
  if (auto n = parseLimit("--max-fanout", o.maxFanout, int64_t(1) << 30)) c.maxFanout = *n;
  if (auto n = parseLimit("--max-ports", o.maxPorts, int64_t(1) << 30)) c.maxPorts = *n;
  if (auto n = parseLimit("--buffer-kib", o.bufferKib, int64_t(1) << 40)) c.bufferBytes = *n * 1024;
  if (auto n = parseSize("--chip-kib", o.chipKib, int64_t(1) << 30))
    c.chipBytes = *n == std::numeric_limits<int64_t>::max() ? *n : *n * 1024;
  if (auto n = parseLimit("--mem-bandwidth", o.memBandwidth, 4096)) {
    if (*n & (*n - 1))
      throw Error("--mem-bandwidth",
                  "must be a power of two (a bus width in bytes), found " + std::to_string(*n));
    c.memory = {};
    if (*n) c.memory = {*n, dse::kDefaultMemoryLatency, dse::defaultBurstBytes(*n)};
  }
  if ((o.memLatency || o.memBurst) && !c.memory.enabled())
    throw Error(o.memLatency ? "--mem-latency" : "--mem-burst",
                "there is no external memory: give --mem-bandwidth or a target with 'memory'");
  if (o.memLatency) c.memory.latency = *o.memLatency;
  if (o.memBurst) c.memory.burstBytes = *o.memBurst;
  if (!o.entries.empty()) c.entries = dse::parseEntrySet(o.entries, "--entries");
  if (!o.dtype.empty()) dtype = o.dtype;
  for (const dataflow::AccessView& a : v.accesses) {
    const tc::Tensor& t = prog.tensors[a.tensor];
    if (!tc::isInteger(t.type) && (a.write || dtype.empty()))
      throw Error(file, "tensor '" + t.name + "' is " + tc::toString(t.type) +
                            "; the hardware needs integers (int8, int16, int32)" +
                            (a.write ? "" : ": pass --dtype or change the program"));
    c.elementBits.push_back(!a.write && !dtype.empty() ? dtypeBits(dtype, "--dtype")
                                                       : tc::bitWidth(t.type));
  }
  if (c.elementBits.front() > 32)
    throw Error(file, "output '" + v.accesses.front().name +
                          "' is int64; the hardware supports up to int32");
  return eo;
}

} // namespace rubick::cli
