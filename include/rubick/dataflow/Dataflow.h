// SPDX-License-Identifier: Apache-2.0
#pragma once
// A spatial dataflow (space-time map) of one statement onto a P x Q PE array:
//
//   S(i,j,k) -> PE(k, j mod 2) | T(i + j mod 2, j / 2)
//
// Loops are first tiled: a loop n with factor f splits into a remainder n mod f (an *inner*
// coordinate) and a quotient floor(n / f) (an *outer* time coordinate); f = extent keeps the whole
// loop inner, and a loop that is not inner is wholly outer. The k <= 3 inner coordinates u map
// linearly to (x, y, t1) through the integer matrix S (3 x k), shifted so every coordinate
// starts at 0; the outer coordinates are the outer time stamps t2, t3, ... (t2 innermost).
//
// With fewer than three inner coordinates (a 2-loop program such as GEMV), the axes S does not
// use are constant 0: S has exactly 3-k zero rows.

#include "rubick/dataflow/StatementView.h"
#include "rubick/linalg/Matrix.h"

#include <string>
#include <vector>

namespace rubick::dataflow {

struct InnerDim {
  int loop = 0;
  int64_t factor = 0; // remainder extent; == loop extent when the loop is not split
  friend auto operator<=>(const InnerDim&, const InnerDim&) = default;
};

struct OuterDim {
  int loop = 0;
  int64_t factor = 1; // quotient n / factor; 1 when the whole loop is outer
  friend auto operator<=>(const OuterDim&, const OuterDim&) = default;
};

struct Dataflow {
  int64_t p = 0, q = 0;        // array shape: x in [0, p), y in [0, q)
  std::vector<InnerDim> inner; // u_0 .. u_{k-1}
  std::vector<IntVec> s;       // 3 rows (x, y, t1), k columns
  std::vector<OuterDim> outer; // t2, t3, ... (innermost first)
  friend auto operator<=>(const Dataflow&, const Dataflow&) = default;

  size_t k() const { return inner.size(); }
  /// Offsets that make x, y, t1 start at 0 over the inner box.
  IntVec offset() const;
  /// Number of values x, y, t1 take over the inner box.
  IntVec extent() const;
  bool fitsArray() const;
  /// Extent of outer coordinate `o` for the given loop extents.
  int64_t outerExtent(size_t o, const IntVec& loopExtent) const;
  /// S completed to 3 x 3 with unit columns for the constant axes.
  Mat completedS() const;
  /// The axes (0 = x, 1 = y, 2 = t1) that S leaves constant.
  std::vector<int> constantAxes() const;
  /// Maps one iteration (loop values from 0) to (x, y, t1, t2, ...).
  IntVec apply(const IntVec& iteration) const;
};

/// Why a dataflow is malformed (wrong shapes, repeated loops, singular S, ...); empty if fine.
std::string checkWellFormed(const Dataflow& d, const StatementView& v);

/// The canonical outer order: quotients and outer loops by loop position, the last loop innermost.
std::vector<OuterDim> canonicalOuter(const std::vector<InnerDim>& inner, const IntVec& extent);

/// The representative of a dataflow and its mirrorings in x and y (the same hardware): the
/// first nonzero coefficient of the x and of the y row of S is positive.
Dataflow canonicalMirror(const Dataflow& d);

/// The same with t1 reversed (t1 -> T1-1-t1): the first nonzero coefficient of the t1 row is
/// positive. Reversal keeps every metric (it mirrors the entries' flows and reverses the
/// reduction order); the explorer lists one of the two.
Dataflow canonicalTimeDirection(const Dataflow& d);

/// The dataflow in the spec notation, e.g. "PE(k, j mod 2) | T(i + j mod 2, j / 2)".
std::string toSpec(const Dataflow& d, const StatementView& v);

} // namespace rubick::dataflow
