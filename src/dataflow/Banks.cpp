// SPDX-License-Identifier: Apache-2.0
#include "rubick/dataflow/Banks.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace rubick::dataflow {

int64_t BankInfo::maxDepth() const {
  return depth.empty() ? 0 : *std::max_element(depth.begin(), depth.end());
}

int64_t BankInfo::totalWords() const {
  int64_t s = 0;
  for (int64_t d : depth)
    s += d;
  return s;
}

BankInfo analyzeBanks(const StatementView& v, const Dataflow& d, const TensorDecomposition& t) {
  BankInfo info;
  if (!t.ok()) return info;
  const AccessView& a = v.accesses[t.access];
  Mat om = ir::omegaLinear(*t.entry);
  IntVec oc = ir::omegaConstant(*t.entry, d.p, d.q);
  std::vector<int> slots = ir::activeSlots(t.entry->kind);
  // port -> (time key -> element)
  std::map<IntVec, std::map<IntVec, IntVec>> visits;
  IntVec n(v.loops.size(), 0);
  bool done = v.loops.empty();
  while (true) {
    IntVec st = d.apply(n);
    IntVec port, time;
    for (size_t r = 0; r < slots.size(); ++r) {
      int64_t e = oc[r];
      for (int c = 0; c < 3; ++c)
        e += om(r, c).toInt() * st[c];
      (slots[r] < 2 ? port : time).push_back(e);
    }
    IntVec key(st.rbegin(), st.rend() - 3); // outer stamps, outermost first
    key.insert(key.end(), time.begin(), time.end());
    IntVec elem;
    for (size_t r = 0; r < a.coeffs.size(); ++r) {
      int64_t x = a.constant[r];
      for (size_t l = 0; l < n.size(); ++l)
        x += a.coeffs[r][l] * n[l];
      elem.push_back(x);
    }
    auto [it, fresh] = visits[port].emplace(key, elem);
    if (!fresh && it->second != elem)
      throw std::logic_error("decomposition inconsistent: a port emits two elements at once");
    if (done) break;
    size_t l = 0;
    while (l < n.size() && ++n[l] == v.extent[l])
      n[l++] = 0;
    if (l == n.size()) break;
  }
  for (auto& [port, seq] : visits) {
    info.ports.push_back(port);
    std::map<IntVec, int64_t> address;
    std::vector<BankStep> steps;
    for (auto& [key, elem] : seq) {
      auto it = address.emplace(elem, static_cast<int64_t>(address.size())).first;
      steps.push_back({key, it->second});
    }
    info.depth.push_back(static_cast<int64_t>(address.size()));
    info.sequence.push_back(std::move(steps));
  }
  return info;
}

} // namespace rubick::dataflow
