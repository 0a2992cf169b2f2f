// SPDX-License-Identifier: Apache-2.0
// Semantic analysis: affine index expressions (integer coefficients per index, overflow-checked)
// and the reads of a statement.

#include "SemaImpl.h"

#include "rubick/frontend/Printer.h"
#include "rubick/support/Checked.h"

#include <algorithm>

namespace rubick::tc::detail {

[[noreturn]] void Sema::overflow(const Expr& e) {
  fail(startLoc(e), 1, "index expression '" + print(e) + "' overflows 64-bit integers");
}

AffineIndex Sema::affine(const Expr& e, const StmtCtx& c) {
  AffineIndex a;
  a.coeffs.assign(c.vars.size(), 0);
  switch (e.kind) {
  case Expr::Kind::IntLit:
    a.constant = e.intValue;
    return a;
  case Expr::Kind::FloatLit:
    fail(e.loc, width(e.text), "index expressions must be integers, found '" + e.text + "'");
  case Expr::Kind::Name:
    if (isSize(e.name)) {
      a.constant = sizes_.at(e.name);
    } else {
      a.coeffs[c.var(e.name)] = 1;
    }
    return a;
  case Expr::Kind::Neg:
    return scale(affine(e.args[0], c), -1, e);
  case Expr::Kind::Add:
  case Expr::Kind::Sub: {
    AffineIndex l = affine(e.args[0], c), r = affine(e.args[1], c);
    int64_t sign = e.kind == Expr::Kind::Add ? 1 : -1;
    for (size_t i = 0; i < l.coeffs.size(); ++i) {
      auto m = checkedMul(sign, r.coeffs[i]);
      auto v = m ? checkedAdd(l.coeffs[i], *m) : std::nullopt;
      if (!v) overflow(e);
      l.coeffs[i] = *v;
    }
    auto m = checkedMul(sign, r.constant);
    auto v = m ? checkedAdd(l.constant, *m) : std::nullopt;
    if (!v) overflow(e);
    l.constant = *v;
    return l;
  }
  case Expr::Kind::Mul: {
    AffineIndex l = affine(e.args[0], c), r = affine(e.args[1], c);
    bool lConst = isConstant(l), rConst = isConstant(r);
    if (!lConst && !rConst)
      fail(e.loc, 1,
           "non-affine index expression '" + print(e) +
               "': indices may only be multiplied by constants");
    return lConst ? scale(r, l.constant, e) : scale(l, r.constant, e);
  }
  case Expr::Kind::Div:
    fail(e.loc, 1,
         "non-affine index expression '" + print(e) + "': division is not allowed in an index");
  case Expr::Kind::Access:
  case Expr::Kind::Call:
    break; // rejected by checkAccessNames
  }
  fail(e.loc, 1, "non-affine index expression '" + print(e) + "'");
}

bool Sema::isConstant(const AffineIndex& a) {
  return std::all_of(a.coeffs.begin(), a.coeffs.end(), [](int64_t v) { return v == 0; });
}

AffineIndex Sema::scale(AffineIndex a, int64_t k, const Expr& e) {
  for (int64_t& v : a.coeffs) {
    auto r = checkedMul(v, k);
    if (!r) overflow(e);
    v = *r;
  }
  auto r = checkedMul(a.constant, k);
  if (!r) overflow(e);
  a.constant = *r;
  return a;
}

void Sema::collectReads(const Expr& e, const StmtCtx& c, std::vector<Access>& reads,
                        std::vector<std::vector<SourceLoc>>& argLocs,
                        std::vector<const Expr*>& exprs) {
  if (e.kind == Expr::Kind::Access && !findBuiltin(e.name)) {
    addRead(e, c, reads, argLocs, exprs);
    return;
  }
  if (e.kind == Expr::Kind::Name && !isSize(e.name) && c.var(e.name) < 0) {
    int t = prog_.findTensor(e.name);
    if (t < 0) fail(e.loc, width(e.name), "unknown name '" + e.name + "'");
    if (state_[t].shapeKnown && !prog_.tensors[t].shape.empty())
      fail(e.loc, width(e.name), "'" + e.name + "' is a tensor; index it as " + e.name + "(...)");
    addRead(e, c, reads, argLocs, exprs);
    return;
  }
  for (const Expr& a : e.args)
    collectReads(a, c, reads, argLocs, exprs);
}

void Sema::addRead(const Expr& e, const StmtCtx& c, std::vector<Access>& reads,
                   std::vector<std::vector<SourceLoc>>& argLocs, std::vector<const Expr*>& exprs) {
  int t = prog_.findTensor(e.name);
  const Tensor& tensor = prog_.tensors[t];
  if (!state_[t].written)
    fail(e.loc, width(e.name), "'" + e.name + "' is read before any statement writes it");
  if (tensor.shape.size() != e.args.size())
    fail(e.loc, width(e.name), rankMessage(tensor, e.args.size()));
  Access a;
  a.tensor = t;
  a.loc = e.loc;
  a.text = print(e);
  std::vector<SourceLoc> locs;
  for (const Expr& arg : e.args) {
    a.indices.push_back(affine(arg, c));
    locs.push_back(startLoc(arg));
  }
  reads.push_back(std::move(a));
  argLocs.push_back(std::move(locs));
  exprs.push_back(&e);
}

} // namespace rubick::tc::detail
