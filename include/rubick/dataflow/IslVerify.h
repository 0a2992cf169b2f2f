// SPDX-License-Identifier: Apache-2.0
#pragma once
// Independent checks of the dataflow algebra with isl on the real bounded domain:
//  - legality: Theta is one-to-one on the domain, time stamps are non-negative, PEs lie in the
//    array;
//  - decomposition: M_T = A_T o Theta^-1 equals L_T o Omega_T as isl maps on Theta(domain).
// The enumeration does its own exact integer reasoning; these checks confirm it.

#include "rubick/dataflow/Decompose.h"
#include "rubick/poly/IslContext.h"

#include <string>

namespace rubick::dataflow {

struct LegalityReport {
  bool injective = false;
  bool timeNonNegative = false;
  bool insideArray = false;
  bool legal() const { return injective && timeNonNegative && insideArray; }
  std::string why() const; // empty when legal
};

LegalityReport checkLegality(const poly::IslContext& ctx, const StatementView& v,
                             const Dataflow& d);

/// True when every realisable tensor of `dec` satisfies M_T = L_T o Omega_T on the domain;
/// `failure` names the first tensor that does not.
bool verifyDecomposition(const poly::IslContext& ctx, const StatementView& v, const Dataflow& d,
                         const Decomposition& dec, std::string* failure = nullptr);

/// Theta as isl text, e.g. "{ S[i, j, k] -> ST[k, j mod 2, i + (j mod 2), floor(j/2)] }" (for
/// tests and messages).
std::string thetaIslText(const StatementView& v, const Dataflow& d);

} // namespace rubick::dataflow
