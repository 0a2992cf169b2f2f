// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/Chain.h"

#include "NumberText.h"

#include "rubick/dataflow/StatementView.h"
#include "rubick/support/Diagnostic.h"

#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace rubick::dse {

namespace {

// The loop that alone indexes dimension 0 of access `a`, or -1.
int rowLoop(const dataflow::AccessView& a) {
  if (a.coeffs.empty() || a.constant[0] != 0) return -1;
  int loop = -1;
  for (size_t l = 0; l < a.coeffs[0].size(); ++l) {
    if (a.coeffs[0][l] == 0) continue;
    if (a.coeffs[0][l] != 1 || loop >= 0) return -1;
    loop = static_cast<int>(l);
  }
  return loop;
}

std::string kib(int64_t bytes) {
  return formatFixed(double(bytes) / 1024.0, 1) + " KiB";
}

} // namespace

FusionLimits fusionLimits(const Constraints& c) {
  const int64_t chip = c.chipBudget();
  return {c.memory.bytesPerCycle, chip == std::numeric_limits<int64_t>::max() ? -1 : chip,
          c.memory.latency};
}

ChainResult exploreChain(const tc::Program& prog, const ChainOptions& optionsFor) {
  ChainResult r;
  std::map<size_t, int> tensorOf; // program tensor -> chain tensor
  auto chainTensor = [&](size_t t, int64_t bits) {
    auto [it, fresh] = tensorOf.insert({t, static_cast<int>(r.chain.tensors.size())});
    const tc::Tensor& x = prog.tensors[t];
    const int64_t bytes = x.elements() * ((bits + 7) / 8);
    if (fresh)
      r.chain.tensors.push_back({x.name, bytes, x.role != tc::TensorRole::Local});
    else
      r.chain.tensors[static_cast<size_t>(it->second)].bytes =
          std::max(r.chain.tensors[static_cast<size_t>(it->second)].bytes, bytes);
    return it->second;
  };
  for (size_t s = 0; s < prog.statements.size(); ++s) {
    const dataflow::StatementView v = dataflow::viewStatement(prog, s);
    ExploreOptions o = optionsFor(s, v);
    if (!o.constraints.memory.enabled())
      throw Error("explore", "a chain of statements is explored with a memory system "
                             "(--mem-bandwidth or a target's 'memory'); --stmt explores one");
    if (s == 0) r.limits = fusionLimits(o.constraints);
    o.objective = Objective::Latency;
    o.keepBest = 1;
    o.onDesign = nullptr;
    o.progress = nullptr;
    const ExploreResult er = explore(v, o);
    if (er.points.empty())
      throw Error("explore", v.statement + " (" + prog.statements[s].text +
                                 ") has no design: " + er.mostRestrictive());
    ChainStage st{s, v.statement, prog.statements[s].text, er.points.front()};
    FusionStage fs;
    fs.statement = v.statement;
    const dataflow::AccessView& w = v.accesses[0];
    fs.output = chainTensor(static_cast<size_t>(w.tensor), o.constraints.elementBits[0]);
    const int row = rowLoop(w);
    fs.rows = row >= 0 ? v.extent[static_cast<size_t>(row)] : 1;
    for (size_t a = 1; a < v.accesses.size(); ++a) {
      const dataflow::AccessView& x = v.accesses[a];
      fs.reads.push_back({chainTensor(static_cast<size_t>(x.tensor), o.constraints.elementBits[a]),
                          row >= 0 && rowLoop(x) == row});
    }
    fs.computeCycles = st.alone.memory.computeCycles;
    fs.soloCycles = st.alone.memory.cycles;
    fs.soloBytes = st.alone.memory.busBytes;
    r.chain.stages.push_back(fs);
    r.stages.push_back(st);
  }
  r.plan = fuseChain(r.chain, r.limits);
  return r;
}

ChainResult stageChain(const tc::Program& prog, const std::vector<BuiltStage>& stages,
                       const FusionLimits& limits, int64_t handoffCycles) {
  ChainResult r;
  r.built = true;
  r.limits = limits;
  std::map<size_t, int> tensorOf; // program tensor -> chain tensor
  auto chainTensor = [&](size_t t) {
    auto [it, fresh] = tensorOf.insert({t, static_cast<int>(r.chain.tensors.size())});
    const tc::Tensor& x = prog.tensors[t];
    if (fresh)
      r.chain.tensors.push_back({x.name, x.elements() * ((tc::bitWidth(x.type) + 7) / 8),
                                 x.role != tc::TensorRole::Local});
    return it->second;
  };
  for (const BuiltStage& b : stages) {
    const tc::Program& sp = *b.program;
    ChainStage st{b.first, prog.statements[b.first].name, "", b.design};
    if (b.last != b.first) st.label += ".." + prog.statements[b.last].name;
    FusionStage fs;
    fs.statement = st.label;
    std::set<int> read;
    for (size_t s = 0; s < sp.statements.size(); ++s) {
      st.text += (s ? "; " : "") + sp.statements[s].text;
      const dataflow::StatementView v = dataflow::viewStatement(sp, s);
      const int row = rowLoop(v.accesses[0]);
      if (s + 1 == sp.statements.size()) {
        fs.output = chainTensor(static_cast<size_t>(b.tensorOf[size_t(v.accesses[0].tensor)]));
        fs.rows = row >= 0 ? v.extent[static_cast<size_t>(row)] : 1;
      }
      for (size_t a = 1; a < v.accesses.size(); ++a) {
        const int t = v.accesses[a].tensor;
        // What the stage itself wrote stays inside it; the rest comes from memory.
        if (sp.tensors[size_t(t)].role != tc::TensorRole::Input || !read.insert(t).second) continue;
        fs.reads.push_back({chainTensor(static_cast<size_t>(b.tensorOf[size_t(t)])),
                            row >= 0 && rowLoop(v.accesses[a]) == row});
      }
    }
    fs.computeCycles = b.design.memory.computeCycles;
    // Each stage after the first also waits the cycle of the handoff (arch/ChainPlan.h), so
    // the stages alone add up to the chain as built.
    fs.soloCycles = b.cycles + (r.chain.stages.empty() ? 0 : handoffCycles);
    fs.soloBytes = b.design.memory.busBytes;
    r.chain.stages.push_back(fs);
    r.stages.push_back(st);
  }
  r.plan = fuseChain(r.chain, r.limits);
  return r;
}

std::string chainText(const ChainResult& r) {
  std::ostringstream os;
  const FusionChain& c = r.chain;
  const bool stages = r.built;
  os << "chain of " << c.stages.size() << (stages ? " stages" : " statements") << "; memory "
     << r.limits.bytesPerCycle << " B/cycle, on chip "
     << (r.limits.chipBytes >= 0 ? kib(r.limits.chipBytes) : std::string("unlimited"))
     << " (docs/fusion.md)\n\nalone (each its own memory design, "
     << (stages ? "as built" : "rank 1 by cycles") << "):\n";
  int64_t aloneCycles = 0, aloneBytes = 0;
  for (size_t s = 0; s < r.stages.size(); ++s) {
    const FusionStage& st = c.stages[s];
    const DesignPoint& d = r.stages[s].alone;
    aloneCycles += st.soloCycles;
    aloneBytes += st.soloBytes;
    os << "  " << st.statement << ": " << r.stages[s].text << "\n"
       << "      " << d.id << " on " << d.dataflow.p << "x" << d.dataflow.q << ": " << st.soloCycles
       << " cycles (" << st.computeCycles << " computing), " << kib(st.soloBytes) << " moved, "
       << st.rows << (st.rows == 1 ? " row\n" : " rows\n");
  }
  // A group's statements: from its first stage's first to its last stage's last ("S0..S2").
  auto range = [&](const FusionGroup& g) {
    if (g.first == g.last) return c.stages[g.first].statement;
    const std::string& a = c.stages[g.first].statement;
    const std::string& b = c.stages[g.last].statement;
    const size_t dots = b.rfind("..");
    return a.substr(0, a.find("..")) + ".." + (dots == std::string::npos ? b : b.substr(dots + 2));
  };
  const FusionPlan& p = r.plan;
  os << "\nfused: " << p.groups.size() << (p.groups.size() == 1 ? " group, " : " groups, ")
     << p.cycles << " cycles, " << kib(p.bytes) << " moved (alone: " << aloneCycles << " cycles, "
     << kib(aloneBytes) << "; saved " << kib(aloneBytes - p.bytes) << ")\n";
  for (const FusionGroup& g : p.groups) {
    os << "  " << range(g) << ": ";
    if (g.first == g.last) {
      os << "alone, " << g.cycles << " cycles\n";
      continue;
    }
    if (g.tiles == 1)
      os << "whole tensors, ";
    else
      os << g.tiles << " tiles of " << c.stages[g.first].rows / g.tiles << " rows, ";
    os << g.cycles << " cycles (" << g.computeCycles << " computing), " << kib(g.bytes)
       << " moved, " << kib(g.bufferBytes) << " on chip"
       << (g.keepsWhole ? "" : " (weights re-read every tile)") << ", saves " << kib(g.savedBytes)
       << "\n";
  }
  os << "\nother groups:\n";
  size_t others = 0;
  for (size_t a = 0; a < c.stages.size(); ++a)
    for (size_t b = a + 1; b < c.stages.size(); ++b) {
      bool chosen = false;
      for (const FusionGroup& g : p.groups)
        chosen |= g.first == a && g.last == b;
      if (chosen) continue;
      ++others;
      FusionGroup g;
      const std::string why = bestFusionGroup(c, a, b, r.limits, g);
      os << "  " << range(FusionGroup{a, b}) << ": ";
      if (!why.empty())
        os << "cannot run: " << why << "\n";
      else
        os << (g.tiles == 1 ? std::string("whole tensors") : std::to_string(g.tiles) + " tiles")
           << ", " << g.cycles << " cycles, " << kib(g.bytes) << " moved: not in the best plan\n";
    }
  if (others == 0) os << "  none\n";
  return os.str();
}

} // namespace rubick::dse
