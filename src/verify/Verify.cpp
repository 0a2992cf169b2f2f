// SPDX-License-Identifier: Apache-2.0
#include "rubick/verify/Verify.h"

#include "MemoryRun.h"
#include "Runtime.h"
#include "Simulate.h"
#include "Stimulus.h"

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/Buildable.h"
#include "rubick/arch/DramTiming.h"
#include "rubick/arch/MemoryPlan.h"
#include "rubick/arch/MemoryTiming.h"
#include "rubick/dataflow/StatementView.h"
#include "rubick/emit/Package.h"
#include "rubick/ref/Interpreter.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Interrupt.h"
#include "rubick/support/Unsupported.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace rubick::verify {

constexpr int64_t kMaxSimulatedElements = int64_t(1) << 26;

namespace fs = std::filesystem;

bool Result::pass() const {
  if (!built || trials.empty()) return false;
  for (const Trial& t : trials)
    if (!t.pass) return false;
  return true;
}

double Result::utilization() const {
  if (trials.empty() || trials[0].measured <= 0) return 0;
  return double(macs) / (double(p * q) * double(trials[0].measured));
}

namespace {

Result verifyOne(const tc::Program& prog, size_t stmt, const dataflow::StatementView& v,
                 const dse::DesignPoint& pt, const dse::ExploreOptions& eo, const Options& o,
                 Runtime& runtime, unsigned buildJobs) {
  Result r;
  r.id = pt.id;
  r.spec = dataflow::toSpec(pt.dataflow, v);
  r.p = pt.dataflow.p;
  r.q = pt.dataflow.q;
  r.macs = pt.metrics.macs;
  try {
    const std::string name = o.name.empty() ? emit::moduleName(prog.name, pt.id) : o.name;
    SimDesign d;
    d.dir = fs::path(o.workDir) / pt.id;
    d.top = name + "_top";
    d.files = emit::package(prog, v, pt, eo, name);
    d.faultyArray = "_array.v";
    if (!pt.buffer.size.empty()) {
      // Tensors in the harness's memory, moved by the design's own DMA; each trial places them
      // differently, and the prediction follows.
      d.harness = Harness::Memory;
      const arch::AxiOptions axi = arch::axiOptions(eo.constraints.memory);
      auto plan = std::make_shared<const arch::MemoryPlan>(
          arch::designMemoryPlan(prog, v, pt, eo, name, axi.busBytes));
      const dse::MemorySystem mem = eo.constraints.memory;
      const std::optional<arch::Dram> dram = o.dram;
      d.runArgs = [plan, axi, mem, dram](uint64_t seed) {
        return memoryRunArgs(*plan, axi, mem, dram, seed);
      };
      d.simulatedCycles = dram ? arch::dramTiming(*plan, axi, mem, *dram).cycles
                               : arch::memoryTiming(*plan, axi, mem).cycles;
    } else {
      // A trial loads every element through the host port, runs, and reads the output back.
      d.simulatedCycles = pt.metrics.latency;
      for (const dataflow::AccessView& a : v.accesses)
        d.simulatedCycles += prog.tensors[a.tensor].elements();
    }
    d.pes = pt.dataflow.p * pt.dataflow.q;
    d.stimulus = [&](uint64_t seed) {
      return eo.epilogue ? epilogueStimulus(prog, v, *eo.epilogue, seed, eo.constraints.elementBits)
                         : stimulus(prog, stmt, v, seed, eo.constraints.elementBits);
    };
    simulate(std::move(d), o, runtime, buildJobs, r);
  } catch (const Error& e) {
    r.error = e.diag().message;
  }
  return r;
}

} // namespace

std::vector<Result> verifyDesigns(const tc::Program& prog, size_t stmt,
                                  const std::vector<dse::DesignPoint>& points,
                                  const dse::ExploreOptions& eo, const Options& given,
                                  double* runtimeSeconds) {
  InterruptScope interruptible; // a signal now unwinds through the cleanups below
  const Options o = withAbsolutePaths(given);
  const dataflow::StatementView v = dataflow::viewStatement(prog, stmt);
  // Before anything is written: a statement the hardware cannot build is not a failed design.
  const std::string problem = arch::buildProblem(prog, v, eo.constraints.elementBits);
  if (!problem.empty()) throw Unsupported("verify", problem);
  if (o.dram && !eo.constraints.memory.enabled())
    throw Error("--dram", "there is no external memory: give --mem-bandwidth or a target with "
                          "'memory'");
  if (eo.constraints.memory.enabled()) {
    std::string why = arch::axiBuildProblem(eo.constraints.memory);
    if (why.empty()) why = arch::memoryBuildProblem(v, eo.constraints.elementBits);
    if (!why.empty()) throw Unsupported("verify", why);
  }
  // The reference model and the simulated memory hold every element (and without a memory
  // system every one passes the host port): a problem past this is not one to simulate.
  int64_t elements = 0;
  for (const dataflow::AccessView& a : v.accesses)
    elements += std::min(prog.tensors[a.tensor].elements(), kMaxSimulatedElements + 1);
  if (eo.epilogue)
    for (const dse::EpilogueOperand& op : eo.epilogue->operands)
      elements += op.extent;
  if (elements > kMaxSimulatedElements)
    throw Unsupported(
        "verify", "the tensors hold " + std::to_string(elements) +
                      " elements; verify simulates at most " +
                      std::to_string(kMaxSimulatedElements) +
                      (eo.constraints.memory.enabled() ? "" : " (every one passes the host port)") +
                      ": use smaller sizes");
  prepareWork(o);
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  unsigned jobs = o.jobs ? o.jobs : cores;
  jobs = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(points.size())));
  unsigned buildJobs = std::max(1u, cores / jobs);
  // Before the workers start, with every core: all of them link it. The other flavour (a
  // waveform after a failure) is built when first needed.
  const std::unique_ptr<Runtime> runtime = openRuntime(o, cores, !points.empty(), runtimeSeconds);
  std::vector<Result> results(points.size());
  std::atomic<size_t> next{0}, done{0};
  // The first exception a worker meets (an interruption, above all) stops the others from
  // starting new designs and is rethrown here, after every worker has cleaned up.
  std::mutex failMu;
  std::exception_ptr failure;
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < jobs; ++t)
    pool.emplace_back([&] {
      try {
        for (size_t i; (i = next++) < points.size();) {
          throwIfInterrupted();
          results[i] = verifyOne(prog, stmt, v, points[i], eo, o, *runtime, buildJobs);
          size_t d = ++done;
          if (o.progress) o.progress(d, points.size());
        }
      } catch (...) {
        next = points.size();
        std::lock_guard<std::mutex> lock(failMu);
        if (!failure) failure = std::current_exception();
      }
    });
  for (std::thread& t : pool)
    t.join();
  if (failure) std::rethrow_exception(failure);
  return results;
}

} // namespace rubick::verify
