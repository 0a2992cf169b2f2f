// SPDX-License-Identifier: Apache-2.0
#include "AttentionTables.h"

#include "rubick/arch/HostMap.h"
#include "rubick/attn/LaneSchedule.h"

#include <algorithm>
#include <stdexcept>

namespace rubick::emit::detail {
namespace {

int64_t product(const std::vector<int64_t>& v) {
  int64_t n = 1;
  for (int64_t x : v)
    n *= x;
  return n;
}

// Row-major indices of element `lin` of a tensor of `shape`.
std::vector<int64_t> indicesOf(int64_t lin, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t r = shape.size(); r-- > 0;) {
    idx[r] = lin % shape[r];
    lin /= shape[r];
  }
  return idx;
}

// Offset in the row-major store of the whole tensor (`full` shape) of the element with these
// indices; a block's key indices count from the block's first key.
int64_t storeOffset(const std::vector<int64_t>& idx, const std::vector<int64_t>& full) {
  int64_t off = 0;
  for (size_t r = 0; r < full.size(); ++r)
    off = off * full[r] + idx[r];
  return off;
}

int64_t strideOf(const std::vector<int64_t>& full, int dim) {
  int64_t s = 1;
  for (size_t r = size_t(dim) + 1; r < full.size(); ++r)
    s *= full[r];
  return s;
}

const arch::TensorMap& mapOf(const std::vector<arch::TensorMap>& maps, const attn::GemmStage& g,
                             int tensor) {
  return maps.at(size_t(selectOf(g, tensor)));
}

// The per-item table `items` packed by `rows`: the fields named in `rowFields` once per row (from
// its first item), then per lane a valid bit and the item's other fields; with `groupField`,
// a row's first and last flags of its group (rs, re).
Rom laneRom(const Rom& items, const attn::LaneRows& rows, int64_t lanes,
            const std::vector<std::string>& rowFields, const std::string& groupField) {
  Rom out;
  out.name = items.name;
  std::vector<size_t> perRow, perLane;
  for (size_t f = 0; f < items.fields.size(); ++f) {
    const bool row =
        std::find(rowFields.begin(), rowFields.end(), items.fields[f].first) != rowFields.end();
    (row ? perRow : perLane).push_back(f);
    if (row) out.fields.push_back(items.fields[f]);
  }
  size_t group = items.fields.size();
  for (size_t f = 0; f < items.fields.size(); ++f)
    if (items.fields[f].first == groupField) group = f;
  if (!groupField.empty()) {
    out.fields.push_back({"rs", 1});
    out.fields.push_back({"re", 1});
  }
  for (int64_t l = 0; l < lanes; ++l) {
    out.fields.push_back({"v" + std::to_string(l), 1});
    for (size_t f : perLane)
      out.fields.push_back({items.fields[f].first + std::to_string(l), items.fields[f].second});
  }
  // A row's first busy lane (lanes may idle where items have fixed lanes).
  auto firstOf = [&](size_t r) -> const std::vector<int64_t>& {
    for (int64_t x : rows[r])
      if (x >= 0) return items.rows[size_t(x)];
    throw std::logic_error("attention: an empty lane row");
  };
  auto groupOf = [&](size_t r) { return firstOf(r)[group]; };
  for (size_t r = 0; r < rows.size(); ++r) {
    const std::vector<int64_t>& first = firstOf(r);
    std::vector<int64_t> row;
    for (size_t f : perRow)
      row.push_back(first[f]);
    if (!groupField.empty()) {
      row.push_back(r == 0 || groupOf(r - 1) != groupOf(r));
      row.push_back(r + 1 == rows.size() || groupOf(r + 1) != groupOf(r));
    }
    for (int64_t l = 0; l < lanes; ++l) {
      const bool used = size_t(l) < rows[r].size() && rows[r][size_t(l)] >= 0;
      row.push_back(used);
      for (size_t f : perLane)
        row.push_back(used ? items.rows[size_t(rows[r][size_t(l)])][f] : 0);
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

// Whether every offset (field off<l>) lane l of `rom` reads is l mod `lanes`.
bool offsetsInLanes(const Rom& rom, int64_t lanes) {
  std::vector<size_t> valid(static_cast<size_t>(lanes)), off(static_cast<size_t>(lanes));
  for (size_t f = 0; f < rom.fields.size(); ++f)
    for (int64_t l = 0; l < lanes; ++l) {
      if (rom.fields[f].first == "v" + std::to_string(l)) valid[size_t(l)] = f;
      if (rom.fields[f].first == "off" + std::to_string(l)) off[size_t(l)] = f;
    }
  for (const std::vector<int64_t>& row : rom.rows)
    for (int64_t l = 0; l < lanes; ++l)
      if (row[valid[size_t(l)]] && row[off[size_t(l)]] % lanes != l) return false;
  return true;
}

} // namespace

int64_t fieldBits(const Rom& rom, const std::string& name) {
  for (const auto& [n, bits] : rom.fields)
    if (n == name) return bits;
  throw std::logic_error("attention: a ROM without the field " + name);
}

int selectOf(const attn::GemmStage& g, int tensor) {
  for (size_t a = 0; a < g.view.accesses.size(); ++a)
    if (g.view.accesses[a].tensor == tensor) return int(a);
  throw std::logic_error("attention: a tensor is missing from its GEMM stage");
}

AttentionTables attentionTables(const tc::Program& prog, const attn::AttentionForm& f,
                                const attn::PipelinePoint& p, const arch::Plan& plan1,
                                const arch::Plan& plan2, bool tileOffsets) {
  const attn::GemmStage& g1 = p.g1;
  const attn::GemmStage& g2 = p.g2;
  const auto maps1 = arch::hostMap(g1.prog, g1.view, g1.design.dataflow, plan1);
  const auto maps2 = arch::hostMap(g2.prog, g2.view, g2.design.dataflow, plan2);
  const HostPort h1 = hostPort(plan1), h2 = hostPort(plan2);
  const int64_t bk = p.blockKeys;
  const int64_t iBits = arch::bitsFor(f.l), jBits = arch::bitsFor(bk);
  const int heads = f.multiHead ? 1 : 0;
  AttentionTables t;

  // Inputs copied from a store: one row per place.
  auto copyRom = [&](Rom& rom, const std::string& name, const arch::TensorMap& m, int tensor,
                     int keyDim, const HostPort& h) {
    const std::vector<int64_t>& full = tileOffsets ? m.shape : prog.tensors[tensor].shape;
    rom.name = name;
    rom.fields = {{"off", arch::bitsFor(product(full))}};
    if (keyDim >= 0) rom.fields.push_back({"key", jBits});
    rom.fields.push_back({"bank", h.bankBits});
    rom.fields.push_back({"addr", h.addressBits});
    for (size_t e = 0; e < m.elements.size(); ++e) {
      std::vector<int64_t> idx = indicesOf(int64_t(e), m.shape);
      for (const arch::Location& loc : m.elements[e]) {
        std::vector<int64_t> row = {storeOffset(idx, full)};
        if (keyDim >= 0) row.push_back(idx[size_t(keyDim)]);
        row.push_back(loc.bank);
        row.push_back(loc.address);
        rom.rows.push_back(row);
      }
    }
  };
  copyRom(t.query, "rom_q", mapOf(maps1, g1, f.q), f.q, -1, h1);
  copyRom(t.key, "rom_k", mapOf(maps1, g1, f.k), f.k, f.keyDimK, h1);
  copyRom(t.value, "rom_v", mapOf(maps2, g2, f.v), f.v, f.keyDimV, h2);
  t.keyStep = bk * strideOf(prog.tensors[f.k].shape, f.keyDimK);
  t.valueStep = bk * strideOf(prog.tensors[f.v].shape, f.keyDimV);

  // Scores Sc(i, j) of one block, row-major: one place each.
  const arch::TensorMap& sc = mapOf(maps1, g1, f.scores);
  t.score.name = "rom_s";
  t.score.fields = {{"i", iBits}, {"bank", h1.bankBits}, {"addr", h1.addressBits}, {"j", jBits}};
  for (size_t e = 0; e < sc.elements.size(); ++e) {
    if (sc.elements[e].size() != 1)
      throw std::logic_error("attention: a score without exactly one place");
    std::vector<int64_t> idx = indicesOf(int64_t(e), sc.shape);
    const arch::Location& loc = sc.elements[e][0];
    t.score.rows.push_back({idx[size_t(heads)], loc.bank, loc.address, idx[size_t(heads) + 1]});
  }

  // E(i, j) at every place GEMM 2 reads it, computed from the score of the same (i, j).
  const arch::TensorMap& em = mapOf(maps2, g2, f.e);
  t.expo.name = "rom_e";
  t.expo.fields = {{"i", iBits},
                   {"sbank", h1.bankBits},
                   {"saddr", h1.addressBits},
                   {"ebank", h2.bankBits},
                   {"eaddr", h2.addressBits},
                   {"j", jBits},
                   {"count", 1}};
  for (size_t e = 0; e < em.elements.size(); ++e) {
    const std::vector<arch::Location>& places = em.elements[e];
    if (places.empty()) throw std::logic_error("attention: an exponential GEMM 2 never reads");
    std::vector<int64_t> idx = indicesOf(int64_t(e), em.shape);
    const int64_t i = idx[size_t(heads)], j = idx[size_t(heads) + 1];
    const arch::Location& s = sc.elements[e][0]; // same shape, same element
    for (size_t k = 0; k < places.size(); ++k)
      t.expo.rows.push_back({i, s.bank, s.address, places[k].bank, places[k].address, j, k == 0});
  }

  // U(i, c) of one block, row-major: one place each; k is its word in U_acc's part i mod N
  // (attn::accPartWords), the part of the lane the schedule issues it in.
  const arch::TensorMap& um = mapOf(maps2, g2, f.u);
  const int64_t n = attn::normaliseLanes(p.lanes, f.l);
  t.result.name = "rom_u";
  t.result.fields = {{"bank", h2.bankBits},
                     {"addr", h2.addressBits},
                     {"i", iBits},
                     {"k", arch::bitsFor(attn::accPartWords(f.l, f.dv, n))}};
  for (size_t e = 0; e < um.elements.size(); ++e) {
    if (um.elements[e].size() != 1)
      throw std::logic_error("attention: a GEMM 2 result without exactly one place");
    std::vector<int64_t> idx = indicesOf(int64_t(e), um.shape);
    const int64_t i = idx[size_t(heads)], c = idx[size_t(heads) + 1];
    t.result.rows.push_back(
        {um.elements[e][0].bank, um.elements[e][0].address, i, i / n * f.dv + c});
  }

  // One row per cycle: the same schedule the explorer timed (attn::schedulePasses).
  const attn::PassSchedules ps =
      attn::schedulePasses(attn::passItems(f, g1, g2, maps1, maps2), p.lanes);
  t.lanes = p.lanes;
  t.query = laneRom(t.query, ps.query, p.lanes, {}, "");
  t.key = laneRom(t.key, ps.key, p.lanes, {}, "");
  t.value = laneRom(t.value, ps.value, p.lanes, {}, "");
  t.score = laneRom(t.score, ps.score, p.lanes, {"i"}, "i");
  t.expo = laneRom(t.expo, ps.expo, p.lanes, {"i"}, "i");
  t.result = laneRom(t.result, ps.result, p.lanes, {}, "");

  const int64_t w = p.lanes;
  auto splits = [&](const Rom& rom, int tensor, int64_t step) {
    const int64_t words = product(prog.tensors[tensor].shape);
    return !tileOffsets && w >= 2 && (w & (w - 1)) == 0 && words >= 2 * w &&
           (words / f.heads) % w == 0 && step % w == 0 && offsetsInLanes(rom, w);
  };
  t.splitQuery = splits(t.query, f.q, 0);
  t.splitKey = splits(t.key, f.k, t.keyStep);
  t.splitValue = splits(t.value, f.v, t.valueStep);
  return t;
}

} // namespace rubick::emit::detail
