// SPDX-License-Identifier: Apache-2.0
#include "rubick/dataflow/StatementView.h"

#include "rubick/support/Diagnostic.h"

#include <map>

namespace rubick::dataflow {

size_t StatementView::loopIndex(const std::string& name) const {
  for (size_t i = 0; i < loops.size(); ++i)
    if (loops[i] == name) return i;
  return loops.size();
}

namespace {

// The integer constant factor of a product of reads, integers and negations (1 otherwise, or
// when it would pass 2^31: the hardware refuses those forms and says why).
int64_t constantFactor(const tc::Value& v) {
  switch (v.kind) {
  case tc::Value::Kind::Int:
    return v.intValue;
  case tc::Value::Kind::Neg:
    return -constantFactor(v.args.at(0));
  case tc::Value::Kind::Mul: {
    __int128 f = 1;
    for (const tc::Value& a : v.args) {
      f *= constantFactor(a);
      if (f > (__int128(1) << 31) || f < -(__int128(1) << 31)) return 1;
    }
    return static_cast<int64_t>(f);
  }
  default:
    return 1;
  }
}

} // namespace

size_t StatementView::accessIndex(int tensor) const {
  for (size_t a = 0; a < accesses.size(); ++a)
    if (accesses[a].tensor == tensor) return a;
  return accesses.size();
}

StatementView viewStatement(const tc::Program& program, size_t stmt) {
  if (stmt >= program.statements.size())
    throw Error("rubick", "statement S" + std::to_string(stmt) + " does not exist");
  const tc::Statement& s = program.statements[stmt];
  StatementView v;
  v.statement = s.name;
  v.signature = s.text;
  v.accumulates = s.readsOutput();
  v.factor = constantFactor(s.rhs);
  if (s.op == tc::AssignOp::MaxEq || s.op == tc::AssignOp::MaxEqBang) v.fold = Fold::Max;
  if (s.op == tc::AssignOp::MinEq || s.op == tc::AssignOp::MinEqBang) v.fold = Fold::Min;
  for (const tc::Loop& l : s.loops) {
    v.loops.push_back(l.name);
    v.extent.push_back(l.hi - l.lo);
  }
  // Latencies, buffer sizes and addresses are int64: bounding the iteration count keeps every
  // metric far from overflow (a latency is at most a few hundred cycles per iteration).
  int64_t iterations = 1;
  for (int64_t e : v.extent)
    if (e > 0 &&
        (__builtin_mul_overflow(iterations, e, &iterations) || iterations > kMaxIterations)) {
      std::string loops;
      for (size_t l = 0; l < v.loops.size(); ++l)
        loops += (l ? ", " : "") + v.loops[l] + ":" + std::to_string(v.extent[l]);
      throw Error("sizes", s.name + " (" + s.text + ") has over 2^50 iterations (loops " + loops +
                               "); rubick's model supports up to 2^50 (about 1.1e15): use "
                               "smaller sizes");
    }
  std::map<int, int> seen;
  auto add = [&](const tc::Access& a, bool write) {
    AccessView av;
    av.tensor = a.tensor;
    av.write = write;
    const tc::Tensor& t = program.tensors[a.tensor];
    int n = ++seen[a.tensor];
    av.name = n == 1 ? t.name : t.name + "#" + std::to_string(n);
    if (n == 1) {
      v.signature += std::string(" ") + tc::toString(t.type) + " " + t.name + "(";
      for (int64_t d : t.shape)
        v.signature += std::to_string(d) + ",";
      v.signature += ")";
    }
    av.elementBits = tc::bitWidth(t.type);
    av.shape = t.shape;
    for (const tc::AffineIndex& idx : a.indices) {
      av.coeffs.push_back(idx.coeffs);
      int64_t c = idx.constant;
      for (size_t l = 0; l < s.loops.size(); ++l)
        c += idx.coeffs[l] * s.loops[l].lo; // loops are shifted to start at 0
      av.constant.push_back(c);
    }
    v.accesses.push_back(std::move(av));
  };
  add(s.write, true);
  for (const tc::Access& a : s.reads)
    add(a, false);
  return v;
}

} // namespace rubick::dataflow
