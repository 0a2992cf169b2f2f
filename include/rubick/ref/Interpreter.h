// SPDX-License-Identifier: Apache-2.0
#pragma once
// The reference model: a direct interpreter of a checked TC program, in the integer arithmetic
// the hardware uses, so its outputs are the bit-exact target of every simulation.
//
// Semantics, per statement in program order, over its iteration domain in lexicographic order:
//   - the right-hand side is evaluated with two's-complement wrap-around (mod 2^64), then
//     wrapped to the written tensor's type;
//   - `=` stores it; `+=!`, `*=!`, `max=!`, `min=!` first set every element of the written
//     tensor to the identity (0, 1, the type's minimum, its maximum) and then combine; the
//     non-`!` forms combine into the current value; every combination wraps to the type.
// Because wrapping commutes with + and *, this equals computing sums and products exactly and
// wrapping once, which is what the hardware's wide accumulators do.
// Supported operations: + - * unary -, integer literals, index values, max, min, abs, and the
// fixed-point exp and / of the attention hardware (rubick/ref/Fixed.h,
// docs/attention-numerics.md): exp(x) is expQ15(x, the program's exp_frac), a Q0.15 value;
// a / b is divide(a, b) saturated (not wrapped) to the written tensor's type, before the rest of
// the expression uses it. Floats are rejected.

#include "rubick/frontend/Program.h"

#include <cstdint>
#include <vector>

namespace rubick::ref {

/// Values of every tensor of the program, row-major, indexed like Program::tensors.
using TensorData = std::vector<std::vector<int64_t>>;

/// `inputs` holds the input tensors' values (other entries are ignored and may be empty).
/// Returns every tensor's values after the program ran. Throws rubick::Error for unsupported
/// operations or types, naming the statement.
TensorData interpret(const tc::Program& prog, const TensorData& inputs);

/// Runs one statement on `data` (every tensor's values, as interpret() returns them): the
/// statement alone, whatever earlier statements would have computed.
void runStatement(const tc::Program& prog, size_t stmt, TensorData& data);

/// Random values for every tensor the statement reads (seeded, deterministic): uniform over
/// each type's full range, with its minimum, maximum, -1, 0 and 1 mixed in; other tensors are
/// zero. Returns all tensors' data, ready for runStatement.
TensorData randomInputs(const tc::Program& prog, size_t stmt, uint64_t seed);

/// `v` wrapped to a signed `bits`-bit two's-complement value.
int64_t wrap(int64_t v, int bits);

} // namespace rubick::ref
