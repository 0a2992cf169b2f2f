// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/CostModel.h"

#include <cmath>

namespace rubick::dse {

using ir::EntryKind;

int64_t links(EntryKind k, int64_t p, int64_t q) {
  return ir::info(k).links(p, q);
}

int64_t accumulatorBits(const dataflow::StatementView& v, const std::vector<int64_t>& inputBits) {
  int64_t bits = 0;
  for (int64_t b : inputBits)
    bits += b;
  // Loops that do not index the output are reduced.
  int64_t length = 1;
  const dataflow::AccessView& out = v.accesses[0];
  for (size_t l = 0; l < v.loops.size(); ++l) {
    bool indexes = false;
    for (const IntVec& row : out.coeffs)
      indexes |= row[l] != 0;
    if (!indexes) length *= v.extent[l];
  }
  return bits + dataflow::factorBits(v.factor) + treeDepth(length);
}

Metrics evaluate(const dataflow::StatementView& v, const dataflow::Dataflow& d,
                 const std::vector<ir::OrientedEntry>& entries,
                 const std::vector<int64_t>& elementBits, const CostTable& c) {
  return evaluate(v, d, entries, elementBits, schedule(v, d, entries), c);
}

Metrics evaluate(const dataflow::StatementView& v, const dataflow::Dataflow& d,
                 const std::vector<ir::OrientedEntry>& entries,
                 const std::vector<int64_t>& elementBits, const Schedule& s, const CostTable& c) {
  Metrics m;
  m.latency = s.latency;
  m.tiles = s.tiles;
  m.tileCycles = s.tileCycles;
  m.interval = s.interval;
  m.macs = 1;
  for (int64_t e : v.extent)
    m.macs *= e;
  const int64_t pes = d.p * d.q;
  m.utilization = double(m.macs) / (double(pes) * double(m.latency));
  std::vector<int64_t> inBits;
  for (size_t a = 1; a < v.accesses.size(); ++a)
    inBits.push_back(elementBits[a]);
  m.accumulatorBits = accumulatorBits(v, inBits);

  double sramBits = 0, regBits = 0, adderBits = 0, dynamicEnergy = 0;
  int64_t totalAccesses = 0;
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    const dataflow::AccessView& av = v.accesses[a];
    const TensorTiming& tt = s.tensors[a];
    TensorMetrics t;
    t.name = av.name;
    t.entry = entries[a];
    t.output = av.write;
    t.elementBits = elementBits[a];
    t.wireBits = av.write ? m.accumulatorBits : elementBits[a];
    t.ports = ir::ports(t.entry.kind, d.p, d.q);
    t.fan = ir::fanout(t.entry.kind, d.p, d.q);
    t.links = links(t.entry.kind, d.p, d.q);
    t.recurs = tt.recurs;
    // Depth: the shared counter runs over te and the outer stamps this tensor depends on.
    int64_t outerDepth = 1;
    for (size_t o = 0; o < d.outer.size(); ++o) {
      bool moves = false;
      for (const IntVec& row : av.coeffs)
        moves |= row[d.outer[o].loop] != 0;
      if (moves) outerDepth *= d.outerExtent(o, v.extent);
    }
    int64_t teSpan = tt.streaming ? tt.teMax - tt.teMin + 1 : 1;
    t.bankDepth = teSpan * outerDepth;
    t.bufferBytes = t.ports * t.bankDepth * ((t.elementBits + 7) / 8);
    t.wires = t.ports * t.fan * t.wireBits;
    t.linkBits = t.links * t.wireBits;
    // Accesses: every port reads (or writes) once per port time per tile; read-modify-write
    // outputs also read.
    t.accesses = s.tiles * t.ports * teSpan * (t.recurs ? 2 : 1);
    totalAccesses += t.accesses;
    if (tt.streaming) m.peakWordsPerCycle += t.ports;
    if (av.write)
      m.maxFanin = std::max(m.maxFanin, t.fan);
    else
      m.maxFanout = std::max(m.maxFanout, t.fan);
    m.ports += t.ports;
    m.wires += t.wires;
    m.linkBits += t.linkBits;
    m.bufferBytes += t.bufferBytes;
    sramBits += double(t.ports) * double(t.bankDepth) * double(t.elementBits);
    // A register per PE for every tensor (operand, moving value or accumulator), and an adder
    // tree with (fan - 1) adders per port for multicast outputs.
    regBits += double(pes) * double(t.wireBits);
    if (av.write) adderBits += double(t.ports) * double(t.fan - 1) * double(t.wireBits);
    // Energy per run: bank accesses; every PE register and every wire of this tensor switches
    // once per port time (streaming) or once per tile (held).
    double moves = double(s.tiles) * double(teSpan);
    dynamicEnergy += c.sramEnergyPerBit * double(t.accesses) * double(t.elementBits) +
                     c.registerEnergyPerBit * double(pes) * double(t.wireBits) * moves +
                     c.wireEnergyPerBit * double(t.wires + t.linkBits) * moves;
    m.tensors.push_back(std::move(t));
  }
  m.wordsPerCycle = double(totalAccesses) / double(m.latency);

  double mult = 1;
  for (int64_t b : inBits)
    mult *= double(b);
  // Each PE multiplies its operands and adds into its accumulator or partial sum.
  m.area = double(pes) *
               (c.multiplierAreaPerBit2 * mult + c.adderAreaPerBit * double(m.accumulatorBits)) +
           c.registerAreaPerBit * regBits + c.adderAreaPerBit * adderBits +
           c.sramAreaPerBit * sramBits + c.wireAreaPerBit * double(m.wires + m.linkBits);
  m.energy = double(m.macs) *
                 (c.macEnergyPerBit2 * mult + c.adderEnergyPerBit * double(m.accumulatorBits)) +
             dynamicEnergy;
  return m;
}

} // namespace rubick::dse
