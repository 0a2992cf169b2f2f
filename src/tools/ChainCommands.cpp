// SPDX-License-Identifier: Apache-2.0
#include "ChainCommands.h"

#include "PipelineOptions.h"
#include "SelectionOptions.h"

#include "rubick/arch/AxiOptions.h"
#include "rubick/dse/Chain.h"
#include "rubick/emit/ModuleName.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"
#include "rubick/verify/Chain.h"
#include "rubick/workload/ChainDesigns.h"
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

std::vector<emit::ChainStageDesign>
chainStageDesigns(const tc::Program& prog, const InputOptions& input, const SearchOptions& search,
                  const dse::Selection& sel, std::vector<workload::TileChoice>* tried) {
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
  workload::ChainSearch s;
  s.options = [&input, &search](const tc::Program& stage, const dataflow::StatementView& v) {
    std::string targetName;
    dse::PimSystem pim;
    dse::ExploreOptions o = makeExploreOptions(search, stage, v, input.file, targetName, &pim);
    if (pim.enabled())
      throw Unsupported("chain", "a chain on PIM units is not built yet; take one statement "
                                 "with --stmt");
    return o;
  };
  s.rebind = rebindInput(input);
  s.rowTiles = rowTiles(search);
  s.blockKeys = search.blockKeys;
  s.vectorLanes = search.vectorLanes;
  s.note = [](const std::string& what) { std::cerr << "rubick chain: note: " << what << "\n"; };
  if (!search.dtype.empty())
    for (const workload::Stage& st : workload::chainStages(prog, file))
      if (st.workload.kind == workload::Kind::Attention)
        throw Error("--dtype", "an attention stage takes its element types from the program");
  return workload::chainDesigns(prog, s, file, tried);
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
