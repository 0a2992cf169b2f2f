// SPDX-License-Identifier: Apache-2.0
// Which two PIM designs an attention decode runs (include/rubick/emit/PimDecode.h).

#include "rubick/emit/PimDecode.h"

#include "PimDecodeTop.h"

#include "rubick/dataflow/StatementView.h"
#include "rubick/support/Unsupported.h"

#include <algorithm>

namespace rubick::emit {

using dse::PimPlacement;

namespace {

// The hardware's widths: scores and U in int32 (the units' accumulators), E in Q0.15 (16 bits),
// Q, K and V as declared.
constexpr int64_t kAccBits = 32, kExpBits = 16;

dse::ExploreOptions withWidths(const tc::Program& prog, const dataflow::StatementView& v,
                               const dse::ExploreOptions& base, int wide, int expTensor) {
  dse::ExploreOptions o = base;
  o.constraints.elementBits.clear();
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(a.tensor == wide ? kAccBits
                                        : a.tensor == expTensor
                                            ? kExpBits
                                            : tc::bitWidth(prog.tensors[a.tensor].type));
  return o;
}

// The program with the key loop of the score and value statements, and the key dimension of
// every tensor they access, cut to `keys`.
tc::Program withKeys(const tc::Program& prog, const attn::AttentionForm& f, int64_t keys) {
  tc::Program p = prog;
  for (size_t stmt : {f.score, f.values}) {
    tc::Statement& st = p.statements[stmt];
    // The key loop: in the scores the one K's key dimension takes, in the values the reduction.
    const tc::Access& byKey =
        stmt == f.score ? (st.reads[0].tensor == f.k ? st.reads[0] : st.reads[1]) : st.reads[0];
    size_t key = st.loops.size();
    if (stmt == f.values) {
      for (size_t l = 0; l < st.loops.size(); ++l)
        if (st.loops[l].reduction) key = l;
    } else {
      const std::vector<int64_t>& c = byKey.indices[static_cast<size_t>(f.keyDimK)].coeffs;
      for (size_t l = 0; l < c.size(); ++l)
        if (c[l] != 0) key = l;
    }
    st.loops[key].hi = st.loops[key].lo + keys;
    std::vector<tc::Access> all = st.reads;
    all.push_back(st.write);
    for (const tc::Access& a : all)
      for (size_t dim = 0; dim < a.indices.size(); ++dim)
        if (a.indices[dim].coeffs[key] != 0) p.tensors[a.tensor].shape[dim] = keys;
  }
  return p;
}

std::string placementText(const dse::PimDesign& d, const dataflow::StatementView& v) {
  std::string s;
  for (size_t a = 0; a < v.accesses.size(); ++a)
    s += (a ? ", " : "") + v.accesses[a].name + " " + dse::toString(d.placement[a]);
  if (d.reduceUnits > 1)
    s +=
        ", " + v.accesses.front().name + " summed over " + std::to_string(d.reduceUnits) + " units";
  return s;
}

} // namespace

PimDecodePlan planPimDecode(const tc::Program& prog, const attn::AttentionForm& f,
                            const dse::PimSystem& s, const dse::ExploreOptions& base,
                            const std::vector<int64_t>& blockKeys) {
  if (f.multiHead || f.l != 1)
    throw Unsupported("pim", "attention on PIM units is the decode: one query (L = 1) of one "
                             "head; this program has L = " +
                                 std::to_string(f.l) +
                                 (f.multiHead ? " and " + std::to_string(f.heads) + " heads" : ""));
  if (s.access != dse::PimAccess::stream)
    throw Unsupported("pim", "the attention decode on PIM units needs units that read their "
                             "banks in place ('access': 'stream'); on units with a DMA it is not "
                             "built yet (explore its statements with --stmt)");
  // Blocks of keys (the online softmax): the most keys that divide S, keep U within int32
  // (|E V| < 2^15 x 2^(b-1)) and have both designs: the scores' keeping each score on chip in
  // one unit with K in the banks, the values' taking E on chip (written by the sequencer) with
  // V in the banks.
  const int vBits = tc::bitWidth(prog.tensors[f.v].type);
  const int64_t maxKeys =
      ((int64_t(1) << (kAccBits - 1)) - 1) / (32767 * (int64_t(1) << (vBits - 1)));
  std::vector<int64_t> sizes;
  for (int64_t keys : blockKeys) {
    if (keys < 1 || f.s % keys)
      throw Error("--block-keys", "a block of " + std::to_string(keys) +
                                      " keys does not divide S = " + std::to_string(f.s) +
                                      " (the decode's blocks are equal)");
    if (keys > maxKeys)
      throw Error("--block-keys", "a block of " + std::to_string(keys) +
                                      " keys lets U leave "
                                      "int32 (at most " +
                                      std::to_string(maxKeys) + " keys for " +
                                      std::to_string(vBits) + "-bit V)");
    sizes.push_back(keys);
  }
  if (sizes.empty())
    for (int64_t keys = std::min(f.s, maxKeys); keys >= 1; --keys)
      if (f.s % keys == 0) sizes.push_back(keys);
  std::sort(sizes.rbegin(), sizes.rend());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  std::string why;
  for (int64_t keys : sizes) {
    PimDecodePlan plan;
    plan.block = withKeys(prog, f, keys);
    const dataflow::StatementView v0 = dataflow::viewStatement(plan.block, f.score);
    const dataflow::StatementView v4 = dataflow::viewStatement(plan.block, f.values);
    plan.scoreOptions = withWidths(plan.block, v0, base, f.scores, -1);
    plan.valueOptions = withWidths(plan.block, v4, base, f.u, f.e);
    const size_t sc = detail::decodeAccess(v0, f.scores), k = detail::decodeAccess(v0, f.k);
    const size_t u = detail::decodeAccess(v4, f.u), e = detail::decodeAccess(v4, f.e),
                 vv = detail::decodeAccess(v4, f.v);
    auto scoresFit = [&](const dse::PimDesign& d) {
      return d.placement[sc] == PimPlacement::buffer && d.reduceUnits == 1 &&
             d.placement[k] == PimPlacement::banks;
    };
    auto valuesFit = [&](const dse::PimDesign& d) {
      return (d.placement[e] == PimPlacement::broadcast ||
              d.placement[e] == PimPlacement::buffer) &&
             d.placement[u] == PimPlacement::buffer && d.placement[vv] == PimPlacement::banks;
    };
    auto best = [&](const dataflow::StatementView& v, const dse::ExploreOptions& o,
                    const auto& fits, dse::PimDesign& out) {
      dse::PimExploreResult r;
      try {
        r = dse::explorePim(v, s, o, pimExact(plan.block, v, s, o));
      } catch (const Unsupported& ex) {
        if (why.empty()) why = ex.diag().message;
        return false;
      }
      for (const dse::PimDesign& d : r.designs) {
        if (!pimBuildProblem(v, d, s, o).empty()) continue;
        if (fits(d)) {
          out = d;
          return true;
        }
        if (why.empty())
          why = "with blocks of " + std::to_string(keys) + " keys the fastest design " + d.id +
                " places " + placementText(d, v);
      }
      return false;
    };
    if (!best(v0, plan.scoreOptions, scoresFit, plan.scores)) continue;
    if (!best(v4, plan.valueOptions, valuesFit, plan.values)) continue;
    plan.blockKeys = keys;
    plan.blocks = f.s / keys;
    return plan;
  }
  throw Unsupported("pim", "no block of keys dividing S has both designs: the scores' with each "
                           "score on chip in one unit and K in the banks, the values' with E on "
                           "chip and V in the banks" +
                               (why.empty() ? std::string() : " (" + why + ")"));
}

} // namespace rubick::emit
