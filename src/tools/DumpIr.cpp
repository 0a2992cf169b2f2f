// SPDX-License-Identifier: Apache-2.0
#include "DumpIr.h"

#include "rubick/workload/Workload.h"

#include "rubick/arch/Buildable.h"
#include "rubick/arch/PlanText.h"
#include "rubick/dataflow/Enumerate.h"
#include "rubick/dataflow/IrText.h"
#include "rubick/dse/Select.h"
#include "rubick/emit/Package.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"

namespace rubick::cli {

std::string dumpIr(const InputOptions& in, const DataflowOptions& df) {
  tc::Program prog = loadInput(in);
  dataflow::StatementView v = dataflow::viewStatement(prog, workload::pickStatement(prog, df.stmt));
  if (df.dataflow.empty()) return dataflow::printAccessAnalysis(prog, v);
  dataflow::Dataflow d = loadDataflow(df, v);
  poly::IslContext ctx;
  return dataflow::printIr(ctx, prog, v, d);
}

std::string dumpSpace(const InputOptions& in, const DataflowOptions& df) {
  tc::Program prog = loadInput(in);
  dataflow::StatementView v = dataflow::viewStatement(prog, workload::pickStatement(prog, df.stmt));
  auto [p, q] = parseArray(df.array.empty() ? "8x8" : df.array);
  dataflow::EnumerationOptions o;
  o.tiling = dataflow::Tiling::Min;
  return dataflow::printSpace(v, p, q, dataflow::enumerateDataflows(v, p, q, o));
}

std::string dumpPlan(const InputOptions& in, const DataflowOptions& df) {
  if (df.dataflow.empty())
    throw Error("--plan", "give the design with --dataflow SPEC (a dataflow from explore's last "
                          "column)");
  tc::Program prog = loadInput(in);
  dataflow::StatementView v = dataflow::viewStatement(prog, workload::pickStatement(prog, df.stmt));
  const dataflow::Dataflow d = loadDataflow(df, v);
  dse::ExploreOptions o;
  o.constraints.arrays = {{d.p, d.q}};
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(a.elementBits);
  const std::string problem = arch::buildProblem(prog, v, o.constraints.elementBits);
  if (!problem.empty()) throw Unsupported("dump", problem);
  const dse::DesignPoint pt = dse::buildDesign(v, o, d);
  return arch::printPlan(arch::makePlan(prog, v, pt.dataflow, pt.entries, o.constraints.elementBits,
                                        emit::moduleName(prog.name, pt.id)));
}

} // namespace rubick::cli
