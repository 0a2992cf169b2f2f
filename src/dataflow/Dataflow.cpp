// SPDX-License-Identifier: Apache-2.0
#include "rubick/dataflow/Dataflow.h"

#include "rubick/linalg/AffineText.h"
#include "rubick/support/Checked.h"

#include <algorithm>
#include <cstdlib>

namespace rubick::dataflow {

IntVec Dataflow::offset() const {
  IntVec c(3, 0);
  for (int r = 0; r < 3; ++r)
    for (size_t l = 0; l < k(); ++l)
      if (s[r][l] < 0) c[r] -= s[r][l] * (inner[l].factor - 1);
  return c;
}

IntVec Dataflow::extent() const {
  IntVec e(3, 1);
  for (int r = 0; r < 3; ++r)
    for (size_t l = 0; l < k(); ++l)
      e[r] += std::abs(s[r][l]) * (inner[l].factor - 1);
  return e;
}

bool Dataflow::fitsArray() const {
  IntVec e = extent();
  return e[0] <= p && e[1] <= q;
}

int64_t Dataflow::outerExtent(size_t o, const IntVec& loopExtent) const {
  return ceilDiv(loopExtent[outer[o].loop], outer[o].factor);
}

std::vector<int> Dataflow::constantAxes() const {
  std::vector<int> axes;
  for (int r = 0; r < 3; ++r)
    if (std::all_of(s[r].begin(), s[r].end(), [](int64_t v) { return v == 0; })) axes.push_back(r);
  return axes;
}

Mat Dataflow::completedS() const {
  Mat m(3, 3);
  for (int r = 0; r < 3; ++r)
    for (size_t l = 0; l < k(); ++l)
      m(r, l) = s[r][l];
  size_t col = k();
  for (int axis : constantAxes())
    if (col < 3) m(axis, col++) = 1;
  return m;
}

IntVec Dataflow::apply(const IntVec& n) const {
  IntVec u(k());
  for (size_t l = 0; l < k(); ++l)
    u[l] = n[inner[l].loop] % inner[l].factor;
  IntVec out(3);
  IntVec c = offset();
  for (int r = 0; r < 3; ++r) {
    int64_t v = c[r];
    for (size_t l = 0; l < k(); ++l)
      v += s[r][l] * u[l];
    out[r] = v;
  }
  for (const OuterDim& o : outer)
    out.push_back(n[o.loop] / o.factor);
  return out;
}

std::string checkWellFormed(const Dataflow& d, const StatementView& v) {
  if (d.p <= 0 || d.q <= 0) return "the array must have at least one PE";
  if (d.k() == 0 || d.k() > 3) return "a dataflow needs 1 to 3 inner coordinates";
  if (d.s.size() != 3) return "S must have 3 rows (x, y, t1)";
  for (const IntVec& row : d.s)
    if (row.size() != d.k()) return "S must have one column per inner coordinate";
  std::vector<int> seenInner(v.loops.size(), 0);
  for (const InnerDim& in : d.inner) {
    if (in.loop < 0 || static_cast<size_t>(in.loop) >= v.loops.size()) return "unknown loop";
    if (seenInner[in.loop]++) return "loop '" + v.loops[in.loop] + "' is inner twice";
    if (in.factor < 2 || in.factor > v.extent[in.loop])
      return "loop '" + v.loops[in.loop] + "' has tile factor " + std::to_string(in.factor) +
             "; it must be between 2 and the loop's extent " + std::to_string(v.extent[in.loop]);
  }
  std::vector<int> seenOuter(v.loops.size(), 0);
  for (const OuterDim& o : d.outer) {
    if (o.loop < 0 || static_cast<size_t>(o.loop) >= v.loops.size()) return "unknown loop";
    if (seenOuter[o.loop]++) return "loop '" + v.loops[o.loop] + "' is in outer time twice";
    int64_t f = 1;
    for (const InnerDim& in : d.inner)
      if (in.loop == o.loop) f = in.factor;
    if (o.factor != f)
      return "outer time '" + v.loops[o.loop] + " / " + std::to_string(o.factor) +
             "' does not match its inner part (factor " + std::to_string(f) + ")";
    if (ceilDiv(v.extent[o.loop], o.factor) < 2)
      return "outer time over '" + v.loops[o.loop] + "' takes a single value; leave it out";
  }
  // Every loop with more than one value must be covered.
  for (size_t l = 0; l < v.loops.size(); ++l) {
    int64_t innerF = 1;
    for (const InnerDim& in : d.inner)
      if (in.loop == static_cast<int>(l)) innerF = in.factor;
    bool needsOuter = ceilDiv(v.extent[l], innerF) > 1;
    if (needsOuter && !seenOuter[l])
      return innerF > 1 ? "loop '" + v.loops[l] + "' is split by " + std::to_string(innerF) +
                              " but its quotient '" + v.loops[l] + " / " + std::to_string(innerF) +
                              "' is not in outer time"
                        : "loop '" + v.loops[l] + "' is not mapped to space or time";
  }
  const char* singular = "S is singular: two iterations share a PE and cycle";
  if (Mat::fromRows(d.s, d.k()).rank() < d.k()) return singular;
  if (d.constantAxes().size() != 3 - d.k())
    return "with " + std::to_string(d.k()) + " inner coordinates, exactly " +
           std::to_string(3 - d.k()) + " of x, y, t1 must be constant";
  if (d.completedS().det().isZero()) return singular;
  return "";
}

std::vector<OuterDim> canonicalOuter(const std::vector<InnerDim>& inner, const IntVec& extent) {
  std::vector<OuterDim> out;
  for (size_t l = extent.size(); l-- > 0;) {
    int64_t f = 1;
    for (const InnerDim& in : inner)
      if (in.loop == static_cast<int>(l)) f = in.factor;
    if (ceilDiv(extent[l], f) > 1) out.push_back({static_cast<int>(l), f});
  }
  return out;
}

namespace {

// Negates a row of S unless its first nonzero coefficient is already positive.
void makeLeadingPositive(IntVec& row) {
  for (int64_t v : row) {
    if (v == 0) continue;
    if (v < 0)
      for (int64_t& w : row)
        w = -w;
    return;
  }
}

} // namespace

Dataflow canonicalMirror(const Dataflow& d) {
  Dataflow c = d;
  makeLeadingPositive(c.s[0]);
  makeLeadingPositive(c.s[1]);
  return c;
}

Dataflow canonicalTimeDirection(const Dataflow& d) {
  Dataflow c = d;
  makeLeadingPositive(c.s[2]);
  return c;
}

namespace {

std::string atomName(const Dataflow& d, const StatementView& v, size_t l) {
  const InnerDim& in = d.inner[l];
  if (in.factor == v.extent[in.loop]) return v.loops[in.loop];
  return v.loops[in.loop] + " mod " + std::to_string(in.factor);
}

std::string affineSpec(const Dataflow& d, const StatementView& v, int row, int64_t constant) {
  std::vector<std::pair<Rational, std::string>> terms;
  for (size_t l = 0; l < d.k(); ++l)
    terms.emplace_back(d.s[row][l], atomName(d, v, l));
  return affineText(terms, constant);
}

} // namespace

std::string toSpec(const Dataflow& d, const StatementView& v) {
  IntVec c = d.offset();
  std::string s = "PE(" + affineSpec(d, v, 0, c[0]) + ", " + affineSpec(d, v, 1, c[1]) + ") | T(" +
                  affineSpec(d, v, 2, c[2]);
  for (const OuterDim& o : d.outer)
    s += ", " +
         (o.factor == 1 ? v.loops[o.loop] : v.loops[o.loop] + " / " + std::to_string(o.factor));
  return s + ")";
}

} // namespace rubick::dataflow
