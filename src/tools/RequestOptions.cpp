// SPDX-License-Identifier: Apache-2.0
#include "RequestOptions.h"

#include "rubick/dse/Target.h"
#include "rubick/frontend/Sema.h"

#include <iostream>
#include <memory>

namespace rubick::cli {

workload::Request makeRequest(const InputOptions& input, const SearchOptions& search,
                              const dse::Selection& selection, bool choices) {
  workload::Request r;
  r.file = std::make_shared<const SourceFile>(readSourceFile(input.file));
  r.stmt = search.df.stmt;
  r.selection = selection;
  // The options outlive this call: they hold copies of the flags.
  auto flags = std::make_shared<SearchOptions>(search);
  if (choices && search.entries.find('=') != std::string::npos)
    std::swap(r.selection.entries, flags->entries);
  const std::string file = input.file;
  r.options = [flags, file](const tc::Program& prog, const dataflow::StatementView& v,
                            dse::PimSystem* pim) {
    std::string name;
    return makeExploreOptions(*flags, prog, v, file, name, pim);
  };
  r.rebind = [input](const std::vector<std::pair<std::string, int64_t>>& sizes) {
    tc::SemaOptions sema;
    sema.defName = input.def;
    for (const auto& [n, val] : sizes)
      sema.sizes.push_back({n, val, {}});
    return tc::loadProgram(input.file, sema);
  };
  r.rowTiles = rowTiles(search);
  r.blockKeys = search.blockKeys;
  r.vectorLanes = search.vectorLanes;
  r.dtype = !search.dtype.empty();
  r.note = [](const std::string& from, const std::string& what) {
    std::cerr << "rubick " << from << ": note: " << what << "\n";
  };
  return r;
}

std::string targetName(const SearchOptions& search) {
  return search.target.empty() ? "" : dse::loadTarget(search.target).name;
}

} // namespace rubick::cli
