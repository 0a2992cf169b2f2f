// SPDX-License-Identifier: Apache-2.0
#include "rubick/frontend/AstEqual.h"

namespace rubick::tc {
namespace {

bool sameDims(const std::optional<std::vector<DimDecl>>& a,
              const std::optional<std::vector<DimDecl>>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  if (a->size() != b->size()) return false;
  for (size_t i = 0; i < a->size(); ++i)
    if ((*a)[i].symbol != (*b)[i].symbol || (*a)[i].value != (*b)[i].value) return false;
  return true;
}

bool sameDecl(const TensorDecl& a, const TensorDecl& b) {
  return a.name.name == b.name.name && a.type == b.type && sameDims(a.shape, b.shape);
}

bool sameDecls(const std::vector<TensorDecl>& a, const std::vector<TensorDecl>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!sameDecl(a[i], b[i])) return false;
  return true;
}

// Empty when equal, else what differs.
std::string stmtDifference(const Stmt& a, const Stmt& b) {
  if (a.lhs.name != b.lhs.name) return "left-hand side tensor differs";
  if (a.lhsIndices.size() != b.lhsIndices.size()) return "left-hand side rank differs";
  for (size_t i = 0; i < a.lhsIndices.size(); ++i)
    if (a.lhsIndices[i].name != b.lhsIndices[i].name) return "left-hand side index differs";
  if (a.op != b.op) return "operator differs";
  if (!sameTree(a.rhs, b.rhs)) return "right-hand side differs";
  if (a.where.size() != b.where.size()) return "number of where ranges differs";
  for (size_t i = 0; i < a.where.size(); ++i) {
    const RangeDecl &x = a.where[i], &y = b.where[i];
    if (x.index.name != y.index.name || !sameTree(x.lo, y.lo) || !sameTree(x.hi, y.hi))
      return "where range " + std::to_string(i) + " differs";
  }
  return "";
}

std::string defDifference(const Def& a, const Def& b) {
  if (a.name.name != b.name.name) return "name differs";
  if (!sameDecls(a.inputs, b.inputs)) return "inputs differ";
  if (!sameDecls(a.outputs, b.outputs)) return "outputs differ";
  if (a.stmts.size() != b.stmts.size()) return "number of statements differs";
  for (size_t i = 0; i < a.stmts.size(); ++i)
    if (std::string w = stmtDifference(a.stmts[i], b.stmts[i]); !w.empty())
      return "stmt " + std::to_string(i) + ": " + w;
  return "";
}

} // namespace

bool sameTree(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || a.name != b.name || a.args.size() != b.args.size()) return false;
  // Integers compare by value ("007" and "7" are the same literal); floats by spelling, which
  // the printer keeps, so that no rounding can hide a difference.
  if (a.kind == Expr::Kind::IntLit && a.intValue != b.intValue) return false;
  if (a.kind == Expr::Kind::FloatLit && a.text != b.text) return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (!sameTree(a.args[i], b.args[i])) return false;
  return true;
}

bool sameTree(const Module& a, const Module& b, std::string* why) {
  auto differ = [&](std::string what) {
    if (why) *why = std::move(what);
    return false;
  };
  if (a.sizeDefaults.size() != b.sizeDefaults.size())
    return differ("number of size defaults differs");
  for (size_t i = 0; i < a.sizeDefaults.size(); ++i)
    if (a.sizeDefaults[i].name != b.sizeDefaults[i].name ||
        a.sizeDefaults[i].value != b.sizeDefaults[i].value)
      return differ("size default " + std::to_string(i) + " differs");
  if (a.expFrac != b.expFrac) return differ("exp_frac differs");
  if (a.defs.size() != b.defs.size()) return differ("number of defs differs");
  for (size_t i = 0; i < a.defs.size(); ++i)
    if (std::string w = defDifference(a.defs[i], b.defs[i]); !w.empty())
      return differ("def " + std::to_string(i) + ": " + w);
  return true;
}

} // namespace rubick::tc
