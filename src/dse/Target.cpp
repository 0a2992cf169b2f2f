// SPDX-License-Identifier: Apache-2.0
// Target files and cost tables. Both are small hand-edited JSON files, so every mistake is
// reported with the file and the field, including misspelt field names: a silently ignored
// "max_fanot" would give a wrong answer that looks right. Keys starting with '_' are comments.

#include "rubick/dse/Target.h"

#include "rubick/emit/Templates.h"

#include "rubick/support/Diagnostic.h"
#include "rubick/support/SourceFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>

namespace rubick::dse {
namespace {

using Json = nlohmann::ordered_json;

// Same limits as the command line's --array and --array-range.
constexpr int64_t kMaxArraySide = 999999;
constexpr int64_t kMaxRangeSide = 256;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// A value as the user wrote it, shortened so a long list does not flood the message.
std::string shown(const Json& j) {
  std::string s = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

Json parseText(const std::string& path, const std::string& text, const char* what) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix; keep line and column.
    std::string m = e.what();
    size_t cut = m.find("] ");
    throw Error(path, "invalid JSON: " + (cut == std::string::npos ? m : m.substr(cut + 2)));
  }
  if (!j.is_object())
    throw Error(path, std::string("a ") + what + " is a JSON object ({...}), found " + shown(j));
  return j;
}

Json parseFile(const std::string& path, const char* what) {
  return parseText(path, readSourceFile(path).text(), what);
}

std::string knownList(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names)
    s += (s.empty() ? "" : ", ") + n;
  return s;
}

// `context` names the object the fields belong to ("field 'pim': "), empty at the top level.
void checkFields(const std::string& path, const Json& j, const std::vector<std::string>& known,
                 const std::string& context = "") {
  for (const auto& [key, value] : j.items()) {
    if (!key.empty() && key[0] == '_') continue;
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw Error(path, context + "unknown field '" + key + "' (known: " + knownList(known) + ")");
  }
}

int64_t positiveInt(const std::string& path, const std::string& field, const Json& j,
                    int64_t max = std::numeric_limits<int64_t>::max()) {
  // The parser stores every non-negative integer literal as unsigned, negative ones as signed.
  bool ok = j.is_number_unsigned() && j.get<uint64_t>() >= 1 && j.get<uint64_t>() <= uint64_t(max);
  if (!ok) {
    std::string range = max == std::numeric_limits<int64_t>::max()
                            ? "a positive integer"
                            : "an integer from 1 to " + std::to_string(max);
    throw Error(path, "field '" + field + "' must be " + range + ", found " + shown(j));
  }
  return j.get<int64_t>();
}

std::string stringField(const std::string& path, const std::string& field, const Json& j) {
  if (!j.is_string())
    throw Error(path, "field '" + field + "' must be a string, found " + shown(j));
  return j.get<std::string>();
}

// "8x8" (also "8X8", as --array accepts): positive sides of at most six digits.
ArrayShape parseShape(const std::string& path, const std::string& field, const std::string& text) {
  size_t x = text.find_first_of("xX");
  bool ok =
      x != std::string::npos && x > 0 && x + 1 < text.size() && x <= 6 && text.size() - x - 1 <= 6;
  for (size_t i = 0; ok && i < text.size(); ++i)
    ok = i == x || std::isdigit(static_cast<unsigned char>(text[i]));
  ArrayShape s;
  if (ok) {
    s.p = std::stoll(text.substr(0, x));
    s.q = std::stoll(text.substr(x + 1));
    ok = s.p > 0 && s.q > 0 && s.p <= kMaxArraySide && s.q <= kMaxArraySide;
  }
  if (!ok)
    throw Error(path, "field '" + field + "': malformed array '" + text +
                          "' (expected PxQ with positive integers, such as \"8x8\")");
  return s;
}

std::vector<ArrayShape> parseArrays(const std::string& path, const Json& j) {
  if (!j.is_array() || j.empty())
    throw Error(path,
                "field 'arrays' must be a non-empty list of shapes such as [\"8x8\"], found " +
                    shown(j));
  std::vector<ArrayShape> out;
  for (const Json& e : j) {
    if (!e.is_string())
      throw Error(path,
                  "field 'arrays': each shape must be a string such as \"8x8\", found " + shown(e));
    ArrayShape s = parseShape(path, "arrays", e.get<std::string>());
    if (std::find(out.begin(), out.end(), s) != out.end())
      throw Error(path, "field 'arrays': array '" + e.get<std::string>() + "' is listed twice");
    out.push_back(s);
  }
  return out;
}

// [LO, HI]: every P x Q with LO <= P, Q <= HI, in the order --array-range gives them.
std::vector<ArrayShape> parseRange(const std::string& path, const Json& j) {
  auto bad = [&] {
    return Error(path, "field 'array_range' must be [LO, HI] with 1 <= LO <= HI <= " +
                           std::to_string(kMaxRangeSide) + ", found " + shown(j));
  };
  if (!j.is_array() || j.size() != 2) throw bad();
  for (const Json& e : j)
    if (!e.is_number_unsigned() || e.get<uint64_t>() < 1 || e.get<uint64_t>() > kMaxRangeSide)
      throw bad();
  int64_t lo = j[0].get<int64_t>(), hi = j[1].get<int64_t>();
  if (lo > hi) throw bad();
  std::vector<ArrayShape> out;
  for (int64_t p = lo; p <= hi; ++p)
    for (int64_t q = lo; q <= hi; ++q)
      out.push_back({p, q});
  return out;
}

std::set<ir::EntryKind> allKinds(bool withDiagonals) {
  std::set<ir::EntryKind> out;
  for (const ir::EntryInfo& e : ir::allEntries())
    if (withDiagonals || !ir::isDiagonal(e.kind)) out.insert(e.kind);
  return out;
}

std::string entryNames() {
  std::string s;
  for (const ir::EntryInfo& e : ir::allEntries())
    s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

// One item of an entry set: a keyword (all, fpga) or an entry name or number.
void addEntries(std::set<ir::EntryKind>& out, const std::string& raw, const std::string& origin,
                const std::string& context) {
  std::string item = trim(raw);
  if (item.empty())
    throw Error(origin, context + "empty entry name (expected all, fpga, or a list of entry "
                                  "names or numbers separated by commas)");
  if (lower(item) == "all") {
    out = allKinds(true);
    return;
  }
  if (lower(item) == "fpga") {
    for (ir::EntryKind k : allKinds(false))
      out.insert(k);
    return;
  }
  std::optional<ir::EntryKind> k = ir::parseEntryKind(item);
  if (!k)
    throw Error(origin, context + "unknown entry '" + item +
                            "' (known: all, fpga, the numbers 1 to 14, or the names " +
                            entryNames() + ")");
  out.insert(*k);
}

std::set<ir::EntryKind> entrySet(const std::string& text, const std::string& origin,
                                 const std::string& context) {
  std::set<ir::EntryKind> out;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    addEntries(out, text.substr(start, comma - start), origin, context);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::set<ir::EntryKind> parseEntriesField(const std::string& path, const Json& j) {
  const std::string context = "field 'entries': ";
  if (j.is_string()) return entrySet(j.get<std::string>(), path, context);
  if (!j.is_array() || j.empty())
    throw Error(path, "field 'entries' must be \"all\", \"fpga\" or a non-empty list of entry "
                      "names or numbers, found " +
                          shown(j));
  std::set<ir::EntryKind> out;
  for (const Json& e : j) {
    if (e.is_number_integer()) {
      if (!e.is_number_unsigned() || e.get<uint64_t>() < 1 || e.get<uint64_t>() > ir::kEntryCount)
        throw Error(path, context + "entry number " + shown(e) + " is not between 1 and 14");
      out.insert(static_cast<ir::EntryKind>(e.get<uint64_t>()));
    } else if (e.is_string()) {
      addEntries(out, e.get<std::string>(), path, context);
    } else {
      throw Error(path, context + "each entry must be a name or a number, found " + shown(e));
    }
  }
  return out;
}

// "memory": {"bytes_per_cycle": 64, "latency": 100, "burst_bytes": 4096}
MemorySystem parseMemory(const std::string& path, const Json& j) {
  if (!j.is_object())
    throw Error(path, "field 'memory' must be an object such as {\"bytes_per_cycle\": 64, "
                      "\"latency\": 100}, found " +
                          shown(j));
  for (const auto& [key, value] : j.items())
    if (key != "bytes_per_cycle" && key != "latency" && key != "burst_bytes" && key[0] != '_')
      throw Error(path, "field 'memory': unknown field '" + key +
                            "' (known: bytes_per_cycle, latency, burst_bytes)");
  if (!j.contains("bytes_per_cycle"))
    throw Error(path, "field 'memory' needs 'bytes_per_cycle' (the bus width in bytes)");
  MemorySystem m;
  m.bytesPerCycle = positiveInt(path, "memory.bytes_per_cycle", j["bytes_per_cycle"], 4096);
  if ((m.bytesPerCycle & (m.bytesPerCycle - 1)) != 0)
    throw Error(path, "field 'memory.bytes_per_cycle' must be a power of two (a bus width), "
                      "found " +
                          shown(j["bytes_per_cycle"]));
  m.latency = kDefaultMemoryLatency;
  if (j.contains("latency")) {
    const Json& l = j["latency"];
    if (!l.is_number_unsigned() || l.get<uint64_t>() > 1000000)
      throw Error(path, "field 'memory.latency' must be an integer from 0 to 1000000 (cycles), "
                        "found " +
                            shown(l));
    m.latency = l.get<int64_t>();
  }
  m.burstBytes = defaultBurstBytes(m.bytesPerCycle);
  if (j.contains("burst_bytes"))
    m.burstBytes = positiveInt(path, "memory.burst_bytes", j["burst_bytes"], 4096);
  return m;
}

// Processing-in-memory systems (docs/pim.md). The limits are far beyond any device; they keep
// the PIM model's products (units times bytes times cycles) well inside int64.
constexpr int64_t kMaxPimUnits = int64_t(1) << 20;
constexpr int64_t kMaxPimBanksPerUnit = int64_t(1) << 16;
constexpr int64_t kMaxPimBufferBytes = int64_t(1) << 40;
constexpr int64_t kMaxPimRowBytes = int64_t(1) << 30;
// A unit's bank becomes its memory system (dse::unitMemory), whose bus is at most 4096 bytes
// wide, like that of --mem-bandwidth.
constexpr int64_t kMaxPimBankBytesPerCycle = 4096;
constexpr int64_t kMaxPimBytesPerCycle = int64_t(1) << 20; // host and broadcast rates
constexpr int64_t kMaxPimClockMhz = 100000;
constexpr int64_t kMaxPimTckPerCycle = 1024;
constexpr int64_t kMaxPimTiming = 1000000; // DRAM clocks

// The value of a field that `object` must have; `what` says what the field means.
const Json& requiredField(const std::string& path, const std::string& object, const Json& j,
                          const std::string& key, const std::string& what) {
  if (!j.contains(key))
    throw Error(path, "field '" + object + "' needs '" + key + "' (" + what + ")");
  return j[key];
}

// A width or a size the hardware can only build as a power of two; `what` says which.
int64_t powerOfTwo(const std::string& path, const std::string& field, const Json& j, int64_t max,
                   const std::string& what) {
  int64_t v = positiveInt(path, field, j, max);
  if ((v & (v - 1)) != 0)
    throw Error(path,
                "field '" + field + "' must be a power of two (" + what + "), found " + shown(j));
  return v;
}

// A bank timing in DRAM clocks. Zero is allowed: a device whose datasheet folds a timing into
// another (or a DMA engine that hides it) has none to give.
int64_t dramClocks(const std::string& path, const std::string& field, const Json& j) {
  if (!j.is_number_unsigned() || j.get<uint64_t>() > uint64_t(kMaxPimTiming))
    throw Error(path, "field '" + field + "' must be an integer from 0 to " +
                          std::to_string(kMaxPimTiming) + " (DRAM clocks), found " + shown(j));
  return j.get<int64_t>();
}

// Rounded up: a timing is a minimum, and a unit acts only on the edges of its own clock.
int64_t unitCycles(int64_t clocks, int64_t tckPerCycle) {
  return (clocks + tckPerCycle - 1) / tckPerCycle;
}

// "bank": {"bytes_per_cycle": 32, "row_bytes": 2048, "tck_per_cycle": 2, "trcd": 35, ...}
PimBank parsePimBank(const std::string& path, const Json& j) {
  const std::string object = "pim.bank";
  if (!j.is_object())
    throw Error(path, "field 'pim.bank' must be an object such as {\"bytes_per_cycle\": 32, "
                      "\"row_bytes\": 2048, \"trcd\": 18, \"trp\": 18, \"tras\": 42, \"cl\": "
                      "18}, found " +
                          shown(j));
  checkFields(path, j,
              {"bytes_per_cycle", "row_bytes", "tck_per_cycle", "trcd", "trp", "tras", "cl"},
              "field 'pim.bank': ");
  PimBank b;
  b.bytesPerCycle = powerOfTwo(
      path, "pim.bank.bytes_per_cycle",
      requiredField(path, object, j, "bytes_per_cycle", "the column data a unit gets a cycle"),
      kMaxPimBankBytesPerCycle, "a bus width");
  b.rowBytes = powerOfTwo(path, "pim.bank.row_bytes",
                          requiredField(path, object, j, "row_bytes", "the bytes of one row"),
                          kMaxPimRowBytes, "a DRAM row");
  // A row shorter than one cycle's data would make a row cost less than a cycle to stream.
  if (b.rowBytes < b.bytesPerCycle)
    throw Error(path, "field 'pim.bank.row_bytes' must be at least 'bytes_per_cycle' (" +
                          std::to_string(b.bytesPerCycle) + "), found " +
                          std::to_string(b.rowBytes));
  int64_t tck = 1;
  if (j.contains("tck_per_cycle"))
    tck = positiveInt(path, "pim.bank.tck_per_cycle", j["tck_per_cycle"], kMaxPimTckPerCycle);
  // Required although 0 is allowed: a timing left out is more likely forgotten than meant as 0.
  auto timing = [&](const std::string& key, const std::string& what) {
    return unitCycles(
        dramClocks(path, object + "." + key, requiredField(path, object, j, key, what)), tck);
  };
  b.tRCD = timing("trcd", "activate to first column access, in DRAM clocks");
  b.tRP = timing("trp", "precharge to the next activate, in DRAM clocks");
  b.tRAS = timing("tras", "activate to precharge at least, in DRAM clocks");
  b.tCL = timing("cl", "column read to its data, in DRAM clocks");
  return b;
}

// A buffer without a rate, or a rate without a buffer, is a half-finished edit: refused rather
// than guessed at.
void parseBroadcast(const std::string& path, const Json& j, PimSystem& s) {
  if (j.contains("broadcast_bytes")) {
    const Json& b = j["broadcast_bytes"];
    if (!b.is_number_unsigned() || b.get<uint64_t>() > uint64_t(kMaxPimBufferBytes))
      throw Error(path, "field 'pim.broadcast_bytes' must be an integer from 0 to " +
                            std::to_string(kMaxPimBufferBytes) +
                            " (bytes; 0: no broadcast buffer), found " + shown(b));
    s.broadcastBytes = b.get<int64_t>();
  }
  if (s.broadcastBytes > 0) {
    s.broadcastBytesPerCycle =
        powerOfTwo(path, "pim.broadcast_bytes_per_cycle",
                   requiredField(path, "pim", j, "broadcast_bytes_per_cycle",
                                 "the bytes the broadcast buffer gives every unit a cycle, "
                                 "since 'broadcast_bytes' is above 0"),
                   kMaxPimBytesPerCycle, "a bus width");
  } else if (j.contains("broadcast_bytes_per_cycle")) {
    const Json& r = j["broadcast_bytes_per_cycle"];
    if (!r.is_number_unsigned() || r.get<uint64_t>() != 0)
      throw Error(path, "field 'pim.broadcast_bytes_per_cycle' must be absent or 0 without a "
                        "broadcast buffer ('broadcast_bytes' is 0), found " +
                            shown(r));
  }
}

// "unit_array": "1x16", or a list of shapes of the same PEs, ["1x16", "4x4"].
std::vector<ArrayShape> parseUnitArrays(const std::string& path, const Json& j) {
  const char* field = "pim.unit_array";
  auto bad = [&] {
    return Error(path, std::string("field '") + field +
                           "' must be a string such as \"1x16\" or a non-empty list of them, "
                           "found " +
                           shown(j));
  };
  std::vector<ArrayShape> out;
  if (j.is_string()) return {parseShape(path, field, j.get<std::string>())};
  if (!j.is_array() || j.empty()) throw bad();
  for (const Json& e : j) {
    if (!e.is_string()) throw bad();
    out.push_back(parseShape(path, field, e.get<std::string>()));
    // One unit, several ways to wire its PEs: a different PE count is another unit.
    if (out.back().p * out.back().q != out.front().p * out.front().q)
      throw Error(path, std::string("field '") + field +
                            "': every shape must have the same PEs ('" + e.get<std::string>() +
                            "' has " + std::to_string(out.back().p * out.back().q) +
                            ", the first " + std::to_string(out.front().p * out.front().q) + ")");
  }
  return out;
}

// "pim": {"units": 16, "unit_array": "1x16", "unit_buffer_bytes": 128, "clock_mhz": 1000,
//         "bank": {...}, "host_bytes_per_cycle": 32, ...}
PimSystem parsePim(const std::string& path, const Json& j) {
  const std::string object = "pim";
  if (!j.is_object())
    throw Error(path, "field 'pim' must be an object such as {\"units\": 16, \"unit_array\": "
                      "\"1x16\", \"bank\": {...}, ...} (docs/pim.md), found " +
                          shown(j));
  checkFields(path, j,
              {"units", "banks_per_unit", "access", "unit_array", "unit_buffer_bytes", "clock_mhz",
               "bank", "broadcast_bytes", "broadcast_bytes_per_cycle", "host_bytes_per_cycle",
               "read_ahead_bytes", "source"},
              "field 'pim': ");
  PimSystem s;
  s.units = positiveInt(
      path, "pim.units",
      requiredField(path, object, j, "units", "the compute units working on one problem"),
      kMaxPimUnits);
  if (j.contains("banks_per_unit"))
    s.banksPerUnit =
        positiveInt(path, "pim.banks_per_unit", j["banks_per_unit"], kMaxPimBanksPerUnit);
  // How a unit gets its banks' data decides the whole model (docs/pim.md): required.
  const Json& access = requiredField(path, object, j, "access",
                                     "\"stream\" (the array reads the open row in place) or "
                                     "\"dma\" (a DMA copies tiles into the unit's buffer)");
  if (access == "stream")
    s.access = PimAccess::stream;
  else if (access == "dma")
    s.access = PimAccess::dma;
  else
    throw Error(path, "field 'pim.access' must be \"stream\" or \"dma\", found " + shown(access));
  s.arrays = parseUnitArrays(
      path, requiredField(path, object, j, "unit_array",
                          "the PxQ PE array of one unit, such as \"1x16\", or a list of them"));
  s.bufferBytes = positiveInt(
      path, "pim.unit_buffer_bytes",
      requiredField(path, object, j, "unit_buffer_bytes", "each unit's own buffer in bytes"),
      kMaxPimBufferBytes);
  s.clockMhz = positiveInt(path, "pim.clock_mhz",
                           requiredField(path, object, j, "clock_mhz", "the units' clock in MHz"),
                           kMaxPimClockMhz);
  s.bank = parsePimBank(
      path, requiredField(path, object, j, "bank", "one DRAM bank: its rate, row and timings"));
  parseBroadcast(path, j, s);
  if (j.contains("read_ahead_bytes")) {
    // Whole columns: the reader's FIFO holds columns.
    s.readAheadBytes =
        positiveInt(path, "pim.read_ahead_bytes", j["read_ahead_bytes"], kMaxPimBufferBytes);
    if (s.readAheadBytes % s.bank.bytesPerCycle != 0)
      throw Error(path, "field 'pim.read_ahead_bytes' must be a multiple of the bank's "
                        "bytes_per_cycle (" +
                            std::to_string(s.bank.bytesPerCycle) + ": whole columns), found " +
                            std::to_string(s.readAheadBytes));
  }
  s.hostBytesPerCycle = powerOfTwo(path, "pim.host_bytes_per_cycle",
                                   requiredField(path, object, j, "host_bytes_per_cycle",
                                                 "the external interface's bytes per unit cycle"),
                                   kMaxPimBytesPerCycle, "a bus width");
  // For the reader of the file only, but still text: a number here is a misplaced field.
  if (j.contains("source")) stringField(path, "pim.source", j["source"]);
  return s;
}

} // namespace

int64_t defaultBurstBytes(int64_t bytesPerCycle) {
  return std::min<int64_t>(4096, 256 * bytesPerCycle);
}

std::set<ir::EntryKind> parseEntrySet(const std::string& text, const std::string& origin) {
  return entrySet(text, origin, "");
}

bool isPresetName(const std::string& name) {
  return !name.empty() && name.find('/') == std::string::npos &&
         name.find('.') == std::string::npos && !std::filesystem::exists(name);
}

Target loadTarget(const std::string& path) {
  Json j;
  if (isPresetName(path)) {
    // A shipped preset by name; not a file of that name in the current folder.
    const auto& presets = emit::targetPresets();
    auto it = presets.find(path);
    if (it == presets.end()) {
      std::vector<std::string> names;
      for (const auto& p : presets)
        names.push_back(p.first);
      throw Error(path, "no such target file, and no preset of that name (the presets: " +
                            knownList(names) + "; a file is named by its path, such as " +
                            "designs/targets/aim.json)");
    }
    j = parseText(path, it->second, "target file");
  } else {
    j = parseFile(path, "target file");
  }
  checkFields(path, j,
              {"name", "description", "arrays", "array_range", "max_fanout", "max_ports",
               "buffer_kib", "dtype", "entries", "memory", "pim"});
  if (j.contains("arrays") && j.contains("array_range"))
    throw Error(path, "give either 'arrays' or 'array_range', not both");
  if (j.contains("memory") && j.contains("pim"))
    throw Error(path, "give either 'memory' or 'pim', not both (a PIM target's memory is its "
                      "banks)");
  Target t;
  // A target without a name is called after its file, so messages can still name it.
  t.name = j.contains("name") ? stringField(path, "name", j["name"])
                              : std::filesystem::path(path).stem().string();
  if (j.contains("description")) t.description = stringField(path, "description", j["description"]);
  if (j.contains("arrays")) t.arrays = parseArrays(path, j["arrays"]);
  if (j.contains("array_range")) t.arrays = parseRange(path, j["array_range"]);
  if (j.contains("max_fanout")) t.maxFanout = positiveInt(path, "max_fanout", j["max_fanout"]);
  if (j.contains("max_ports")) t.maxPorts = positiveInt(path, "max_ports", j["max_ports"]);
  // KiB are multiplied by 1024 later; keep that product inside int64.
  if (j.contains("buffer_kib"))
    t.bufferKib = positiveInt(path, "buffer_kib", j["buffer_kib"],
                              std::numeric_limits<int64_t>::max() / 1024);
  if (j.contains("dtype")) {
    std::string d = stringField(path, "dtype", j["dtype"]);
    // The widths `--dtype` offers; the array computes on integers only.
    if (d != "int8" && d != "int16" && d != "int32")
      throw Error(path, "field 'dtype' must be \"int8\", \"int16\" or \"int32\", found " +
                            shown(j["dtype"]));
    t.dtype = d;
  }
  if (j.contains("entries")) t.entries = parseEntriesField(path, j["entries"]);
  if (j.contains("memory")) t.memory = parseMemory(path, j["memory"]);
  if (j.contains("pim")) t.pim = parsePim(path, j["pim"]);
  return t;
}

CostTable loadCostTable(const std::string& path) {
  // Every field of CostTable, by its C++ name. The static_assert fails when a field is added to
  // CostTable without being added here (all fields are doubles).
  static const std::vector<std::pair<std::string, double CostTable::*>> fields = {
      {"multiplierAreaPerBit2", &CostTable::multiplierAreaPerBit2},
      {"adderAreaPerBit", &CostTable::adderAreaPerBit},
      {"registerAreaPerBit", &CostTable::registerAreaPerBit},
      {"sramAreaPerBit", &CostTable::sramAreaPerBit},
      {"wireAreaPerBit", &CostTable::wireAreaPerBit},
      {"macEnergyPerBit2", &CostTable::macEnergyPerBit2},
      {"adderEnergyPerBit", &CostTable::adderEnergyPerBit},
      {"registerEnergyPerBit", &CostTable::registerEnergyPerBit},
      {"sramEnergyPerBit", &CostTable::sramEnergyPerBit},
      {"wireEnergyPerBit", &CostTable::wireEnergyPerBit},
  };
  static_assert(sizeof(CostTable) == 10 * sizeof(double), "loadCostTable misses a CostTable field");
  Json j = parseFile(path, "cost table");
  std::vector<std::string> known;
  for (const auto& f : fields)
    known.push_back(f.first);
  checkFields(path, j, known);
  // Fields not given keep the compiled-in default.
  CostTable t;
  for (const auto& [name, member] : fields) {
    if (!j.contains(name)) continue;
    const Json& v = j[name];
    // Zero is allowed: it drops a term from the proxy; negative costs make no sense.
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
      throw Error(path, "field '" + name + "' must be a number >= 0, found " + shown(v));
    t.*member = v.get<double>();
  }
  return t;
}

} // namespace rubick::dse
