#pragma once
// The files of a design with a memory system (private to src/emit; emit::package calls it for
// designs with a buffer tiling).

#include "rubick/dse/Explore.h"
#include "rubick/emit/MemoryTop.h"
#include "rubick/emit/Package.h"
#include "rubick/frontend/Program.h"

#include <string>
#include <vector>

namespace rubick::emit::detail {

std::vector<File> packageMemory(const tc::Program& prog, const dataflow::StatementView& v,
                                const dse::DesignPoint& pt, const dse::ExploreOptions& o,
                                const std::string& name);

} // namespace rubick::emit::detail
