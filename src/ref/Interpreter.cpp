// SPDX-License-Identifier: Apache-2.0
#include "rubick/ref/Interpreter.h"

#include "rubick/ref/Fixed.h"
#include "rubick/support/Diagnostic.h"

#include <algorithm>
#include <limits>
#include <random>

namespace rubick::ref {

int64_t wrap(int64_t v, int bits) {
  if (bits >= 64) return v;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (u >> (bits - 1)) u |= ~mask;
  return int64_t(u);
}

namespace {

int64_t add(int64_t a, int64_t b) {
  return int64_t(uint64_t(a) + uint64_t(b));
}
int64_t sub(int64_t a, int64_t b) {
  return int64_t(uint64_t(a) - uint64_t(b));
}
int64_t mul(int64_t a, int64_t b) {
  return int64_t(uint64_t(a) * uint64_t(b));
}

[[noreturn]] void unsupported(const tc::Statement& s, const std::string& what) {
  throw Error("reference", s.name + " (" + s.text + "): " + what);
}

struct Evaluator {
  const tc::Program& prog;
  const tc::Statement& s;
  TensorData& data;
  const std::vector<int64_t>& n; // loop values
  int outBits;                   // the written tensor's width: a quotient saturates to it

  int64_t elementIndex(const tc::Access& a) const {
    const tc::Tensor& t = prog.tensors[a.tensor];
    int64_t lin = 0;
    for (size_t r = 0; r < a.indices.size(); ++r) {
      int64_t v = a.indices[r].constant;
      for (size_t l = 0; l < n.size(); ++l)
        v += a.indices[r].coeffs[l] * n[l];
      lin = lin * t.shape[r] + v;
    }
    return lin;
  }

  int64_t eval(const tc::Value& v) const {
    switch (v.kind) {
    case tc::Value::Kind::Int:
      return v.intValue;
    case tc::Value::Kind::Float:
      unsupported(s, "floating-point literals are not supported");
    case tc::Value::Kind::Read: {
      const tc::Access& a = s.reads[v.ref];
      return data[a.tensor][elementIndex(a)];
    }
    case tc::Value::Kind::Index:
      return n[v.ref];
    case tc::Value::Kind::Neg:
      return sub(0, eval(v.args[0]));
    case tc::Value::Kind::Add:
      return add(eval(v.args[0]), eval(v.args[1]));
    case tc::Value::Kind::Sub:
      return sub(eval(v.args[0]), eval(v.args[1]));
    case tc::Value::Kind::Mul:
      return mul(eval(v.args[0]), eval(v.args[1]));
    case tc::Value::Kind::Div:
      return divide(eval(v.args[0]), eval(v.args[1]), outBits);
    case tc::Value::Kind::Call:
      if (v.func == "max") return std::max(eval(v.args[0]), eval(v.args[1]));
      if (v.func == "min") return std::min(eval(v.args[0]), eval(v.args[1]));
      if (v.func == "abs") {
        int64_t x = eval(v.args[0]);
        return x < 0 ? sub(0, x) : x;
      }
      if (v.func == "exp") return expQ15(eval(v.args[0]), prog.expFrac);
      if (v.func == "requant")
        return requantise(eval(v.args[0]), eval(v.args[1]), eval(v.args[2]), outBits);
      unsupported(s, "unknown builtin '" + v.func + "'");
    }
    unsupported(s, "unknown operation");
  }
};

int64_t identity(tc::AssignOp op, int bits) {
  switch (op) {
  case tc::AssignOp::StarEqBang:
    return 1;
  case tc::AssignOp::MaxEqBang:
    return bits >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (bits - 1));
  case tc::AssignOp::MinEqBang:
    return bits >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (bits - 1)) - 1;
  default:
    return 0;
  }
}

int64_t combine(tc::AssignOp op, int64_t old, int64_t value) {
  switch (op) {
  case tc::AssignOp::Assign:
    return value;
  case tc::AssignOp::PlusEq:
  case tc::AssignOp::PlusEqBang:
    return add(old, value);
  case tc::AssignOp::StarEq:
  case tc::AssignOp::StarEqBang:
    return mul(old, value);
  case tc::AssignOp::MaxEq:
  case tc::AssignOp::MaxEqBang:
    return std::max(old, value);
  case tc::AssignOp::MinEq:
  case tc::AssignOp::MinEqBang:
    return std::min(old, value);
  }
  return value;
}

} // namespace

void runStatement(const tc::Program& prog, size_t stmt, TensorData& data) {
  const tc::Statement& s = prog.statements.at(stmt);
  const tc::Tensor& out = prog.tensors[s.write.tensor];
  const int bits = tc::bitWidth(out.type);
  if (tc::initialisesWithIdentity(s.op))
    std::fill(data[s.write.tensor].begin(), data[s.write.tensor].end(), identity(s.op, bits));
  std::vector<int64_t> n(s.loops.size());
  for (size_t l = 0; l < n.size(); ++l)
    n[l] = s.loops[l].lo;
  bool empty =
      std::any_of(s.loops.begin(), s.loops.end(), [](const tc::Loop& l) { return l.hi <= l.lo; });
  Evaluator ev{prog, s, data, n, std::min(64, bits)};
  while (!empty) {
    int64_t value = wrap(ev.eval(s.rhs), bits);
    int64_t& slot = data[s.write.tensor][ev.elementIndex(s.write)];
    slot = wrap(combine(s.op, slot, value), bits);
    size_t l = n.size();
    // Lexicographic order: the last loop is the innermost.
    while (l-- > 0) {
      if (++n[l] < s.loops[l].hi) break;
      n[l] = s.loops[l].lo;
    }
    if (l == size_t(-1)) break;
  }
}

TensorData randomInputs(const tc::Program& prog, size_t stmt, uint64_t seed) {
  std::mt19937_64 rng(seed);
  TensorData data(prog.tensors.size());
  std::vector<bool> read(prog.tensors.size(), false);
  for (const tc::Access& a : prog.statements.at(stmt).reads)
    read[a.tensor] = true;
  // `+=` and the like read the output's old value: it gets values too.
  if (prog.statements.at(stmt).readsOutput()) read[prog.statements.at(stmt).write.tensor] = true;
  for (size_t t = 0; t < prog.tensors.size(); ++t) {
    const tc::Tensor& ten = prog.tensors[t];
    int64_t n = 1;
    for (int64_t d : ten.shape)
      n *= d;
    data[t].assign(n, 0);
    if (!read[t]) continue;
    const int bits = std::min(64, tc::bitWidth(ten.type));
    const int64_t lo =
        bits >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (bits - 1));
    const int64_t hi =
        bits >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (bits - 1)) - 1;
    std::uniform_int_distribution<int64_t> value(lo, hi);
    std::uniform_int_distribution<int> pick(0, 15);
    const int64_t special[] = {lo, hi, -1, 0, 1};
    for (int64_t& v : data[t]) {
      int k = pick(rng);
      v = k < 5 ? special[k] : value(rng);
    }
  }
  return data;
}

TensorData interpret(const tc::Program& prog, const TensorData& inputs) {
  TensorData data(prog.tensors.size());
  for (size_t t = 0; t < prog.tensors.size(); ++t) {
    const tc::Tensor& ten = prog.tensors[t];
    if (!tc::isInteger(ten.type))
      throw Error("reference", "tensor '" + ten.name + "' is " + tc::toString(ten.type) +
                                   "; the reference model is integer only");
    int64_t n = 1;
    for (int64_t s : ten.shape)
      n *= s;
    if (ten.role == tc::TensorRole::Input) {
      if (t >= inputs.size() || static_cast<int64_t>(inputs[t].size()) != n)
        throw Error("reference", "input '" + ten.name + "' needs " + std::to_string(n) + " values");
      data[t] = inputs[t];
      for (int64_t& v : data[t])
        v = wrap(v, tc::bitWidth(ten.type));
    } else {
      data[t].assign(n, 0);
    }
  }
  for (size_t i = 0; i < prog.statements.size(); ++i)
    runStatement(prog, i, data);
  return data;
}

} // namespace rubick::ref
