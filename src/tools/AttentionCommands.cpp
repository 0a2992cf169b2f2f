#include "AttentionCommands.h"

#include "PipelineOptions.h"
#include "VerifyReport.h"

#include "rubick/emit/Attention.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/verify/Attention.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace rubick::cli {

const attn::PipelinePoint& pickPipeline(const attn::PipelineResult& r, const std::string& id) {
  if (id.empty()) return r.points.front(); // explorePipeline never returns none
  for (const attn::PipelinePoint& p : r.points)
    if (p.id == id) return p;
  throw Error("--point", "no attention pipeline " + id + " among the " +
                             std::to_string(r.points.size()) +
                             " these constraints allow; run `rubick explore` with the same "
                             "program, sizes and flags to list them");
}

int emitPipeline(const tc::Program& prog, const InputOptions& input, const SearchOptions& search,
                 const std::string& point, const std::string& output, const std::string& name,
                 Overwrite how) {
  if (search.entries.find('=') != std::string::npos)
    throw Error("--entries", "choose an attention pipeline with --point (from `rubick explore`)");
  attn::PipelineResult r = explorePipelines(prog, input, search);
  const attn::PipelinePoint& p = pickPipeline(r, point);
  const std::string prefix = name.empty() ? emit::moduleName(prog.name, p.id) : name;
  std::vector<emit::File> files = emit::attentionPackage(prog, r.form, p, prefix);
  emit::writeDirectory(output, files, how);
  std::cout << "attention pipeline " << p.id << ": block " << p.blockKeys << ", " << p.lanes
            << " vector lane(s), GEMM 1 " << p.g1.design.id << ", GEMM 2 " << p.g2.design.id << "\n"
            << "latency " << p.latency << " cycles; top module " << prefix << "_top; "
            << files.size() << " files in " << output << "\n";
  return 0;
}

int verifyPipeline(const tc::Program& prog, const InputOptions& input, const SearchOptions& search,
                   const PipelineVerifyOptions& o) {
  if (search.entries.find('=') != std::string::npos)
    throw Error("--entries", "choose an attention pipeline with --point (from `rubick explore`)");
  attn::PipelineResult r = explorePipelines(prog, input, search);
  const attn::PipelinePoint& p = pickPipeline(r, o.point);
  double runtimeSeconds = 0;
  verify::Result res = verify::verifyAttention(prog, r.form, p, o.run, &runtimeSeconds);
  const bool pass = res.pass();
  const verify::Trial* t = res.trials.empty() ? nullptr : &res.trials.front();
  std::printf("%s: attention pipeline, L=%lld S=%lld D=%lld heads=%lld\n", prog.name.c_str(),
              static_cast<long long>(r.form.l), static_cast<long long>(r.form.s),
              static_cast<long long>(r.form.d), static_cast<long long>(r.form.heads));
  std::printf("%-6s %-16s %9s %9s  ", "result", "id", "measured", "predicted");
  if (o.timing) printTimingHeader();
  std::printf("pipeline\n");
  std::printf("%-6s %-16s %9lld %9lld  ", pass ? "PASS" : "FAIL", res.id.c_str(),
              t ? static_cast<long long>(t->measured) : 0LL,
              t ? static_cast<long long>(t->predicted) : 0LL);
  if (o.timing) printTiming(res, t);
  std::printf("%s\n", res.spec.c_str());
  printProblems(res);
  if (o.timing) printRuntime(runtimeSeconds);
  std::printf("1 pipeline, %d trial(s): %s\n", o.run.trials, pass ? "passed" : "failed");
  return pass ? 0 : 1;
}

} // namespace rubick::cli
