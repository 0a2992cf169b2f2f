// SPDX-License-Identifier: Apache-2.0
#include "rubick/workload/Workload.h"

#include "rubick/support/Diagnostic.h"

namespace rubick::workload {

const char* toString(Kind k) {
  switch (k) {
  case Kind::Statement:
    return "statement";
  case Kind::Epilogue:
    return "epilogue";
  case Kind::Attention:
    return "attention";
  case Kind::Chain:
    return "chain";
  }
  return "?";
}

size_t pickStatement(const tc::Program& prog, const std::string& stmt) {
  std::string list;
  for (const tc::Statement& s : prog.statements)
    list += "\n  " + s.name + ": " + s.text;
  if (stmt.empty()) {
    if (prog.statements.size() == 1) return 0;
    throw Error("--stmt", "'" + prog.name + "' has " + std::to_string(prog.statements.size()) +
                              " statements; choose one with --stmt:" + list);
  }
  // A statement name (S0, ...) is unique; a tensor may be written by several statements.
  std::vector<size_t> writers;
  for (size_t i = 0; i < prog.statements.size(); ++i) {
    const tc::Statement& s = prog.statements[i];
    if (s.name == stmt) return i;
    if (prog.tensors[s.write.tensor].name == stmt) writers.push_back(i);
  }
  if (writers.size() == 1) return writers.front();
  if (writers.size() > 1) {
    std::string names, which;
    for (size_t i : writers) {
      names += (names.empty() ? "" : ", ") + prog.statements[i].name;
      which += "\n  " + prog.statements[i].name + ": " + prog.statements[i].text;
    }
    throw Error("--stmt", "'" + stmt + "' is ambiguous: " + std::to_string(writers.size()) +
                              " statements write it; choose one of " + names + ":" + which);
  }
  throw Error("--stmt",
              "no statement '" + stmt + "' in '" + prog.name + "'; its statements:" + list);
}

Workload recogniseWorkload(const tc::Program& prog, const std::string& stmt,
                           const std::function<bool()>& chains,
                           const std::shared_ptr<const SourceFile>& file) {
  Workload w;
  if (prog.statements.size() == 1 || !stmt.empty()) {
    w.statement = pickStatement(prog, stmt);
    return w;
  }
  if (dse::hasEpilogueForm(prog)) {
    w.kind = Kind::Epilogue;
    w.epilogue = std::make_shared<const dse::Epilogue>(dse::recogniseEpilogue(prog, file));
    w.statement = w.epilogue->contraction;
    return w;
  }
  try {
    w.attention = attn::recogniseAttention(prog, file);
    w.kind = Kind::Attention;
  } catch (const Error&) {
    if (!chains || !chains()) throw;
    w.kind = Kind::Chain;
  }
  return w;
}

} // namespace rubick::workload
