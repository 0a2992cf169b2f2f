// SPDX-License-Identifier: Apache-2.0
// `rubick verify` of processing-in-memory designs (docs/pim.md): the emitted units and top,
// simulated with a model of every unit's banks (sim_templates/rubick_pim_harness.cpp).

#include "rubick/verify/Verify.h"

#include "Simulate.h"
#include "Stimulus.h"

#include "rubick/arch/Buildable.h"
#include "rubick/dataflow/StatementView.h"
#include "rubick/emit/Pim.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Interrupt.h"
#include "rubick/support/Unsupported.h"

#include <algorithm>
#include <filesystem>
#include <thread>

namespace rubick::verify {

namespace fs = std::filesystem;

namespace {

// One design, emitted into WORK/<id> ('/' made '_') and simulated.
Result verifyOnePim(const tc::Program& prog, size_t stmt, const dataflow::StatementView& v,
                    const dse::PimDesign& d, const dse::PimSystem& s, const dse::ExploreOptions& eo,
                    const Options& o, Runtime& runtime, unsigned buildJobs) {
  Result r;
  r.id = d.id;
  r.spec = dataflow::toSpec(d.unit.dataflow, d.share);
  r.p = d.unit.dataflow.p;
  r.q = d.unit.dataflow.q;
  r.macs = d.macs / s.units; // per unit: measured against one unit's PEs
  try {
    const std::string name = o.name.empty() ? emit::pimModuleName(prog.name, d.id) : o.name;
    emit::PimPackage pkg = emit::packagePim(prog, v, d, s, eo, name);
    SimDesign sd;
    std::string dir = d.id;
    std::replace(dir.begin(), dir.end(), '/', '_');
    sd.dir = fs::path(o.workDir) / dir;
    sd.files = std::move(pkg.files);
    sd.faultyArray = "_array.v";
    if (s.access == dse::PimAccess::dma) {
      // The unit's memory design on a model of its banks, the tensors where the explorer puts
      // them; the banks' timing is not data dependent, so the prediction holds to the cycle.
      sd.top = pkg.top;
      sd.harness = Harness::Memory;
      std::string bases;
      for (uint64_t b : pkg.bases)
        bases += (bases.empty() ? "" : ",") + std::to_string(b);
      const std::vector<std::string> args = {
          "--bases", bases, "--predicted", std::to_string(pkg.predictedCycles), "--dram", pkg.dram};
      sd.runArgs = [args](uint64_t) { return args; };
      sd.simulatedCycles = pkg.predictedCycles;
    } else {
      sd.top = name + "_pim_axil";
      sd.harness = Harness::Pim;
      int64_t loads = 0;
      for (const dataflow::AccessView& a : v.accesses)
        loads += prog.tensors[a.tensor].elements();
      sd.simulatedCycles = pkg.predictedCycles + loads;
    }
    sd.pes = s.units * r.p * r.q;
    sd.stimulus = [&](uint64_t seed) {
      return stimulus(prog, stmt, v, seed, eo.constraints.elementBits);
    };
    simulate(std::move(sd), o, runtime, buildJobs, r);
  } catch (const Error& e) {
    r.error = e.diag().message;
  }
  return r;
}

} // namespace

std::vector<Result> verifyPim(const tc::Program& prog, size_t stmt,
                              const std::vector<dse::PimDesign>& designs, const dse::PimSystem& s,
                              const dse::ExploreOptions& eo, const Options& given,
                              double* runtimeSeconds) {
  InterruptScope interruptible;
  const Options o = withAbsolutePaths(given);
  const dataflow::StatementView v = dataflow::viewStatement(prog, stmt);
  // Before anything is written: what the hardware does not build is not a failed design.
  const std::string problem = arch::buildProblem(prog, v, eo.constraints.elementBits);
  if (!problem.empty()) throw Unsupported("verify", problem);
  for (const dse::PimDesign& d : designs) {
    const std::string pim = emit::pimBuildProblem(v, d, s, eo);
    if (!pim.empty()) throw Unsupported("verify", d.id + ": " + pim);
  }
  prepareWork(o);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  // One runtime for every design: its key runs the tools' --version once.
  const std::unique_ptr<Runtime> runtime = openRuntime(o, cores, !designs.empty(), runtimeSeconds);
  std::vector<Result> results;
  for (size_t i = 0; i < designs.size(); ++i) {
    throwIfInterrupted();
    results.push_back(verifyOnePim(prog, stmt, v, designs[i], s, eo, o, *runtime, cores));
    if (o.progress) o.progress(i + 1, designs.size());
  }
  return results;
}

} // namespace rubick::verify
