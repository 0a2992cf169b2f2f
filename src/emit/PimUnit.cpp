// SPDX-License-Identifier: Apache-2.0
// A PIM design's unit as numbers, whether the hardware builds it, and its replayed run
// (include/rubick/emit/Pim.h, src/emit/PimUnit.h).

#include "PimUnit.h"

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/MemoryPlan.h"
#include "rubick/arch/PimDma.h"
#include "rubick/dse/Schedule.h"
#include "rubick/emit/Pim.h"
#include "rubick/support/Checked.h"

#include <algorithm>

namespace rubick::emit {

using dse::PimPlacement;

namespace detail {

bool streamedPlacement(PimPlacement p) {
  return p == PimPlacement::banks || p == PimPlacement::replicated;
}

UnitBuild buildUnit(const tc::Program& prog, const dse::PimDesign& d, const dse::PimSystem& s,
                    const dse::ExploreOptions& o, const std::string& name) {
  UnitBuild b;
  const dataflow::Dataflow& df = d.unit.dataflow;
  b.plan = arch::makePlan(prog, d.share, df, d.unit.entries, o.constraints.elementBits, name);
  const arch::Plan& plan = b.plan;
  const size_t nt = plan.tensors.size();
  std::vector<char>& streamed = b.streamed;
  std::vector<int>& streamedIds = b.streamedIds;
  detail::PimShape& sh = b.sh;
  int& outId = b.outId;
  streamed.assign(nt, 0);
  for (size_t t = 0; t < nt; ++t) {
    if (d.placement[t] == PimPlacement::broadcast) {
      streamed[t] = 2;
      sh.shared.push_back(static_cast<int>(t));
    }
    if (!streamedPlacement(d.placement[t])) continue;
    streamed[t] = 1;
    if (plan.tensors[t].output) {
      outId = static_cast<int>(t);
      sh.writePorts = static_cast<int64_t>(plan.tensors[t].ports.size());
      sh.outWordBits = plan.tensors[t].elementBits;
      continue;
    }
    streamedIds.push_back(static_cast<int>(t));
    sh.streamPorts += static_cast<int64_t>(plan.tensors[t].ports.size());
    sh.wordBits = plan.tensors[t].elementBits;
  }
  b.reads = arch::coreReads(plan, streamedIds);
  b.writes = outId >= 0 ? arch::coreWrites(plan, outId) : arch::CoreReads{};
  sh.units = s.units;
  sh.banks = s.banksPerUnit;
  sh.colBytes = s.bank.bytesPerCycle;
  sh.rowCols = s.bank.rowBytes / s.bank.bytesPerCycle;
  sh.tRCD = s.bank.tRCD;
  sh.tRP = s.bank.tRP;
  sh.tRAS = s.bank.tRAS;
  sh.tCL = s.bank.tCL;
  sh.readerDepth = dse::readAheadColumns(s);
  b.wordsPerColumn = sh.colBytes * 8 / sh.wordBits;
  b.outWordsPerColumn = sh.colBytes * 8 / sh.outWordBits;
  b.words = static_cast<int64_t>(b.reads.reads.size());
  sh.totalWrites = static_cast<int64_t>(b.writes.reads.size());
  b.layout = arch::streamLayout(b.reads.perCycle, b.writes.perCycle, b.wordsPerColumn,
                                b.outWordsPerColumn);
  sh.runs = b.layout.runs;
  sh.columns = b.layout.readColumns + b.layout.writeColumns;
  sh.rows = std::max<int64_t>(1, ceilDiv(sh.columns, sh.rowCols * sh.banks));
  // The units' run replayed cycle by cycle (exact: nothing depends on the data).
  arch::PimUnitConfig uc;
  uc.banks = sh.banks;
  uc.rowCols = sh.rowCols;
  uc.tRCD = sh.tRCD;
  uc.tRP = sh.tRP;
  uc.tRAS = sh.tRAS;
  uc.tCL = sh.tCL;
  uc.readerDepth = sh.readerDepth;
  uc.wordsPerColumn = b.wordsPerColumn;
  uc.ports = sh.streamPorts;
  uc.columns = sh.columns;
  uc.writePorts = sh.writePorts;
  uc.outWordsPerColumn = b.outWordsPerColumn;
  uc.writeDepth = detail::writeDepth(sh);
  if (outId >= 0) uc.isWrite = b.layout.isWrite;
  b.run = arch::pimUnitRun(uc, b.reads.perCycle, b.writes.perCycle);
  return b;
}

nlohmann::ordered_json wordRunsOf(const std::vector<std::pair<int64_t, int64_t>>& words) {
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (size_t k = 0; k < words.size();) {
    const auto [t, e] = words[k];
    int64_t n = 1, stride = 0;
    if (t >= 0 && k + 1 < words.size() && words[k + 1].first == t) stride = words[k + 1].second - e;
    while (k + n < words.size() && words[k + n].first == t && words[k + n].second == e + n * stride)
      ++n;
    runs.push_back({t, e, n, stride});
    k += static_cast<size_t>(n);
  }
  return runs;
}

std::vector<std::vector<std::pair<int64_t, int64_t>>>
unitStreams(const nlohmann::ordered_json& stream, int64_t units) {
  auto expand = [](const nlohmann::ordered_json& runs) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const auto& run : runs) {
      const int64_t t = run.at(0), e = run.at(1), n = run.at(2), stride = run.at(3);
      for (int64_t i = 0; i < n; ++i)
        out.push_back(t < 0 ? std::make_pair(t, t) : std::make_pair(t, e + i * stride));
    }
    return out;
  };
  const std::vector<std::pair<int64_t, int64_t>> base = expand(stream.at("words"));
  std::vector<std::vector<std::pair<int64_t, int64_t>>> out;
  for (int64_t u = 0; u < units; ++u) {
    const std::string key = std::to_string(u);
    if (stream.contains("unit_words") && stream.at("unit_words").contains(key)) {
      out.push_back(expand(stream.at("unit_words").at(key)));
      continue;
    }
    std::vector<std::pair<int64_t, int64_t>> ws = base;
    const auto& off = stream.at("unit_offsets").at(static_cast<size_t>(u));
    for (auto& [t, e] : ws)
      if (t >= 0) e += off.at(static_cast<size_t>(t)).get<int64_t>();
    out.push_back(std::move(ws));
  }
  return out;
}

} // namespace detail

std::string pimBuildProblem(const dataflow::StatementView& v, const dse::PimDesign& d,
                            const dse::PimSystem& s, const dse::ExploreOptions& o) {
  if (s.access == dse::PimAccess::dma) {
    // Each unit is one memory-system design on its own banks, all of them the same design.
    std::string why = arch::axiBuildProblem(arch::pimUnitPort(s));
    if (why.empty()) why = arch::memoryBuildProblem(v, o.constraints.elementBits);
    for (size_t l = 0; l < d.spread.size() && why.empty(); ++l)
      if (v.extent[l] % d.spread[l] != 0)
        why = "loop " + v.loops[l] + " (" + std::to_string(v.extent[l]) + ") is spread over " +
              std::to_string(d.spread[l]) + " units with a DMA, which need it to divide";
    return why;
  }
  if (v.fold != dataflow::Fold::Sum)
    return "a maximum or minimum reduction on PIM units is not built yet (the host sums the "
           "units' parts)";
  if (v.accumulates)
    return "'+=' on PIM units (the output's start values added once over the units) is not "
           "built yet";
  for (size_t l = 0; l < d.spread.size(); ++l) {
    if (v.extent[l] % d.spread[l] == 0) continue;
    // The last units compute past the loop's end: harmless when some tensor is indexed by the
    // loop alone over exactly its extent, so that those iterations touch no element of it (an
    // input then gives zeros to their products, an output has nowhere to put them).
    bool guarded = false;
    for (const dataflow::AccessView& a : v.accesses)
      for (size_t r = 0; r < a.coeffs.size(); ++r) {
        bool alone = a.constant[r] == 0 && a.coeffs[r][l] == 1;
        for (size_t k = 0; k < a.coeffs[r].size(); ++k)
          alone &= k == l || a.coeffs[r][k] == 0;
        guarded |= alone && a.shape.size() > r && a.shape[r] == v.extent[l];
      }
    if (!guarded)
      return "loop " + v.loops[l] + " (" + std::to_string(v.extent[l]) + ") is spread over " +
             std::to_string(d.spread[l]) +
             " units, which does not divide it, and no tensor is indexed by it alone: the last "
             "unit's iterations past its end would reach elements";
  }
  int64_t bits = 0;
  bool any = false;
  auto elementBits = [&](size_t a) {
    return o.constraints.elementBits.size() > a && o.constraints.elementBits[a] > 0
               ? o.constraints.elementBits[a]
               : v.accesses[a].elementBits;
  };
  const int64_t columnBits = s.bank.bytesPerCycle * 8;
  for (size_t a = 0; a < d.placement.size(); ++a) {
    const dse::TensorMetrics& t = d.unit.metrics.tensors[a];
    if (t.output && d.placement[a] != PimPlacement::buffer) {
      // Written to the banks once each: partial sums that meet again would have to be read
      // back from them.
      const dse::Schedule sc = dse::schedule(d.share, d.unit.dataflow, d.unit.entries);
      if (sc.tensors[a].recurs)
        return "the output " + v.accesses[a].name +
               " does not fit the unit's buffer, and its partial sums meet again across tiles: "
               "reading them back from the banks is not built yet";
      const int64_t ob = elementBits(a);
      if (ob % 8 != 0 || columnBits % ob != 0)
        return "an output word of " + std::to_string(ob) + " bits does not divide the bank's " +
               std::to_string(s.bank.bytesPerCycle) + "-byte column";
    }
    if (t.output || !detail::streamedPlacement(d.placement[a])) continue;
    const int64_t b = elementBits(a);
    if (any && b != bits)
      return "the streamed inputs have different element widths (" + std::to_string(bits) +
             " and " + std::to_string(b) + " bits)";
    any = true;
    bits = b;
  }
  if (!any) return "no input is read from the banks (every one fits the unit's buffers)";
  if (bits % 8 != 0 || (s.bank.bytesPerCycle * 8) % bits != 0)
    return "a streamed word of " + std::to_string(bits) + " bits does not divide the bank's " +
           std::to_string(s.bank.bytesPerCycle) + "-byte column";
  return {};
}

int64_t pimReplayCycles(const tc::Program& prog, const dataflow::StatementView& v,
                        const dse::PimDesign& d, const dse::PimSystem& s,
                        const dse::ExploreOptions& o) {
  if (!pimBuildProblem(v, d, s, o).empty()) return -1;
  if (s.access == dse::PimAccess::dma)
    return arch::pimUnitTiming(arch::pimUnitPlan(prog, v, d, o.constraints.elementBits, "replay"),
                               s)
        .cycles;
  return detail::buildUnit(prog, d, s, o, "replay").run.cycles;
}

dse::PimExact pimExact(const tc::Program& prog, const dataflow::StatementView& v,
                       const dse::PimSystem& s, const dse::ExploreOptions& o) {
  return [&prog, v, s, o](const dse::PimDesign& d) { return pimReplayCycles(prog, v, d, s, o); };
}

} // namespace rubick::emit
