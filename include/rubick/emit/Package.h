// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything `rubick emit` writes for one design, and writing it safely:
//
//   OUTDIR/rtl/*.v          the templates used, then <name>_array.v and <name>_top.v
//   OUTDIR/filelist.f       relative paths, leaf modules first
//   OUTDIR/design.json      IR, dataflow, schedule, metrics, interface, and for every tensor
//                           element the bank and address where the host puts or finds it
//   OUTDIR/README.md        interface, protocol, timing, how to lint and simulate

#include "rubick/dse/Explore.h"
#include "rubick/frontend/Program.h"
#include "rubick/support/OwnedOutput.h"

#include <string>
#include <vector>

namespace rubick::emit {

struct File {
  std::string path; // relative to OUTDIR
  std::string content;
};

/// The files of one design. `name` prefixes the generated modules.
std::vector<File> package(const tc::Program& prog, const dataflow::StatementView& v,
                          const dse::DesignPoint& point, const dse::ExploreOptions& o,
                          const std::string& name);

/// Writes `files` (and rubick's manifest) into a fresh directory that replaces `outdir` only once
/// everything is written; on failure nothing is left behind and an existing `outdir` is
/// untouched. An existing `outdir` rubick did not write is refused unless `how` is Force
/// (rubick/support/OwnedOutput.h). Throws rubick::Error naming the path.
void writeDirectory(const std::string& outdir, const std::vector<File>& files,
                    Overwrite how = Overwrite::OwnOnly);

/// A Verilog-safe module prefix from the program name and the design id: "gemm_047b034bce".
std::string moduleName(const std::string& program, const std::string& id);

} // namespace rubick::emit
