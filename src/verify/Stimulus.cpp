// SPDX-License-Identifier: Apache-2.0
#include "Stimulus.h"

#include "rubick/ref/Interpreter.h"

#include <algorithm>
#include <random>
#include <sstream>

namespace rubick::verify {

namespace {

// The hardware stores an input in its element width: a value past it is not one it can hold.
void wrapToStoredWidths(ref::TensorData& data, const dataflow::StatementView& v,
                        const std::vector<int64_t>& elementBits) {
  for (size_t a = 0; a < v.accesses.size() && a < elementBits.size(); ++a) {
    const dataflow::AccessView& av = v.accesses[a];
    if (av.write || elementBits[a] <= 0 || elementBits[a] >= av.elementBits) continue;
    for (int64_t& x : data[av.tensor])
      x = ref::wrap(x, static_cast<int>(elementBits[a]));
  }
}

} // namespace

void section(std::ostream& os, const char* kind, size_t select, const std::vector<int64_t>& xs) {
  os << kind << " " << select << " " << xs.size() << "\n";
  for (int64_t x : xs)
    os << x << "\n";
}

void epilogueOperandValues(ref::TensorData& data, const dse::Epilogue& e,
                           const std::vector<int>& tensorOf, uint64_t seed) {
  // The type's extremes (3/16), small values (11/16: biases and multipliers as layers have
  // them, so that requantisation rounds rather than saturates and a ReLU after a bias does not
  // clip most sums, which would hide wrong ones) and the full range (2/16).
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + 1);
  for (const dse::EpilogueOperand& op : e.operands) {
    const int bits = static_cast<int>(std::min<int64_t>(op.bits, 63));
    const int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << (bits - 1)) - 1;
    const int64_t small = int64_t(1) << std::min(bits - 1, 12);
    std::uniform_int_distribution<int64_t> full(lo, hi), near(-small, small - 1);
    std::uniform_int_distribution<int> pick(0, 15);
    const int64_t special[] = {lo, hi, -1, 0, 1};
    const int t = tensorOf.empty() ? op.tensor : tensorOf[static_cast<size_t>(op.tensor)];
    std::vector<int64_t>& xs = data[static_cast<size_t>(t)];
    for (int64_t& x : xs) {
      const int k = pick(rng);
      x = k < 3 ? special[k] : k < 14 ? near(rng) : full(rng);
    }
  }
}

std::string epilogueStimulus(const tc::Program& prog, const dataflow::StatementView& v,
                             const dse::Epilogue& e, uint64_t seed,
                             const std::vector<int64_t>& elementBits) {
  ref::TensorData data = ref::randomInputs(prog, e.contraction, seed);
  wrapToStoredWidths(data, v, elementBits);
  epilogueOperandValues(data, e, {}, seed);
  const ref::TensorData inputs = data;
  for (size_t s = 0; s < prog.statements.size(); ++s)
    ref::runStatement(prog, s, data);
  std::ostringstream os;
  os << "rubick-stimulus 1\n";
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    const dataflow::AccessView& av = v.accesses[a];
    if (av.write)
      section(os, "expect", a, data[static_cast<size_t>(e.output)]);
    else
      section(os, "tensor", a, inputs[static_cast<size_t>(av.tensor)]);
  }
  for (size_t k = 0; k < e.operands.size(); ++k)
    section(os, "tensor", v.accesses.size() + k, inputs[static_cast<size_t>(e.operands[k].tensor)]);
  return os.str();
}

std::string stimulus(const tc::Program& prog, size_t stmt, const dataflow::StatementView& v,
                     uint64_t seed, const std::vector<int64_t>& elementBits) {
  ref::TensorData data = ref::randomInputs(prog, stmt, seed);
  wrapToStoredWidths(data, v, elementBits);
  ref::TensorData inputs = data;
  ref::runStatement(prog, stmt, data);
  std::ostringstream os;
  os << "rubick-stimulus 1\n";
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    const dataflow::AccessView& av = v.accesses[a];
    // `+=`: the output's start values, which the testbench writes into its places.
    if (av.write && v.accumulates) {
      os << "initial " << a << " " << inputs[av.tensor].size() << "\n";
      for (int64_t x : inputs[av.tensor])
        os << x << "\n";
    }
    const std::vector<int64_t>& values = av.write ? data[av.tensor] : inputs[av.tensor];
    os << (av.write ? "expect " : "tensor ") << a << " " << values.size() << "\n";
    for (int64_t x : values)
      os << x << "\n";
  }
  return os.str();
}

} // namespace rubick::verify
