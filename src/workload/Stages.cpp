// SPDX-License-Identifier: Apache-2.0
#include "rubick/workload/Stages.h"

#include "rubick/attn/AttentionForm.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"

#include <map>
#include <set>

namespace rubick::workload {

namespace {

// A statement that starts a stage: one with a reduction, or an operator other than `=`.
bool startsStage(const tc::Statement& s) {
  if (s.op != tc::AssignOp::Assign) return true;
  for (const tc::Loop& l : s.loops)
    if (l.reduction) return true;
  return false;
}

[[noreturn]] void refuse(const std::shared_ptr<const SourceFile>& file, const tc::Program& prog,
                         const SourceLoc& loc, const std::string& msg) {
  if (!file) throw Unsupported(prog.name, msg);
  throw Unsupported(file, Diagnostic{loc, 1, msg, {}});
}

// Statements first..last of `prog` as a program: what they read and do not write is an input,
// the last one's tensor the output, the others' locals.
Stage subProgram(const tc::Program& prog, size_t first, size_t last, size_t k) {
  Stage st;
  std::set<int> written, read;
  for (size_t s = first; s <= last; ++s) {
    st.statements.push_back(s);
    for (const tc::Access& a : prog.statements[s].reads)
      if (!written.count(a.tensor)) read.insert(a.tensor);
    written.insert(prog.statements[s].write.tensor);
  }
  st.output = prog.statements[last].write.tensor;
  tc::Program& p = st.program;
  p.name = prog.name + "_s" + std::to_string(k);
  p.sizes = prog.sizes;
  p.expFrac = prog.expFrac;
  std::map<int, int> index;
  auto add = [&](int t, tc::TensorRole role) {
    index[t] = static_cast<int>(p.tensors.size());
    st.tensorOf.push_back(t);
    tc::Tensor x = prog.tensors[static_cast<size_t>(t)];
    x.role = role;
    p.tensors.push_back(x);
  };
  for (size_t t = 0; t < prog.tensors.size(); ++t)
    if (read.count(static_cast<int>(t))) add(static_cast<int>(t), tc::TensorRole::Input);
  add(st.output, tc::TensorRole::Output);
  for (int t : written)
    if (t != st.output && !index.count(t)) add(t, tc::TensorRole::Local);
  for (size_t s = first; s <= last; ++s) {
    tc::Statement x = prog.statements[s];
    x.name = "S" + std::to_string(s - first);
    x.write.tensor = index.at(x.write.tensor);
    for (tc::Access& a : x.reads)
      a.tensor = index.at(a.tensor);
    p.statements.push_back(std::move(x));
  }
  return st;
}

// The attention form is six statements (attn/AttentionForm.h).
constexpr size_t kAttentionStatements = 6;

} // namespace

std::vector<Stage> chainStages(const tc::Program& prog,
                               const std::shared_ptr<const SourceFile>& file) {
  std::vector<Stage> stages;
  const size_t n = prog.statements.size();
  // Stage bounds: the attention form's six statements where they start, else a contraction
  // with the elementwise statements after it.
  std::vector<std::pair<size_t, size_t>> bounds;
  // Six statements that start like attention (a contraction, then `max=!`) but are not its
  // form: why, for the stage that then fails to build.
  std::map<size_t, std::string> nearMiss; // statement after the contraction -> why
  for (size_t s = 0; s < n;) {
    if (s + kAttentionStatements <= n) {
      const std::string why =
          attn::attentionMismatch(subProgram(prog, s, s + kAttentionStatements - 1, 0).program);
      if (why.empty()) {
        bounds.push_back({s, s + kAttentionStatements - 1});
        s += kAttentionStatements;
        continue;
      }
      if (prog.statements[s + 1].op == tc::AssignOp::MaxEqBang) nearMiss[s + 1] = why;
    }
    const tc::Statement& x = prog.statements[s];
    if (!startsStage(x))
      refuse(file, prog, x.loc,
             x.name + " (" + x.text + ") has no contraction before it" +
                 (s ? " (an attention stage takes no epilogue)" : "") +
                 ": a chain is built as stages, each a contraction with the elementwise "
                 "statements after it, or the attention form's six statements");
    size_t e = s + 1;
    while (e < n && !startsStage(prog.statements[e]))
      ++e;
    bounds.push_back({s, e - 1});
    s = e;
  }
  std::map<int, size_t> writer; // tensor -> the stage that writes it
  for (size_t k = 0; k < bounds.size(); ++k) {
    Stage st = subProgram(prog, bounds[k].first, bounds[k].second, k);
    for (size_t s : st.statements) {
      const tc::Statement& x = prog.statements[s];
      // What earlier stages wrote: only their results are in memory.
      for (const tc::Access& a : x.reads) {
        auto w = writer.find(a.tensor);
        if (w != writer.end() && stages[w->second].output != a.tensor)
          refuse(file, prog, a.loc,
                 x.name + " reads " + prog.tensors[static_cast<size_t>(a.tensor)].name +
                     ", which stays inside an earlier stage (statements " +
                     prog.statements[stages[w->second].statements.front()].name + ".." +
                     prog.statements[stages[w->second].statements.back()].name +
                     "); only a stage's last result goes to memory for later stages to read");
      }
      auto w = writer.find(x.write.tensor);
      if (w != writer.end())
        refuse(file, prog, x.write.loc,
               x.name + " writes " + prog.tensors[static_cast<size_t>(x.write.tensor)].name +
                   ", which an earlier stage wrote; each stage writes tensors of its own");
    }
    for (size_t s : st.statements) {
      const tc::Statement& x = prog.statements[s];
      const tc::Tensor& t = prog.tensors[static_cast<size_t>(x.write.tensor)];
      if (x.write.tensor != st.output && t.role == tc::TensorRole::Output)
        refuse(file, prog, x.write.loc,
               x.name + " writes the program output " + t.name +
                   " inside a stage; only a stage's last statement writes to memory");
      writer[x.write.tensor] = k;
    }
    try {
      st.workload = recogniseWorkload(st.program, "", nullptr, file);
    } catch (const Error& e) {
      auto near = nearMiss.find(bounds[k].first);
      if (near == nearMiss.end()) throw;
      const tc::Statement& c = prog.statements[near->first - 1];
      refuse(file, prog, c.loc,
             "statements " + c.name + ".." + prog.statements[near->first + 4].name +
                 " start like attention but are not its form (" + near->second +
                 "), and as stages of their own: " + e.diag().message);
    }
    if (st.workload.kind == Kind::Chain)
      throw std::logic_error("chainStages: a stage that is a chain");
    stages.push_back(std::move(st));
  }
  return stages;
}

namespace {

// The loop that `x` is (coefficient 1, no constant), or -1.
int plainLoop(const tc::AffineIndex& x) {
  int loop = -1;
  for (size_t l = 0; l < x.coeffs.size(); ++l) {
    if (x.coeffs[l] == 0) continue;
    if (x.coeffs[l] != 1 || loop >= 0) return -1;
    loop = static_cast<int>(l);
  }
  return x.constant == 0 ? loop : -1;
}

} // namespace

std::string rowSize(const tc::Program& prog, const std::shared_ptr<const SourceFile>& file) {
  const tc::Statement& s0 = prog.statements.at(0);
  const int row = s0.write.indices.empty() ? -1 : plainLoop(s0.write.indices[0]);
  for (const tc::Access& a : s0.reads) {
    const tc::Tensor& t = prog.tensors[static_cast<size_t>(a.tensor)];
    if (row >= 0 && t.role == tc::TensorRole::Input && !a.indices.empty() &&
        plainLoop(a.indices[0]) == row && !t.dimSymbols.empty() && !t.dimSymbols[0].empty())
      return t.dimSymbols[0];
  }
  refuse(file, prog, s0.loc,
         "--row-tiles splits the rows of what " + s0.name +
             " computes, and finds no input it reads along them whose first dimension is a "
             "named size (such as X(M, K) read as X(i, k) for the result's rows i)");
}

std::string rowTileProblem(const tc::Program& whole, const tc::Program& tile) {
  std::vector<char> split(whole.tensors.size(), 0);
  for (size_t t = 0; t < whole.tensors.size(); ++t) {
    const std::vector<int64_t>&w = whole.tensors[t].shape, &p = tile.tensors[t].shape;
    if (w == p) continue;
    for (size_t d = 1; d < w.size(); ++d)
      if (w[d] != p[d])
        return whole.tensors[t].name + " has the rows' size in dimension " + std::to_string(d) +
               ": a tile of rows splits first dimensions only";
    split[t] = 1;
  }
  for (const tc::Statement& s : whole.statements) {
    const bool out = split[static_cast<size_t>(s.write.tensor)];
    const int row = out ? plainLoop(s.write.indices[0]) : -1;
    for (const tc::Access& a : s.reads)
      if (split[static_cast<size_t>(a.tensor)] &&
          (row < 0 || s.loops[static_cast<size_t>(row)].reduction ||
           plainLoop(a.indices[0]) != row))
        return s.name + " (" + s.text + ") reads " + a.text +
               (out ? " other than along the rows of " +
                          whole.tensors[static_cast<size_t>(s.write.tensor)].name
                    : " into " + whole.tensors[static_cast<size_t>(s.write.tensor)].name +
                          ", which has no rows to split") +
               ": a tile would need rows of other tiles";
  }
  return "";
}

} // namespace rubick::workload
