// SPDX-License-Identifier: Apache-2.0
#include "NumberText.h"

#include <charconv>
#include <cmath>

namespace rubick::dse {
namespace {

// std::to_chars and std::from_chars never consult the locale, unlike printf and iostreams.
std::string chars(double x, std::chars_format f, int precision) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, f, precision);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

} // namespace

double roundSignificant(double x, int digits) {
  if (!std::isfinite(x) || x == 0) return x;
  std::string s = chars(x, std::chars_format::scientific, digits - 1);
  double out = x;
  std::from_chars(s.data(), s.data() + s.size(), out);
  return out;
}

std::string formatSignificant(double x, int digits) {
  if (!std::isfinite(x)) return std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
  double r = roundSignificant(x, digits);
  if (r == 0) return "0"; // also turns -0 into 0
  // %g-style output switches to an exponent at 10^digits; large integers read better plainly.
  if (std::fabs(r) >= std::pow(10.0, digits) && std::fabs(r) < 1e15)
    return chars(r, std::chars_format::fixed, 0);
  return chars(r, std::chars_format::general, digits);
}

std::string formatFixed(double x, int decimals) {
  if (!std::isfinite(x)) return "0";
  std::string s = chars(x, std::chars_format::fixed, decimals);
  // "-0.00" would differ from "0.00" for the same picture.
  if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);
  return s;
}

} // namespace rubick::dse
