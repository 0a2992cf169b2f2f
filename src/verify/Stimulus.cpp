#include "Stimulus.h"

#include "rubick/ref/Interpreter.h"

#include <sstream>

namespace rubick::verify {

std::string stimulus(const tc::Program& prog, size_t stmt, const dataflow::StatementView& v,
                     uint64_t seed, const std::vector<int64_t>& elementBits) {
  ref::TensorData data = ref::randomInputs(prog, stmt, seed);
  // The hardware stores an input in its element width: a value past it is not one it can hold.
  for (size_t a = 0; a < v.accesses.size() && a < elementBits.size(); ++a) {
    const dataflow::AccessView& av = v.accesses[a];
    if (av.write || elementBits[a] <= 0 || elementBits[a] >= av.elementBits) continue;
    for (int64_t& x : data[av.tensor])
      x = ref::wrap(x, static_cast<int>(elementBits[a]));
  }
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
