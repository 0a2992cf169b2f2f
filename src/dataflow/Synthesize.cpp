// SPDX-License-Identifier: Apache-2.0
#include "rubick/dataflow/Synthesize.h"

#include "rubick/dataflow/Decompose.h"

namespace rubick::dataflow {

SynthesisResult synthesize(const StatementView& v, const Dataflow& structure,
                           const std::vector<TensorChoice>& choices) {
  SynthesisResult res;
  if (choices.size() != v.accesses.size()) {
    res.reason = "need one entry and layout per tensor reference (" +
                 std::to_string(v.accesses.size()) + "), got " + std::to_string(choices.size());
    return res;
  }
  const size_t k = structure.k();
  // Stack A_T (real inner columns) and B_T = L_T Omega_T.
  Mat a(0, k), b(0, 3);
  for (size_t t = 0; t < choices.size(); ++t) {
    const AccessView& av = v.accesses[t];
    Mat omega = ir::omegaLinear(choices[t].entry);
    if (choices[t].layout.size() != av.coeffs.size() ||
        (!choices[t].layout.empty() && choices[t].layout[0].size() != omega.rows())) {
      res.reason = "the layout of " + av.name + " must be " + std::to_string(av.coeffs.size()) +
                   " x " + std::to_string(omega.rows()) + " for entry " +
                   ir::toString(choices[t].entry);
      return res;
    }
    Mat at(av.coeffs.size(), k);
    for (size_t r = 0; r < av.coeffs.size(); ++r)
      for (size_t c = 0; c < k; ++c)
        at(r, c) = av.coeffs[r][structure.inner[c].loop];
    Mat bt = omega.rows() ? Mat::fromRows(choices[t].layout, omega.rows()) * omega
                          : Mat(av.coeffs.size(), 3);
    a = a.vstack(at);
    b = b.vstack(bt);
  }
  // Axes no tensor moves along are the constant axes of S.
  std::vector<int> constAxes;
  for (int c = 0; c < 3; ++c)
    if (b.col(c).isZero()) constAxes.push_back(c);
  if (constAxes.size() != 3 - k) {
    res.reason = "the entries and layouts vary along " + std::to_string(3 - constAxes.size()) +
                 " of x, y, t1, but there are " + std::to_string(k) + " inner coordinates";
    return res;
  }
  SolveResult s = solve(a, b);
  if (s.status == SolveResult::Status::Underdetermined) {
    res.reason = "singular: the stacked access matrix does not have full column rank, so the "
                 "tensors do not determine every inner coordinate";
    return res;
  }
  if (s.status == SolveResult::Status::Inconsistent) {
    res.reason = "no solution: the tensors' entries and layouts disagree about where some loop "
                 "goes (A_T X = L_T Omega_T has no common X)";
    return res;
  }
  Mat x(3, 3);
  for (size_t r = 0; r < k; ++r)
    for (int c = 0; c < 3; ++c)
      x(r, c) = s.x(r, c);
  for (size_t vi = 0; vi < constAxes.size(); ++vi)
    x(k + vi, constAxes[vi]) = 1;
  std::optional<Mat> sc = x.inverse();
  if (!sc) {
    res.reason = "singular: X = " + x.str() + " has no inverse";
    return res;
  }
  if (!sc->isIntegral()) {
    res.reason = "not integral: S = X^-1 = " + sc->str() + " is not an integer matrix";
    return res;
  }
  Dataflow d = structure;
  d.s.assign(3, IntVec(k, 0));
  for (int r = 0; r < 3; ++r)
    for (size_t c = 0; c < k; ++c)
      d.s[r][c] = (*sc)(r, c).toInt();
  std::string bad = checkWellFormed(d, v);
  if (!bad.empty()) {
    res.reason = "illegal: " + bad;
    return res;
  }
  if (!d.fitsArray()) {
    IntVec e = d.extent();
    res.reason = "illegal: the dataflow needs " + std::to_string(e[0]) + "x" +
                 std::to_string(e[1]) + " PEs but the array is " + std::to_string(d.p) + "x" +
                 std::to_string(d.q);
    return res;
  }
  Decomposition dec = decompose(v, d);
  for (size_t t = 0; t < choices.size(); ++t) {
    const TensorDecomposition& td = dec.tensors[t];
    if (!td.ok() || *td.entry != choices[t].entry || td.layout.linear != choices[t].layout) {
      res.reason = "the solution realises " + v.accesses[t].name + " differently (" +
                   (td.entry ? ir::toString(*td.entry) : td.reason) +
                   "): its layout leaves more reuse than the entry";
      return res;
    }
  }
  res.dataflow = d;
  return res;
}

} // namespace rubick::dataflow
