// SPDX-License-Identifier: Apache-2.0
// Target files and cost tables: the shipped files give their documented values, and every kind
// of mistake in a hand-edited file gives a message naming the file and the field.

#include "rubick/dse/Target.h"
#include "rubick/support/Diagnostic.h"

#include "temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace rubick::dse {
namespace {

using ir::EntryKind;

std::string source(const std::string& rel) {
  return std::string(RUBICK_SOURCE_DIR) + "/" + rel;
}

// A file under this process's temporary directory holding `text`; the directory goes when the
// process ends (ctest runs the test cases as parallel processes).
std::string tempFile(const std::string& name, const std::string& text) {
  static const test::TempDir dir("rubick_dse_target_");
  std::string path = dir / name;
  std::ofstream(path) << text;
  return path;
}

// The message of the rubick::Error that `f` throws, checking that it names `origin`.
template <class F>
std::string errorOf(F f, const std::string& origin) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.origin(), origin);
    return e.diag().message;
  }
  ADD_FAILURE() << "no rubick::Error thrown";
  return "";
}

std::string targetError(const std::string& json) {
  std::string path = tempFile("bad.json", json);
  return errorOf([&] { loadTarget(path); }, path);
}

std::set<EntryKind> kinds(std::initializer_list<int> numbers) {
  std::set<EntryKind> out;
  for (int n : numbers)
    out.insert(static_cast<EntryKind>(n));
  return out;
}

TEST(DseTarget, ShippedFpga) {
  Target t = loadTarget(source("designs/targets/fpga.json"));
  EXPECT_EQ(t.name, "fpga");
  EXPECT_NE(t.description.find("FPGA"), std::string::npos);
  // array_range [4, 16]: 13 x 13 shapes, P outer, Q inner.
  ASSERT_EQ(t.arrays.size(), 169u);
  EXPECT_EQ(t.arrays.front(), (ArrayShape{4, 4}));
  EXPECT_EQ(t.arrays[1], (ArrayShape{4, 5}));
  EXPECT_EQ(t.arrays.back(), (ArrayShape{16, 16}));
  EXPECT_EQ(t.maxFanout, 16);
  EXPECT_FALSE(t.maxPorts.has_value());
  EXPECT_EQ(t.bufferKib, 2048);
  EXPECT_EQ(t.dtype, "int8");
  // Every entry but 3 diag-systolic, 7 diag-multicast, 13 diag-multicast-stationary.
  ASSERT_TRUE(t.entries.has_value());
  EXPECT_EQ(*t.entries, kinds({1, 2, 4, 5, 6, 8, 9, 10, 11, 12, 14}));
}

TEST(DseTarget, ShippedAsic) {
  Target t = loadTarget(source("designs/targets/asic.json"));
  EXPECT_EQ(t.name, "asic");
  EXPECT_FALSE(t.description.empty());
  EXPECT_EQ(t.arrays, (std::vector<ArrayShape>{{8, 8}, {16, 16}, {32, 32}}));
  EXPECT_EQ(t.maxFanout, 32);
  EXPECT_FALSE(t.maxPorts.has_value());
  EXPECT_EQ(t.bufferKib, 512);
  EXPECT_EQ(t.dtype, "int8");
  ASSERT_TRUE(t.entries.has_value());
  EXPECT_EQ(t.entries->size(), 14u);
}

TEST(DseTarget, EveryFieldOptionalAndCommentsIgnored) {
  std::string path = tempFile("mine.json", R"({"_comment": "x", "max_ports": 64,
      "entries": ["x-systolic", 4, "fpga"], "arrays": ["8X4"]})");
  Target t = loadTarget(path);
  EXPECT_EQ(t.name, "mine"); // from the file name
  EXPECT_EQ(t.maxPorts, 64);
  EXPECT_FALSE(t.maxFanout.has_value());
  EXPECT_FALSE(t.bufferKib.has_value());
  EXPECT_FALSE(t.dtype.has_value());
  EXPECT_EQ(t.arrays, (std::vector<ArrayShape>{{8, 4}}));
  EXPECT_EQ(t.entries->size(), 11u);

  Target empty = loadTarget(tempFile("empty.json", "{}"));
  EXPECT_TRUE(empty.arrays.empty());
  EXPECT_FALSE(empty.entries.has_value());
}

const char* kKnown =
    "(known: name, description, arrays, array_range, max_fanout, max_ports, buffer_kib, dtype, "
    "entries, memory, pim)";

TEST(DseTarget, Memory) {
  Target t = loadTarget(tempFile("m.json", R"({"memory": {"bytes_per_cycle": 64}})"));
  ASSERT_TRUE(t.memory);
  EXPECT_EQ(t.memory->bytesPerCycle, 64);
  EXPECT_EQ(t.memory->latency, kDefaultMemoryLatency);
  EXPECT_EQ(t.memory->burstBytes, 4096); // 256 beats of 64 bytes is over 4 KiB
  t = loadTarget(tempFile(
      "m2.json", R"({"memory": {"bytes_per_cycle": 4, "latency": 0, "burst_bytes": 64}})"));
  EXPECT_EQ(t.memory->latency, 0);
  EXPECT_EQ(t.memory->burstBytes, 64);
  EXPECT_EQ(
      loadTarget(tempFile("m3.json", R"({"memory": {"bytes_per_cycle": 8}})")).memory->burstBytes,
      2048);
  EXPECT_EQ(targetError(R"({"memory": {"latency": 10}})"),
            "field 'memory' needs 'bytes_per_cycle' (the bus width in bytes)");
  EXPECT_EQ(targetError(R"({"memory": {"bytes_per_cycle": 48}})"),
            "field 'memory.bytes_per_cycle' must be a power of two (a bus width), found 48");
  EXPECT_EQ(targetError(R"({"memory": {"bytes_per_cycle": 8, "latencyy": 1}})"),
            "field 'memory': unknown field 'latencyy' (known: bytes_per_cycle, latency, "
            "burst_bytes)");
  EXPECT_EQ(targetError(R"({"memory": 64})"),
            "field 'memory' must be an object such as {\"bytes_per_cycle\": 64, \"latency\": "
            "100}, found 64");
}

TEST(DseTarget, UnknownFieldsAndWrongTypes) {
  EXPECT_EQ(targetError(R"({"max_fanot": 16})"),
            std::string("unknown field 'max_fanot' ") + kKnown);
  EXPECT_EQ(targetError(R"({"name": 3})"), "field 'name' must be a string, found 3");
  EXPECT_EQ(targetError(R"({"description": ["a"]})"),
            "field 'description' must be a string, found [\"a\"]");
  EXPECT_EQ(targetError(R"({"max_fanout": "16"})"),
            "field 'max_fanout' must be a positive integer, found \"16\"");
  EXPECT_EQ(targetError(R"({"max_fanout": 16.5})"),
            "field 'max_fanout' must be a positive integer, found 16.5");
  EXPECT_EQ(targetError(R"({"max_ports": true})"),
            "field 'max_ports' must be a positive integer, found true");
  EXPECT_EQ(targetError(R"({"dtype": "int64"})"),
            "field 'dtype' must be \"int8\", \"int16\" or \"int32\", found \"int64\"");
  EXPECT_EQ(targetError(R"({"dtype": 8})"), "field 'dtype' must be a string, found 8");
}

TEST(DseTarget, NonPositiveAndTooLargeNumbers) {
  EXPECT_EQ(targetError(R"({"max_fanout": 0})"),
            "field 'max_fanout' must be a positive integer, found 0");
  EXPECT_EQ(targetError(R"({"max_ports": -3})"),
            "field 'max_ports' must be a positive integer, found -3");
  EXPECT_EQ(targetError(R"({"buffer_kib": 0})"),
            "field 'buffer_kib' must be an integer from 1 to 9007199254740991, found 0");
  // 2^63 / 1024 KiB would overflow when turned into bytes.
  EXPECT_EQ(targetError(R"({"buffer_kib": 9007199254740992})"),
            "field 'buffer_kib' must be an integer from 1 to 9007199254740991, found "
            "9007199254740992");
}

TEST(DseTarget, Arrays) {
  const std::string malformed = "' (expected PxQ with positive integers, such as \"8x8\")";
  for (const char* bad : {"8by8", "0x8", "8x", "x8", "8x8x8", " 8x8", "8x-1", "1234567x1", ""})
    EXPECT_EQ(targetError(std::string(R"({"arrays": ["8x8", ")") + bad + "\"]}"),
              std::string("field 'arrays': malformed array '") + bad + malformed)
        << bad;
  EXPECT_EQ(targetError(R"({"arrays": []})"),
            "field 'arrays' must be a non-empty list of shapes such as [\"8x8\"], found []");
  EXPECT_EQ(targetError(R"({"arrays": "8x8"})"),
            "field 'arrays' must be a non-empty list of shapes such as [\"8x8\"], found \"8x8\"");
  EXPECT_EQ(targetError(R"({"arrays": [8]})"),
            "field 'arrays': each shape must be a string such as \"8x8\", found 8");
  EXPECT_EQ(targetError(R"({"arrays": ["8x8", "4x4", "8x8"]})"),
            "field 'arrays': array '8x8' is listed twice");
}

TEST(DseTarget, ArrayRange) {
  const std::string head = "field 'array_range' must be [LO, HI] with 1 <= LO <= HI <= 256, found ";
  EXPECT_EQ(targetError(R"({"array_range": [16, 4]})"), head + "[16,4]");
  EXPECT_EQ(targetError(R"({"array_range": [0, 4]})"), head + "[0,4]");
  EXPECT_EQ(targetError(R"({"array_range": [4, 257]})"), head + "[4,257]");
  EXPECT_EQ(targetError(R"({"array_range": [4]})"), head + "[4]");
  EXPECT_EQ(targetError(R"({"array_range": "4..16"})"), head + "\"4..16\"");
  EXPECT_EQ(targetError(R"({"array_range": [4, 16], "arrays": ["8x8"]})"),
            "give either 'arrays' or 'array_range', not both");
  Target t = loadTarget(tempFile("range.json", R"({"array_range": [3, 3]})"));
  EXPECT_EQ(t.arrays, (std::vector<ArrayShape>{{3, 3}}));
}

const char* kEntryHelp =
    "(known: all, fpga, the numbers 1 to 14, or the names X-systolic, Y-systolic, diag-systolic, "
    "stationary, X-multicast, Y-multicast, diag-multicast, XY-multicast, X-systolic-Y-multicast, "
    "Y-systolic-X-multicast, X-multicast-stationary, Y-multicast-stationary, "
    "diag-multicast-stationary, XY-multicast-stationary)";

TEST(DseTarget, Entries) {
  EXPECT_EQ(targetError(R"({"entries": "X-systolic, diag-sistolic"})"),
            std::string("field 'entries': unknown entry 'diag-sistolic' ") + kEntryHelp);
  EXPECT_EQ(targetError(R"({"entries": ["stationary", "15"]})"),
            std::string("field 'entries': unknown entry '15' ") + kEntryHelp);
  EXPECT_EQ(targetError(R"({"entries": [1, 15]})"),
            "field 'entries': entry number 15 is not between 1 and 14");
  EXPECT_EQ(targetError(R"({"entries": [0]})"),
            "field 'entries': entry number 0 is not between 1 and 14");
  EXPECT_EQ(targetError(R"({"entries": [true]})"),
            "field 'entries': each entry must be a name or a number, found true");
  EXPECT_EQ(targetError(R"({"entries": []})"),
            "field 'entries' must be \"all\", \"fpga\" or a non-empty list of entry names or "
            "numbers, found []");
  EXPECT_EQ(targetError(R"({"entries": "1,,2"})"),
            "field 'entries': empty entry name (expected all, fpga, or a list of entry names or "
            "numbers separated by commas)");
}

// The PIM presets (docs/pim.md has every number's source). The expected values are worked out by
// hand from the published numbers; timings are DRAM clocks divided by tck_per_cycle, rounded up.

// Column bytes all units read a cycle over what the host interface moves.
int64_t internalOverExternal(const PimSystem& s) {
  return s.units * s.bank.bytesPerCycle / s.hostBytesPerCycle;
}

TEST(DseTargetPim, PresetsByName) {
  // Every file of designs/targets/ is also its stem, compiled in: the same target either way.
  for (const char* name : {"aim", "hbm-pim", "upmem", "logic-die", "asic", "fpga"}) {
    SCOPED_TRACE(name);
    const Target byName = loadTarget(name);
    const Target byFile = loadTarget(source(std::string("designs/targets/") + name + ".json"));
    EXPECT_EQ(byName.name, byFile.name);
    EXPECT_EQ(byName.arrays, byFile.arrays);
    EXPECT_EQ(byName.pim, byFile.pim);
    EXPECT_EQ(byName.memory, byFile.memory);
  }
  EXPECT_TRUE(isPresetName("aim"));
  EXPECT_FALSE(isPresetName("designs/targets/aim.json"));
  EXPECT_FALSE(isPresetName("aim.json"));
  try {
    loadTarget("aimm");
    ADD_FAILURE() << "an unknown preset loaded";
  } catch (const Error& e) {
    EXPECT_NE(e.diag().message.find("no preset of that name (the presets: aim, asic, fpga, "
                                    "hbm-pim, logic-die, upmem;"),
              std::string::npos)
        << e.diag().message;
  }
}

TEST(DseTargetPim, ShippedAim) {
  Target t = loadTarget(source("designs/targets/aim.json"));
  EXPECT_EQ(t.name, "aim");
  EXPECT_NE(t.description.find("AiM"), std::string::npos);
  EXPECT_EQ(t.arrays, (std::vector<ArrayShape>{{1, 16}, {4, 4}}));
  EXPECT_EQ(t.dtype, "int8");
  EXPECT_FALSE(t.memory.has_value());
  ASSERT_TRUE(t.pim.has_value());
  // GDDR6 at 16 Gb/s/pin: CK = 16 / 8 = 2 GHz, two clocks per 1 GHz unit cycle. Timings from
  // the 1.25 V GDDR6 preset (17.1, 17.1, 34.2, 13.68 ns) in 0.5 ns clocks: 35, 35, 69, 28.
  PimSystem want{.units = 16,
                 .banksPerUnit = 1,
                 .access = PimAccess::stream,
                 .arrays = {{1, 16}, {4, 4}},
                 .bufferBytes = 128, // an assumption: 2 x 2 operand latches of 32 bytes
                 .bank = {.bytesPerCycle = 32,
                          .rowBytes = 2048,
                          .tRCD = 18, // 35 / 2 = 17.5
                          .tRP = 18,  // 35 / 2 = 17.5
                          .tRAS = 35, // 69 / 2 = 34.5
                          .tCL = 14}, // 28 / 2
                 .broadcastBytes = 2048,
                 .broadcastBytesPerCycle = 32,
                 .hostBytesPerCycle = 32,
                 .clockMhz = 1000,
                 .readAheadBytes = 1024}; // an assumption: half a row read ahead
  EXPECT_EQ(*t.pim, want);
  // 16 banks x 32 B at 1 GHz = 512 GB/s inside, 32 GB/s at the pins.
  EXPECT_EQ(internalOverExternal(*t.pim), 16);
}

TEST(DseTargetPim, ShippedHbmPim) {
  Target t = loadTarget(source("designs/targets/hbm-pim.json"));
  EXPECT_EQ(t.name, "hbm-pim");
  EXPECT_NE(t.description.find("HBM-PIM"), std::string::npos);
  EXPECT_EQ(t.arrays, (std::vector<ArrayShape>{{1, 16}, {4, 4}}));
  EXPECT_EQ(t.dtype, "int8");
  ASSERT_TRUE(t.pim.has_value());
  // HBM2 at 2.4 Gb/s/pin: a 1.2 GHz clock, four per 300 MHz unit cycle (tCCD_L = 4 clocks: one
  // 32-byte column a unit cycle).
  PimSystem want{.units = 8, // 16 banks, one unit per 2
                 .banksPerUnit = 2,
                 .access = PimAccess::stream,
                 .arrays = {{1, 16}, {4, 4}},
                 .bufferBytes = 512, // 16 registers of 256 bits
                 .bank = {.bytesPerCycle = 32,
                          .rowBytes = 1024,
                          .tRCD = 4, // 14 / 4 = 3.5
                          .tRP = 4,  // 14 / 4 = 3.5
                          .tRAS = 9, // 33 / 4 = 8.25
                          .tCL = 5}, // 20 / 4
                 .broadcastBytes = 0,
                 .broadcastBytesPerCycle = 0,
                 .hostBytesPerCycle = 64, // 64 bits x 2 edges x 4 clocks
                 .clockMhz = 300};
  EXPECT_EQ(*t.pim, want);
  EXPECT_EQ(internalOverExternal(*t.pim), 4); // "4x the bandwidth"
}

TEST(DseTargetPim, ShippedUpmem) {
  Target t = loadTarget(source("designs/targets/upmem.json"));
  EXPECT_EQ(t.name, "upmem");
  EXPECT_NE(t.description.find("UPMEM"), std::string::npos);
  EXPECT_EQ(t.arrays, (std::vector<ArrayShape>{{1, 1}}));
  EXPECT_EQ(t.dtype, "int8");
  ASSERT_TRUE(t.pim.has_value());
  // Timings already in DPU cycles: a 2,048-byte "row" (the largest DMA transfer) costs the
  // measured fixed 77 cycles, then streams at 0.5 cycles a byte.
  PimSystem want{
      .units = 64,
      .banksPerUnit = 1,
      .access = PimAccess::dma,
      .arrays = {{1, 1}},
      .bufferBytes = 65536,
      .bank = {.bytesPerCycle = 2, .rowBytes = 2048, .tRCD = 77, .tRP = 0, .tRAS = 0, .tCL = 0},
      .broadcastBytes = 0,
      .broadcastBytesPerCycle = 0,
      .hostBytesPerCycle = 16, // 6.68 GB/s / 350 MHz = 19.1, rounded down
      .clockMhz = 350};
  EXPECT_EQ(*t.pim, want);
  // 2,048 bytes in 77 + 1,024 cycles: the paper's latency model, 77 + 0.5 x 2,048.
  EXPECT_EQ(t.pim->bank.tRCD + t.pim->bank.rowBytes / t.pim->bank.bytesPerCycle, 1101);
}

TEST(DseTargetPim, ShippedLogicDie) {
  Target t = loadTarget(source("designs/targets/logic-die.json"));
  EXPECT_EQ(t.name, "logic-die");
  EXPECT_EQ(t.arrays, (std::vector<ArrayShape>{{16, 16}}));
  EXPECT_EQ(t.dtype, "int8");
  ASSERT_TRUE(t.pim.has_value());
  // The HBM2 timings of hbm-pim, two 1.2 GHz clocks per 600 MHz cycle; a "bank" is 32 banks
  // (2 in each of 16 pseudo-channels) opened together: 32 x 1 KB rows, 16 x 16 B a clock.
  PimSystem want{.units = 1,
                 .banksPerUnit = 8, // 256 banks in groups of 32
                 .access = PimAccess::dma,
                 .arrays = {{16, 16}},
                 .bufferBytes = 512 * 1024,
                 .bank = {.bytesPerCycle = 512,
                          .rowBytes = 32768,
                          .tRCD = 7,  // 14 / 2
                          .tRP = 7,   // 14 / 2
                          .tRAS = 17, // 33 / 2 = 16.5
                          .tCL = 10}, // 20 / 2
                 .broadcastBytes = 0,
                 .broadcastBytesPerCycle = 0,
                 .hostBytesPerCycle = 512,
                 .clockMhz = 600};
  EXPECT_EQ(*t.pim, want);
  EXPECT_EQ(internalOverExternal(*t.pim), 1); // it shares the stack's bandwidth
}

// A complete, valid "pim" object that the error tests below break one field at a time.
nlohmann::ordered_json validPim() {
  return nlohmann::ordered_json::parse(R"({
    "units": 4, "banks_per_unit": 2, "access": "dma", "unit_array": "1x8",
    "unit_buffer_bytes": 256,
    "clock_mhz": 500,
    "bank": {"bytes_per_cycle": 16, "row_bytes": 1024, "tck_per_cycle": 3,
             "trcd": 10, "trp": 9, "tras": 25, "cl": 1},
    "broadcast_bytes": 1024, "broadcast_bytes_per_cycle": 16, "host_bytes_per_cycle": 8,
    "source": "made up"})");
}

std::string pimError(const nlohmann::ordered_json& pim) {
  return targetError(nlohmann::ordered_json{{"pim", pim}}.dump());
}

Target pimTarget(const nlohmann::ordered_json& pim) {
  return loadTarget(tempFile("pim.json", nlohmann::ordered_json{{"pim", pim}}.dump()));
}

TEST(DseTargetPim, ConvertsTimingsRoundingUp) {
  PimSystem s = *pimTarget(validPim()).pim;
  EXPECT_EQ(s.units, 4);
  EXPECT_EQ(s.banksPerUnit, 2);
  EXPECT_EQ(s.access, PimAccess::dma);
  EXPECT_EQ(s.arrays, (std::vector<ArrayShape>{{1, 8}}));
  EXPECT_EQ(s.bufferBytes, 256);
  EXPECT_EQ(s.clockMhz, 500);
  EXPECT_EQ(s.bank.bytesPerCycle, 16);
  EXPECT_EQ(s.bank.rowBytes, 1024);
  // Three DRAM clocks a unit cycle: 10 -> 4 (3.33), 9 -> 3 exactly, 25 -> 9 (8.33), 1 -> 1.
  EXPECT_EQ(s.bank.tRCD, 4);
  EXPECT_EQ(s.bank.tRP, 3);
  EXPECT_EQ(s.bank.tRAS, 9);
  EXPECT_EQ(s.bank.tCL, 1);
  EXPECT_EQ(s.broadcastBytes, 1024);
  EXPECT_EQ(s.broadcastBytesPerCycle, 16);
  EXPECT_EQ(s.hostBytesPerCycle, 8);
  EXPECT_TRUE(s.enabled());

  // Zero timings stay zero; without tck_per_cycle the timings are already unit cycles.
  nlohmann::ordered_json j = validPim();
  j["bank"]["trp"] = 0;
  j["bank"]["cl"] = 0;
  j["bank"].erase("tck_per_cycle");
  s = *pimTarget(j).pim;
  EXPECT_EQ(s.bank.tRCD, 10);
  EXPECT_EQ(s.bank.tRP, 0);
  EXPECT_EQ(s.bank.tRAS, 25);
  EXPECT_EQ(s.bank.tCL, 0);
}

TEST(DseTargetPim, DefaultsAndComments) {
  nlohmann::ordered_json j = validPim();
  j.erase("banks_per_unit");
  j.erase("broadcast_bytes");
  j.erase("broadcast_bytes_per_cycle");
  j.erase("source");
  j["_note"] = "comments are skipped";
  j["bank"]["_note"] = 3;
  Target t = pimTarget(j);
  ASSERT_TRUE(t.pim.has_value());
  EXPECT_EQ(t.pim->banksPerUnit, 1);
  EXPECT_EQ(t.pim->broadcastBytes, 0);
  EXPECT_EQ(t.pim->broadcastBytesPerCycle, 0);
  EXPECT_FALSE(t.memory.has_value());
  // No broadcast buffer with a rate of 0 spelt out is the same.
  j["broadcast_bytes"] = 0;
  j["broadcast_bytes_per_cycle"] = 0;
  EXPECT_EQ(pimTarget(j).pim->broadcastBytesPerCycle, 0);
  // A target without "pim" has none.
  EXPECT_FALSE(loadTarget(tempFile("plain.json", "{}")).pim.has_value());
}

TEST(DseTargetPim, Access) {
  nlohmann::ordered_json j = validPim();
  j["access"] = "stream";
  EXPECT_EQ(pimTarget(j).pim->access, PimAccess::stream);
  j["access"] = "DMA";
  EXPECT_EQ(pimError(j), "field 'pim.access' must be \"stream\" or \"dma\", found \"DMA\"");
  j["access"] = 1;
  EXPECT_EQ(pimError(j), "field 'pim.access' must be \"stream\" or \"dma\", found 1");
}

TEST(DseTargetPim, NotWithMemory) {
  nlohmann::ordered_json j = {{"memory", {{"bytes_per_cycle", 64}}}, {"pim", validPim()}};
  EXPECT_EQ(targetError(j.dump()),
            "give either 'memory' or 'pim', not both (a PIM target's memory is its banks)");
}

TEST(DseTargetPim, NotAnObject) {
  EXPECT_EQ(pimError(16),
            "field 'pim' must be an object such as {\"units\": 16, "
            "\"unit_array\": \"1x16\", \"bank\": {...}, ...} (docs/pim.md), found 16");
  nlohmann::ordered_json j = validPim();
  j["bank"] = "hbm2";
  EXPECT_EQ(pimError(j), "field 'pim.bank' must be an object such as {\"bytes_per_cycle\": 32, "
                         "\"row_bytes\": 2048, \"trcd\": 18, \"trp\": 18, \"tras\": 42, \"cl\": "
                         "18}, found \"hbm2\"");
}

TEST(DseTargetPim, ReadAhead) {
  nlohmann::ordered_json j = validPim();
  EXPECT_EQ(pimTarget(j).pim->readAheadBytes, 0); // the default: CL + 2 columns
  j["read_ahead_bytes"] = 1024;
  EXPECT_EQ(pimTarget(j).pim->readAheadBytes, 1024);
  j["read_ahead_bytes"] = 1000;
  EXPECT_EQ(pimError(j), "field 'pim.read_ahead_bytes' must be a multiple of the bank's "
                         "bytes_per_cycle (16: whole columns), found 1000");
  j["read_ahead_bytes"] = 0;
  EXPECT_NE(pimError(j).find("pim.read_ahead_bytes"), std::string::npos);
}

TEST(DseTargetPim, UnknownFields) {
  nlohmann::ordered_json j = validPim();
  j["unit"] = 4;
  EXPECT_EQ(pimError(j), "field 'pim': unknown field 'unit' (known: units, banks_per_unit, "
                         "access, unit_array, unit_buffer_bytes, clock_mhz, bank, broadcast_bytes, "
                         "broadcast_bytes_per_cycle, host_bytes_per_cycle, read_ahead_bytes, "
                         "source)");
  j = validPim();
  j["bank"]["trdc"] = 4;
  EXPECT_EQ(pimError(j), "field 'pim.bank': unknown field 'trdc' (known: bytes_per_cycle, "
                         "row_bytes, tck_per_cycle, trcd, trp, tras, cl)");
}

TEST(DseTargetPim, MissingFields) {
  const std::vector<std::pair<std::string, std::string>> pim = {
      {"units", "the compute units working on one problem"},
      {"access", "\"stream\" (the array reads the open row in place) or \"dma\" (a DMA copies "
                 "tiles into the unit's buffer)"},
      {"unit_array", "the PxQ PE array of one unit, such as \"1x16\", or a list of them"},
      {"unit_buffer_bytes", "each unit's own buffer in bytes"},
      {"clock_mhz", "the units' clock in MHz"},
      {"bank", "one DRAM bank: its rate, row and timings"},
      {"host_bytes_per_cycle", "the external interface's bytes per unit cycle"},
  };
  for (const auto& [key, what] : pim) {
    nlohmann::ordered_json j = validPim();
    j.erase(key);
    EXPECT_EQ(pimError(j), "field 'pim' needs '" + key + "' (" + what + ")");
  }
  const std::vector<std::pair<std::string, std::string>> bank = {
      {"bytes_per_cycle", "the column data a unit gets a cycle"},
      {"row_bytes", "the bytes of one row"},
      {"trcd", "activate to first column access, in DRAM clocks"},
      {"trp", "precharge to the next activate, in DRAM clocks"},
      {"tras", "activate to precharge at least, in DRAM clocks"},
      {"cl", "column read to its data, in DRAM clocks"},
  };
  for (const auto& [key, what] : bank) {
    nlohmann::ordered_json j = validPim();
    j["bank"].erase(key);
    EXPECT_EQ(pimError(j), "field 'pim.bank' needs '" + key + "' (" + what + ")");
  }
}

// Every count: zero, negative, fractional, a string and one past its limit are refused.
TEST(DseTargetPim, CountsArePositiveIntegersInRange) {
  struct Count {
    std::vector<std::string> where; // the field's path in the "pim" object
    int64_t max;
  };
  const std::vector<Count> counts = {
      {{"units"}, 1 << 20},
      {{"banks_per_unit"}, 1 << 16},
      {{"unit_buffer_bytes"}, int64_t(1) << 40},
      {{"clock_mhz"}, 100000},
      {{"bank", "tck_per_cycle"}, 1024},
  };
  for (const Count& c : counts) {
    std::string field = "pim";
    for (const std::string& w : c.where)
      field += "." + w;
    const std::string head =
        "field '" + field + "' must be an integer from 1 to " + std::to_string(c.max) + ", found ";
    for (const char* bad : {"0", "-2", "1.5", "\"4\"", "true"}) {
      nlohmann::ordered_json j = validPim();
      nlohmann::ordered_json& slot = c.where.size() == 1 ? j[c.where[0]] : j["bank"][c.where[1]];
      slot = nlohmann::ordered_json::parse(bad);
      EXPECT_EQ(pimError(j), head + bad) << field;
    }
    nlohmann::ordered_json j = validPim();
    (c.where.size() == 1 ? j[c.where[0]] : j["bank"][c.where[1]]) = c.max + 1;
    EXPECT_EQ(pimError(j), head + std::to_string(c.max + 1)) << field;
  }
}

TEST(DseTargetPim, RatesAndRowsArePowersOfTwo) {
  nlohmann::ordered_json j = validPim();
  j["bank"]["bytes_per_cycle"] = 48;
  EXPECT_EQ(pimError(j),
            "field 'pim.bank.bytes_per_cycle' must be a power of two (a bus width), found 48");
  j = validPim();
  j["bank"]["row_bytes"] = 1000;
  EXPECT_EQ(pimError(j), "field 'pim.bank.row_bytes' must be a power of two (a DRAM row), found "
                         "1000");
  j = validPim();
  j["host_bytes_per_cycle"] = 24;
  EXPECT_EQ(pimError(j),
            "field 'pim.host_bytes_per_cycle' must be a power of two (a bus width), found 24");
  j = validPim();
  j["broadcast_bytes_per_cycle"] = 12;
  EXPECT_EQ(pimError(j), "field 'pim.broadcast_bytes_per_cycle' must be a power of two (a bus "
                         "width), found 12");
  // Zero and non-integers are refused before the power-of-two test, with their limits.
  j = validPim();
  j["bank"]["bytes_per_cycle"] = 0;
  EXPECT_EQ(pimError(j),
            "field 'pim.bank.bytes_per_cycle' must be an integer from 1 to 4096, found 0");
  j = validPim();
  j["bank"]["bytes_per_cycle"] = 8192; // a unit's memory bus is at most 4096 bytes wide
  EXPECT_EQ(pimError(j),
            "field 'pim.bank.bytes_per_cycle' must be an integer from 1 to 4096, found 8192");
  j = validPim();
  j["bank"]["row_bytes"] = 2048.0;
  EXPECT_EQ(pimError(j),
            "field 'pim.bank.row_bytes' must be an integer from 1 to 1073741824, found 2048.0");
  j = validPim();
  j["host_bytes_per_cycle"] = -32;
  EXPECT_EQ(pimError(j),
            "field 'pim.host_bytes_per_cycle' must be an integer from 1 to 1048576, found -32");
}

TEST(DseTargetPim, RowHoldsAtLeastOneCycle) {
  nlohmann::ordered_json j = validPim();
  j["bank"]["row_bytes"] = 8; // bytes_per_cycle is 16
  EXPECT_EQ(pimError(j),
            "field 'pim.bank.row_bytes' must be at least 'bytes_per_cycle' (16), found 8");
}

TEST(DseTargetPim, Timings) {
  for (const char* key : {"trcd", "trp", "tras", "cl"})
    for (const char* bad : {"-1", "2.5", "\"18\"", "null", "1000001"}) {
      nlohmann::ordered_json j = validPim();
      j["bank"][key] = nlohmann::ordered_json::parse(bad);
      EXPECT_EQ(pimError(j), std::string("field 'pim.bank.") + key +
                                 "' must be an integer from 0 to 1000000 (DRAM clocks), found " +
                                 bad);
    }
  nlohmann::ordered_json j = validPim();
  j["bank"]["tras"] = 1000000; // the limit itself is accepted
  EXPECT_EQ(pimTarget(j).pim->bank.tRAS, 333334);
}

TEST(DseTargetPim, UnitArray) {
  nlohmann::ordered_json j = validPim();
  const std::string want = "field 'pim.unit_array' must be a string such as \"1x16\" or a "
                           "non-empty list of them, found ";
  j["unit_array"] = 16;
  EXPECT_EQ(pimError(j), want + "16");
  j["unit_array"] = nlohmann::ordered_json::array();
  EXPECT_EQ(pimError(j), want + "[]");
  j["unit_array"] = {"1x16", 4};
  EXPECT_EQ(pimError(j), want + "[\"1x16\",4]");
  j["unit_array"] = "1by16";
  EXPECT_EQ(pimError(j), "field 'pim.unit_array': malformed array '1by16' (expected PxQ with "
                         "positive integers, such as \"8x8\")");
  j["unit_array"] = "0x16";
  EXPECT_EQ(pimError(j), "field 'pim.unit_array': malformed array '0x16' (expected PxQ with "
                         "positive integers, such as \"8x8\")");
  j["unit_array"] = {"1x16", "4x8"};
  EXPECT_EQ(pimError(j), "field 'pim.unit_array': every shape must have the same PEs ('4x8' has "
                         "32, the first 16)");
  j["unit_array"] = "16X16";
  EXPECT_EQ(pimTarget(j).pim->arrays, (std::vector<ArrayShape>{{16, 16}}));
  j["unit_array"] = {"1x16", "4x4", "16x1"};
  EXPECT_EQ(pimTarget(j).pim->arrays, (std::vector<ArrayShape>{{1, 16}, {4, 4}, {16, 1}}));
}

TEST(DseTargetPim, Broadcast) {
  nlohmann::ordered_json j = validPim();
  j.erase("broadcast_bytes_per_cycle");
  EXPECT_EQ(pimError(j), "field 'pim' needs 'broadcast_bytes_per_cycle' (the bytes the broadcast "
                         "buffer gives every unit a cycle, since 'broadcast_bytes' is above 0)");
  j = validPim();
  j["broadcast_bytes"] = 0;
  EXPECT_EQ(pimError(j), "field 'pim.broadcast_bytes_per_cycle' must be absent or 0 without a "
                         "broadcast buffer ('broadcast_bytes' is 0), found 16");
  j = validPim();
  j.erase("broadcast_bytes"); // absent is 0 too
  EXPECT_EQ(pimError(j), "field 'pim.broadcast_bytes_per_cycle' must be absent or 0 without a "
                         "broadcast buffer ('broadcast_bytes' is 0), found 16");
  for (const char* bad : {"-1", "0.5", "\"2K\"", "1099511627777"}) {
    j = validPim();
    j["broadcast_bytes"] = nlohmann::ordered_json::parse(bad);
    EXPECT_EQ(pimError(j), std::string("field 'pim.broadcast_bytes' must be an integer from 0 to "
                                       "1099511627776 (bytes; 0: no broadcast buffer), found ") +
                               bad);
  }
  j = validPim();
  j["broadcast_bytes_per_cycle"] = 0;
  EXPECT_EQ(pimError(j),
            "field 'pim.broadcast_bytes_per_cycle' must be an integer from 1 to 1048576, found 0");
}

TEST(DseTargetPim, SourceIsText) {
  nlohmann::ordered_json j = validPim();
  j["source"] = 2021;
  EXPECT_EQ(pimError(j), "field 'pim.source' must be a string, found 2021");
}

TEST(DseTarget, UnreadableOrNotAnObject) {
  std::string missing =
      (std::filesystem::path(testing::TempDir()) / "no_such_target.json").string();
  EXPECT_NE(errorOf([&] { loadTarget(missing); }, missing).find("cannot open file"),
            std::string::npos);
  std::string msg = targetError("{\n  \"name\": \n}");
  EXPECT_EQ(msg.rfind("invalid JSON: parse error at line 3, column 1", 0), 0u) << msg;
  EXPECT_EQ(targetError("[1, 2]"), "a target file is a JSON object ({...}), found [1,2]");
}

TEST(DseEntrySet, KeywordsNamesAndNumbers) {
  EXPECT_EQ(parseEntrySet("all", "--entries").size(), 14u);
  std::set<EntryKind> fpga = parseEntrySet("FPGA", "--entries");
  EXPECT_EQ(fpga.size(), 11u);
  for (EntryKind k : fpga)
    EXPECT_FALSE(ir::isDiagonal(k));
  EXPECT_EQ(parseEntrySet("x-SYSTOLIC, 4 ,X-systolic-Y-multicast", "--entries"),
            (std::set<EntryKind>{EntryKind::XSystolic, EntryKind::Stationary,
                                 EntryKind::XSystolicYMulticast}));
  EXPECT_EQ(parseEntrySet("14", "--entries"), kinds({14}));
  EXPECT_EQ(errorOf([] { parseEntrySet("stationary,diagonal", "--entries"); }, "--entries"),
            std::string("unknown entry 'diagonal' ") + kEntryHelp);
  EXPECT_EQ(errorOf([] { parseEntrySet("0", "--entries"); }, "--entries"),
            std::string("unknown entry '0' ") + kEntryHelp);
  EXPECT_NE(errorOf([] { parseEntrySet("", "--entries"); }, "--entries").find("empty entry name"),
            std::string::npos);
}

TEST(DseCostTable, ShippedFileEqualsCompiledDefaults) {
  CostTable file = loadCostTable(source("designs/cost_table.json"));
  CostTable def;
  EXPECT_EQ(file.multiplierAreaPerBit2, def.multiplierAreaPerBit2);
  EXPECT_EQ(file.adderAreaPerBit, def.adderAreaPerBit);
  EXPECT_EQ(file.registerAreaPerBit, def.registerAreaPerBit);
  EXPECT_EQ(file.sramAreaPerBit, def.sramAreaPerBit);
  EXPECT_EQ(file.wireAreaPerBit, def.wireAreaPerBit);
  EXPECT_EQ(file.macEnergyPerBit2, def.macEnergyPerBit2);
  EXPECT_EQ(file.adderEnergyPerBit, def.adderEnergyPerBit);
  EXPECT_EQ(file.registerEnergyPerBit, def.registerEnergyPerBit);
  EXPECT_EQ(file.sramEnergyPerBit, def.sramEnergyPerBit);
  EXPECT_EQ(file.wireEnergyPerBit, def.wireEnergyPerBit);
}

// The refit to Yosys (bench/proxy_calibration, docs/synthesis.md) loads: its area fields as
// fitted, its energy fields the defaults.
TEST(DseCostTable, ShippedYosysRefitLoads) {
  CostTable file = loadCostTable(source("designs/cost_table_yosys.json"));
  EXPECT_EQ(file.multiplierAreaPerBit2, 12.8487);
  EXPECT_EQ(file.sramAreaPerBit, 1.5197);
  EXPECT_EQ(file.adderAreaPerBit, 0.0);
  EXPECT_EQ(file.registerAreaPerBit, 0.0);
  EXPECT_EQ(file.wireAreaPerBit, 0.0);
  EXPECT_EQ(file.macEnergyPerBit2, CostTable{}.macEnergyPerBit2);
}

TEST(DseCostTable, PartialTablesAndMistakes) {
  CostTable t = loadCostTable(tempFile(
      "costs.json", R"({"_units": {"area": "gates"}, "wireAreaPerBit": 0, "sramAreaPerBit": 2})"));
  EXPECT_EQ(t.wireAreaPerBit, 0.0);
  EXPECT_EQ(t.sramAreaPerBit, 2.0);
  EXPECT_EQ(t.adderAreaPerBit, CostTable{}.adderAreaPerBit); // not given: default

  std::string path = tempFile("costs.json", R"({"wireAreaPerbit": 1})");
  std::string msg = errorOf([&] { loadCostTable(path); }, path);
  EXPECT_EQ(msg.rfind("unknown field 'wireAreaPerbit' (known: multiplierAreaPerBit2, "
                      "adderAreaPerBit, ",
                      0),
            0u)
      << msg;
  path = tempFile("costs.json", R"({"adderAreaPerBit": -1})");
  EXPECT_EQ(errorOf([&] { loadCostTable(path); }, path),
            "field 'adderAreaPerBit' must be a number >= 0, found -1");
  path = tempFile("costs.json", R"({"adderAreaPerBit": "7"})");
  EXPECT_EQ(errorOf([&] { loadCostTable(path); }, path),
            "field 'adderAreaPerBit' must be a number >= 0, found \"7\"");
  path = tempFile("costs.json", "[]");
  EXPECT_EQ(errorOf([&] { loadCostTable(path); }, path),
            "a cost table is a JSON object ({...}), found []");
}

} // namespace
} // namespace rubick::dse
