#pragma once
// The dataflow-level views of `rubick dump`: --ir and --space.

#include "DataflowOptions.h"
#include "InputOptions.h"

#include <string>

namespace rubick::cli {

std::string dumpIr(const InputOptions& in, const DataflowOptions& df);
std::string dumpSpace(const InputOptions& in, const DataflowOptions& df);

} // namespace rubick::cli
