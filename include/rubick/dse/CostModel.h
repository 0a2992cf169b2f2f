// SPDX-License-Identifier: Apache-2.0
#pragma once
// Metrics of one design point (theory §4): latency from the schedule, PE utilisation, per-tensor
// ports, banks, bank depth and buffer bytes, memory words per cycle, fan-out/fan-in, wires, and
// an area/energy proxy from a cost table. Everything is analytic; nothing walks the domain.
//
// Buffer model: every bank of a tensor is addressed by one shared counter over the port time
// te (and the outer stamps the tensor's layout depends on), so
//   bank depth = (te_max - te_min + 1) x product of those outer extents   (streaming entries)
//              = product of those outer extents                           (held entries)
// A skewed layout therefore costs holes in the banks instead of delay registers in the array.
//
// Wires are the connections between the buffer and the PEs, times their width: a port wired to
// n PEs counts n (so multicast costs wires, as in the Rubick paper's wires/latency trade-off).
// PE-to-PE links of systolic movement are short neighbour connections, reported apart as links.

#include "rubick/dataflow/Dataflow.h"
#include "rubick/dse/Schedule.h"
#include "rubick/ir/AccessEntry.h"

#include <string>
#include <vector>

namespace rubick::dse {

/// Area (NAND2-equivalent gates) and energy (relative units: one register bit written = 1)
/// of the building blocks. designs/cost_table.json documents the same numbers.
struct CostTable {
  double multiplierAreaPerBit2 = 5.0; // an a x b bit multiplier ~ 5ab gates
  double adderAreaPerBit = 7.0;
  double registerAreaPerBit = 5.0;
  double sramAreaPerBit = 1.0;
  double wireAreaPerBit = 0.25; // per PE-to-PE or port-to-PE connection bit
  double macEnergyPerBit2 = 0.5;
  double adderEnergyPerBit = 0.7;
  double registerEnergyPerBit = 1.0;
  double sramEnergyPerBit = 2.0; // per bit read or written
  double wireEnergyPerBit = 0.3; // per connection bit driven
};

struct TensorMetrics {
  std::string name;
  ir::OrientedEntry entry;
  bool output = false;
  int64_t elementBits = 0; // bits stored per element in the banks
  int64_t wireBits = 0;    // bits on the array's wires (accumulator width for outputs)
  int64_t ports = 0;       // = banks
  int64_t bankDepth = 0;
  int64_t bufferBytes = 0;
  int64_t fan = 0;      // fan-out (inputs) or fan-in (outputs)
  int64_t links = 0;    // PE-to-PE links (local, neighbour to neighbour)
  int64_t linkBits = 0; // links x wireBits
  int64_t wires = 0;    // buffer-to-PE connection bits: ports x fan x wireBits
  int64_t accesses = 0; // bank reads/writes over the run
  bool recurs = false;  // output read-modify-write across tiles
};

/// A design's metrics. How each is named, shown, ranked and put on the Pareto front is its row
/// of kMetrics (rubick/dse/Metrics.h).
struct Metrics {
  int64_t latency = 0;
  int64_t tiles = 0;
  int64_t tileCycles = 0;
  int64_t interval =
      0; // cycles between the starts of consecutive tiles (overlapped if < tileCycles)
  int64_t macs = 0;
  double utilization = 0; // macs / (P*Q*latency)
  int64_t accumulatorBits = 0;
  int64_t bufferBytes = 0;
  int64_t peakWordsPerCycle = 0; // all streaming ports busy
  double wordsPerCycle = 0;      // bank accesses / latency
  int64_t maxFanout = 0;
  int64_t maxFanin = 0;
  int64_t ports = 0;
  int64_t wires = 0;    // buffer-to-PE connection bits (a multicast port counts once per PE)
  int64_t linkBits = 0; // PE-to-PE link bits (systolic movement)
  double area = 0;
  double energy = 0;
  std::vector<TensorMetrics> tensors;
};

/// Accumulator width: the product's bits plus ceil(log2 of the reduction length), so a full
/// reduction of extreme values cannot overflow.
int64_t accumulatorBits(const dataflow::StatementView& v, const std::vector<int64_t>& inputBits);

/// Metrics of dataflow `d` with `entries` (one per access). `elementBits` gives the stored width
/// of each access's elements (inputs: their type; outputs: the output type).
Metrics evaluate(const dataflow::StatementView& v, const dataflow::Dataflow& d,
                 const std::vector<ir::OrientedEntry>& entries,
                 const std::vector<int64_t>& elementBits, const CostTable& costs = {});
/// The same with `d`'s schedule already made (the explorer has it from the buffer search).
Metrics evaluate(const dataflow::StatementView& v, const dataflow::Dataflow& d,
                 const std::vector<ir::OrientedEntry>& entries,
                 const std::vector<int64_t>& elementBits, const Schedule& s,
                 const CostTable& costs = {});

/// PE-to-PE links of an entry on a P x Q array (systolic parts only).
int64_t links(ir::EntryKind k, int64_t p, int64_t q);

} // namespace rubick::dse
