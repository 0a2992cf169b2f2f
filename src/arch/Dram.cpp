// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/Dram.h"

#include "rubick/support/Diagnostic.h"

#include <algorithm>
#include <set>

namespace rubick::arch {

namespace {

struct Param {
  const char* name;
  int64_t Dram::*field;
  int64_t lo, hi;
  const char* unit;
};

const Param kParams[] = {
    {"banks", &Dram::banks, 1, 1024, ""},
    {"row", &Dram::rowBytes, 1, int64_t(1) << 30, " bytes"},
    {"trcd", &Dram::tRCD, 0, 10000, " cycles"},
    {"trp", &Dram::tRP, 0, 10000, " cycles"},
    {"cl", &Dram::CL, 0, 10000, " cycles"},
    {"tras", &Dram::tRAS, 0, 10000, " cycles"},
};

} // namespace

Dram parseDram(const std::string& spec, const std::string& flag) {
  Dram d;
  if (spec.empty() || spec == "default") return d;
  std::set<std::string> seen;
  size_t at = 0;
  for (;;) {
    const size_t end = std::min(spec.find(',', at), spec.size());
    const std::string item = spec.substr(at, end - at);
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(flag,
                  "expected NAME=VALUE (banks, row, trcd, trp, cl, tras), found '" + item + "'");
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    const Param* p = nullptr;
    for (const Param& q : kParams)
      if (name == q.name) p = &q;
    if (!p)
      throw Error(flag,
                  "unknown parameter '" + name + "' (expected banks, row, trcd, trp, cl or tras)");
    if (!seen.insert(name).second) throw Error(flag, "'" + name + "' given twice");
    const bool digits =
        !value.empty() && value.size() <= 10 &&
        std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
    const int64_t v = digits ? std::stoll(value) : -1;
    if (!digits || v < p->lo || v > p->hi)
      throw Error(flag, name + " must be a whole number from " + std::to_string(p->lo) + " to " +
                            std::to_string(p->hi) + p->unit + ", found '" + value + "'");
    d.*(p->field) = v;
    if (end == spec.size()) break;
    at = end + 1;
  }
  return d;
}

std::string toString(const Dram& d) {
  std::string s;
  for (const Param& p : kParams)
    s += (s.empty() ? "" : ",") + std::string(p.name) + "=" + std::to_string(d.*(p.field));
  return s;
}

DramBanks::DramBanks(const Dram& d) : d_(d), banks_(static_cast<size_t>(d.banks)) {}

void DramBanks::shift(int64_t cycles) {
  for (Bank& b : banks_)
    b.activeAt -= cycles;
}

// rubick_axi_mem.h's schedule(), access for access.
void DramBanks::access(int64_t arrive, uint64_t addr, int64_t beats, int64_t busBytes, bool count,
                       std::vector<BeatsReady>& runs) {
  runs.clear();
  const uint64_t rowBytes = static_cast<uint64_t>(d_.rowBytes);
  uint64_t lastRow = ~uint64_t(0);
  int64_t prevReady = 0;
  for (int64_t k = 0; k < beats; ++k) {
    const uint64_t rowIndex = (addr + static_cast<uint64_t>(k * busBytes)) / rowBytes;
    if (k > 0 && rowIndex == lastRow) continue;
    lastRow = rowIndex;
    Bank& bank = banks_[rowIndex % banks_.size()];
    const uint64_t row = rowIndex / banks_.size();
    int64_t ready;
    if (bank.open && bank.row == row) {
      hits += count;
      ready = std::max(arrive, bank.activeAt) + d_.CL;
    } else {
      misses += count;
      int64_t t = std::max(arrive, bank.activeAt);
      if (bank.open) {
        conflicts += count;
        // The open row was activated tRCD before it became usable; it closes tRAS after that.
        t = std::max(t, bank.activeAt - d_.tRCD + d_.tRAS) + d_.tRP;
      }
      bank.open = true;
      bank.row = row;
      bank.activeAt = t + d_.tRCD;
      ready = bank.activeAt + d_.CL;
    }
    prevReady = std::max(prevReady, ready);
    runs.push_back({k, prevReady});
  }
}

} // namespace rubick::arch
