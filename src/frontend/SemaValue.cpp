// SPDX-License-Identifier: Apache-2.0
// Semantic analysis: value trees of right-hand sides and the element types they produce.

#include "SemaImpl.h"

#include <algorithm>

namespace rubick::tc::detail {

// Undeclared types: an integer sum or product reduction gets int32 (an int8 GEMM's result
// does not fit int8); anything else takes the widest type it reads, as in TC.
ScalarType Sema::inferType(const std::vector<Access>& reads, const Expr& rhs, AssignOp op) {
  ScalarType t = widestType(reads, rhs);
  bool accumulates = op == AssignOp::PlusEq || op == AssignOp::PlusEqBang ||
                     op == AssignOp::StarEq || op == AssignOp::StarEqBang;
  if (accumulates && isInteger(t) && bitWidth(t) < 32) return ScalarType::Int32;
  return t;
}

ScalarType Sema::widestType(const std::vector<Access>& reads, const Expr& rhs) {
  std::optional<ScalarType> best;
  auto rank = [](ScalarType t) {
    // Floats above integers; within a family, wider above narrower.
    return (isInteger(t) ? 0 : 100) + bitWidth(t);
  };
  for (const Access& a : reads) {
    ScalarType t = prog_.tensors[a.tensor].type;
    if (!best || rank(t) > rank(*best)) best = t;
  }
  if (best) return *best;
  return hasFloatLiteral(rhs) ? ScalarType::Float32 : ScalarType::Int32;
}

bool Sema::hasFloatLiteral(const Expr& e) {
  if (e.kind == Expr::Kind::FloatLit) return true;
  return std::any_of(e.args.begin(), e.args.end(), hasFloatLiteral);
}

Value Sema::value(const Expr& e, const StmtCtx& c, size_t& nextRead) {
  Value v;
  v.loc = e.loc;
  switch (e.kind) {
  case Expr::Kind::IntLit:
    v.kind = Value::Kind::Int;
    v.intValue = e.intValue;
    return v;
  case Expr::Kind::FloatLit:
    v.kind = Value::Kind::Float;
    v.floatValue = e.floatValue;
    return v;
  case Expr::Kind::Name:
    if (int var = c.var(e.name); var >= 0) {
      v.kind = Value::Kind::Index;
      v.ref = var;
    } else if (isSize(e.name)) {
      v.kind = Value::Kind::Int;
      v.intValue = sizes_.at(e.name);
    } else {
      v.kind = Value::Kind::Read;
      v.ref = static_cast<int>(nextRead++);
    }
    return v;
  case Expr::Kind::Access:
  case Expr::Kind::Call:
    if (findBuiltin(e.name)) {
      v.kind = Value::Kind::Call;
      v.func = e.name;
      for (const Expr& a : e.args)
        v.args.push_back(value(a, c, nextRead));
    } else {
      v.kind = Value::Kind::Read;
      v.ref = static_cast<int>(nextRead++);
    }
    return v;
  case Expr::Kind::Neg:
    v.kind = Value::Kind::Neg;
    break;
  case Expr::Kind::Add:
    v.kind = Value::Kind::Add;
    break;
  case Expr::Kind::Sub:
    v.kind = Value::Kind::Sub;
    break;
  case Expr::Kind::Mul:
    v.kind = Value::Kind::Mul;
    break;
  case Expr::Kind::Div:
    v.kind = Value::Kind::Div;
    break;
  }
  for (const Expr& a : e.args)
    v.args.push_back(value(a, c, nextRead));
  return v;
}

} // namespace rubick::tc::detail
