// Target files and cost tables: the shipped files give their documented values, and every kind
// of mistake in a hand-edited file gives a message naming the file and the field.

#include "rubick/dse/Target.h"
#include "rubick/support/Diagnostic.h"

#include "temp_dir.h"

#include <gtest/gtest.h>

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
    "entries, memory)";

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
