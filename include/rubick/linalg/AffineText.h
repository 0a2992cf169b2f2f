// SPDX-License-Identifier: Apache-2.0
#pragma once
// Prints an affine expression the way people write it: "t1 - y", "y + 2*t2", "-x + 3".
// Terms with positive coefficients come first (in the given order), then the negative ones,
// then the constant; zero terms are dropped and an empty expression prints its constant.

#include "rubick/linalg/Rational.h"

#include <string>
#include <utility>
#include <vector>

namespace rubick {

std::string affineText(const std::vector<std::pair<Rational, std::string>>& terms,
                       const Rational& constant);

} // namespace rubick
