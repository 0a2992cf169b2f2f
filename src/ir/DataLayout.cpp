// SPDX-License-Identifier: Apache-2.0
#include "rubick/ir/DataLayout.h"

#include "rubick/linalg/AffineText.h"

#include <cctype>
#include <cstdlib>

namespace rubick::ir {
namespace {

const char* slotName(int slot) {
  return slot == 0 ? "x" : slot == 1 ? "y" : "t1";
}

} // namespace

std::string toString(const DataLayout& l, const std::string& tensor) {
  std::string lhs = "E(";
  for (int s = 0; s < 3; ++s) {
    bool active = false;
    for (int a : l.slots)
      active |= a == s;
    lhs += (s == 2 ? " | " : s ? ", " : "") + std::string(active ? slotName(s) : "0");
  }
  for (size_t o = 0; o < (l.outer.empty() ? 0 : l.outer[0].size()); ++o)
    lhs += ", t" + std::to_string(o + 2);
  lhs += ")";
  std::string rhs = tensor + "(";
  for (size_t d = 0; d < l.constant.size(); ++d) {
    std::vector<std::pair<Rational, std::string>> terms;
    for (size_t c = 0; c < l.slots.size(); ++c)
      terms.emplace_back(l.linear[d][c], slotName(l.slots[c]));
    for (size_t o = 0; o < l.outer[d].size(); ++o)
      terms.emplace_back(l.outer[d][o], "t" + std::to_string(o + 2));
    rhs += (d ? ", " : "") + affineText(terms, l.constant[d]);
  }
  return lhs + " -> " + rhs + ")";
}

std::string transformName(const DataLayout& l) {
  size_t n = l.slots.size();
  if (l.linear.size() != n) return "general";
  if (n == 0) return "plain";
  Mat m = Mat::fromRows(l.linear, n);
  bool perm = true, identity = true;
  for (size_t r = 0; r < n; ++r) {
    int ones = 0;
    for (size_t c = 0; c < n; ++c) {
      int64_t v = l.linear[r][c];
      if (v != 0 && v != 1) perm = false;
      ones += v == 1;
      if ((r == c) != (v == 1) || (v != 0 && v != 1)) identity = false;
    }
    if (ones != 1) perm = false;
  }
  if (identity) return "plain";
  if (perm) return "transpose";
  Rational d = m.det();
  if (d.isZero()) return "general";
  if (d != 1 && d != -1) return "stride";
  // Unimodular but not a permutation: a skew, possibly after a transpose. It is a pure skew when
  // the diagonal is +-1 and the matrix is triangular.
  bool lower = true, upper = true;
  for (size_t r = 0; r < n; ++r)
    for (size_t c = 0; c < n; ++c) {
      if (c > r && l.linear[r][c]) lower = false;
      if (c < r && l.linear[r][c]) upper = false;
    }
  return (lower || upper) ? "skew" : "transpose+skew";
}

bool parseLayout(const std::string& text, const std::vector<int>& slots, size_t outerCount,
                 size_t tensorDims, DataLayout& out, std::string& error) {
  out = DataLayout{};
  out.slots = slots;
  size_t i = text.find('(');
  size_t end = text.rfind(')');
  if (i == std::string::npos || end == std::string::npos || end < i) {
    error = "expected a layout such as A(t1, x)";
    return false;
  }
  std::vector<std::string> parts;
  std::string cur;
  for (size_t k = i + 1; k < end; ++k) {
    if (text[k] == ',') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += text[k];
    }
  }
  parts.push_back(cur);
  if (parts.size() != tensorDims) {
    error = "the layout has " + std::to_string(parts.size()) + " indices, the tensor has " +
            std::to_string(tensorDims);
    return false;
  }
  for (const std::string& p : parts) {
    IntVec lin(slots.size(), 0), outer(outerCount, 0);
    int64_t constant = 0;
    size_t k = 0;
    auto skip = [&] {
      while (k < p.size() && std::isspace(static_cast<unsigned char>(p[k])))
        ++k;
    };
    bool first = true;
    while (true) {
      skip();
      if (k >= p.size()) break;
      int64_t sign = 1;
      if (p[k] == '+' || p[k] == '-') {
        sign = p[k] == '-' ? -1 : 1;
        ++k;
        skip();
      } else if (!first) {
        error = "expected '+' or '-' in '" + p + "'";
        return false;
      }
      first = false;
      int64_t coef = 1;
      bool hasNumber = false;
      if (k < p.size() && std::isdigit(static_cast<unsigned char>(p[k]))) {
        size_t start = k;
        while (k < p.size() && std::isdigit(static_cast<unsigned char>(p[k])))
          ++k;
        if (k - start > 9) {
          error = "number too large in '" + p + "'";
          return false;
        }
        coef = std::stoll(p.substr(start, k - start));
        hasNumber = true;
        skip();
        if (k < p.size() && p[k] == '*') {
          ++k;
          skip();
        } else {
          constant += sign * coef;
          continue;
        }
      }
      size_t start = k;
      while (k < p.size() && std::isalnum(static_cast<unsigned char>(p[k])))
        ++k;
      std::string name = p.substr(start, k - start);
      bool found = false;
      for (size_t c = 0; c < slots.size(); ++c)
        if (name == slotName(slots[c])) {
          lin[c] += sign * coef;
          found = true;
        }
      if (!found && name.size() > 1 && name[0] == 't') {
        size_t o = static_cast<size_t>(std::atoi(name.c_str() + 1));
        if (o >= 2 && o - 2 < outerCount && name == "t" + std::to_string(o)) {
          outer[o - 2] += sign * coef;
          found = true;
        }
      }
      if (!found) {
        std::string known;
        for (int s : slots)
          known += std::string(known.empty() ? "" : ", ") + slotName(s);
        for (size_t o = 0; o < outerCount; ++o)
          known += (known.empty() ? "t" : ", t") + std::to_string(o + 2);
        error = name.empty() && hasNumber
                    ? "expected a coordinate after '*' in '" + p + "'"
                    : "unknown entry coordinate '" + name + "' in '" + p +
                          "' (this entry has: " + (known.empty() ? "none" : known) + ")";
        return false;
      }
    }
    out.linear.push_back(lin);
    out.outer.push_back(outer);
    out.constant.push_back(constant);
  }
  return true;
}

} // namespace rubick::ir
