// SPDX-License-Identifier: Apache-2.0
#pragma once
// Processing-in-memory systems (docs/pim.md): many small compute units, each next to one or more
// DRAM banks that it reads through the row buffer at the bank's internal rate, working in
// lock-step on one problem; a shared buffer may broadcast an input to every unit, and a host
// interface (the channel's external bandwidth) brings inputs in and takes outputs out.
//
// Every time is in cycles of the units' clock. A target file gives the bank's timings in DRAM
// clocks (tCK) with the DRAM clocks per unit cycle; the parser converts them, rounding up.

#include "rubick/dse/Explore.h"
#include "rubick/frontend/Program.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rubick::dse {

/// A DRAM bank as a unit sees it, in unit cycles.
struct PimBank {
  int64_t bytesPerCycle = 0; // column data per unit cycle while a row is open
  int64_t rowBytes = 0;      // one row (page) of the bank
  int64_t tRCD = 0;          // activate to first column access
  int64_t tRP = 0;           // precharge to the next activate
  int64_t tRAS = 0;          // activate to precharge, at least
  int64_t tCL = 0;           // column read to its data
  friend bool operator==(const PimBank&, const PimBank&) = default;
};

/// How a unit gets the data in its banks.
enum class PimAccess {
  stream, // in place: its array reads the open row column by column (AiM, HBM-PIM)
  dma,    // its DMA copies tiles into the unit's buffer, as a memory system (UPMEM, a logic die)
};
const char* toString(PimAccess a);

/// One PIM system (a target file's "pim" object; designs/targets/{aim,hbm-pim,upmem,
/// logic-die}.json). `units == 0`: none.
struct PimSystem {
  int64_t units = 0;        // compute units working on one problem
  int64_t banksPerUnit = 1; // banks a unit reads, taking rows in turn (it may open a
                            // row in one while it reads another)
  PimAccess access = PimAccess::stream;
  // The PE arrays a unit may be built as, of the same PEs (e.g. 1x16, a 16-lane vector unit,
  // or 4x4): the explorer takes the best per spread.
  std::vector<ArrayShape> arrays;
  int64_t bufferBytes = 0;            // each unit's own buffer (registers or SRAM)
  PimBank bank;                       // each of a unit's banks
  int64_t broadcastBytes = 0;         // a buffer shared by all units that broadcasts one input to
                                      // every unit at once (0: none)
  int64_t broadcastBytesPerCycle = 0; // its rate to the units (every unit gets the same bytes)
  int64_t hostBytesPerCycle = 0;      // the external interface, per unit cycle
  int64_t clockMhz = 0;               // the units' clock, for reporting times and bandwidths
  // Stream units: the column FIFO their banks' reader fills ahead of the array (0: CL + 2
  // columns, the least that reads a column every cycle).
  int64_t readAheadBytes = 0;
  bool enabled() const { return units > 0; }
  friend bool operator==(const PimSystem&, const PimSystem&) = default;
};

/// A dma unit's bank as the memory model sees it (docs/pim.md, "Units with a DMA"): the bank's
/// rate; the first row's activate and read latency, tRCD + CL; rows of the bank's size, each
/// further row costing what its activate and precharge add to reading it, with the unit's banks
/// taking rows in turn.
MemorySystem unitMemory(const PimSystem& s);

/// A stream unit's run (docs/pim.md, "Units that read in place"): its array's `latency` cycles
/// (or the bank's column reads, when more) reading `bytes` from its banks in port-time order:
/// the first activate and read (tRCD + CL),
/// then per further row the stall by which the bank's activate, reading and precharge of a row
/// (shared by the unit's banks in turn) exceed the array's time on it.
struct PimStream {
  int64_t cycles = 0;
  int64_t rows = 0;        // rows opened
  int64_t rowCycles = 0;   // the array's cycles on one row (rounded down)
  int64_t stallPerRow = 0; // after the first
};
/// `writeColumns`: columns of outputs the unit writes into its banks among the reads.
PimStream streamRun(const PimSystem& s, int64_t latency, int64_t bytes, int64_t writeColumns = 0);

/// The stream reader's FIFO in columns (PimSystem::readAheadBytes, or CL + 2).
int64_t readAheadColumns(const PimSystem& s);

/// The reads an input's banks serve over one run of design `d` of `v` (access `a`), as the
/// hardware makes them (src/emit/VerilogTop.cpp, arch/CoreReads.h): per tile and bank, every
/// port time of the tensor's range, or with overlapped tiles only those of the bank's own
/// window; one a tile for a held value. A stream unit's banks deliver exactly these words.
int64_t bankReads(const dataflow::StatementView& v, const DesignPoint& d, size_t a);

/// Where an access's data lives in a PIM design.
enum class PimPlacement {
  banks,      // split over the units: each unit's share in its own banks, in the order it reads
  replicated, // the same for every unit, a copy in every unit's banks (written once by the
              // host to all units at once)
  broadcast,  // in the shared buffer, which sends it to every unit at once
  buffer,     // in each unit's own buffer (inputs: written by the host to all units at once;
              // outputs: read by the host)
};
const char* toString(PimPlacement p);

struct PimDesign {
  std::string id;                      // the unit design's ID, '/', the spread ("i16")
  std::vector<int64_t> spread;         // per loop: units along it (product: the unit count)
  dataflow::StatementView share;       // one unit's share of the problem (the largest one)
  DesignPoint unit;                    // the best design of that share
  std::vector<PimPlacement> placement; // per access
  int64_t reduceUnits = 1; // units whose partial outputs the host sums (a reduction loop spread)
  int64_t cycles = 0;      // host inputs + the units' run + host outputs
  int64_t unitCycles = 0, hostInCycles = 0, hostOutCycles = 0;
  int64_t modelUnitCycles = 0; // the closed form's units' run (unitCycles when not exact)
  bool exact = false;          // unitCycles is the hardware's, replayed (PimExact)
  int64_t bankBytes = 0;       // read and written in the banks by all units
  int64_t activates = 0;       // rows opened by all units (dma units: estimated from full tiles)
  int64_t macs = 0;
  double bankFraction = 0; // bankBytes / (cycles x aggregate bank bytes per cycle)
  double intensity = 0;    // MACs per byte that must come from the banks (split inputs, once);
                           // 0: none comes from them
  double attainable = 0;   // MACs per cycle: min(peak, aggregate bank rate x intensity)
  double roofline = 0;     // MACs per cycle / attainable
  double rowHitRate = 0;   // 1 - activates / column accesses
  double utilization = 0;  // MACs / (cycles x units x PEs)
};

struct PimExploreResult {
  std::vector<PimDesign> designs; // ranked by cycles, then bank bytes, then id
  size_t spreads = 0;             // spreads tried
  size_t unitDesigns = 0;         // unit designs explored over all spreads
};

/// Every way to spread the statement's loops over the system's units (each loop over a divisor
/// of the unit count, the product the unit count, no loop over more units than iterations),
/// each with the best unit design of its share under `o`'s constraints (the unit's array,
/// buffer and banks replace o's arrays, buffer and memory). Throws Unsupported for units of
/// one PE.
/// The units' run of a design as its hardware takes it, or -1 when unknown (not built): emit's
/// pimExact gives one (dse builds no hardware). explorePim ranks by it where known.
using PimExact = std::function<int64_t(const PimDesign&)>;

PimExploreResult explorePim(const dataflow::StatementView& v, const PimSystem& s,
                            const ExploreOptions& o, const PimExact& exact = {});

/// The PIM design `emit` and `verify` take: explorePim's rank 1, or with `point` the design of
/// that ID ("UNITID/SPREAD", as explore lists it). Throws rubick::Error naming `command` when
/// no design fits or none has the ID.
PimDesign selectPimDesign(const dataflow::StatementView& v, const PimSystem& s,
                          const ExploreOptions& o, const std::optional<std::string>& point,
                          const std::string& command, const PimExact& exact = {});

/// Every PIM design explorePim ranks (`all`), else selectPimDesign's one.
std::vector<PimDesign> selectPimDesigns(const dataflow::StatementView& v, const PimSystem& s,
                                        const ExploreOptions& o,
                                        const std::optional<std::string>& point, bool all,
                                        const std::string& command, const PimExact& exact = {});

/// One line: the target's name and what its system is (units, arrays, banks, host).
std::string describePim(const std::string& name, const PimSystem& s);

/// `cycles` of the units' clock as time ("16.4 us").
std::string pimTimeText(int64_t cycles, const PimSystem& s);

/// The ranked table of the first `top` designs.
std::string formatPimTable(const dataflow::StatementView& v, const PimSystem& s,
                           const PimExploreResult& r, size_t top);

/// `explore --json` for PIM designs: the program, the statement, the loops, the system
/// (`targetName` and its fields in unit cycles), the spreads tried, and the first `top` designs
/// in full (one per line; docs/pim.md, "Reading the table", has the meaning of each figure).
std::string pimToJson(const tc::Program& prog, const dataflow::StatementView& v,
                      const std::string& targetName, const PimSystem& s, const PimExploreResult& r,
                      size_t top);

/// The PEs of one unit (the most of its arrays).
int64_t unitPes(const PimSystem& s);

/// The cycles to move every tensor once over the host interface alone (`s.hostBytesPerCycle`):
/// what a design outside the memory, fed only through the channel, needs at the least.
int64_t hostOnlyCycles(const dataflow::StatementView& v, const PimSystem& s,
                       const ExploreOptions& o);

} // namespace rubick::dse
