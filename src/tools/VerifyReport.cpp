// SPDX-License-Identifier: Apache-2.0
#include "VerifyReport.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace rubick::cli {

void printTimingHeader() {
  std::printf("%8s %10s %8s %10s  ", "build_s", "sim_cycles", "sim_s", "cycles/s");
}

void printTiming(const verify::Result& res, const verify::Trial* t) {
  if (!res.built)
    std::printf("%8s ", "-");
  else if (res.reused)
    std::printf("%8s ", "reused");
  else
    std::printf("%8.2f ", res.buildSeconds);
  if (!t) {
    std::printf("%10s %8s %10s  ", "-", "-", "-");
    return;
  }
  std::printf("%10llu %8.4f ", static_cast<unsigned long long>(t->simCycles), t->simSeconds);
  if (t->simSeconds > 0)
    std::printf("%10.0f  ", double(t->simCycles) / t->simSeconds);
  else
    std::printf("%10s  ", "-");
}

void printProblems(const verify::Result& res) {
  if (!res.error.empty()) std::printf("  %s\n", res.error.c_str());
  for (const verify::Trial& tr : res.trials) {
    if (tr.pass) continue;
    std::printf("  seed %llu: %zu of %zu outputs differ; cycles measured %lld, predicted %lld\n",
                static_cast<unsigned long long>(tr.seed), tr.mismatches, tr.elements,
                static_cast<long long>(tr.measured), static_cast<long long>(tr.predicted));
    std::istringstream rep(tr.report);
    std::string line;
    while (std::getline(rep, line))
      std::printf("    %s\n", line.c_str());
    if (!tr.wave.empty()) std::printf("    waveform: %s\n", tr.wave.c_str());
  }
}

void printRuntime(double runtimeSeconds) {
  if (runtimeSeconds > 0)
    std::printf("shared runtime (Verilator library, testbench core): built in %.2f s\n",
                runtimeSeconds);
  else
    std::printf("shared runtime (Verilator library, testbench core): reused\n");
}

std::string relativeDifference(const verify::Result& res) {
  double worst = 0;
  bool any = false;
  for (const verify::Trial& t : res.trials) {
    if (t.predicted <= 0 || t.measured <= 0) continue;
    const double d = double(t.measured) / double(t.predicted) - 1.0;
    if (!any || std::abs(d) > std::abs(worst)) worst = d;
    any = true;
  }
  if (!any) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f%%", 100.0 * worst);
  return buf;
}

void printDramRows(const verify::Trial* t) {
  if (t && t->rowHits >= 0)
    std::printf("  DRAM rows: %lld hits, %lld misses (%lld closing another row)\n",
                static_cast<long long>(t->rowHits), static_cast<long long>(t->rowMisses),
                static_cast<long long>(t->rowConflicts));
}

} // namespace rubick::cli
