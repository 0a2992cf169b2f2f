// SPDX-License-Identifier: Apache-2.0
#pragma once
// Small dense matrices over exact rationals, with the few operations the dataflow algebra needs:
// products, reduced row echelon form, rank, null spaces (as primitive integer vectors), inverse
// and the solution of A X = B. Sizes are tiny (<= ~10), so clarity wins over speed.

#include "rubick/linalg/Rational.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace rubick {

using IntVec = std::vector<int64_t>;

class Mat {
public:
  Mat() = default;
  Mat(size_t rows, size_t cols) : rows_(rows), cols_(cols), a_(rows * cols) {}
  /// Mat::fromRows({{1, 0}, {0, 1}}); all rows must have the same length.
  static Mat fromRows(std::initializer_list<std::initializer_list<int64_t>> rows);
  static Mat fromRows(const std::vector<IntVec>& rows, size_t cols);
  static Mat fromColumns(const std::vector<IntVec>& cols, size_t rows);
  static Mat identity(size_t n);

  size_t rows() const { return rows_; }
  size_t cols() const { return cols_; }
  Rational& operator()(size_t r, size_t c) { return a_[r * cols_ + c]; }
  const Rational& operator()(size_t r, size_t c) const { return a_[r * cols_ + c]; }

  Mat operator*(const Mat& b) const;
  Mat operator+(const Mat& b) const;
  Mat operator-(const Mat& b) const;
  friend bool operator==(const Mat&, const Mat&) = default;

  Mat transpose() const;
  Mat row(size_t r) const;
  Mat col(size_t c) const;
  /// Rows [r0, r0+n) stacked; `vstack` appends b's rows below this one's.
  Mat rowRange(size_t r0, size_t n) const;
  Mat vstack(const Mat& b) const;
  Mat hstack(const Mat& b) const;

  bool isIntegral() const;
  bool isZero() const;
  /// Entries as integers; throws std::logic_error if some entry is not an integer.
  std::vector<IntVec> toIntRows() const;
  IntVec toIntVec() const; // for a single row or column

  /// Reduced row echelon form; `pivots` receives the pivot column of each nonzero row.
  Mat rref(std::vector<size_t>* pivots = nullptr) const;
  size_t rank() const;
  Rational det() const;
  std::optional<Mat> inverse() const;
  /// Basis of { v : M v = 0 }, each vector scaled to coprime integers with its first nonzero
  /// entry positive; empty when M has full column rank.
  std::vector<IntVec> nullSpace() const;

  /// "[1 0; 0 -1/2]"
  std::string str() const;

private:
  size_t rows_ = 0, cols_ = 0;
  std::vector<Rational> a_;
};

/// The solution X of A X = B when it exists and is unique.
struct SolveResult {
  enum class Status { Unique, Inconsistent, Underdetermined };
  Status status = Status::Inconsistent;
  Mat x;
};
SolveResult solve(const Mat& a, const Mat& b);

/// Scales a rational vector to coprime integers with the first nonzero entry positive.
IntVec primitive(const std::vector<Rational>& v);

/// True when v lies in the span of the columns of `basis` (given as vectors of length n).
bool inSpan(const std::vector<IntVec>& basis, const IntVec& v);

} // namespace rubick
