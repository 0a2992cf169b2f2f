// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/HostMap.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace rubick::arch {

std::vector<TensorMap> hostMap(const tc::Program& prog, const dataflow::StatementView& v,
                               const dataflow::Dataflow& d, const Plan& plan,
                               const IntVec& offset) {
  std::vector<TensorMap> maps;
  for (const dataflow::AccessView& a : v.accesses) {
    TensorMap m;
    m.shape = prog.tensors[a.tensor].shape;
    int64_t n = 1;
    for (int64_t s : m.shape)
      n *= s;
    m.elements.resize(n);
    maps.push_back(std::move(m));
  }
  std::vector<std::map<Location, int64_t>> owner(v.accesses.size());
  IntVec it(v.loops.size(), 0);
  bool empty = std::any_of(v.extent.begin(), v.extent.end(), [](int64_t e) { return e <= 0; });
  while (!empty) {
    IntVec st = d.apply(it);
    const int pe = static_cast<int>(st[0] * d.q + st[1]);
    for (size_t t = 0; t < v.accesses.size(); ++t) {
      const dataflow::AccessView& a = v.accesses[t];
      const TensorPlan& tp = plan.tensors[t];
      Location loc;
      loc.bank = tp.portOf[pe];
      loc.address = tp.streaming ? st[2] + tp.teShift[pe] - tp.teMin : 0;
      for (size_t o = 0; o < tp.strides.size(); ++o)
        loc.address += tp.strides[o] * st[3 + o];
      int64_t lin = 0;
      bool inside = true;
      for (size_t r = 0; r < a.coeffs.size(); ++r) {
        int64_t idx = a.constant[r];
        for (size_t l = 0; l < it.size(); ++l)
          idx += a.coeffs[r][l] * (it[l] + (offset.empty() ? 0 : offset[l]));
        inside &= idx >= 0 && idx < maps[t].shape[r];
        lin = lin * maps[t].shape[r] + idx;
      }
      // A part past the problem's edge (a PIM unit's last block): no element there.
      if (!inside) {
        if (offset.empty())
          throw std::logic_error("host map: " + a.name + " indexed outside its shape");
        continue;
      }
      auto [pos, fresh] = owner[t].emplace(loc, lin);
      if (!fresh && pos->second != lin)
        throw std::logic_error("host map: two elements of " + a.name + " share bank " +
                               std::to_string(loc.bank) + " address " +
                               std::to_string(loc.address));
      std::vector<Location>& places = maps[t].elements[lin];
      if (std::find(places.begin(), places.end(), loc) == places.end()) places.push_back(loc);
    }
    size_t l = 0;
    while (l < it.size() && ++it[l] == v.extent[l])
      it[l++] = 0;
    if (l == it.size()) break;
  }
  for (size_t t = 0; t < maps.size(); ++t) {
    for (std::vector<Location>& places : maps[t].elements) {
      std::sort(places.begin(), places.end());
      if (v.accesses[t].write && places.size() > 1)
        throw std::logic_error("host map: an output element of " + v.accesses[t].name +
                               " has more than one place");
    }
  }
  return maps;
}

} // namespace rubick::arch
