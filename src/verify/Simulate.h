// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every verified design goes through, whatever produced its files (a single statement or
// the attention pipeline): write the emitted files into WORK/<id>/, build them with Verilator
// (reused while the files, the runtime and the build mode are unchanged), run each trial on its
// stimulus, and re-run a failing trial with a waveform.

#include "Runtime.h"

#include "rubick/emit/Package.h"
#include "rubick/support/Interrupt.h"
#include "rubick/verify/Verify.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace rubick::verify {

/// One design to simulate.
struct SimDesign {
  std::filesystem::path dir;       // WORK/<id>
  std::string top;                 // the top module
  std::vector<emit::File> files;   // the emitted files; dut.cpp is added here
  Harness harness = Harness::Host; // which testbench core it links (and so which dut.cpp)
  std::string faultyArray;         // RUBICK_VERIFY_FAULT=rtl breaks PE (0, 0) of the first
                                   // file whose path ends with this
  std::function<std::string(uint64_t)> stimulus;             // the stimulus text for a seed
  std::function<std::vector<std::string>(uint64_t)> runArgs; // extra harness arguments per seed
  int64_t simulatedCycles = 0; // about how many cycles a trial simulates (loading, run, reading)
  int64_t pes = 0;             // PEs simulated (for Build::Auto)
};

/// Checks that Verilator is on PATH and creates the work directory; throws rubick::Error
/// saying which is wrong.
void prepareWork(const Options& o);

/// `o` with its work, runtime and waveform paths made absolute: the tools run inside each
/// design's directory, where a path relative to the caller's would name nothing.
Options withAbsolutePaths(const Options& o);

/// Where the shared runtime lives: --runtime-dir, or WORK/.runtime.
std::string runtimeRoot(const Options& o);

/// The runtime the designs link, its build started for the flavour the options need (its
/// seconds in *seconds); with Options::bench one that builds nothing (and 0 seconds).
std::unique_ptr<Runtime> openRuntime(const Options& o, unsigned jobs, bool any, double* seconds);

/// Builds and runs `d`, filling r.built, r.reused, r.buildSeconds and r.trials. Throws
/// rubick::Error when the files cannot be written or the build fails.
void simulate(SimDesign d, const Options& o, Runtime& runtime, unsigned buildJobs, Result& r);

/// The work directory, the shared runtime and the interrupt scope of one simulated design
/// (the attention pipeline, a chain); `body(o, runtime, jobs, r)` builds and runs it into r
/// (an Error: r.error).
template <typename Body>
Result withRuntime(const Options& given, double* runtimeSeconds, Body body) {
  InterruptScope interruptible; // a signal now unwinds through the cleanups in simulate
  const Options o = withAbsolutePaths(given);
  prepareWork(o);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned jobs = o.jobs ? o.jobs : cores;
  const std::unique_ptr<Runtime> runtime = openRuntime(o, jobs, true, runtimeSeconds);
  Result r;
  try {
    body(o, *runtime, jobs, r);
  } catch (const Error& e) {
    r.error = e.diag().message;
  }
  return r;
}

/// The result of one trial from the harness's log ("RESULT ..." line, the rest a report).
Trial parseRun(const std::string& log, uint64_t seed);

} // namespace rubick::verify
