// SPDX-License-Identifier: Apache-2.0
#pragma once
// The library's entry point for `rubick emit`: program -> designs -> the chosen design -> its
// plan -> Verilog, for every kind of program (workload/Workload.h). The CLI writes the files.

#include "rubick/emit/Package.h"
#include "rubick/emit/PimDecode.h"
#include "rubick/workload/Request.h"

#include <string>
#include <vector>

namespace rubick::workload {

struct Emitted {
  std::vector<emit::File> files;
  std::string summary; // the design chosen and its top module, ending "top module NAME (...)"
  std::string remark;  // lines to print after the files are written ("" or ending in '\n')
  std::string top;     // the top module
  std::string id;      // the design's (pipeline's, chain's) ID
};

/// Problems with more elements than this (every tensor together) get no standalone testbench:
/// its stimulus would be tens of megabytes of text.
inline constexpr int64_t kMaxBenchElements = int64_t(1) << 20;

/// The design r.selection names (the best by the objective when it names none) of whatever
/// `prog` is: a statement's or an epilogue's design (on PIM units, its spread over the units),
/// the attention pipeline (on PIM units, the decode), or a chain's stages. `prefix` names the
/// modules (empty: the program's name and the design's ID). The files include what integrates
/// the design (emit/Integration.h), with the standalone testbench unless r.testbench is false
/// or the problem is larger than kMaxBenchElements. Throws rubick::Error for a
/// selection that names nothing, Unsupported for what is not built.
Emitted emitProgram(const tc::Program& prog, const Request& r, const std::string& prefix);

/// The designs of statement `v` r.selection selects that can be built (arch::selectBuildable),
/// the ones passed over told to r.note (`command`'s note: the first with its reason, and how
/// many more); `*selected` receives the count before --skip and --limit.
std::vector<dse::DesignPoint> buildableDesigns(const tc::Program& prog,
                                               const dataflow::StatementView& v,
                                               const dse::ExploreOptions& o, const Request& r,
                                               const std::string& command,
                                               size_t* selected = nullptr);

/// The attention decode on PIM units (docs/pim.md): its plan (one vector lane; the selectors of
/// one design are refused, rubick::Error naming the flag).
emit::PimDecodePlan decodePlan(const tc::Program& prog, const attn::AttentionForm& form,
                               const attn::PipelineOptions& po, const dse::PimSystem& pim,
                               const dse::Selection& sel);

} // namespace rubick::workload
