// SPDX-License-Identifier: Apache-2.0
#pragma once
// The polyhedral model of a checked program: per statement an iteration domain (isl set) and one
// access relation (isl map) per tensor reference, with the written access and the reduction
// marked. Sizes are bound, so every set is concrete:
//
//   S0 domain  { S0[i, j, k] : 0 <= i <= 63 and 0 <= j <= 63 and 0 <= k <= 63 }
//   write      { S0[i, j, k] -> C[i, j] }     reduction + over k, initialised with 0
//   read       { S0[i, j, k] -> A[i, k] },  { S0[i, j, k] -> B[k, j] }

#include "rubick/frontend/Program.h"
#include "rubick/poly/IslContext.h"

#include <vector>

namespace rubick::poly {

struct PolyAccess {
  int tensor = -1;
  bool write = false;
  /// For the written access of a reduction (+=!, max=!, ...): the reduced loops.
  std::vector<int> reductionLoops;
  isl::map relation; // statement domain space -> tensor space
};

struct PolyStatement {
  size_t statement = 0; // index into PolyProgram::program.statements
  isl::set domain;
  /// The write first, then the reads in order of appearance (a `+=` statement's old-value read
  /// of its own output comes right after the write).
  std::vector<PolyAccess> accesses;
};

struct PolyProgram {
  tc::Program program;
  std::vector<isl::set> tensorDomains; // per tensor: all valid element indices
  std::vector<PolyStatement> statements;
};

/// Builds the model. `ctx` must outlive the result.
PolyProgram lower(const IslContext& ctx, tc::Program program);

/// The model in isl notation, one block per statement (what `rubick dump --poly` prints).
std::string printPoly(const PolyProgram& p);

} // namespace rubick::poly
