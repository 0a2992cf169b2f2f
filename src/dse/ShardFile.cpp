// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/ShardFile.h"

#include "rubick/dse/ShardSet.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Hash.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

// Every field of a design, so that merge prints it as the search that found it would. A field
// added to one of these structs must be added here too (the sharding test compares merge's
// outputs with an unsharded run's byte for byte, so a missing one shows).
namespace rubick::dataflow {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(InnerDim, loop, factor)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OuterDim, loop, factor)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Dataflow, p, q, inner, s, outer)
} // namespace rubick::dataflow
namespace rubick::ir {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrientedEntry, kind, mirrorX, mirrorY)
} // namespace rubick::ir
namespace rubick::dse {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TensorMetrics, name, entry, output, elementBits, wireBits, ports,
                                   bankDepth, bufferBytes, fan, links, linkBits, wires, accesses,
                                   recurs)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Metrics, latency, tiles, tileCycles, interval, macs, utilization,
                                   accumulatorBits, bufferBytes, peakWordsPerCycle, wordsPerCycle,
                                   maxFanout, maxFanin, ports, wires, linkBits, area, energy,
                                   tensors)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(BufferTiling, size, order, chain)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TensorTraffic, name, output, readBytes, writeBytes,
                                   compulsoryBytes, bankBytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(MemoryMetrics, cycles, computeCycles, bufferTiles, bankBytes,
                                   busBytes, compulsoryBytes, memoryBound, chained, tensors)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DesignPoint, id, dataflow, entries, metrics, pareto, order,
                                   buffer, memory)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ExploreStats, spaceTimeMatrices, candidates, designs, pareto,
                                   byEntries, byFanout, byPorts, byBuffer, byFit, tileShapes)

namespace {

using nlohmann::json;

std::string line(const json& j) {
  return j.dump() + "\n";
}

} // namespace

std::string shardFingerprint(const std::string& version, const std::vector<std::string>& options) {
  std::string text = "rubick " + version;
  for (const std::string& o : options) {
    text += '\0' + o;
    std::error_code ec;
    // A file named by an option (or an option's value after '='): its content too.
    const std::string path =
        o.rfind("--", 0) == 0 && o.find('=') != std::string::npos ? o.substr(o.find('=') + 1) : o;
    if (!path.empty() && std::filesystem::is_regular_file(path, ec)) {
      std::ifstream in(path, std::ios::binary);
      std::ostringstream content;
      content << in.rdbuf();
      text += '\0' + fnv1aHex(content.str());
    }
  }
  return fnv1aHex(text);
}

std::string shardHeaderLine(const ShardHeader& h) {
  // kShardSignature: the first key, in this order (json sorts keys: hence an ordered_json).
  nlohmann::ordered_json j;
  j["rubick_explore_shard"] = toString(h.shard);
  j["version"] = h.version;
  j["fingerprint"] = h.fingerprint;
  j["items"] = h.items;
  j["options"] = h.options;
  return j.dump() + "\n";
}

std::string shardRowLine(size_t order, const std::string& csvRow) {
  return line(json{{"row", order}, {"csv", csvRow}});
}

std::string shardDesignLine(const DesignPoint& d) {
  return line(json{{"design", d}});
}

std::string shardEndLine(const ShardResult& r) {
  return line(json{{"end", true}, {"stats", r.result.stats}, {"item_designs", r.itemDesigns}});
}

ShardContents readShardFile(const std::string& path, bool rows) {
  ShardContents c;
  c.path = path;
  auto line = [&](size_t lineNo, const json& j) {
    if (lineNo == 1) {
      if (!j.contains("rubick_explore_shard"))
        throw shardLineError(path, lineNo,
                             "not an explore shard file (no rubick_explore_shard header)");
      try {
        c.header.shard = parseShard(j.at("rubick_explore_shard").get<std::string>());
      } catch (const std::invalid_argument& e) {
        throw shardLineError(path, lineNo, e.what());
      }
      c.header.version = j.at("version").get<std::string>();
      c.header.fingerprint = j.at("fingerprint").get<std::string>();
      c.header.items = j.at("items").get<size_t>();
      c.header.options = j.at("options").get<std::vector<std::string>>();
      c.result.items = c.header.items;
    } else if (j.contains("row")) {
      c.rows.emplace_back(j.at("row").get<size_t>(), j.at("csv").get<std::string>());
    } else if (j.contains("design")) {
      c.result.result.points.push_back(j.at("design").get<DesignPoint>());
    } else if (j.contains("end")) {
      c.result.result.stats = j.at("stats").get<ExploreStats>();
      c.result.itemDesigns = j.at("item_designs").get<std::vector<std::pair<size_t, size_t>>>();
      return true;
    } else {
      throw shardLineError(path, lineNo, "an unknown line");
    }
    return false;
  };
  // Without rows, the row lines (most of the file) are skipped unparsed.
  readShardLines(path, line,
                 [&](const std::string& text) { return !rows && text.rfind("{\"csv\":", 0) == 0; });
  return c;
}

} // namespace rubick::dse
