// SPDX-License-Identifier: Apache-2.0
#include "rubick/workload/ChainDesigns.h"

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/SelectBuildable.h"
#include "rubick/attn/PipelineMemory.h"
#include "rubick/attn/SelectPipeline.h"
#include "rubick/dse/Chain.h"
#include "rubick/emit/ModuleName.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"
#include "rubick/workload/Stages.h"

#include <sstream>

namespace rubick::workload {

namespace {

// Stage `k` of the attention form: the best pipeline by the objective, its tensors in the
// chain's memory.
emit::ChainStageDesign attentionStageDesign(Stage st, size_t k, const ChainSearch& s) {
  const attn::AttentionForm& f = *st.workload.attention;
  attn::PipelineOptions po;
  po.explore = s.options(st.program, dataflow::viewStatement(st.program, f.score));
  po.explore.constraints.rowTiles = s.rowTiles;
  if (const std::string why = arch::axiBuildProblem(po.explore.constraints.memory); !why.empty())
    throw Unsupported("chain", why);
  if (const std::string why = attn::pipelineMemoryProblem(st.program, f); !why.empty())
    throw Unsupported("chain", "the attention stage: " + why);
  po.blockKeys = s.blockKeys;
  po.lanes = s.vectorLanes;
  // The pipeline explores its GEMMs at the key block's size: the program rebound, this stage.
  const Rebind& rebind = s.rebind;
  po.rebind = [&rebind, k](const std::vector<std::pair<std::string, int64_t>>& sizes) {
    return chainStages(rebind(sizes), nullptr).at(k).program;
  };
  const attn::PipelinePoint p = attn::selectPipeline(st.program, f, po, dse::Selection{});
  return emit::attentionStage(std::move(st.statements), std::move(st.tensorOf),
                              std::move(st.program), f, p, po.explore);
}

// The program with its row size (rowSize) divided by `tiles`, checked to compute the whole
// program's rows tile by tile.
tc::Program tileProgram(const tc::Program& prog, const Rebind& rebind, int64_t tiles,
                        const std::shared_ptr<const SourceFile>& file) {
  const std::string rows = rowSize(prog, file);
  std::vector<std::pair<std::string, int64_t>> sizes;
  for (const auto& [n, val] : prog.sizes) {
    if (n == rows && val % tiles != 0)
      throw Error("--row-tiles", std::to_string(tiles) + " tiles do not divide the " +
                                     std::to_string(val) + " rows (" + rows + ")");
    sizes.push_back({n, n == rows ? val / tiles : val});
  }
  tc::Program tile = rebind(sizes);
  if (const std::string why = rowTileProblem(prog, tile); !why.empty())
    throw Unsupported("--row-tiles", why);
  return tile;
}

// A contraction's stage (with its epilogue): its best design that can be built.
emit::ChainStageDesign contractionStageDesign(Stage st, size_t k, const ChainSearch& s) {
  emit::ChainStageDesign d;
  d.statements = st.statements;
  d.tensorOf = st.tensorOf;
  d.program = std::move(st.program);
  d.statement = st.workload.statement;
  d.view = dataflow::viewStatement(d.program, d.statement);
  d.options = s.options(d.program, d.view);
  d.options.constraints.rowTiles = s.rowTiles;
  if (!d.options.constraints.memory.enabled())
    throw Unsupported("chain", "a chain is built with a memory system: give --mem-bandwidth");
  if (st.workload.epilogue) {
    // The output moves at its final width, and its partial sums stay on chip.
    d.options.constraints.memory =
        dse::withEpilogue(d.options.constraints.memory, *st.workload.epilogue);
    d.options.epilogue = st.workload.epilogue;
  }
  const std::string why = arch::axiBuildProblem(d.options.constraints.memory);
  if (!why.empty()) throw Unsupported("chain", why);
  try {
    arch::BuildableSelection r =
        arch::selectBuildable(d.program, d.view, d.options, dse::Selection{}, "chain");
    if (!r.passed.empty() && s.note)
      s.note(r.passed.front() +
             (r.passed.size() > 1 ? "; " + std::to_string(r.passed.size() - 1) + " more passed over"
                                  : std::string()) +
             "; taking the best design that can be built");
    d.point = r.designs.front();
  } catch (const Unsupported&) {
    throw;
  } catch (const Error& e) {
    std::string stmts;
    for (const tc::Statement& x : d.program.statements)
      stmts += (stmts.empty() ? "" : "; ") + x.text;
    throw Error("chain", "stage " + std::to_string(k) + " (" + stmts +
                             ") has no design: " + e.diag().message);
  }
  return d;
}

// The fusion analysis over the stages as built (dse::stageChain): each alone at its exact
// cycles with every result through memory (its model's "alone"), the on-chip RAM's budget and
// words as the chain builds it.
dse::ChainResult fusionOf(const tc::Program& prog, const std::vector<emit::ChainStageDesign>& s) {
  const arch::AxiOptions o = arch::axiOptions(s.front().options.constraints.memory);
  arch::ChainPlan inMemory = emit::chainDesignPlan(prog, s, prog.name, o.busBytes);
  arch::placeOnChip(inMemory, 0, o.busBytes, o.addrBits);
  const arch::ChainTiming alone = arch::chainTiming(inMemory, o);
  // With tiles, each stage over the whole rows: all its runs, its design's traffic every tile.
  const int64_t tiles = inMemory.tiles;
  const std::vector<Stage> whole = tiles > 1 ? chainStages(prog, nullptr) : std::vector<Stage>{};
  std::vector<dse::BuiltStage> built;
  for (size_t k = 0; k < s.size(); ++k) {
    dse::DesignPoint d = s[k].point;
    int64_t cycles = (tiles - 1) * arch::kChainHandoff;
    for (int64_t t = 0; t < tiles; ++t)
      cycles += alone.stages[static_cast<size_t>(t) * s.size() + k].cycles;
    d.memory.computeCycles *= tiles;
    d.memory.busBytes *= tiles;
    built.push_back({s[k].statements.front(), s[k].statements.back(),
                     tiles > 1 ? &whole[k].program : &s[k].program, s[k].tensorOf, d, cycles});
  }
  dse::FusionLimits limits = dse::fusionLimits(s.front().options.constraints);
  limits.chipWordBytes = o.busBytes;
  return dse::stageChain(prog, built, limits, arch::kChainHandoff);
}

// The stages' groups: the fusion plan's (its intermediates on chip, the groups sharing the
// RAM); with tiles of rows, one group (the plan weighs whole stages, not the tiles built).
void assignGroups(const tc::Program& prog, std::vector<emit::ChainStageDesign>& s) {
  for (emit::ChainStageDesign& d : s)
    d.group = 0;
  if (s.front().options.constraints.rowTiles > 1) return;
  const dse::ChainResult r = fusionOf(prog, s);
  for (size_t g = 0; g < r.plan.groups.size(); ++g)
    for (size_t k = r.plan.groups[g].first; k <= r.plan.groups[g].last; ++k)
      s[k].group = g;
}

} // namespace

std::vector<emit::ChainStageDesign> chainDesigns(const tc::Program& prog, const ChainSearch& s,
                                                 const std::shared_ptr<const SourceFile>& file,
                                                 std::vector<TileChoice>* tried) {
  if (s.rowTiles == 0) {
    // Each count that divides the rows, built and timed exactly; the fewest cycles win.
    // Without a row size, one tile.
    int64_t all = 1;
    try {
      const std::string rows = rowSize(prog, file);
      for (const auto& [n, v] : prog.sizes)
        if (n == rows) all = v;
    } catch (const Unsupported&) {
    }
    std::vector<emit::ChainStageDesign> best;
    int64_t bestCycles = -1;
    for (int64_t tiles : kTileChoices) {
      if (tiles > all || all % tiles != 0) continue;
      ChainSearch one = s;
      one.rowTiles = tiles;
      TileChoice choice{tiles, -1, ""};
      try {
        std::vector<emit::ChainStageDesign> d = chainDesigns(prog, one, file);
        const arch::AxiOptions o = arch::axiOptions(d.front().options.constraints.memory);
        choice.cycles =
            arch::chainTiming(emit::chainDesignPlan(prog, d, prog.name, o.busBytes), o).cycles;
        if (bestCycles < 0 || choice.cycles < bestCycles) {
          bestCycles = choice.cycles;
          best = std::move(d);
        }
      } catch (const Error& e) {
        if (tiles == 1) throw; // the chain itself cannot be built
        choice.why = e.diag().message;
      }
      if (tried) tried->push_back(choice);
    }
    return best;
  }
  std::vector<emit::ChainStageDesign> out;
  // With tiles of rows the stages are designed for one tile: the program at its rows.
  const tc::Program tile =
      s.rowTiles > 1 ? tileProgram(prog, s.rebind, s.rowTiles, file) : tc::Program{};
  for (Stage& st : chainStages(s.rowTiles > 1 ? tile : prog, file)) {
    if (st.workload.kind == Kind::Attention)
      out.push_back(attentionStageDesign(std::move(st), out.size(), s));
    else
      out.push_back(contractionStageDesign(std::move(st), out.size(), s));
  }
  assignGroups(prog, out);
  return out;
}

std::string chainBuildText(const tc::Program& prog, const std::vector<emit::ChainStageDesign>& s,
                           const std::vector<TileChoice>& tried) {
  const arch::AxiOptions o = arch::axiOptions(s.front().options.constraints.memory);
  const std::string name = emit::moduleName(prog.name, emit::chainId(s));
  const arch::ChainPlan c = emit::chainDesignPlan(prog, s, name, o.busBytes);
  const arch::ChainTiming tm = arch::chainTiming(c, o);
  arch::ChainPlan inMemory = c;
  arch::placeOnChip(inMemory, 0, o.busBytes, o.addrBits);
  const arch::ChainTiming alone = arch::chainTiming(inMemory, o);
  const int64_t tiles = c.tiles;
  std::ostringstream os;
  os << dse::chainText(fusionOf(prog, s));
  std::string chip;
  int64_t kept = 0;
  for (const arch::ChainTensor& t : c.tensors)
    if (t.onChip) {
      chip += (chip.empty() ? "" : ", ") + t.tensor.name;
      kept += arch::tensorBytes(t.tensor);
    }
  std::string perTile;
  if (tiles > 1) {
    const std::string rows = rowSize(prog, nullptr);
    int64_t all = 0;
    for (const auto& [n, v] : prog.sizes)
      if (n == rows) all = v;
    perTile = " per tile";
    os << "\nbuilt as (emit, verify): " << tiles << " tiles of " << all / tiles << " rows (" << rows
       << " = " << all << ", --row-tiles), in each " << s.size() << " stages one after another, ";
  } else
    os << "\nbuilt as (emit, verify): " << s.size() << " stages one after another, ";
  // Several fusion groups share the RAM: each group's intermediates from its offset 0.
  std::string groups;
  if (s.back().group > 0)
    for (size_t k = 0; k < s.size(); ++k)
      if (k == 0 || s[k].group != s[k - 1].group) {
        size_t last = k;
        while (last + 1 < s.size() && s[last + 1].group == s[k].group)
          ++last;
        groups += (groups.empty() ? "; the fusion groups of stages " : ", ") + std::to_string(k) +
                  (last > k ? ".." + std::to_string(last) : "");
      }
  if (!groups.empty()) groups += " take turns in it";
  os << (chip.empty() ? "each result through memory"
                      : chip + " kept in an on-chip RAM of " + std::to_string(c.chipBytes) +
                            " bytes (--chip-kib" + groups + "), the other results through memory")
     << "; chain " << emit::chainId(s) << ", " << tm.cycles << " cycles";
  if (!chip.empty())
    os << " (" << alone.cycles << " all through memory; " << 2 * kept << " bytes of traffic saved)";
  os << "\n";
  for (size_t k = 0; k < s.size(); ++k) {
    std::string stmts;
    for (const tc::Statement& x : s[k].program.statements)
      stmts += (stmts.empty() ? "" : "; ") + x.text;
    os << "  stage " << k << ": " << stmts << "\n"
       << "      " << s[k].point.id << " " << emit::stageSpec(s[k])
       << (s[k].pipeline ? " (attention pipeline, GEMM 1" : "") << " on " << s[k].point.dataflow.p
       << "x" << s[k].point.dataflow.q << (s[k].pipeline ? ")" : "") << ": " << tm.stages[k].cycles
       << " cycles" << perTile << " (explorer " << s[k].point.memory.cycles << ")\n";
  }
  if (!tried.empty()) {
    os << "row tiles (--row-tiles auto, the fewest cycles):";
    for (const TileChoice& t : tried)
      os << " " << t.tiles << ": "
         << (t.cycles >= 0 ? std::to_string(t.cycles) + " cycles" : "not built (" + t.why + ")")
         << (t.tiles == tiles ? " (chosen)" : "") << ";";
    os.seekp(-1, std::ios_base::end);
    os << "\n";
  }
  return os.str();
}

} // namespace rubick::workload
