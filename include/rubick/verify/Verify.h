// SPDX-License-Identifier: Apache-2.0
#pragma once
// `rubick verify`: every design proven in Verilator against the reference model.
//
// Per design, in WORK/<id>/: the emitted files, the per-design part of rubick's testbench
// (sim_templates/rubick_dut.cpp), one stimulus per trial (random inputs from the seed and the
// reference model's expected outputs), a Verilator build (reused when the design and runtime
// are unchanged), and one run per trial. What every design links alike (Verilator's runtime,
// the testbench core) is compiled once, in WORK/.runtime/ (src/verify/Runtime.h).
// A trial passes when every output element matches and the measured cycles equal the
// schedule's latency; a failing trial is re-run with a waveform.

#include "rubick/arch/Dram.h"
#include "rubick/dse/Explore.h"
#include "rubick/dse/Pim.h"
#include "rubick/emit/Package.h"
#include "rubick/frontend/Program.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rubick::verify {

enum class Build { Auto, Quick, Optimised };

/// A design's standalone testbench (docs/integration.md): the files of the harness `rubick
/// verify` links, the per-design pin driver and one stimulus, all under tb/, and what the
/// harness program takes after `design.json tb/stimulus.txt`. It needs Verilator and a C++
/// compiler, not rubick.
struct Bench {
  std::vector<emit::File> files;
  std::string top;                  // the module the harness drives
  std::vector<std::string> runArgs; // the memory's and the tensors' placement, if any
};

/// Auto's choice: optimised when the simulated work, cycles x PEs, exceeds 2e7. Measured
/// (docs/performance.md): a quick build saves 0.7 s (8x8) to 3.5 s (16x16) of compile time
/// but simulates about 10 million PE-cycles per second against over 200 million optimised.
bool optimiseFor(int64_t simulatedCycles, int64_t pes);

struct Options {
  std::string workDir = "/tmp/rubick-verify";
  std::string runtimeDir; // the shared runtime's home; empty: WORK/.runtime
  /// Use the work and runtime directories even when they hold files and are not marked as
  /// rubick's (rubick/support/OwnedOutput.h, claimWorkDirectory).
  bool force = false;
  uint64_t seed = 1;
  int trials = 1;
  /// How each design's model is compiled (src/verify/Runtime.h, BuildMode): Auto picks the
  /// optimised build when the simulation is long enough to repay it (see autoBuildMode).
  Build build = Build::Auto;
  std::string wave;  // a waveform for the (first) trial, whatever its result
  unsigned jobs = 0; // designs built and simulated at once; 0: all cores
  /// Called from worker threads as each design finishes.
  std::function<void(size_t done, size_t total)> progress;
  /// Designs with a memory system: the memory with this DRAM timing, and a trial's cycles
  /// within kDramTolerance of arch::dramTiming's prediction instead of equal to it. An error
  /// for designs without a memory system.
  std::optional<arch::Dram> dram;
  /// Module prefix of the designs (empty: the program's name and the design's ID, as emit).
  std::string name;
  /// Set: nothing is built, run or written; the (single) design's standalone testbench for
  /// `seed` is stored here instead (Verilator need not be installed).
  Bench* bench = nullptr;
};

/// How far a trial's cycles may be from the prediction with DRAM timing: |measured / predicted
/// - 1| at most this (docs/memory.md, "DRAM timing").
inline constexpr double kDramTolerance = 0.03;

struct Trial {
  uint64_t seed = 0;
  bool pass = false;
  size_t mismatches = 0, elements = 0;
  int64_t measured = 0, predicted = 0;
  uint64_t simCycles = 0;
  double simSeconds = 0;
  std::string report; // the harness's mismatch lines, if any
  std::string wave;   // waveform written for this trial, if any
  // With DRAM timing: the memory's row accesses (hits, misses; conflicts: misses that closed
  // another row). -1 without.
  int64_t rowHits = -1, rowMisses = -1, rowConflicts = -1;
};

struct Result {
  std::string id;
  std::string spec;
  int64_t p = 0, q = 0;
  int64_t macs = 0;
  bool built = false;
  bool reused = false;     // the build of an earlier run was still valid
  double buildSeconds = 0; // Verilator's code generation, compile and link (0 when reused)
  std::string error;       // emit or build failure (with the log's tail)
  std::vector<Trial> trials;
  bool pass() const;
  /// MACs / (P * Q * measured cycles) of the first trial.
  double utilization() const;
};

/// Throws rubick::Error naming the first external tool verify runs (verilator, make, g++, ar)
/// that is not on PATH. verifyDesigns and verifyAttention check too, before creating anything.
void checkTools();

/// Verifies `points` (designs of statement `stmt`), in parallel. Throws rubick::Error when
/// Verilator is missing, the work directory cannot be used or the shared runtime does not
/// build. `runtimeSeconds`, when given, receives the time spent building the shared runtime
/// (0 when an earlier run's was reused).
std::vector<Result> verifyDesigns(const tc::Program& prog, size_t stmt,
                                  const std::vector<dse::DesignPoint>& points,
                                  const dse::ExploreOptions& explore, const Options& o,
                                  double* runtimeSeconds = nullptr);

/// Verifies processing-in-memory designs of statement `stmt` on `s` (docs/pim.md), one after
/// another: each design's top of all units with a model of every unit's banks preloaded with
/// its stream. A trial passes when every output element matches (the host adding the units'
/// partial sums where a reduction loop is spread), no bank timing or protocol rule is broken,
/// and the measured cycles equal design.json's prediction (the replayed run). Throws
/// Unsupported, before anything is written, when a design is not built (emit::pimBuildProblem:
/// the caller leaves those out), rubick::Error as verifyDesigns does.
std::vector<Result> verifyPim(const tc::Program& prog, size_t stmt,
                              const std::vector<dse::PimDesign>& designs, const dse::PimSystem& s,
                              const dse::ExploreOptions& explore, const Options& o,
                              double* runtimeSeconds = nullptr);

} // namespace rubick::verify
