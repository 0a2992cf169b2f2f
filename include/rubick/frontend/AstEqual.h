// SPDX-License-Identifier: Apache-2.0
#pragma once
// Structural equality of syntax trees, ignoring source locations. The printer promises that
// parse(print(m)) is the same tree as m; the unit tests and the fuzzer check that with this.

#include "rubick/frontend/Ast.h"

#include <string>

namespace rubick::tc {

/// True when `a` and `b` have the same shape and contents. On a mismatch, `why` (if given)
/// receives a short description of the first difference, such as "def 0, stmt 1: rhs differs".
bool sameTree(const Module& a, const Module& b, std::string* why = nullptr);
bool sameTree(const Expr& a, const Expr& b);

} // namespace rubick::tc
