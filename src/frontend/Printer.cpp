// SPDX-License-Identifier: Apache-2.0
#include "rubick/frontend/Printer.h"

namespace rubick::tc {
namespace {

// Binding strength, used to print the fewest parentheses that keep the tree's shape.
int precedence(const Expr& e) {
  switch (e.kind) {
  case Expr::Kind::Add:
  case Expr::Kind::Sub:
    return 1;
  case Expr::Kind::Mul:
  case Expr::Kind::Div:
    return 2;
  case Expr::Kind::Neg:
    return 3;
  default:
    return 4;
  }
}

std::string printAt(const Expr& e, int minPrec) {
  std::string s;
  switch (e.kind) {
  case Expr::Kind::IntLit:
    s = std::to_string(e.intValue);
    break;
  case Expr::Kind::FloatLit:
    s = e.text;
    break;
  case Expr::Kind::Name:
    s = e.name;
    break;
  case Expr::Kind::Access:
  case Expr::Kind::Call:
    s = e.name + "(";
    for (size_t i = 0; i < e.args.size(); ++i)
      s += (i ? ", " : "") + printAt(e.args[i], 0);
    s += ")";
    break;
  case Expr::Kind::Neg:
    s = "-" + printAt(e.args[0], 3);
    break;
  case Expr::Kind::Add:
  case Expr::Kind::Sub:
  case Expr::Kind::Mul:
  case Expr::Kind::Div: {
    int p = precedence(e);
    const char* op = e.kind == Expr::Kind::Add   ? " + "
                     : e.kind == Expr::Kind::Sub ? " - "
                     : e.kind == Expr::Kind::Mul ? " * "
                                                 : " / ";
    // Left-associative: the right operand needs parentheses at equal precedence.
    s = printAt(e.args[0], p) + op + printAt(e.args[1], p + 1);
    break;
  }
  }
  return precedence(e) < minPrec ? "(" + s + ")" : s;
}

std::string printDecl(const TensorDecl& t) {
  std::string s;
  if (t.type) {
    s += toString(*t.type);
    if (t.shape) {
      s += "(";
      for (size_t i = 0; i < t.shape->size(); ++i) {
        const DimDecl& d = (*t.shape)[i];
        s += (i ? "," : "") + (d.symbol.empty() ? std::to_string(d.value) : d.symbol);
      }
      s += ")";
    }
    s += " ";
  }
  return s + t.name.name;
}

} // namespace

std::string print(const Expr& e) {
  return printAt(e, 0);
}

std::string print(const Stmt& st) {
  std::string s = st.lhs.name + "(";
  for (size_t i = 0; i < st.lhsIndices.size(); ++i)
    s += (i ? ", " : "") + st.lhsIndices[i].name;
  s += std::string(") ") + toString(st.op) + " " + print(st.rhs);
  for (size_t i = 0; i < st.where.size(); ++i) {
    const RangeDecl& r = st.where[i];
    s += (i ? ", " : " where ") + r.index.name + " in " + print(r.lo) + ":" + print(r.hi);
  }
  return s;
}

std::string print(const Def& d) {
  std::string s = "def " + d.name.name + "(";
  for (size_t i = 0; i < d.inputs.size(); ++i)
    s += (i ? ", " : "") + printDecl(d.inputs[i]);
  s += ") -> (";
  for (size_t i = 0; i < d.outputs.size(); ++i)
    s += (i ? ", " : "") + printDecl(d.outputs[i]);
  s += ") {\n";
  for (const Stmt& st : d.stmts)
    s += "    " + print(st) + "\n";
  return s + "}\n";
}

std::string print(const Module& m) {
  std::string s;
  if (!m.sizeDefaults.empty()) {
    s += "# rubick: size";
    for (size_t i = 0; i < m.sizeDefaults.size(); ++i)
      s +=
          (i ? ", " : " ") + m.sizeDefaults[i].name + "=" + std::to_string(m.sizeDefaults[i].value);
    s += "\n";
  }
  if (m.expFrac) s += "# rubick: fixed exp_frac=" + std::to_string(*m.expFrac) + "\n";
  for (size_t i = 0; i < m.defs.size(); ++i)
    s += (i ? "\n" : "") + print(m.defs[i]);
  return s;
}

} // namespace rubick::tc
