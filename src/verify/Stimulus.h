#pragma once
// The stimulus of one trial of a single statement (private to src/verify): random inputs of
// every access from the seed, then the reference model's expected output.

#include "rubick/dataflow/StatementView.h"
#include "rubick/frontend/Program.h"

#include <cstdint>
#include <string>

namespace rubick::verify {

std::string stimulus(const tc::Program& prog, size_t stmt, const dataflow::StatementView& v,
                     uint64_t seed);

} // namespace rubick::verify
