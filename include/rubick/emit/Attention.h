// SPDX-License-Identifier: Apache-2.0
#pragma once
// `rubick emit` of the fused attention pipeline (docs/attention.md): the two GEMM designs, each
// packaged as for a single statement under its own module prefix, and the pipeline top around
// them (K/V and query stores, vector unit, sequencer, host port).
//
//   OUTDIR/rtl/*.v          templates, <name>_g1_*.v, <name>_g2_*.v, <name>_vector.v,
//                           <name>_top.v
//   OUTDIR/filelist.f       relative paths, leaf modules first
//   OUTDIR/design.json      the pipeline: sizes, phases, latency, and every element of O, Q, K,
//                           V with its [bank, address] on the pipeline's host port
//   OUTDIR/README.md        interface, protocol, timing
//   OUTDIR/gemm1/, gemm2/   design.json and README.md of each array, as for a single design

#include "rubick/attn/Pipeline.h"
#include "rubick/emit/Package.h"

#include <string>
#include <vector>

namespace rubick::emit {

/// The files of one pipeline; `name` prefixes every generated module. Throws rubick::Error when
/// the pipeline cannot be built (widths the vector unit does not support).
std::vector<File> attentionPackage(const tc::Program& prog, const attn::AttentionForm& form,
                                   const attn::PipelinePoint& point, const std::string& name);

} // namespace rubick::emit
