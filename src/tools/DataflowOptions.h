// SPDX-License-Identifier: Apache-2.0
#pragma once
// Options shared by commands that work on one statement's dataflows: --array, --stmt,
// --dataflow.

#include "rubick/dataflow/Dataflow.h"
#include "rubick/frontend/Program.h"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace rubick::cli {

struct DataflowOptions {
  std::string array;    // "PxQ"; empty: the command's default
  std::string stmt;     // "S0" or the written tensor's name
  std::string dataflow; // a spec, or @FILE
};

void addStatementOption(CLI::App& cmd, DataflowOptions& o);
void addArrayOption(CLI::App& cmd, DataflowOptions& o, const std::string& defaultText);
CLI::Option* addDataflowOption(CLI::App& cmd, DataflowOptions& o,
                               const std::string& description = "");

/// "8x8" -> {8, 8}; throws rubick::Error naming --array on bad input.
std::pair<int64_t, int64_t> parseArray(const std::string& text);
/// The text of a --dataflow value: the value itself, or with @FILE the file's contents (read as
/// programs are); `origin` receives what errors in the spec should name.
std::string dataflowText(const std::string& value, std::string& origin);
/// The --dataflow spec (reading @FILE), parsed on the --array array, or on the array it needs
/// when --array is not given.
dataflow::Dataflow loadDataflow(const DataflowOptions& o, const dataflow::StatementView& v);

} // namespace rubick::cli
