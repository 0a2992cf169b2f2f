// SPDX-License-Identifier: Apache-2.0
#pragma once
// Options every subcommand shares: the .tc file, --size and --def.

#include "rubick/frontend/Program.h"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace rubick::cli {

struct InputOptions {
  std::string file;
  std::vector<std::string> sizes;
  std::string def;
};

void addInputOptions(CLI::App& cmd, InputOptions& opts);

/// Reads, parses and checks the program; throws rubick::Error on any mistake.
tc::Program loadInput(const InputOptions& opts);

} // namespace rubick::cli
