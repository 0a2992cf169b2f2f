// SPDX-License-Identifier: Apache-2.0
#pragma once
// One statement as the dataflow algebra sees it: loops normalised to start at 0, and one
// integer access matrix per tensor reference (the write first, then the reads).
//
//   C(i,j) +=! A(i,k) * B(k,j)  =>  loops i:4 j:4 k:4
//     C: [1 0 0; 0 1 0]   A: [1 0 0; 0 0 1]   B: [0 0 1; 0 1 0]

#include "rubick/frontend/Program.h"
#include "rubick/linalg/Matrix.h"

#include <string>
#include <vector>

namespace rubick::dataflow {

struct AccessView {
  std::string name; // tensor name, with "#2", "#3" for further references to the same tensor
  int tensor = -1;
  bool write = false;
  std::vector<IntVec> coeffs; // one row per tensor dimension, one column per loop
  IntVec constant;            // per tensor dimension (loop offsets folded in)
  int64_t elementBits = 0;
  IntVec shape; // the tensor's declared sizes (row-major in memory); empty: unknown
};

enum class Fold { Sum, Max, Min };

struct StatementView {
  std::string statement; // "S0"
  std::vector<std::string> loops;
  IntVec extent;
  std::vector<AccessView> accesses;
  /// The statement's text and its tensors' declarations (name, type, shape): with the loops
  /// and accesses, what identifies the computation (design IDs hash it). Last, so that
  /// aggregate initialisers of the fields above keep their meaning.
  std::string signature;
  /// `+=` (or another operator that reads the output's old value): the output starts from its
  /// given values instead of the reduction's identity.
  bool accumulates = false;
  /// How the values meet in an output element: summed (`+=!`, `+=`, `=`), or their maximum or
  /// minimum (`max=!`, `min=!`, ...).
  Fold fold = Fold::Sum;
  /// The product's integer constant factor: 2 in `2 * A(i,k) * B(k,j)`, -1 in `-A(i) * B(i)`
  /// (1 when the right-hand side is not a product of tensor reads, constants and negations).
  int64_t factor = 1;
  size_t loopIndex(const std::string& name) const; // loops.size() when absent
  size_t accessIndex(int tensor) const;            // accesses.size() when absent
};

/// The signed width of `factor`'s constant operand in the PEs (0: none, for a factor of 1).
inline int64_t factorBits(int64_t factor) {
  if (factor == 1) return 0;
  int64_t w = 1;
  while (factor < -(int64_t(1) << (w - 1)) || factor > (int64_t(1) << (w - 1)) - 1)
    ++w;
  return w;
}

/// The most iterations a statement may have (the product of its loop extents).
inline constexpr int64_t kMaxIterations = int64_t(1) << 50;

/// Throws rubick::Error when `stmt` is out of range or has more than kMaxIterations iterations.
StatementView viewStatement(const tc::Program& program, size_t stmt);

} // namespace rubick::dataflow
