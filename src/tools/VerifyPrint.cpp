// SPDX-License-Identifier: Apache-2.0
#include "VerifyPrint.h"

#include "VerifyReport.h"

#include <cstdio>

namespace rubick::cli {

namespace {

using workload::Verified;
using workload::VerifiedDesign;

const verify::Trial* firstTrial(const verify::Result& res) {
  return res.trials.empty() ? nullptr : &res.trials.front();
}

long long measured(const verify::Trial* t) {
  return t ? static_cast<long long>(t->measured) : 0;
}
long long predicted(const verify::Trial* t) {
  return t ? static_cast<long long>(t->predicted) : 0;
}

// One simulated design of a program: the title, its result line, problems and runtime.
int printOne(const Verified& v, const PrintOptions& o, int trials) {
  const verify::Result& res = *v.designs.front().result;
  const bool pass = res.pass();
  const verify::Trial* t = firstTrial(res);
  std::printf("%s\n", v.title.c_str());
  std::printf("%-6s %-*s %9s %9s  ", "result", v.idWidth, "id", "measured", "predicted");
  if (o.dram) std::printf("%8s ", "diff");
  if (o.timing) printTimingHeader();
  std::printf("%s\n", v.what == "decode" ? "designs" : v.what.c_str());
  std::printf("%-6s %-*s %9lld %9lld  ", pass ? "PASS" : "FAIL", v.idWidth, res.id.c_str(),
              measured(t), predicted(t));
  if (o.dram) std::printf("%8s ", relativeDifference(res).c_str());
  if (o.timing) printTiming(res, t);
  std::printf("%s\n", res.spec.c_str());
  if (o.dram) printDramRows(t);
  printProblems(res);
  if (o.timing) printRuntime(v.runtimeSeconds);
  std::printf("1 %s, %d trial(s): %s\n", v.what.c_str(), trials, pass ? "passed" : "failed");
  return pass ? 0 : 1;
}

// A PIM target's designs; one not built yet is listed with the reason and counted apart.
int printPim(const tc::Program& prog, const Verified& v, const dse::Selection& sel,
             const PrintOptions& o, int trials) {
  const tc::Statement& st = prog.statements[v.statement];
  std::printf("%s: %s\n%-6s %-24s %9s %9s %9s %7s  ", st.name.c_str(), st.text.c_str(), "result",
              "id", "measured", "predicted", "explorer", "util");
  if (o.timing) printTimingHeader();
  std::printf("unit dataflow\n");
  size_t passed = 0, failed = 0, unbuilt = 0;
  for (const VerifiedDesign& d : v.designs) {
    if (!d.result) {
      ++unbuilt;
      std::printf("%-6s %-24s not built: %s\n", "-", d.id.c_str(), d.unbuilt.c_str());
      continue;
    }
    const verify::Result& res = *d.result;
    const bool pass = res.pass();
    (pass ? passed : failed) += 1;
    const verify::Trial* t = firstTrial(res);
    std::printf("%-6s %-24s %9lld %9lld %9lld %6.1f%%  ", pass ? "PASS" : "FAIL", res.id.c_str(),
                measured(t), predicted(t), static_cast<long long>(d.explorerCycles),
                100.0 * res.utilization());
    if (o.timing) printTiming(res, t);
    std::printf("%s on %lld unit%s of %lldx%lld\n", res.spec.c_str(),
                static_cast<long long>(v.units), v.units == 1 ? "" : "s",
                static_cast<long long>(res.p), static_cast<long long>(res.q));
    printProblems(res);
  }
  if (o.timing) printRuntime(v.runtimeSeconds);
  if (v.designs.size() < v.selected)
    std::printf("designs %zu-%zu of the %zu ranked\n", static_cast<size_t>(sel.skip) + 1,
                static_cast<size_t>(sel.skip) + v.designs.size(), v.selected);
  std::printf("%zu PIM design(s), %d trial(s) each: %zu passed, %zu failed", v.designs.size(),
              trials, passed, failed);
  if (unbuilt) std::printf(", %zu not built yet", unbuilt);
  std::printf("\n");
  return failed || passed == 0 ? 1 : 0;
}

} // namespace

int printDesigns(const std::string& heading, const Verified& v, const dse::Selection& sel,
                 const PrintOptions& o, int trials) {
  std::printf("%s\n%-6s %-16s %9s %9s ", heading.c_str(), "result", "id", "measured", "predicted");
  if (o.dram) std::printf("%8s ", "diff");
  std::printf("%7s  ", "util");
  if (o.timing) printTimingHeader();
  std::printf("dataflow\n");
  size_t failed = 0;
  for (const VerifiedDesign& d : v.designs) {
    const verify::Result& res = *d.result;
    const bool pass = res.pass();
    failed += !pass;
    const verify::Trial* t = firstTrial(res);
    std::printf("%-6s %-16s %9lld %9lld ", pass ? "PASS" : "FAIL", res.id.c_str(), measured(t),
                predicted(t));
    if (o.dram) std::printf("%8s ", relativeDifference(res).c_str());
    std::printf("%6.1f%%  ", 100.0 * res.utilization());
    if (o.timing) printTiming(res, t);
    std::printf("%s on %lldx%lld\n", res.spec.c_str(), static_cast<long long>(res.p),
                static_cast<long long>(res.q));
    if (o.dram) printDramRows(t);
    printProblems(res);
  }
  if (o.timing) printRuntime(v.runtimeSeconds);
  const size_t window = v.window ? v.window : v.designs.size();
  if (window < v.selected)
    std::printf("designs %zu-%zu of the %zu selected\n", size_t(sel.skip) + 1,
                size_t(sel.skip) + window, v.selected);
  if (sel.shard.count > 1) {
    std::printf("shard %s: %s", dse::toString(sel.shard).c_str(),
                v.designs.empty() ? "no design (more shards than designs)" : "ranks");
    for (size_t i = 0; i < v.designs.size(); ++i)
      if (i < 4 || i + 1 == v.designs.size())
        std::printf("%s %zu", i ? "," : "", v.designs[i].rank);
      else if (i == 4)
        std::printf(", ...");
    std::printf("\n");
  }
  std::printf("%zu design(s), %d trial(s) each: %zu passed, %zu failed\n", v.designs.size(), trials,
              v.designs.size() - failed, failed);
  return failed ? 1 : 0;
}

int printVerified(const tc::Program& prog, const Verified& v, const dse::Selection& sel,
                  const PrintOptions& o, int trials) {
  switch (v.shape) {
  case Verified::Shape::One:
    return printOne(v, o, trials);
  case Verified::Shape::PimDesigns:
    return printPim(prog, v, sel, o, trials);
  case Verified::Shape::Designs:
    break;
  }
  const tc::Statement& st = prog.statements[v.statement];
  return printDesigns(st.name + ": " + st.text, v, sel, o, trials);
}

} // namespace rubick::cli
