// SPDX-License-Identifier: Apache-2.0
#include "rubick/synth/Ranked.h"

#include "rubick/emit/Package.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/TextTable.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace rubick::synth {

std::vector<Flow> parseFlows(const std::string& text, const std::string& origin) {
  std::vector<Flow> flows;
  std::istringstream in(text);
  for (std::string f; std::getline(in, f, ',');) {
    Flow flow;
    if (f == "generic")
      flow = Flow::Generic;
    else if (f == "xilinx")
      flow = Flow::Xilinx;
    else if (f == "ice40")
      flow = Flow::Ice40;
    else
      throw Error(origin, "unknown flow '" + f + "' (generic, xilinx, ice40)");
    if (std::count(flows.begin(), flows.end(), flow))
      throw Error(origin, "'" + f + "' given twice");
    flows.push_back(flow);
  }
  if (flows.empty()) throw Error(origin, "give at least one flow (generic, xilinx, ice40)");
  return flows;
}

std::vector<RankedSynthesis> synthesizeRanked(const tc::Program& prog,
                                              const dataflow::StatementView& v,
                                              const dse::ExploreOptions& o,
                                              const std::vector<dse::DesignPoint>& ranked, size_t n,
                                              const Options& so) {
  std::vector<RankedSynthesis> out;
  for (size_t i = 0; i < ranked.size() && i < n; ++i) {
    const dse::DesignPoint& d = ranked[i];
    if (so.progress)
      so.progress("synthesising rank " + std::to_string(i + 1) + " of " +
                  std::to_string(std::min(n, ranked.size())) + " (" + d.id + ")");
    RankedSynthesis x{i + 1, d, {}, ""};
    std::vector<OutputEntry> files;
    try {
      for (emit::File& f : emit::package(prog, v, d, o, emit::moduleName(prog.name, d.id)))
        files.push_back({std::move(f.path), std::move(f.content)});
    } catch (const Error& e) { // Unsupported too: a design whose plan emit cannot build
      x.unbuilt = e.diag().message;
      out.push_back(std::move(x));
      continue;
    }
    Options quiet = so;
    quiet.progress = nullptr;
    x.report = synthesizeFiles(files, quiet);
    out.push_back(std::move(x));
  }
  return out;
}

std::string rankedTable(const std::vector<RankedSynthesis>& r, const Options& so) {
  const auto has = [&so](Flow f) { return std::count(so.flows.begin(), so.flows.end(), f) > 0; };
  std::vector<std::string> head = {"rank", "id", "latency", "area", "wires"};
  if (has(Flow::Generic)) head.insert(head.end(), {"cells", "depth"});
  if (has(Flow::Generic) && so.memoryMacros) head.push_back("mem bits");
  if (has(Flow::Xilinx)) head.insert(head.end(), {"LUT", "FF", "DSP", "LUTRAM", "BRAM18"});
  if (has(Flow::Ice40)) head.insert(head.end(), {"iCE40 LC", "Fmax MHz"});
  std::vector<std::vector<std::string>> rows;
  for (const RankedSynthesis& x : r) {
    const dse::Metrics& m = x.design.metrics;
    char area[32];
    std::snprintf(area, sizeof area, "%.0f", m.area);
    std::vector<std::string> row = {std::to_string(x.rank), x.design.id, std::to_string(m.latency),
                                    area, std::to_string(m.wires)};
    if (!x.unbuilt.empty()) {
      row.resize(head.size(), "-");
      rows.push_back(row);
      continue;
    }
    if (const auto& g = x.report.generic) {
      row.insert(row.end(), {std::to_string(g->cells), std::to_string(g->depth)});
      if (so.memoryMacros) row.push_back(std::to_string(g->memoryBits));
    }
    if (const auto& k = x.report.xilinx)
      row.insert(row.end(),
                 {std::to_string(k->luts), std::to_string(k->flipFlops), std::to_string(k->dsps),
                  std::to_string(k->lutRams), std::to_string(k->bram18 + 2 * k->bram36)});
    if (const auto& c = x.report.ice40) {
      char fmax[32];
      std::snprintf(fmax, sizeof fmax, "%.2f", c->medianFmaxMhz);
      row.insert(row.end(), {c->placed ? std::to_string(c->logicCells) : "-",
                             c->placed ? std::string(fmax) : "does not fit"});
    }
    rows.push_back(row);
  }
  std::string text = formatColumns(head, rows, [](size_t c) { return c != 1; });
  for (const RankedSynthesis& x : r)
    if (!x.unbuilt.empty())
      text += "rank " + std::to_string(x.rank) + " not built: " + x.unbuilt + "\n";
  return text;
}

} // namespace rubick::synth
