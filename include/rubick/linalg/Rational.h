// SPDX-License-Identifier: Apache-2.0
#pragma once
// An exact rational number with 64-bit numerator and denominator. Matrices in rubick are tiny
// (at most a few rows and columns with small entries), so int64 suffices; an overflow is an
// internal error and throws std::overflow_error rather than wrapping silently.

#include <compare>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>

namespace rubick {

class Rational {
public:
  constexpr Rational() = default;
  constexpr Rational(int64_t n) : num_(n) {} // NOLINT: integers convert implicitly
  Rational(int64_t n, int64_t d);

  int64_t num() const { return num_; }
  int64_t den() const { return den_; }
  bool isInteger() const { return den_ == 1; }
  bool isZero() const { return num_ == 0; }
  /// The value as an integer; throws std::logic_error when it is not one.
  int64_t toInt() const;
  std::string str() const;

  friend Rational operator+(Rational a, Rational b);
  friend Rational operator-(Rational a, Rational b);
  friend Rational operator*(Rational a, Rational b);
  friend Rational operator/(Rational a, Rational b);
  Rational operator-() const;
  Rational& operator+=(Rational b) { return *this = *this + b; }
  Rational& operator-=(Rational b) { return *this = *this - b; }
  Rational& operator*=(Rational b) { return *this = *this * b; }
  Rational& operator/=(Rational b) { return *this = *this / b; }
  friend bool operator==(const Rational&, const Rational&) = default;
  friend std::strong_ordering operator<=>(const Rational& a, const Rational& b);

private:
  static Rational make(__int128 n, __int128 d);
  int64_t num_ = 0;
  int64_t den_ = 1;
};

} // namespace rubick
