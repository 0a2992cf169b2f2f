// SPDX-License-Identifier: Apache-2.0
// From a design (dataflow + entries) to its microarchitecture. Every number here follows
// dse/Schedule.h; the consistency with the cost model is a unit test.

#include "rubick/arch/Plan.h"

#include "rubick/arch/Buildable.h"

#include "rubick/dse/CostModel.h"
#include "rubick/dse/PortWindows.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"

#include <algorithm>
#include <map>
#include <set>

namespace rubick::arch {

using dataflow::Dataflow;

int64_t bitsFor(int64_t n) {
  int64_t b = 1;
  while ((int64_t(1) << b) < n)
    ++b;
  return b;
}

namespace {

[[noreturn]] void unsupported(const std::string& why) {
  throw Error("emit", why);
}

std::string safeId(size_t access, const std::string& name) {
  std::string s = "t" + std::to_string(access) + "_";
  for (char c : name)
    s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

} // namespace

Plan makePlan(const tc::Program& prog, const dataflow::StatementView& v, const Dataflow& d,
              const std::vector<ir::OrientedEntry>& entries,
              const std::vector<int64_t>& elementBits, const std::string& name,
              const std::vector<char>& bufferRecurs) {
  // What the hardware cannot build is decided in one place (arch/Buildable.h).
  const std::string problem = buildProblem(prog, v, elementBits);
  if (!problem.empty()) throw Unsupported("emit", problem);
  const tc::Statement* stmt = nullptr;
  for (const tc::Statement& s : prog.statements)
    if (s.name == v.statement) stmt = &s;
  std::string bad = dataflow::checkWellFormed(d, v);
  if (!bad.empty()) unsupported("the dataflow is malformed: " + bad);
  std::optional<Mat> xInv = d.completedS().inverse();
  if (!xInv || !xInv->isIntegral())
    unsupported("the dataflow's S is not unimodular; its layouts are not integral");
  const std::vector<IntVec> x = xInv->toIntRows();

  Plan plan;
  plan.name = name;
  plan.statement = stmt->text;
  plan.spec = dataflow::toSpec(d, v);
  plan.p = d.p;
  plan.q = d.q;
  const int64_t npe = d.p * d.q;
  IntVec off = d.offset();

  // Coordinates: the real inner coordinates, then the constant axes (extent 1).
  std::vector<int> constAxes = d.constantAxes();
  for (int c = 0; c < 3; ++c) {
    Coordinate co;
    co.a = x[c][2];
    for (int64_t px = 0; px < d.p; ++px)
      for (int64_t qy = 0; qy < d.q; ++qy)
        co.b.push_back(x[c][0] * (px - off[0]) + x[c][1] * (qy - off[1]) - x[c][2] * off[2]);
    if (static_cast<size_t>(c) < d.k()) {
      const dataflow::InnerDim& in = d.inner[c];
      co.factor = in.factor;
      co.name = in.factor == v.extent[in.loop]
                    ? v.loops[in.loop]
                    : v.loops[in.loop] + " mod " + std::to_string(in.factor);
      for (size_t o = 0; o < d.outer.size(); ++o)
        if (d.outer[o].loop == in.loop) {
          co.outerDim = static_cast<int>(o);
          int64_t ext = d.outerExtent(o, v.extent);
          co.lastLimit = v.extent[in.loop] - in.factor * (ext - 1);
        }
    } else {
      static const char* axis[] = {"x", "y", "t1"};
      co.name = std::string("(") + axis[constAxes[c - d.k()]] + " constant)";
      co.factor = 1;
    }
    plan.coords.push_back(std::move(co));
  }
  for (size_t o = 0; o < d.outer.size(); ++o) {
    const dataflow::OuterDim& od = d.outer[o];
    plan.outer.push_back(
        {od.factor == 1 ? v.loops[od.loop] : v.loops[od.loop] + " / " + std::to_string(od.factor),
         d.outerExtent(o, v.extent)});
  }

  plan.schedule = dse::schedule(v, d, entries, bufferRecurs);
  const std::vector<dse::Window> peWin = dse::peWindows(d);
  int64_t tauMag = std::max(-plan.schedule.first, plan.schedule.last) + 1;
  plan.tauBits = bitsFor(tauMag + 1) + 1;
  std::vector<int64_t> inBits(elementBits.begin() + 1, elementBits.end());
  for (int64_t b : inBits)
    plan.productBits += b;
  plan.productBits += dataflow::factorBits(v.factor); // the constant factor's operand
  plan.factor = v.factor;
  plan.accumulatorBits = dse::accumulatorBits(v, inBits);
  // `+=` adds to the output's start values: the sums need the output's width too (modulo
  // 2^width they are then exact, as the output wraps to it).
  if (v.accumulates) plan.accumulatorBits = std::max(plan.accumulatorBits, elementBits.front());
  // A maximum or minimum is taken over values wrapped to the output's type (the reference
  // model's order: each value wraps, then they meet): in the output's width.
  plan.fold = v.fold;
  if (v.fold != dataflow::Fold::Sum) plan.accumulatorBits = elementBits.front();

  for (size_t a = 0; a < v.accesses.size(); ++a) {
    const dataflow::AccessView& av = v.accesses[a];
    const ir::OrientedEntry& e = entries[a];
    const dse::TensorTiming& tt = plan.schedule.tensors[a];
    TensorPlan t;
    t.name = av.name;
    t.id = safeId(a, av.name);
    t.access = a;
    t.output = av.write;
    t.entry = e;
    t.elementBits = elementBits[a];
    t.wireBits = av.write ? plan.accumulatorBits : elementBits[a];
    t.streaming = tt.streaming;
    const ir::EntryInfo& inf = ir::info(e.kind);
    t.held = inf.held;
    t.systolic = !inf.systolic.none();

    // Ports, chains and port times (dse/PortWindows.h, shared with the schedule).
    dse::PortWindows pw = dse::portWindows(d, e, peWin);
    t.ports = std::move(pw.positions);
    if (static_cast<int64_t>(t.ports.size()) != inf.ports(d.p, d.q))
      unsupported("internal: port count of " + ir::toString(e) + " disagrees with the table");
    t.portOf = std::move(pw.portOf);
    t.hop = std::move(pw.hop);
    t.teShift = std::move(pw.teShift);
    t.window = std::move(pw.window);
    const int64_t vx = inf.systolic.dx, vy = inf.systolic.dy;
    const int64_t dx = e.mirrorX ? -vx : vx, dy = e.mirrorY ? -vy : vy;
    t.hop0.assign(t.ports.size(), 0);
    for (int pe = 0; pe < npe; ++pe) {
      const int64_t px = pe / d.q, qy = pe % d.q;
      const int64_t ux = px - dx, uy = qy - dy;
      const bool inside = t.systolic && ux >= 0 && ux < d.p && uy >= 0 && uy < d.q;
      t.upstream.push_back(inside ? static_cast<int>(ux * d.q + uy) : -1);
      if (t.hop[pe] == 0 && t.streaming) t.hop0[t.portOf[pe]] = -t.teShift[pe];
    }
    if (t.output) {
      std::map<std::pair<int, int>, std::vector<int>> byKey;
      for (int pe = 0; pe < npe; ++pe)
        byKey[{t.portOf[pe], t.hop[pe]}].push_back(pe);
      t.chainOfPort.assign(t.ports.size(), {});
      for (auto& [key, pes] : byKey) {
        t.chainOfPort[key.first].push_back(static_cast<int>(t.groups.size()));
        t.treeInputs = std::max<int64_t>(t.treeInputs, static_cast<int64_t>(pes.size()));
        t.groups.push_back(pes);
      }
      t.treeDepth = dse::treeDepth(t.treeInputs);
      if (t.treeDepth != tt.treeDepth)
        unsupported("internal: adder-tree depth disagrees with the schedule");
    }
    t.teMin = tt.teMin;
    t.teMax = tt.teMax;
    int64_t span = t.streaming ? t.teMax - t.teMin + 1 : 1;
    t.depth = span;
    for (size_t o = 0; o < d.outer.size(); ++o) {
      bool moves = false;
      for (const IntVec& row : av.coeffs)
        moves |= row[d.outer[o].loop] != 0;
      t.strides.push_back(moves ? t.depth : 0);
      if (moves)
        t.depth *= d.outerExtent(o, v.extent);
      else if (t.output)
        t.recurDims.push_back(static_cast<int>(o));
    }
    t.bufferRecurs = t.output && t.access < bufferRecurs.size() && bufferRecurs[t.access];
    t.accumulates = t.output && v.accumulates;
    t.recurs = t.output && (!t.recurDims.empty() || t.bufferRecurs || t.accumulates);
    t.addressBits = bitsFor(t.depth);
    plan.tensors.push_back(std::move(t));
  }
  return plan;
}

} // namespace rubick::arch
