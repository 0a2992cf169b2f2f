// SPDX-License-Identifier: Apache-2.0
#pragma once
// The flags that name one design or pipeline, shared by `emit` and `verify`: --point, --dataflow,
// --pipeline and --layout (the rules are the library's: rubick/dse/Select.h,
// rubick/attn/SelectPipeline.h).

#include "SearchOptions.h"

#include "rubick/dse/Select.h"

#include <CLI/CLI.hpp>

namespace rubick::cli {

struct SelectionOptions {
  CLI::Option *point = nullptr, *dataflow = nullptr, *pipeline = nullptr;
  std::string pipelineText;
};

void addSelectionOptions(CLI::App& cmd, SearchOptions& search, dse::Selection& selection,
                         SelectionOptions& o);

/// Copies the given flags into `selection` (given even when empty), reading --dataflow @FILE.
void finishSelection(const SelectionOptions& o, const SearchOptions& search,
                     dse::Selection& selection);

} // namespace rubick::cli
