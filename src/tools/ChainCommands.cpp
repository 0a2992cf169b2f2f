// SPDX-License-Identifier: Apache-2.0
#include "ChainCommands.h"

#include "PipelineOptions.h"
#include "SelectionOptions.h"

#include "rubick/arch/AxiOptions.h"
#include "rubick/attn/PipelineMemory.h"
#include "rubick/attn/SelectPipeline.h"
#include "rubick/dse/Chain.h"
#include "rubick/emit/ModuleName.h"
#include "rubick/frontend/Sema.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"
#include "rubick/verify/Chain.h"
#include "rubick/workload/Stages.h"

#include <iostream>
#include <sstream>

namespace rubick::cli {

std::function<bool()> chainsWithMemory(const tc::Program& prog, const InputOptions& input,
                                       const SearchOptions& search) {
  return [&prog, &input, &search] {
    std::string targetName;
    return makeExploreOptions(search, prog, dataflow::viewStatement(prog, 0), input.file,
                              targetName)
        .constraints.memory.enabled();
  };
}

namespace {

// Stage `k` of the attention form: the best pipeline by --objective under the search flags, its
// tensors in the chain's memory.
emit::ChainStageDesign attentionStageDesign(workload::Stage st, size_t k, const InputOptions& input,
                                            const SearchOptions& search) {
  if (!search.dtype.empty())
    throw Error("--dtype", "an attention stage takes its element types from the program");
  const attn::AttentionForm& f = *st.workload.attention;
  std::string targetName;
  dse::PimSystem pim;
  attn::PipelineOptions po;
  po.explore = makeExploreOptions(search, st.program, dataflow::viewStatement(st.program, f.score),
                                  input.file, targetName, &pim);
  if (pim.enabled())
    throw Unsupported("chain", "a chain on PIM units is not built yet; take one statement "
                               "with --stmt");
  if (const std::string why = arch::axiBuildProblem(po.explore.constraints.memory); !why.empty())
    throw Unsupported("chain", why);
  if (const std::string why = attn::pipelineMemoryProblem(st.program, f); !why.empty())
    throw Unsupported("chain", "the attention stage: " + why);
  po.blockKeys = search.blockKeys;
  po.lanes = search.vectorLanes;
  // The pipeline explores its GEMMs at the key block's size: the program rebound, this stage.
  po.rebind = [&input, k](const std::vector<std::pair<std::string, int64_t>>& sizes) {
    tc::SemaOptions sema;
    sema.defName = input.def;
    for (const auto& [n, val] : sizes)
      sema.sizes.push_back({n, val, {}});
    return workload::chainStages(tc::loadProgram(input.file, sema), nullptr).at(k).program;
  };
  const attn::PipelinePoint p = attn::selectPipeline(st.program, f, po, dse::Selection{});
  return emit::attentionStage(std::move(st.statements), std::move(st.tensorOf),
                              std::move(st.program), f, p, po.explore);
}

// The program with its row size (workload::rowSize) divided by `tiles`, checked to compute the
// whole program's rows tile by tile.
tc::Program tileProgram(const tc::Program& prog, const InputOptions& input, int64_t tiles,
                        const std::shared_ptr<const SourceFile>& file) {
  const std::string rows = workload::rowSize(prog, file);
  tc::SemaOptions sema;
  sema.defName = input.def;
  for (const auto& [n, val] : prog.sizes) {
    if (n == rows && val % tiles != 0)
      throw Error("--row-tiles", std::to_string(tiles) + " tiles do not divide the " +
                                     std::to_string(val) + " rows (" + rows + ")");
    sema.sizes.push_back({n, n == rows ? val / tiles : val, {}});
  }
  tc::Program tile = tc::loadProgram(input.file, sema);
  if (const std::string why = workload::rowTileProblem(prog, tile); !why.empty())
    throw Unsupported("--row-tiles", why);
  return tile;
}

} // namespace

std::vector<emit::ChainStageDesign> chainStageDesigns(const tc::Program& prog,
                                                      const InputOptions& input,
                                                      const SearchOptions& search,
                                                      const dse::Selection& sel) {
  const std::pair<const char*, bool> given[] = {
      {"--point", sel.point.has_value()},       {"--dataflow", sel.dataflow.has_value()},
      {"--pipeline", sel.pipeline.has_value()}, {"--entries", !sel.entries.empty()},
      {"--layout", !sel.layouts.empty()},       {"--all", sel.all}};
  for (const auto& [flag, on] : given)
    if (on)
      throw Error(flag, "a chain's stages each take their best design by --objective; to choose "
                        "one statement's design, take it alone with --stmt");
  if (search.entries.find('=') != std::string::npos)
    throw Error("--entries", "a chain's stages each take their best design by --objective; "
                             "--entries T=ENTRY chooses one statement's design (--stmt)");
  auto file = std::make_shared<const SourceFile>(readSourceFile(input.file));
  std::vector<emit::ChainStageDesign> out;
  // With tiles of rows the stages are designed for one tile: the program at its rows.
  const tc::Program tile =
      search.rowTiles > 1 ? tileProgram(prog, input, search.rowTiles, file) : tc::Program{};
  for (workload::Stage& st : workload::chainStages(search.rowTiles > 1 ? tile : prog, file)) {
    if (st.workload.kind == workload::Kind::Attention) {
      if (search.rowTiles > 1)
        throw Unsupported("--row-tiles", "an attention stage runs on all its rows at once; "
                                         "give --row-tiles 1");
      out.push_back(attentionStageDesign(std::move(st), out.size(), input, search));
      continue;
    }
    emit::ChainStageDesign d;
    d.statements = st.statements;
    d.tensorOf = st.tensorOf;
    d.program = std::move(st.program);
    d.statement = st.workload.statement;
    d.view = dataflow::viewStatement(d.program, d.statement);
    std::string targetName;
    dse::PimSystem pim;
    d.options = makeExploreOptions(search, d.program, d.view, input.file, targetName, &pim);
    if (pim.enabled())
      throw Unsupported("chain", "a chain on PIM units is not built yet; take one statement "
                                 "with --stmt");
    setEpilogue(d.options, st.workload.epilogue, pim);
    const std::string why = arch::axiBuildProblem(d.options.constraints.memory);
    if (!why.empty()) throw Unsupported("chain", why);
    try {
      d.point = selectBuildable(d.program, d.view, d.options, dse::Selection{}, "chain").front();
    } catch (const Unsupported&) {
      throw;
    } catch (const Error& e) {
      std::string stmts;
      for (const tc::Statement& x : d.program.statements)
        stmts += (stmts.empty() ? "" : "; ") + x.text;
      throw Error("chain", "stage " + std::to_string(out.size()) + " (" + stmts +
                               ") has no design: " + e.diag().message);
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string chainBuildText(const tc::Program& prog, const std::vector<emit::ChainStageDesign>& s) {
  const arch::AxiOptions o = arch::axiOptions(s.front().options.constraints.memory);
  const std::string name = emit::moduleName(prog.name, emit::chainId(s));
  const arch::ChainPlan c = emit::chainDesignPlan(prog, s, name, o.busBytes);
  const arch::ChainTiming tm = arch::chainTiming(c, o);
  // The fusion analysis over the stages as built: each alone at its exact cycles, every result
  // through memory (its model's "alone").
  arch::ChainPlan inMemory = c;
  arch::placeOnChip(inMemory, 0, o.busBytes, o.addrBits);
  const arch::ChainTiming alone = arch::chainTiming(inMemory, o);
  // With tiles, each stage over the whole rows: all its runs, its design's traffic every tile.
  const int64_t tiles = c.tiles;
  const std::vector<workload::Stage> whole =
      tiles > 1 ? workload::chainStages(prog, nullptr) : std::vector<workload::Stage>{};
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
  const dse::MemorySystem& mem = s.front().options.constraints.memory;
  std::ostringstream os;
  os << dse::chainText(dse::stageChain(
      prog, built, {mem.bytesPerCycle, s.front().options.constraints.bufferBytes, mem.latency},
      arch::kChainHandoff));
  std::string chip;
  int64_t kept = 0;
  for (const arch::ChainTensor& t : c.tensors)
    if (t.onChip) {
      chip += (chip.empty() ? "" : ", ") + t.tensor.name;
      kept += arch::tensorBytes(t.tensor);
    }
  std::string perTile;
  if (tiles > 1) {
    const std::string rows = workload::rowSize(prog, nullptr);
    int64_t all = 0;
    for (const auto& [n, v] : prog.sizes)
      if (n == rows) all = v;
    perTile = " per tile";
    os << "\nbuilt as (emit, verify): " << tiles << " tiles of " << all / tiles << " rows (" << rows
       << " = " << all << ", --row-tiles), in each " << s.size() << " stages one after another, ";
  } else
    os << "\nbuilt as (emit, verify): " << s.size() << " stages one after another, ";
  os << (chip.empty() ? "each result through memory"
                      : chip + " kept in an on-chip RAM of " + std::to_string(c.chipBytes) +
                            " bytes (--chip-kib), the other results through memory")
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
  return os.str();
}

int emitChain(const tc::Program& prog, const std::vector<emit::ChainStageDesign>& s,
              const std::string& output, const std::string& prefix, Overwrite how) {
  const std::string id = emit::chainId(s);
  const std::string name = prefix.empty() ? emit::moduleName(prog.name, id) : prefix;
  const std::vector<emit::File> files = emit::packageChain(prog, s, name);
  emit::writeDirectory(output, files, how);
  const arch::AxiOptions o = arch::axiOptions(s.front().options.constraints.memory);
  const arch::ChainTiming tm =
      arch::chainTiming(emit::chainDesignPlan(prog, s, name, o.busBytes), o);
  std::cout << "chain " << id << ": " << s.size() << " stages";
  for (size_t k = 0; k < s.size(); ++k)
    std::cout << (k ? ", " : " (") << s[k].point.id << " on " << s[k].point.dataflow.p << "x"
              << s[k].point.dataflow.q;
  std::cout << ")\n"
            << tm.cycles << " cycles (design.json timing.cycles); top module " << name << "_top; "
            << files.size() << " files in " << output << "\n";
  return 0;
}

int verifyChainCommand(const tc::Program& prog, const std::vector<emit::ChainStageDesign>& s,
                       const PipelineVerifyOptions& o) {
  const std::string name = emit::moduleName(prog.name, emit::chainId(s));
  double runtimeSeconds = 0;
  verify::Result res = verify::verifyChain(prog, s, name, o.run, &runtimeSeconds);
  res.spec = std::to_string(s.size()) + " stages:";
  for (const emit::ChainStageDesign& st : s)
    res.spec += " " + st.point.id;
  return report(prog.name + ": chain of " + std::to_string(s.size()) + " stages", "chain", 16, res,
                o, runtimeSeconds);
}

} // namespace rubick::cli
