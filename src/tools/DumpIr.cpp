#include "DumpIr.h"

#include "rubick/dataflow/Enumerate.h"
#include "rubick/dataflow/IrText.h"

namespace rubick::cli {

std::string dumpIr(const InputOptions& in, const DataflowOptions& df) {
  tc::Program prog = loadInput(in);
  dataflow::StatementView v = dataflow::viewStatement(prog, pickStatement(prog, df.stmt));
  if (df.dataflow.empty()) return dataflow::printAccessAnalysis(prog, v);
  dataflow::Dataflow d = loadDataflow(df, v);
  poly::IslContext ctx;
  return dataflow::printIr(ctx, prog, v, d);
}

std::string dumpSpace(const InputOptions& in, const DataflowOptions& df) {
  tc::Program prog = loadInput(in);
  dataflow::StatementView v = dataflow::viewStatement(prog, pickStatement(prog, df.stmt));
  auto [p, q] = parseArray(df.array.empty() ? "8x8" : df.array);
  dataflow::EnumerationOptions o;
  o.tiling = dataflow::Tiling::Min;
  return dataflow::printSpace(v, p, q, dataflow::enumerateDataflows(v, p, q, o));
}

} // namespace rubick::cli
