// SPDX-License-Identifier: Apache-2.0
#pragma once
// Spearman's rank correlation, which the calibration benchmarks report (a proxy only has to
// order designs as synthesis does, not predict its numbers).

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace rubick::bench {

/// Ranks from 1, ties averaged.
inline std::vector<double> ranks(const std::vector<double>& x) {
  std::vector<size_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return x[a] < x[b]; });
  std::vector<double> r(x.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]])
      ++j;
    for (size_t k = i; k <= j; ++k)
      r[order[k]] = (double(i) + double(j)) / 2 + 1;
    i = j + 1;
  }
  return r;
}

/// Pearson's coefficient; 0 when either side is constant.
inline double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  const double n = double(a.size());
  const double ma = std::accumulate(a.begin(), a.end(), 0.0) / n;
  const double mb = std::accumulate(b.begin(), b.end(), 0.0) / n;
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0;
}

inline double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  return pearson(ranks(a), ranks(b));
}

} // namespace rubick::bench
