// SPDX-License-Identifier: Apache-2.0
// Semantic analysis: index ranges (from `where`, from the dimensions an index addresses, or
// solved from affine accesses) and the bounds check of every access.

#include "SemaImpl.h"

#include "rubick/support/Checked.h"

#include <algorithm>

namespace rubick::tc::detail {

int64_t Sema::constantValue(const Expr& e) {
  switch (e.kind) {
  case Expr::Kind::IntLit:
    return e.intValue;
  case Expr::Kind::Name:
    if (isSize(e.name)) return sizes_.at(e.name);
    fail(e.loc, width(e.name),
         "range bounds may use sizes and integers only; '" + e.name +
             "' is an index (ranges that depend on other indices, as in triangular loops, "
             "are not supported)");
  case Expr::Kind::Neg: {
    auto v = checkedMul(-1, constantValue(e.args[0]));
    if (!v) overflow(e);
    return *v;
  }
  case Expr::Kind::Add:
  case Expr::Kind::Sub:
  case Expr::Kind::Mul:
  case Expr::Kind::Div: {
    int64_t l = constantValue(e.args[0]), r = constantValue(e.args[1]);
    std::optional<int64_t> v;
    if (e.kind == Expr::Kind::Add) v = checkedAdd(l, r);
    if (e.kind == Expr::Kind::Sub) v = checkedSub(l, r);
    if (e.kind == Expr::Kind::Mul) v = checkedMul(l, r);
    if (e.kind == Expr::Kind::Div) {
      if (r == 0) fail(e.loc, 1, "division by zero in a range bound");
      if (!(l == INT64_MIN && r == -1)) v = floorDiv(l, r);
    }
    if (!v) overflow(e);
    return *v;
  }
  case Expr::Kind::FloatLit:
    fail(e.loc, width(e.text), "range bounds must be integers, found '" + e.text + "'");
  case Expr::Kind::Access:
  case Expr::Kind::Call:
    break;
  }
  fail(e.loc, width(e.name), "range bounds may use sizes and integers only");
}

std::string Sema::dimOrigin(const Tensor& t, size_t d) const {
  std::string s = "dimension " + std::to_string(d) + " of '" + t.name + "'";
  if (d < t.dimSymbols.size() && !t.dimSymbols[d].empty()) s += " (size " + t.dimSymbols[d] + ")";
  return s;
}

std::string Sema::rangeText(const Range& r) {
  return std::to_string(r.lo) + ":" + std::to_string(r.hi);
}

void Sema::inferRanges(StmtCtx& c, int lhs, const Access& write, const std::vector<Access>& reads,
                       const std::vector<std::vector<SourceLoc>>& readArgLocs) {
  c.ranges.assign(c.vars.size(), Range{});
  const Stmt& s = *c.stmt;
  for (const RangeDecl& r : s.where) {
    int v = c.var(r.index.name);
    Range nr;
    nr.source = Range::Source::Where;
    nr.lo = constantValue(r.lo);
    nr.hi = constantValue(r.hi);
    nr.loc = r.index.loc;
    nr.origin = "'where'";
    if (nr.lo < -kMaxSize || nr.hi > kMaxSize)
      fail(startLoc(r.lo), 1,
           "range " + r.index.name + " in " + rangeText(nr) + " is too large (limit " +
               std::to_string(kMaxSize) + ")");
    if (nr.hi <= nr.lo)
      fail(startLoc(r.lo), 1, "empty range: " + r.index.name + " in " + rangeText(nr));
    Range& cur = c.ranges[v];
    if (cur.known() && (cur.lo != nr.lo || cur.hi != nr.hi))
      fail(r.index.loc, width(r.index.name),
           "conflicting ranges for index '" + r.index.name + "': " + rangeText(cur) + " and " +
               rangeText(nr),
           {{cur.loc, "first range given here"}});
    cur = nr;
  }

  // Candidate constraints: every access whose tensor shape is known.
  struct Use {
    const Access* access;
    const std::vector<SourceLoc>* locs;
  };
  std::vector<Use> uses;
  std::vector<SourceLoc> lhsLocs;
  for (const Ident& i : s.lhsIndices)
    lhsLocs.push_back(i.loc);
  if (state_[lhs].shapeKnown) uses.push_back({&write, &lhsLocs});
  for (size_t r = 0; r < reads.size(); ++r)
    uses.push_back({&reads[r], &readArgLocs[r]});

  // Plain uses: the index alone in a dimension.
  for (const Use& u : uses) {
    const Tensor& t = prog_.tensors[u.access->tensor];
    for (size_t d = 0; d < u.access->indices.size(); ++d) {
      const AffineIndex& a = u.access->indices[d];
      int only = -1, nonzero = 0;
      for (size_t v = 0; v < a.coeffs.size(); ++v)
        if (a.coeffs[v] != 0) {
          ++nonzero;
          only = static_cast<int>(v);
        }
      if (nonzero != 1 || a.coeffs[only] != 1 || a.constant != 0) continue;
      Range& cur = c.ranges[only];
      if (cur.source == Range::Source::Where) continue;
      Range nr;
      nr.source = Range::Source::Plain;
      nr.lo = 0;
      nr.hi = t.shape[d];
      nr.loc = (*u.locs)[d];
      nr.origin = dimOrigin(t, d);
      nr.symbol = d < t.dimSymbols.size() ? t.dimSymbols[d] : "";
      if (cur.known() && cur.hi != nr.hi)
        fail(nr.loc, width(c.vars[only]),
             "conflicting ranges for index '" + c.vars[only] + "': " + rangeText(cur) + " from " +
                 cur.origin + ", but " + rangeText(nr) + " from " + nr.origin + "; add 'where " +
                 c.vars[only] + " in lo:hi' to choose",
             {{cur.loc, "first range inferred here"}});
      if (!cur.known()) cur = nr;
    }
  }

  // Derived uses: solve an index from an affine use once its partners' ranges are known.
  bool progress = true;
  while (progress) {
    progress = false;
    for (size_t v = 0; v < c.vars.size(); ++v) {
      if (c.ranges[v].known()) continue;
      std::optional<Range> acc;
      for (const Use& u : uses) {
        const Tensor& t = prog_.tensors[u.access->tensor];
        for (size_t d = 0; d < u.access->indices.size(); ++d) {
          const AffineIndex& a = u.access->indices[d];
          if (a.coeffs[v] == 0) continue;
          bool othersKnown = true;
          for (size_t w = 0; w < a.coeffs.size(); ++w)
            if (w != v && a.coeffs[w] != 0 && !c.ranges[w].known()) othersKnown = false;
          if (!othersKnown) continue;
          Range r = solve(a, v, t.shape[d], c, (*u.locs)[d], u.access->text);
          if (!acc) {
            acc = r;
          } else {
            acc->lo = std::max(acc->lo, r.lo);
            acc->hi = std::min(acc->hi, r.hi);
          }
        }
      }
      if (acc) {
        if (acc->hi <= acc->lo)
          fail(acc->loc, width(c.vars[v]),
               "no range of index '" + c.vars[v] + "' keeps every access in bounds");
        c.ranges[v] = *acc;
        progress = true;
      }
    }
  }
  for (size_t v = 0; v < c.vars.size(); ++v) {
    const Range& r = c.ranges[v];
    if (!r.known())
      fail(c.varLocs[v], width(c.vars[v]),
           "cannot infer the range of index '" + c.vars[v] + "'; add 'where " + c.vars[v] +
               " in lo:hi'");
    // Derived ranges can land far from any size (A(i - 100000000000)); keep every loop within
    // the limit that sizes obey.
    if (r.lo < -kMaxSize || r.hi > kMaxSize)
      fail(r.loc, 1,
           "the range of index '" + c.vars[v] + "' inferred from " + r.origin + ", " +
               rangeText(r) + ", is too large (limit " + std::to_string(kMaxSize) + ")");
  }
}

// Interval of an affine index over the known ranges (every other index ranges over a box).
std::pair<int64_t, int64_t> Sema::interval(const AffineIndex& a, const StmtCtx& c, int skip,
                                           const std::string& text, SourceLoc loc) {
  int64_t lo = a.constant, hi = a.constant;
  for (size_t w = 0; w < a.coeffs.size(); ++w) {
    if (static_cast<int>(w) == skip || a.coeffs[w] == 0) continue;
    const Range& r = c.ranges[w];
    auto x = checkedMul(a.coeffs[w], r.lo), y = checkedMul(a.coeffs[w], r.hi - 1);
    if (!x || !y) fail(loc, 1, "index expression in '" + text + "' overflows 64-bit integers");
    auto nl = checkedAdd(lo, std::min(*x, *y)), nh = checkedAdd(hi, std::max(*x, *y));
    if (!nl || !nh) fail(loc, 1, "index expression in '" + text + "' overflows 64-bit integers");
    lo = *nl;
    hi = *nh;
  }
  return {lo, hi};
}

Range Sema::solve(const AffineIndex& a, size_t v, int64_t dimSize, const StmtCtx& c, SourceLoc loc,
                  const std::string& text) {
  auto [rmin, rmax] = interval(a, c, static_cast<int>(v), text, loc);
  // 0 <= coef*v + rest <= dimSize-1 for every rest in [rmin, rmax].
  auto L = checkedSub(0, rmin), U = checkedSub(dimSize - 1, rmax);
  if (!L || !U) fail(loc, 1, "index expression in '" + text + "' overflows 64-bit integers");
  int64_t k = a.coeffs[v];
  Range r;
  r.source = Range::Source::Derived;
  r.loc = loc;
  r.origin = "'" + text + "'";
  // Neither division can overflow (k != 0, and L, U > INT64_MIN); the +1 can.
  std::optional<int64_t> hi;
  if (k > 0) {
    r.lo = ceilDiv(*L, k);
    hi = checkedAdd(floorDiv(*U, k), 1);
  } else {
    r.lo = ceilDiv(*U, k);
    hi = checkedAdd(floorDiv(*L, k), 1);
  }
  if (!hi) fail(loc, 1, "index expression in '" + text + "' overflows 64-bit integers");
  r.hi = *hi;
  return r;
}

void Sema::checkBounds(const Access& a, const std::vector<SourceLoc>& locs, const StmtCtx& c) {
  const Tensor& t = prog_.tensors[a.tensor];
  for (size_t d = 0; d < a.indices.size(); ++d) {
    auto [lo, hi] = interval(a.indices[d], c, -1, a.text, locs[d]);
    if (lo < 0 || hi >= t.shape[d])
      fail(locs[d], 1,
           "'" + a.text + "' is out of bounds: it indexes " + dimOrigin(t, d) + " with " +
               std::to_string(lo) + ".." + std::to_string(hi) + ", but the valid indices are 0.." +
               std::to_string(t.shape[d] - 1));
  }
}

} // namespace rubick::tc::detail
