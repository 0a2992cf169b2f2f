// SPDX-License-Identifier: Apache-2.0
#include "rubick/ir/AccessEntry.h"

#include "rubick/linalg/AffineText.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <stdexcept>

namespace rubick::ir {
namespace {

constexpr Vec3 kZero{0, 0, 0}, kX{1, 0, 0}, kY{0, 1, 0}, kT{0, 0, 1};
constexpr Vec3 kXmY{1, -1, 0}, kTmX{-1, 0, 1}, kTmY{0, -1, 1};

// The seven basic direction vectors in canonical order (theory §2.1).
const std::array<Vec3, 7> kBasic = {
    {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}}};

IntVec toVec(const Vec3& v) {
  return {v[0], v[1], v[2]};
}

// Span tests in three dimensions with integers only: the classification runs for every
// candidate dataflow, so it avoids rational elimination.
int64_t det3(const IntVec& a, const IntVec& b, const IntVec& c) {
  return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
}

bool parallel(const IntVec& a, const IntVec& b) {
  return a[1] * b[2] == a[2] * b[1] && a[2] * b[0] == a[0] * b[2] && a[0] * b[1] == a[1] * b[0];
}

bool isZero3(const IntVec& v) {
  return v[0] == 0 && v[1] == 0 && v[2] == 0;
}

// `basis` must be linearly independent (as null-space bases and kept vectors are).
bool inSpan3(const std::vector<IntVec>& basis, const IntVec& v) {
  switch (basis.size()) {
  case 0:
    return isZero3(v);
  case 1:
    return parallel(basis[0], v);
  case 2:
    return det3(basis[0], basis[1], v) == 0;
  default:
    return true;
  }
}

bool sameSpan(const std::vector<IntVec>& a, const std::vector<IntVec>& b) {
  if (a.size() != b.size()) return false;
  for (const IntVec& v : b)
    if (!inSpan3(a, v)) return false;
  return true;
}

// The properties the schedule, cost model and plan use, from the reuse basis and Omega. The
// canonical bases (theory §2.1) have at most one vector that moves in time, (dx,dy|1): it is the
// step a value takes per cycle; the vectors with no time part are the multicast directions.
void derive(EntryInfo& e) {
  std::vector<IntVec> basis;
  for (const Vec3& v : e.vectors)
    basis.push_back(toVec(v));
  e.held = inSpan3(basis, toVec(kT));
  int timed = 0;
  for (const Vec3& v : e.vectors) {
    e.diagonal |= v[0] != 0 && v[1] != 0;
    if (v[2] == 0) {
      e.multicast.push_back({v[0], v[1]});
      continue;
    }
    if (v[2] != 1 || ++timed > 1)
      throw std::logic_error(std::string("entry table: ") + e.name + " has no single unit step");
    if (!e.held) e.systolic = {v[0], v[1]};
  }
  for (int s = 0; s < 3; ++s)
    if (e.omega[s] != kZero) e.slots.push_back(s);
}

std::vector<EntryInfo> makeTable() {
  using K = EntryKind;
  auto row = [](K kind, int number, const char* name, std::vector<Vec3> vectors,
                std::array<Vec3, 3> omega) {
    EntryInfo e;
    e.kind = kind, e.number = number, e.name = name;
    e.vectors = std::move(vectors), e.omega = omega;
    derive(e);
    return e;
  };
  // clang-format off
  return {
      row(K::XSystolic, 1, "X-systolic", {{1, 0, 1}}, {kZero, kY, kTmX}),
      row(K::YSystolic, 2, "Y-systolic", {{0, 1, 1}}, {kX, kZero, kTmY}),
      row(K::DiagSystolic, 3, "diag-systolic", {{1, 1, 1}}, {kXmY, kZero, kTmX}),
      row(K::Stationary, 4, "stationary", {{0, 0, 1}}, {kX, kY, kZero}),
      row(K::XMulticast, 5, "X-multicast", {{1, 0, 0}}, {kZero, kY, kT}),
      row(K::YMulticast, 6, "Y-multicast", {{0, 1, 0}}, {kX, kZero, kT}),
      row(K::DiagMulticast, 7, "diag-multicast", {{1, 1, 0}}, {kXmY, kZero, kT}),
      row(K::XYMulticast, 8, "XY-multicast", {{1, 0, 0}, {0, 1, 0}}, {kZero, kZero, kT}),
      row(K::XSystolicYMulticast, 9, "X-systolic-Y-multicast", {{0, 1, 0}, {1, 0, 1}}, {kZero, kZero, kTmX}),
      row(K::YSystolicXMulticast, 10, "Y-systolic-X-multicast", {{1, 0, 0}, {0, 1, 1}}, {kZero, kZero, kTmY}),
      row(K::XMulticastStationary, 11, "X-multicast-stationary", {{1, 0, 0}, {0, 0, 1}}, {kZero, kY, kZero}),
      row(K::YMulticastStationary, 12, "Y-multicast-stationary", {{0, 1, 0}, {0, 0, 1}}, {kX, kZero, kZero}),
      row(K::DiagMulticastStationary, 13, "diag-multicast-stationary", {{0, 0, 1}, {1, 1, 0}}, {kXmY, kZero, kZero}),
      row(K::XYMulticastStationary, 14, "XY-multicast-stationary", {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {kZero, kZero, kZero}),
  };
  // clang-format on
}

std::vector<IntVec> mirrored(const std::vector<IntVec>& basis, bool mx, bool my) {
  std::vector<IntVec> out = basis;
  for (IntVec& v : out) {
    if (mx) v[0] = -v[0];
    if (my) v[1] = -v[1];
  }
  return out;
}

// Among the mirrorings that give the same reuse space, the first of none, x, y, both.
OrientedEntry canonicalFlags(EntryKind k, bool mx, bool my) {
  std::vector<IntVec> base;
  for (const Vec3& v : info(k).vectors)
    base.push_back(toVec(v));
  std::vector<IntVec> target = mirrored(base, mx, my);
  for (int m = 0; m < 4; ++m)
    if (sameSpan(mirrored(base, m & 1, m & 2), target))
      return OrientedEntry{k, bool(m & 1), bool(m & 2)};
  return OrientedEntry{k, mx, my};
}

} // namespace

const std::vector<EntryInfo>& allEntries() {
  static const std::vector<EntryInfo> table = makeTable();
  return table;
}

const EntryInfo& info(EntryKind k) {
  return allEntries()[static_cast<int>(k) - 1];
}

std::optional<EntryKind> parseEntryKind(const std::string& text) {
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
  };
  std::string t = lower(text);
  for (const EntryInfo& e : allEntries())
    if (lower(e.name) == t || std::to_string(e.number) == t) return e.kind;
  return std::nullopt;
}

bool isDiagonal(EntryKind k) {
  return info(k).diagonal;
}

int64_t EntryInfo::links(int64_t p, int64_t q) const {
  if (systolic.none()) return 0;
  return (p - std::abs(systolic.dx)) * (q - std::abs(systolic.dy));
}

int64_t EntryInfo::ports(int64_t p, int64_t q) const {
  // A port slot's form a*x + b*y with |a|, |b| <= 1 takes every value between its extremes on the
  // array, |a|(P-1) + |b|(Q-1) + 1 of them; the two slots vary independently (one is constant, or
  // they are x and y).
  int64_t n = 1;
  for (int s = 0; s < 2; ++s)
    n *= std::abs(omega[s][0]) * (p - 1) + std::abs(omega[s][1]) * (q - 1) + 1;
  return n;
}

int64_t EntryInfo::fanout(int64_t p, int64_t q) const {
  if (multicast.empty()) return 1;
  if (multicast.size() > 1) return p * q; // two directions span the array's plane
  // A line of unit steps is as long as the array along every axis it moves on.
  const PeStep m = multicast.front();
  if (m.dx && m.dy) return std::min(p, q);
  return m.dx ? p : q;
}

int64_t ports(EntryKind k, int64_t p, int64_t q) {
  return info(k).ports(p, q);
}

int64_t fanout(EntryKind k, int64_t p, int64_t q) {
  return info(k).fanout(p, q);
}

std::string toString(const OrientedEntry& e) {
  std::string s = info(e.kind).name;
  if (e.mirrorX && e.mirrorY) return s + "(-x,-y)";
  if (e.mirrorX) return s + "(-x)";
  if (e.mirrorY) return s + "(-y)";
  return s;
}

const std::vector<int>& activeSlots(EntryKind k) {
  return info(k).slots;
}

Mat omegaLinear(const OrientedEntry& e) {
  const std::vector<int>& slots = activeSlots(e.kind);
  Mat m(slots.size(), 3);
  for (size_t r = 0; r < slots.size(); ++r) {
    const Vec3& f = info(e.kind).omega[slots[r]];
    m(r, 0) = e.mirrorX ? -f[0] : f[0];
    m(r, 1) = e.mirrorY ? -f[1] : f[1];
    m(r, 2) = f[2];
  }
  return m;
}

IntVec omegaConstant(const OrientedEntry& e, int64_t p, int64_t q) {
  // a*x' with x' = P-1-x contributes a*(P-1) to the constant.
  IntVec c;
  for (int s : activeSlots(e.kind)) {
    const Vec3& f = info(e.kind).omega[s];
    c.push_back((e.mirrorX ? f[0] * (p - 1) : 0) + (e.mirrorY ? f[1] * (q - 1) : 0));
  }
  return c;
}

std::string omegaText(const OrientedEntry& e, int64_t p, int64_t q, size_t outerCount) {
  static const char* axis[] = {"x", "y", "t1"};
  Mat lin = omegaLinear(e);
  IntVec constant = omegaConstant(e, p, q);
  const std::vector<int>& slots = activeSlots(e.kind);
  std::string part[3] = {"0", "0", "0"};
  for (size_t r = 0; r < slots.size(); ++r) {
    std::vector<std::pair<Rational, std::string>> terms;
    for (int c = 0; c < 3; ++c)
      terms.emplace_back(lin(r, c), axis[c]);
    part[slots[r]] = affineText(terms, constant[r]);
  }
  std::string stamp = "(x, y | t1", target = "E(" + part[0] + ", " + part[1] + " | " + part[2];
  for (size_t o = 0; o < outerCount; ++o) {
    stamp += ", t" + std::to_string(o + 2);
    target += ", t" + std::to_string(o + 2);
  }
  return stamp + ") -> " + target + ")";
}

std::vector<OrientedEntry> orientedEntries(int dim) {
  std::vector<OrientedEntry> out;
  for (const EntryInfo& e : allEntries()) {
    if (static_cast<int>(e.vectors.size()) != dim) continue;
    for (int m = 0; m < 4; ++m) {
      OrientedEntry o = canonicalFlags(e.kind, m & 1, m & 2);
      if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
    }
  }
  return out;
}

OrientedEntry mirrored(const OrientedEntry& e, bool fx, bool fy) {
  return canonicalFlags(e.kind, e.mirrorX != fx, e.mirrorY != fy);
}

std::vector<IntVec> reuseBasis(const OrientedEntry& e) {
  std::vector<IntVec> base;
  for (const Vec3& v : info(e.kind).vectors)
    base.push_back(toVec(v));
  return mirrored(base, e.mirrorX, e.mirrorY);
}

std::optional<OrientedEntry> classifyReuse(const std::vector<IntVec>& basis, std::string* reason) {
  size_t r = basis.size();
  if (r == 0) {
    if (reason)
      *reason = "no reuse: the tensor element changes with every PE and every cycle, which needs "
                "a port per PE per cycle";
    return std::nullopt;
  }
  for (int m = 0; m < 4; ++m) {
    bool mx = m & 1, my = m & 2;
    std::vector<IntVec> space = mirrored(basis, mx, my);
    std::vector<IntVec> kept;
    for (const Vec3& v : kBasic) {
      if (kept.size() == r) break;
      IntVec iv = toVec(v);
      if (inSpan3(space, iv) && !inSpan3(kept, iv)) kept.push_back(iv);
    }
    if (kept.size() != r) continue;
    for (const EntryInfo& e : allEntries()) {
      if (e.vectors.size() != r) continue;
      std::vector<IntVec> ev;
      for (const Vec3& v : e.vectors)
        ev.push_back(toVec(v));
      std::sort(ev.begin(), ev.end());
      std::vector<IntVec> k = kept;
      std::sort(k.begin(), k.end());
      if (ev == k) return canonicalFlags(e.kind, mx, my);
    }
  }
  if (reason) {
    std::string s = "reuse space spanned by";
    for (const IntVec& v : basis)
      s += " (" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "|" + std::to_string(v[2]) +
           ")";
    *reason = s + " has no basis of the seven direction vectors, with or without mirroring x or y";
  }
  return std::nullopt;
}

} // namespace rubick::ir
