// SPDX-License-Identifier: Apache-2.0
#pragma once
// The parts of an attention pipeline's package that differ with an external memory (private to
// src/emit): design.json's memory fields and tensors, and the README's interface, protocol and
// timing. The memory system's top is MemoryTop.cpp's, around the pipeline as its core.

#include "rubick/arch/MemoryTiming.h"
#include "rubick/attn/Pipeline.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rubick::emit::detail {

/// design.json fields of the memory system: `memory`, `axi`, `model`, `timing`, `registers`
/// and `tensors` (O, Q, K, V with their base registers, row pitches, tiles, buffers and DMA
/// maps), added to `j`.
void addMemoryJson(nlohmann::ordered_json& j, const tc::Program& prog,
                   const attn::PipelinePoint& pt, const arch::MemoryPlan& m,
                   const arch::MemoryTiming& tm);

/// The README's interface, registers, tensors, protocol and timing sections.
std::string memoryReadme(const attn::PipelinePoint& pt, const arch::MemoryPlan& m,
                         const arch::MemoryTiming& tm);

} // namespace rubick::emit::detail
