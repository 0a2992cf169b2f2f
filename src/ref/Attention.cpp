// SPDX-License-Identifier: Apache-2.0
#include "rubick/ref/Attention.h"

#include "rubick/ref/Fixed.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rubick::ref {
namespace {

void checkShape(const std::vector<int64_t>& q, const std::vector<int64_t>& k, int64_t L, int64_t S,
                int64_t D) {
  if (L < 1 || S < 1 || D < 1) throw std::invalid_argument("attention: L, S and D must be >= 1");
  if (static_cast<int64_t>(q.size()) != L * D || static_cast<int64_t>(k.size()) != S * D)
    throw std::invalid_argument("attention: Q must hold L*D values, K S*D");
}

void checkShape(const std::vector<int64_t>& q, const std::vector<int64_t>& k,
                const std::vector<int64_t>& v, int64_t L, int64_t S, int64_t D) {
  checkShape(q, k, L, S, D);
  if (static_cast<int64_t>(v.size()) != S * D)
    throw std::invalid_argument("attention: Q must hold L*D values, K and V S*D each");
}

// Sc(i, j) = sum_d Q(i, d) K(j, d).
int64_t score(const std::vector<int64_t>& q, const std::vector<int64_t>& k, int64_t D, int64_t i,
              int64_t j) {
  int64_t acc = 0;
  for (int64_t d = 0; d < D; ++d)
    acc += q[i * D + d] * k[j * D + d];
  return acc;
}

} // namespace

std::vector<int64_t> attentionFixed(const std::vector<int64_t>& q, const std::vector<int64_t>& k,
                                    const std::vector<int64_t>& v, int64_t L, int64_t S, int64_t D,
                                    int expFrac, int64_t blockKeys) {
  return attentionFixed(q, k, v, L, S, D, D, expFrac, blockKeys);
}

std::vector<int64_t> attentionFixed(const std::vector<int64_t>& q, const std::vector<int64_t>& k,
                                    const std::vector<int64_t>& v, int64_t L, int64_t S, int64_t D,
                                    int64_t Dv, int expFrac, int64_t blockKeys) {
  if (Dv < 1) throw std::invalid_argument("attention: Dv must be >= 1");
  checkShape(q, k, L, S, D);
  if (static_cast<int64_t>(v.size()) != S * Dv)
    throw std::invalid_argument("attention: V must hold S*Dv values");
  if (blockKeys < 1) throw std::invalid_argument("attention: blockKeys must be >= 1");
  std::vector<int64_t> o(L * Dv);
  std::vector<int64_t> sc, u(Dv), acc(Dv);
  for (int64_t i = 0; i < L; ++i) {
    int64_t m = 0, l = 0; // m is meaningless before the first block (it is -infinity)
    std::fill(u.begin(), u.end(), 0);
    for (int64_t j0 = 0; j0 < S; j0 += blockKeys) {
      const int64_t j1 = std::min(S, j0 + blockKeys);
      sc.resize(j1 - j0);
      for (int64_t j = j0; j < j1; ++j)
        sc[j - j0] = score(q, k, D, i, j);
      const int64_t blockMax = *std::max_element(sc.begin(), sc.end());
      const bool first = j0 == 0;
      const int64_t mNew = first ? blockMax : std::max(m, blockMax);
      const int64_t alpha = first ? 0 : expQ15(m - mNew, expFrac);
      int64_t sumE = 0;
      std::fill(acc.begin(), acc.end(), 0);
      for (int64_t j = j0; j < j1; ++j) {
        const int64_t e = expQ15(sc[j - j0] - mNew, expFrac);
        sumE += e;
        for (int64_t d = 0; d < Dv; ++d)
          acc[d] += e * v[j * Dv + d];
      }
      l = rescaleQ15(l, alpha) + sumE;
      for (int64_t d = 0; d < Dv; ++d)
        u[d] = rescaleQ15(u[d], alpha) + acc[d];
      m = mNew;
    }
    for (int64_t d = 0; d < Dv; ++d)
      o[i * Dv + d] = saturate(divideExact(u[d], l), 64);
  }
  return o;
}

std::vector<double> attentionFloat(const std::vector<int64_t>& q, const std::vector<int64_t>& k,
                                   const std::vector<int64_t>& v, int64_t L, int64_t S, int64_t D,
                                   int expFrac) {
  checkShape(q, k, v, L, S, D);
  const double scale = std::ldexp(1.0, -expFrac);
  std::vector<double> o(L * D, 0.0), p(S);
  for (int64_t i = 0; i < L; ++i) {
    double mx = -INFINITY;
    for (int64_t j = 0; j < S; ++j) {
      p[j] = static_cast<double>(score(q, k, D, i, j)) * scale;
      mx = std::max(mx, p[j]);
    }
    double sum = 0;
    for (int64_t j = 0; j < S; ++j) {
      p[j] = std::exp(p[j] - mx);
      sum += p[j];
    }
    for (int64_t j = 0; j < S; ++j)
      for (int64_t d = 0; d < D; ++d)
        o[i * D + d] += p[j] / sum * static_cast<double>(v[j * D + d]);
  }
  return o;
}

std::vector<int64_t> saturateValues(const std::vector<int64_t>& values, int bits) {
  std::vector<int64_t> out(values.size());
  std::transform(values.begin(), values.end(), out.begin(),
                 [bits](int64_t x) { return saturate(x, bits); });
  return out;
}

} // namespace rubick::ref
