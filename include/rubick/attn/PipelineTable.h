// SPDX-License-Identifier: Apache-2.0
#pragma once
// What `rubick explore` prints of an attention program's pipelines.

#include "rubick/attn/Pipeline.h"

#include <string>

namespace rubick::attn {

/// The ranked table of the first `top` pipelines, rank 1's timing per block, its run with the
/// external memory (when there is one) and its spec.
std::string pipelineTable(const tc::Program& prog, const PipelineResult& r, size_t top);

} // namespace rubick::attn
