// SPDX-License-Identifier: Apache-2.0
#pragma once
// The microarchitecture of one design, as plain numbers for the Verilog writers: which bank
// feeds which PE, how values move (held, broadcast, shifted), how outputs are reduced (adder
// trees, partial-sum chains, accumulators), every address and every event time. It follows
// the schedule of dse/Schedule.h exactly; the writers only print it.
//
// PEs are numbered e = x * Q + y. "Port" and "bank" are the same thing: bank i of a tensor
// serves the i-th of its port positions in lexicographic order of (s0, s1) over the P x Q array.

#include "rubick/dataflow/Dataflow.h"
#include "rubick/dse/PortWindows.h"
#include "rubick/dse/Schedule.h"
#include "rubick/frontend/Program.h"
#include "rubick/ir/AccessEntry.h"

#include <string>
#include <vector>

namespace rubick::arch {

/// One inner coordinate u_c (c = 0..2, constant axes included as coordinates of extent 1).
/// At PE (x, y) and tile cycle tau: u_c = a * tau + b[e]; the PE's iteration is valid when
/// 0 <= u_c < limit for every c. The limit is `factor`, except on the last tile of a split
/// loop, where it is `lastLimit` (a partial tile).
struct Coordinate {
  std::string name;       // "i", "j mod 4", or "(x constant)"
  int64_t a = 0;          // coefficient of tau
  std::vector<int64_t> b; // per PE
  int64_t factor = 1;
  int outerDim = -1;     // outer stamp that holds this loop's quotient, -1 if none
  int64_t lastLimit = 1; // limit on the last tile of that outer stamp
};

struct OuterDim {
  std::string name; // "j / 4" or "k"
  int64_t extent = 1;
};

struct TensorPlan {
  std::string name; // "A", "C#2", ...
  std::string id;   // Verilog-safe identifier: "t0_C", "t1_A", ...
  size_t access = 0;
  bool output = false;
  ir::OrientedEntry entry;
  int64_t elementBits = 0; // bank width
  int64_t wireBits = 0;    // width in the array: element (inputs) or accumulator (outputs)

  bool streaming = false; // the entry has a port time
  bool held = false;      // stationary kinds: one value per tile per port (or accumulator)
  bool systolic = false;  // values or partial sums move PE to PE

  std::vector<std::pair<int64_t, int64_t>> ports; // (s0, s1) per bank
  std::vector<int> portOf;                        // per PE: its bank
  std::vector<int> upstream;       // per PE: the PE its value comes from, -1 at a chain start
  std::vector<int> hop;            // per PE: position along its chain (0 at the start)
  std::vector<int64_t> hop0;       // per bank: the tau offset of the chain start (te + hop0 = t1)
  std::vector<int64_t> teShift;    // per PE: te - t1 for the element this PE uses (streaming)
  std::vector<dse::Window> window; // per bank: te (streaming) or t1 (held) of its PEs' work

  // Outputs: PEs summed by one adder tree form a group; groups of a bank form a chain.
  std::vector<std::vector<int>> groups;      // PE lists
  std::vector<std::vector<int>> chainOfPort; // per bank: its groups in chain order
  int64_t treeInputs = 1;                    // widest group (trees are padded to this)
  int64_t treeDepth = 0;

  int64_t teMin = 0, teMax = 0;
  int64_t depth = 1; // words per bank
  int64_t addressBits = 1;
  std::vector<int64_t> strides; // per outer dim: address step (0: the tensor does not move)
  bool recurs = false;          // outputs: partial sums meet in the bank across tiles
  bool bufferRecurs = false;    // ... also across buffer tiles (the controller says when to add)
  std::vector<int> recurDims;   // outer dims along which it recurs (first visit: all zero)
  bool accumulates = false;     // `+=`: no first visit, the bank holds the output's start values
};

struct Plan {
  std::string name;                          // Verilog module prefix, e.g. "gemm_047b034bce"
  dataflow::Fold fold = dataflow::Fold::Sum; // how values meet in an output element
  int64_t factor = 1;    // the product's constant factor, an extra PE operand unless 1
  std::string statement; // "C(i, j) +=! A(i, k) * B(k, j)"
  std::string spec;      // dataflow in the written form
  int64_t p = 0, q = 0;
  std::vector<Coordinate> coords;
  std::vector<OuterDim> outer;
  dse::Schedule schedule;
  int64_t tauBits = 0;
  int64_t productBits = 0;
  int64_t accumulatorBits = 0;
  std::vector<TensorPlan> tensors; // write first, then reads
  // A memory design's core whose runs chain (rubick_ctrl's CHAIN; docs/memory.md): each tensor's
  // half and acc_zero are latched per run, the previous tile keeps its own.
  bool chain = false;
};

/// Builds the plan; throws rubick::Error when the statement or the entries need hardware that
/// is not built (with the reason), never returns a plan for wrong hardware.
/// `bufferRecurs`: as for dse::schedule.
Plan makePlan(const tc::Program& prog, const dataflow::StatementView& v,
              const dataflow::Dataflow& d, const std::vector<ir::OrientedEntry>& entries,
              const std::vector<int64_t>& elementBits, const std::string& name,
              const std::vector<char>& bufferRecurs = {});

/// Bits to hold values 0..n-1 (at least 1).
int64_t bitsFor(int64_t n);

} // namespace rubick::arch
