// SPDX-License-Identifier: Apache-2.0
#include "rubick/linalg/Rational.h"

namespace rubick {
namespace {

__int128 gcd128(__int128 a, __int128 b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    __int128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

bool fits64(__int128 v) {
  return v >= INT64_MIN && v <= INT64_MAX;
}

} // namespace

Rational::Rational(int64_t n, int64_t d) {
  *this = make(n, d);
}

Rational Rational::make(__int128 n, __int128 d) {
  if (d == 0) throw std::domain_error("rational division by zero");
  if (d < 0) {
    n = -n;
    d = -d;
  }
  Rational r;
  if (d == 1) {
    if (!fits64(n)) throw std::overflow_error("rational arithmetic overflow");
    r.num_ = static_cast<int64_t>(n);
    return r;
  }
  if (fits64(n) && fits64(d)) {
    // The common case: 64-bit gcd is far cheaper than 128-bit division.
    int64_t n64 = static_cast<int64_t>(n), d64 = static_cast<int64_t>(d);
    int64_t g = std::gcd(n64, d64);
    r.num_ = n64 / g;
    r.den_ = d64 / g;
    return r;
  }
  __int128 g = gcd128(n, d);
  if (g > 1) {
    n /= g;
    d /= g;
  }
  if (!fits64(n) || !fits64(d)) throw std::overflow_error("rational arithmetic overflow");
  r.num_ = static_cast<int64_t>(n);
  r.den_ = static_cast<int64_t>(d);
  return r;
}

int64_t Rational::toInt() const {
  if (den_ != 1) throw std::logic_error("rational " + str() + " is not an integer");
  return num_;
}

std::string Rational::str() const {
  return den_ == 1 ? std::to_string(num_) : std::to_string(num_) + "/" + std::to_string(den_);
}

Rational operator+(Rational a, Rational b) {
  if (a.den_ == 1 && b.den_ == 1) return Rational::make(__int128(a.num_) + b.num_, 1);
  return Rational::make(__int128(a.num_) * b.den_ + __int128(b.num_) * a.den_,
                        __int128(a.den_) * b.den_);
}
Rational operator-(Rational a, Rational b) {
  return a + (-b);
}
Rational operator*(Rational a, Rational b) {
  if (a.den_ == 1 && b.den_ == 1) return Rational::make(__int128(a.num_) * b.num_, 1);
  return Rational::make(__int128(a.num_) * b.num_, __int128(a.den_) * b.den_);
}
Rational operator/(Rational a, Rational b) {
  return Rational::make(__int128(a.num_) * b.den_, __int128(a.den_) * b.num_);
}
Rational Rational::operator-() const {
  return make(-__int128(num_), den_);
}

std::strong_ordering operator<=>(const Rational& a, const Rational& b) {
  return __int128(a.num_) * b.den_ <=> __int128(b.num_) * a.den_;
}

} // namespace rubick
