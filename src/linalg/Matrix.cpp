// SPDX-License-Identifier: Apache-2.0
#include "rubick/linalg/Matrix.h"

#include <cassert>
#include <cstdlib>
#include <numeric>

namespace rubick {

Mat Mat::fromRows(std::initializer_list<std::initializer_list<int64_t>> rows) {
  size_t c = rows.size() ? rows.begin()->size() : 0;
  Mat m(rows.size(), c);
  size_t r = 0;
  for (const auto& row : rows) {
    assert(row.size() == c);
    size_t j = 0;
    for (int64_t v : row)
      m(r, j++) = v;
    ++r;
  }
  return m;
}

Mat Mat::fromRows(const std::vector<IntVec>& rows, size_t cols) {
  Mat m(rows.size(), cols);
  for (size_t r = 0; r < rows.size(); ++r) {
    assert(rows[r].size() == cols);
    for (size_t c = 0; c < cols; ++c)
      m(r, c) = rows[r][c];
  }
  return m;
}

Mat Mat::fromColumns(const std::vector<IntVec>& cols, size_t rows) {
  return fromRows(cols, rows).transpose();
}

Mat Mat::identity(size_t n) {
  Mat m(n, n);
  for (size_t i = 0; i < n; ++i)
    m(i, i) = 1;
  return m;
}

Mat Mat::operator*(const Mat& b) const {
  assert(cols_ == b.rows_);
  Mat m(rows_, b.cols_);
  for (size_t i = 0; i < rows_; ++i)
    for (size_t k = 0; k < cols_; ++k) {
      const Rational& v = (*this)(i, k);
      if (v.isZero()) continue;
      for (size_t j = 0; j < b.cols_; ++j)
        if (!b(k, j).isZero()) m(i, j) += v * b(k, j);
    }
  return m;
}

Mat Mat::operator+(const Mat& b) const {
  assert(rows_ == b.rows_ && cols_ == b.cols_);
  Mat m = *this;
  for (size_t i = 0; i < a_.size(); ++i)
    m.a_[i] += b.a_[i];
  return m;
}

Mat Mat::operator-(const Mat& b) const {
  assert(rows_ == b.rows_ && cols_ == b.cols_);
  Mat m = *this;
  for (size_t i = 0; i < a_.size(); ++i)
    m.a_[i] -= b.a_[i];
  return m;
}

Mat Mat::transpose() const {
  Mat m(cols_, rows_);
  for (size_t i = 0; i < rows_; ++i)
    for (size_t j = 0; j < cols_; ++j)
      m(j, i) = (*this)(i, j);
  return m;
}

Mat Mat::row(size_t r) const {
  return rowRange(r, 1);
}

Mat Mat::col(size_t c) const {
  Mat m(rows_, 1);
  for (size_t i = 0; i < rows_; ++i)
    m(i, 0) = (*this)(i, c);
  return m;
}

Mat Mat::rowRange(size_t r0, size_t n) const {
  assert(r0 + n <= rows_);
  Mat m(n, cols_);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < cols_; ++j)
      m(i, j) = (*this)(r0 + i, j);
  return m;
}

Mat Mat::vstack(const Mat& b) const {
  if (rows_ == 0) return b;
  if (b.rows_ == 0) return *this;
  assert(cols_ == b.cols_);
  Mat m(rows_ + b.rows_, cols_);
  for (size_t i = 0; i < rows_; ++i)
    for (size_t j = 0; j < cols_; ++j)
      m(i, j) = (*this)(i, j);
  for (size_t i = 0; i < b.rows_; ++i)
    for (size_t j = 0; j < cols_; ++j)
      m(rows_ + i, j) = b(i, j);
  return m;
}

Mat Mat::hstack(const Mat& b) const {
  if (cols_ == 0) return b;
  if (b.cols_ == 0) return *this;
  assert(rows_ == b.rows_);
  Mat m(rows_, cols_ + b.cols_);
  for (size_t i = 0; i < rows_; ++i) {
    for (size_t j = 0; j < cols_; ++j)
      m(i, j) = (*this)(i, j);
    for (size_t j = 0; j < b.cols_; ++j)
      m(i, cols_ + j) = b(i, j);
  }
  return m;
}

bool Mat::isIntegral() const {
  for (const Rational& v : a_)
    if (!v.isInteger()) return false;
  return true;
}

bool Mat::isZero() const {
  for (const Rational& v : a_)
    if (!v.isZero()) return false;
  return true;
}

std::vector<IntVec> Mat::toIntRows() const {
  std::vector<IntVec> out(rows_, IntVec(cols_));
  for (size_t i = 0; i < rows_; ++i)
    for (size_t j = 0; j < cols_; ++j)
      out[i][j] = (*this)(i, j).toInt();
  return out;
}

IntVec Mat::toIntVec() const {
  IntVec v;
  for (const Rational& x : a_)
    v.push_back(x.toInt());
  return v;
}

Mat Mat::rref(std::vector<size_t>* pivots) const {
  Mat m = *this;
  if (pivots) pivots->clear();
  size_t r = 0;
  for (size_t c = 0; c < cols_ && r < rows_; ++c) {
    size_t p = r;
    while (p < rows_ && m(p, c).isZero())
      ++p;
    if (p == rows_) continue;
    if (p != r)
      for (size_t j = 0; j < cols_; ++j)
        std::swap(m(p, j), m(r, j));
    Rational inv = Rational(1) / m(r, c);
    for (size_t j = 0; j < cols_; ++j)
      m(r, j) *= inv;
    for (size_t i = 0; i < rows_; ++i) {
      if (i == r || m(i, c).isZero()) continue;
      Rational f = m(i, c);
      for (size_t j = 0; j < cols_; ++j)
        m(i, j) -= f * m(r, j);
    }
    if (pivots) pivots->push_back(c);
    ++r;
  }
  return m;
}

size_t Mat::rank() const {
  std::vector<size_t> piv;
  rref(&piv);
  return piv.size();
}

Rational Mat::det() const {
  assert(rows_ == cols_);
  Mat m = *this;
  Rational d = 1;
  for (size_t c = 0; c < cols_; ++c) {
    size_t p = c;
    while (p < rows_ && m(p, c).isZero())
      ++p;
    if (p == rows_) return 0;
    if (p != c) {
      for (size_t j = 0; j < cols_; ++j)
        std::swap(m(p, j), m(c, j));
      d = -d;
    }
    d *= m(c, c);
    for (size_t i = c + 1; i < rows_; ++i) {
      if (m(i, c).isZero()) continue;
      Rational f = m(i, c) / m(c, c);
      for (size_t j = c; j < cols_; ++j)
        m(i, j) -= f * m(c, j);
    }
  }
  return d;
}

std::optional<Mat> Mat::inverse() const {
  if (rows_ != cols_) return std::nullopt;
  SolveResult s = solve(*this, identity(rows_));
  if (s.status != SolveResult::Status::Unique) return std::nullopt;
  return s.x;
}

IntVec primitive(const std::vector<Rational>& v) {
  int64_t l = 1;
  for (const Rational& x : v)
    l = std::lcm(l, x.den());
  IntVec out;
  int64_t g = 0;
  for (const Rational& x : v) {
    int64_t n = (x * l).toInt();
    out.push_back(n);
    g = std::gcd(g, n);
  }
  if (g > 1)
    for (int64_t& n : out)
      n /= g;
  for (int64_t n : out) {
    if (n == 0) continue;
    if (n < 0)
      for (int64_t& m : out)
        m = -m;
    break;
  }
  return out;
}

std::vector<IntVec> Mat::nullSpace() const {
  std::vector<size_t> piv;
  Mat r = rref(&piv);
  std::vector<bool> isPivot(cols_, false);
  for (size_t p : piv)
    isPivot[p] = true;
  std::vector<IntVec> basis;
  for (size_t f = 0; f < cols_; ++f) {
    if (isPivot[f]) continue;
    std::vector<Rational> v(cols_);
    v[f] = 1;
    for (size_t i = 0; i < piv.size(); ++i)
      v[piv[i]] = -r(i, f);
    basis.push_back(primitive(v));
  }
  return basis;
}

SolveResult solve(const Mat& a, const Mat& b) {
  assert(a.rows() == b.rows());
  Mat aug = a.hstack(b);
  std::vector<size_t> piv;
  Mat r = aug.rref(&piv);
  SolveResult res;
  for (size_t p : piv)
    if (p >= a.cols()) {
      res.status = SolveResult::Status::Inconsistent;
      return res;
    }
  if (piv.size() < a.cols()) {
    res.status = SolveResult::Status::Underdetermined;
    return res;
  }
  res.status = SolveResult::Status::Unique;
  res.x = Mat(a.cols(), b.cols());
  for (size_t i = 0; i < piv.size(); ++i)
    for (size_t j = 0; j < b.cols(); ++j)
      res.x(piv[i], j) = r(i, a.cols() + j);
  return res;
}

bool inSpan(const std::vector<IntVec>& basis, const IntVec& v) {
  if (basis.empty()) {
    for (int64_t x : v)
      if (x != 0) return false;
    return true;
  }
  Mat b = Mat::fromColumns(basis, v.size());
  Mat withV = b.hstack(Mat::fromColumns({v}, v.size()));
  return withV.rank() == b.rank();
}

std::string Mat::str() const {
  std::string s = "[";
  for (size_t i = 0; i < rows_; ++i) {
    if (i) s += "; ";
    for (size_t j = 0; j < cols_; ++j)
      s += (j ? " " : "") + (*this)(i, j).str();
  }
  return s + "]";
}

} // namespace rubick
