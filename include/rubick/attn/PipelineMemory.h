// SPDX-License-Identifier: Apache-2.0
#pragma once
// The attention pipeline with its tensors in external memory (docs/attention.md, "With an
// external memory"). Q, K, V and O live in memory, row-major; the pipeline (the core of the
// memory system's top, src/emit/MemoryTop.cpp) keeps a ping-pong buffer per tensor: Q's and
// O's hold the whole tensor, K's and V's one key block. The buffer tiles of the memory system
// are the key blocks: the sequencer (rtl_templates/rubick_buf_seq.v) loads Q with block 0,
// block b+1's K and V while the pipeline computes block b, and stores O after the last block.
// So the same DMA engines, AXI master, registers and timing rules as a GEMM's memory system
// apply (arch::MemoryPlan), with a core whose run differs per block (MemoryPlan::stepCycles).
//
// A buffer of G = max(1, bus bytes / element bytes) banks holds a tile in its plain row-major
// order: element x of the tile (its row-major index) is word x / G of bank x mod G, so the
// pipeline reads it at x, and the DMA writes (reads) up to G elements a cycle. (G is halved
// while no DMA map reproduces that layout: rows whose length is prime to a wide bus.)

#include "rubick/arch/MemoryPlan.h"
#include "rubick/attn/Pipeline.h"

#include <string>
#include <vector>

namespace rubick::attn {

/// Why the pipeline of this program cannot keep its tensors in external memory, or "": several
/// heads (the tensors have three dimensions), or elements that are not whole bytes.
std::string pipelineMemoryProblem(const tc::Program& prog, const AttentionForm& f);

/// The memory plan of the pipelines with key blocks of `blockKeys` keys on memory `mem`:
/// tensors in the order O, Q, K, V (the BASE registers), their tiles and DMA maps, the buffer
/// tiles (the key blocks), and `core` describing only the buffers the DMA engines reach (the
/// core is the pipeline, not an array plan). stepCycles is left empty (withSteps). Throws
/// Unsupported with pipelineMemoryProblem's reason.
arch::MemoryPlan pipelineMemoryPlan(const tc::Program& prog, const AttentionForm& f,
                                    int64_t blockKeys, const dse::MemorySystem& mem,
                                    const std::string& name);

/// Per key block, the pipeline's cycles from its start pulse to its done pulse: its phases
/// (block 0 also the query pass, the last block also normalise) and one cycle for done.
std::vector<int64_t> pipelineStepCycles(const PipelineTiming& t);

/// Bytes of the buffers `m` declares: per tensor two halves of 2^addressBits words in each of
/// its banks.
int64_t memoryBufferBytes(const arch::MemoryPlan& m);

/// `m` with the step cycles of timing `t`.
arch::MemoryPlan withSteps(arch::MemoryPlan m, const PipelineTiming& t);

} // namespace rubick::attn
