// SPDX-License-Identifier: Apache-2.0
// The IR-space search (theory §3), per choice of inner loops and constant axes:
//
//   1. per access T: the completed access matrix A_T (3 columns) and its null space N_T; the
//      candidate oriented entries are those whose reuse dimension equals dim N_T.
//   2. entry combinations are built access by access; as soon as a set of accesses is complete,
//      the entries' shared reuse (3 - rank of their stacked Omega rows) must have the dimension
//      of the accesses' shared null space (S maps one onto the other). For all accesses
//      together this is the stacked-rank check of the theory.
//   3. the surviving combination fixes S up to the freedom the layouts leave: the linear system
//      Omega_T S n = 0 (n in N_T) in the entries of S, solved exactly; its free variables are
//      walked over [-bound, bound].
//   4. a nonsingular solution maps every N_T onto exactly the chosen reuse space, so it realises
//      the chosen entries; |det S| = 1 makes the layouts integral (other determinants are
//      decomposed to check). Each solution is recorded under every tiling of the policy.
//
// Everything hot works on int64 3-vectors; rationals appear only in the small linear solve.

#include "rubick/dataflow/Enumerate.h"

#include "SpaceCommon.h"

#include <array>

namespace rubick::dataflow {

using namespace detail;

namespace {

using V3 = std::array<int64_t, 3>;

int64_t det3(const V3& a, const V3& b, const V3& c) {
  return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
}

bool nonzeroCross(const V3& a, const V3& b) {
  return a[1] * b[2] != a[2] * b[1] || a[2] * b[0] != a[0] * b[2] || a[0] * b[1] != a[1] * b[0];
}

/// Rank of a set of 3-vectors, with integers only.
int rank3(const std::vector<V3>& vs) {
  size_t n = vs.size();
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      for (size_t k = j + 1; k < n; ++k)
        if (det3(vs[i], vs[j], vs[k]) != 0) return 3;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      if (nonzeroCross(vs[i], vs[j])) return 2;
  for (const V3& v : vs)
    if (v != V3{0, 0, 0}) return 1;
  return 0;
}

struct Candidate {
  ir::OrientedEntry entry;
  std::vector<V3> omega; // rows of Omega's linear part
};

class Search {
public:
  Search(const StatementView& v, int64_t p, int64_t q, const EnumerationOptions& o,
         EnumerationResult& res, Recorder& rec)
      : v_(v), p_(p), q_(q), o_(o), res_(res), rec_(rec) {}

  void run(const std::vector<int>& loops, const std::vector<int>& constAxes) {
    ++res_.stats.innerChoices;
    const size_t na = v_.accesses.size();
    loops_ = loops;
    constAxes_ = constAxes;
    nulls_.assign(na, {});
    cands_.assign(na, {});
    std::vector<std::vector<V3>> accRows(na);
    for (size_t a = 0; a < na; ++a) {
      const AccessView& av = v_.accesses[a];
      Mat m(av.coeffs.size(), 3);
      for (size_t r = 0; r < av.coeffs.size(); ++r) {
        V3 row{0, 0, 0};
        for (size_t c = 0; c < loops.size(); ++c)
          m(r, c) = row[c] = av.coeffs[r][loops[c]];
        accRows[a].push_back(row);
      }
      nulls_[a] = m.nullSpace();
      for (const ir::OrientedEntry& e : ir::orientedEntries(static_cast<int>(nulls_[a].size()))) {
        if (o_.allowEntry && !o_.allowEntry(a, e)) continue;
        Candidate c{e, {}};
        Mat om = ir::omegaLinear(e);
        for (size_t r = 0; r < om.rows(); ++r)
          c.omega.push_back({om(r, 0).toInt(), om(r, 1).toInt(), om(r, 2).toInt()});
        cands_[a].push_back(std::move(c));
      }
      if (cands_[a].empty()) return;
    }
    subsetNull_.assign(size_t(1) << na, 0);
    for (size_t m = 1; m < subsetNull_.size(); ++m) {
      std::vector<V3> rows;
      for (size_t a = 0; a < na; ++a)
        if (m & (size_t(1) << a)) rows.insert(rows.end(), accRows[a].begin(), accRows[a].end());
      subsetNull_[m] = 3 - rank3(rows);
    }
    size_t all = 1;
    for (const auto& c : cands_)
      all *= c.size();
    res_.stats.entryCombinations += all;
    chosen_.assign(na, nullptr);
    choose(0);
  }

private:
  // Depth-first over accesses, checking each access subset as soon as it is complete.
  void choose(size_t a) {
    const size_t na = v_.accesses.size();
    if (a == na) {
      ++res_.stats.afterEntryChecks;
      solve();
      return;
    }
    for (const Candidate& c : cands_[a]) {
      chosen_[a] = &c;
      if (subsetsConsistent(a)) choose(a + 1);
    }
  }

  bool subsetsConsistent(size_t last) {
    size_t top = size_t(1) << last;
    for (size_t m = top + 1; m < (top << 1); ++m) { // subsets whose highest access is `last`
      std::vector<V3> rows;
      for (size_t a = 0; a <= last; ++a)
        if (m & (size_t(1) << a))
          rows.insert(rows.end(), chosen_[a]->omega.begin(), chosen_[a]->omega.end());
      if (3 - rank3(rows) != subsetNull_[m]) return false;
    }
    return true;
  }

  void solve() {
    const size_t k = loops_.size();
    std::vector<std::pair<int, size_t>> unk; // S[r][c] for non-constant rows
    for (int r = 0; r < 3; ++r)
      if (!isConstantAxis(constAxes_, r))
        for (size_t c = 0; c < k; ++c)
          unk.emplace_back(r, c);
    // Omega_T (S_c n) = 0 for every null vector n; S_c's virtual columns are fixed unit vectors.
    std::vector<std::vector<int64_t>> rows;
    for (size_t a = 0; a < chosen_.size(); ++a)
      for (const IntVec& n : nulls_[a])
        for (const V3& w : chosen_[a]->omega) {
          std::vector<int64_t> row(unk.size() + 1, 0);
          for (size_t u = 0; u < unk.size(); ++u)
            row[u] = w[unk[u].first] * n[unk[u].second];
          for (size_t vi = 0; vi < constAxes_.size(); ++vi)
            row[unk.size()] -= w[constAxes_[vi]] * n[k + vi];
          rows.push_back(std::move(row));
        }
    std::vector<size_t> piv;
    Mat red;
    if (!rows.empty()) {
      Mat sys = Mat::fromRows(rows, unk.size() + 1);
      red = sys.rref(&piv);
      for (size_t pv : piv)
        if (pv == unk.size()) return; // inconsistent
    }
    std::vector<size_t> freeVars;
    for (size_t u = 0; u < unk.size(); ++u)
      if (std::find(piv.begin(), piv.end(), u) == piv.end()) freeVars.push_back(u);
    const int64_t b = o_.coefficientBound;
    std::vector<int64_t> fv(freeVars.size(), -b);
    std::vector<int64_t> val(unk.size());
    while (true) {
      ++res_.stats.candidates;
      for (size_t i = 0; i < freeVars.size(); ++i)
        val[freeVars[i]] = fv[i];
      bool ok = true;
      for (size_t i = 0; i < piv.size() && ok; ++i) {
        Rational x = red(i, unk.size());
        for (size_t j = 0; j < freeVars.size(); ++j)
          if (!red(i, freeVars[j]).isZero()) x -= red(i, freeVars[j]) * fv[j];
        ok = x.isInteger() && x >= -b && x <= b;
        if (ok) val[piv[i]] = x.toInt();
      }
      if (ok) consider(unk, val);
      size_t i = 0;
      while (i < fv.size() && ++fv[i] > b)
        fv[i++] = -b;
      if (i == fv.size()) break;
    }
  }

  void consider(const std::vector<std::pair<int, size_t>>& unk, const std::vector<int64_t>& val) {
    const size_t k = loops_.size();
    std::array<V3, 3> col{}; // columns of the completed S
    for (size_t u = 0; u < unk.size(); ++u)
      col[unk[u].second][unk[u].first] = val[u];
    for (size_t vi = 0; vi < constAxes_.size(); ++vi)
      col[k + vi][constAxes_[vi]] = 1;
    int64_t det = det3(col[0], col[1], col[2]);
    if (det == 0) return;
    Dataflow d = skeleton(v_, p_, q_, loops_);
    for (size_t u = 0; u < unk.size(); ++u)
      d.s[unk[u].first][unk[u].second] = val[u];
    d.outer = canonicalOuter(d.inner, v_.extent);
    if ((det != 1 && det != -1) && !layoutsIntegral(col, det)) return;
    std::vector<ir::OrientedEntry> entries;
    for (const Candidate* c : chosen_)
      entries.push_back(c->entry);
    for (const Dataflow& t : tilings(v_, d, o_.tiling))
      rec_.add(t, entries, res_.stats);
  }

  // Layouts are integral iff every movement M_T = A_T S^-1 is: S^-1 = adj(S) / det.
  bool layoutsIntegral(const std::array<V3, 3>& col, int64_t det) const {
    auto cross = [](const V3& a, const V3& b) {
      return V3{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    };
    // Rows of adj(S) are the cross products of S's columns.
    std::array<V3, 3> adj{cross(col[1], col[2]), cross(col[2], col[0]), cross(col[0], col[1])};
    for (const AccessView& av : v_.accesses)
      for (const IntVec& row : av.coeffs)
        for (int c = 0; c < 3; ++c) {
          int64_t x = 0;
          for (size_t u = 0; u < loops_.size(); ++u)
            x += row[loops_[u]] * adj[u][c];
          if (x % det != 0) return false;
        }
    return true;
  }

  const StatementView& v_;
  int64_t p_, q_;
  const EnumerationOptions& o_;
  EnumerationResult& res_;
  Recorder& rec_;
  std::vector<int> loops_, constAxes_;
  std::vector<std::vector<IntVec>> nulls_;
  std::vector<std::vector<Candidate>> cands_;
  std::vector<int> subsetNull_;
  std::vector<const Candidate*> chosen_;
};

} // namespace

EnumerationResult enumerateDataflows(const StatementView& v, int64_t p, int64_t q,
                                     const EnumerationOptions& o) {
  EnumerationResult res;
  Recorder rec;
  Search search(v, p, q, o, res, rec);
  // An array of one row (or one PE) maps fewer loops; the others are all in time.
  for (const std::vector<int>& loops : innerLoopSets(v, arraySpan(p, q)))
    for (const std::vector<int>& constAxes : constantAxisPatterns(loops.size()))
      search.run(loops, constAxes);
  rec.finish(res);
  return res;
}

} // namespace rubick::dataflow
