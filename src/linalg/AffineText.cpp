// SPDX-License-Identifier: Apache-2.0
#include "rubick/linalg/AffineText.h"

namespace rubick {

std::string affineText(const std::vector<std::pair<Rational, std::string>>& terms,
                       const Rational& constant) {
  std::string s;
  auto add = [&](const Rational& c, const std::string& name) {
    Rational m = c < 0 ? -c : c;
    std::string mag = name.empty() ? m.str() : m == 1 ? name : m.str() + "*" + name;
    if (s.empty())
      s = c < 0 ? "-" + mag : mag;
    else
      s += (c < 0 ? " - " : " + ") + mag;
  };
  for (const auto& [c, n] : terms)
    if (c > 0) add(c, n);
  for (const auto& [c, n] : terms)
    if (c < 0) add(c, n);
  if (!constant.isZero() || s.empty()) {
    if (s.empty())
      s = constant.str();
    else
      add(constant, "");
  }
  return s;
}

} // namespace rubick
