// SPDX-License-Identifier: Apache-2.0
#pragma once
// Locale-independent number text for the report files (--json, --csv, --plot). Doubles are
// rounded to a few significant digits before printing so that a file does not change with the
// last bits of a floating-point sum (the outputs must be byte-identical across runs and
// machines).

#include <string>

namespace rubick::dse {

/// `x` rounded to `digits` significant digits (non-finite values are returned unchanged).
double roundSignificant(double x, int digits = 6);

/// `x` with at most `digits` significant digits and no exponent for 1e-4 <= |x| < 1e15:
/// "0.333333", "1234570", "12", "1e-05".
std::string formatSignificant(double x, int digits = 6);

/// `x` with exactly `decimals` digits after the point ("12.50"), for SVG coordinates.
std::string formatFixed(double x, int decimals);

} // namespace rubick::dse
