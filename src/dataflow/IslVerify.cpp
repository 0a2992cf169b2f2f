// SPDX-License-Identifier: Apache-2.0
#include "rubick/dataflow/IslVerify.h"

#include <sstream>

namespace rubick::dataflow {
namespace {

std::string loopVar(size_t l) {
  return "n" + std::to_string(l);
}

std::string tuple(const std::string& name, size_t n, const std::string& prefix) {
  std::string s = name + "[";
  for (size_t i = 0; i < n; ++i)
    s += (i ? ", " : "") + prefix + std::to_string(i);
  return s + "]";
}

std::string domainConstraints(const StatementView& v) {
  std::string s;
  for (size_t l = 0; l < v.loops.size(); ++l)
    s += (l ? " and " : "") + std::string("0 <= ") + loopVar(l) + " < " +
         std::to_string(v.extent[l]);
  return s;
}

// sum_c coef[c] * name_c + constant, as isl text ("3 + 2*n0 - 1*n1").
std::string linear(const std::vector<std::pair<int64_t, std::string>>& terms, int64_t constant) {
  std::ostringstream os;
  os << constant;
  for (const auto& [c, name] : terms)
    if (c != 0) os << (c < 0 ? " - " : " + ") << (c < 0 ? -c : c) << "*" << name;
  return os.str();
}

isl::map accessMap(const poly::IslContext& ctx, const StatementView& v, const AccessView& a) {
  std::ostringstream os;
  os << "{ " << tuple("S", v.loops.size(), "n") << " -> T[";
  for (size_t r = 0; r < a.coeffs.size(); ++r) {
    std::vector<std::pair<int64_t, std::string>> terms;
    for (size_t l = 0; l < v.loops.size(); ++l)
      terms.emplace_back(a.coeffs[r][l], loopVar(l));
    os << (r ? ", " : "") << linear(terms, a.constant[r]);
  }
  os << "] : " << domainConstraints(v) << " }";
  return isl::map(ctx.ctx(), os.str());
}

} // namespace

std::string thetaIslText(const StatementView& v, const Dataflow& d) {
  std::vector<std::string> atoms;
  for (const InnerDim& in : d.inner)
    atoms.push_back(in.factor == v.extent[in.loop]
                        ? loopVar(in.loop)
                        : "(" + loopVar(in.loop) + " mod " + std::to_string(in.factor) + ")");
  IntVec off = d.offset();
  std::ostringstream os;
  os << "{ " << tuple("S", v.loops.size(), "n") << " -> ST[";
  for (int r = 0; r < 3; ++r) {
    std::vector<std::pair<int64_t, std::string>> terms;
    for (size_t c = 0; c < d.k(); ++c)
      terms.emplace_back(d.s[r][c], atoms[c]);
    os << (r ? ", " : "") << linear(terms, off[r]);
  }
  for (const OuterDim& o : d.outer)
    os << ", floor(" << loopVar(o.loop) << "/" << o.factor << ")";
  os << "] : " << domainConstraints(v) << " }";
  return os.str();
}

std::string LegalityReport::why() const {
  if (!injective) return "two iterations share a PE in the same cycle";
  if (!timeNonNegative) return "some time stamp is negative";
  if (!insideArray) return "some iteration falls outside the PE array";
  return "";
}

LegalityReport checkLegality(const poly::IslContext& ctx, const StatementView& v,
                             const Dataflow& d) {
  return poly::guardIsl("checking a dataflow's legality", [&] {
    LegalityReport r;
    isl::map theta(ctx.ctx(), thetaIslText(v, d));
    r.injective = theta.is_injective();
    size_t n = 3 + d.outer.size();
    std::ostringstream bounds;
    bounds << "{ " << tuple("ST", n, "t") << " : t2 >= 0";
    for (size_t i = 3; i < n; ++i)
      bounds << " and t" << i << " >= 0";
    bounds << " }";
    isl::set range = theta.range();
    r.timeNonNegative = range.is_subset(isl::set(ctx.ctx(), bounds.str()));
    std::ostringstream array;
    array << "{ " << tuple("ST", n, "t") << " : 0 <= t0 < " << d.p << " and 0 <= t1 < " << d.q
          << " }";
    r.insideArray = range.is_subset(isl::set(ctx.ctx(), array.str()));
    return r;
  });
}

bool verifyDecomposition(const poly::IslContext& ctx, const StatementView& v, const Dataflow& d,
                         const Decomposition& dec, std::string* failure) {
  return poly::guardIsl("verifying a decomposition", [&] {
    isl::map theta(ctx.ctx(), thetaIslText(v, d));
    isl::set dst = theta.range();
    size_t nOuter = d.outer.size();
    for (const TensorDecomposition& t : dec.tensors) {
      if (!t.ok()) continue;
      const AccessView& a = v.accesses[t.access];
      isl::map movement = theta.reverse().apply_range(accessMap(ctx, v, a));
      // Omega: (x, y, t1, outer...) -> E[active slots..., outer...]
      ir::OrientedEntry e = *t.entry;
      Mat om = ir::omegaLinear(e);
      IntVec oc = ir::omegaConstant(e, d.p, d.q);
      std::ostringstream os;
      os << "{ " << tuple("ST", 3 + nOuter, "t") << " -> E[";
      size_t ne = om.rows();
      for (size_t r = 0; r < ne; ++r) {
        std::vector<std::pair<int64_t, std::string>> terms;
        for (int c = 0; c < 3; ++c)
          terms.emplace_back(om(r, c).toInt(), "t" + std::to_string(c));
        os << (r ? ", " : "") << linear(terms, oc[r]);
      }
      for (size_t o = 0; o < nOuter; ++o)
        os << (ne + o ? ", " : "") << "t" << (3 + o);
      os << "] }";
      isl::map omega(ctx.ctx(), os.str());
      std::ostringstream ls;
      ls << "{ " << tuple("E", ne + nOuter, "e") << " -> T[";
      for (size_t r = 0; r < a.coeffs.size(); ++r) {
        std::vector<std::pair<int64_t, std::string>> terms;
        for (size_t c = 0; c < ne; ++c)
          terms.emplace_back(t.layout.linear[r][c], "e" + std::to_string(c));
        for (size_t o = 0; o < nOuter; ++o)
          terms.emplace_back(t.layout.outer[r][o], "e" + std::to_string(ne + o));
        ls << (r ? ", " : "") << linear(terms, t.layout.constant[r]);
      }
      ls << "] }";
      isl::map layout(ctx.ctx(), ls.str());
      isl::map composed = omega.apply_range(layout).intersect_domain(dst);
      if (!composed.is_equal(movement)) {
        if (failure) *failure = v.accesses[t.access].name;
        return false;
      }
    }
    return true;
  });
}

} // namespace rubick::dataflow
