// SPDX-License-Identifier: Apache-2.0
// Decomposition, step by step for one tensor reference T with access A_T:
//   1. X = S_c^-1 (S completed to 3x3); inner coordinates u = X ((x,y,t1) - offset).
//   2. M_T = A_T,inner X over (x, y, t1), plus the outer part A_T,outer and a constant.
//   3. reuse = null space of M_T; classifyReuse names the oriented entry.
//   4. L_T solves L Omega_T = M_T (unique: Omega has full row rank and the same null space);
//      it must be integral, and its constant absorbs Omega's mirroring offsets.

#include "rubick/dataflow/Decompose.h"

namespace rubick::dataflow {

bool Decomposition::ok() const {
  if (!reason.empty()) return false;
  for (const TensorDecomposition& t : tensors)
    if (!t.ok()) return false;
  return true;
}

Mat innerAccess(const AccessView& a, const Dataflow& d) {
  Mat m(a.coeffs.size(), 3);
  for (size_t r = 0; r < a.coeffs.size(); ++r)
    for (size_t l = 0; l < d.k(); ++l)
      m(r, l) = a.coeffs[r][d.inner[l].loop];
  return m;
}

std::vector<IntVec> outerAccess(const AccessView& a, const Dataflow& d) {
  std::vector<IntVec> m(a.coeffs.size(), IntVec(d.outer.size(), 0));
  for (size_t r = 0; r < a.coeffs.size(); ++r)
    for (size_t o = 0; o < d.outer.size(); ++o)
      m[r][o] = a.coeffs[r][d.outer[o].loop] * d.outer[o].factor;
  return m;
}

Decomposition decompose(const StatementView& v, const Dataflow& d) {
  Decomposition out;
  out.reason = checkWellFormed(d, v);
  if (!out.reason.empty()) return out;
  Mat x = *d.completedS().inverse();
  IntVec off = d.offset();
  Mat offCol(3, 1);
  for (int r = 0; r < 3; ++r)
    offCol(r, 0) = off[r];
  for (size_t ai = 0; ai < v.accesses.size(); ++ai) {
    const AccessView& a = v.accesses[ai];
    TensorDecomposition t;
    t.access = ai;
    Mat ain = innerAccess(a, d);
    t.movement = ain * x;
    t.movementOuter = outerAccess(a, d);
    Mat shift = t.movement * offCol;
    for (size_t r = 0; r < a.coeffs.size(); ++r)
      t.movementConstant.push_back(Rational(a.constant[r]) - shift(r, 0));
    t.reuse = t.movement.nullSpace();
    std::string why;
    t.entry = ir::classifyReuse(t.reuse, &why);
    if (!t.entry) {
      t.reason = why;
      out.tensors.push_back(std::move(t));
      continue;
    }
    Mat omega = ir::omegaLinear(*t.entry);
    t.layout.slots = ir::activeSlots(t.entry->kind);
    t.layout.outer = t.movementOuter;
    if (omega.rows() == 0) {
      t.layout.linear.assign(a.coeffs.size(), IntVec{});
    } else {
      SolveResult s = solve(omega.transpose(), t.movement.transpose());
      if (s.status != SolveResult::Status::Unique) {
        t.reason = "internal: the layout equation has no unique solution";
        out.tensors.push_back(std::move(t));
        continue;
      }
      Mat l = s.x.transpose();
      if (!l.isIntegral()) {
        t.reason = "the layout is not integral (" + l.str() +
                   "): the dataflow uses only part of the PE-time lattice (|det S| = " +
                   d.completedS().det().str() + ")";
        out.tensors.push_back(std::move(t));
        continue;
      }
      t.layout.linear = l.toIntRows();
    }
    // Constant: L(Omega(p)) = M(p) for all p; Omega(p) = Omega_lin p + omega0.
    IntVec w0 = ir::omegaConstant(*t.entry, d.p, d.q);
    bool integral = true;
    for (size_t r = 0; r < a.coeffs.size(); ++r) {
      Rational c = t.movementConstant[r];
      for (size_t s = 0; s < w0.size(); ++s)
        c -= Rational(t.layout.linear[r][s]) * w0[s];
      if (!c.isInteger()) integral = false;
      t.layout.constant.push_back(c.isInteger() ? c.toInt() : 0);
    }
    if (!integral) t.reason = "the layout's constant part is not integral";
    out.tensors.push_back(std::move(t));
  }
  return out;
}

} // namespace rubick::dataflow
