// SPDX-License-Identifier: Apache-2.0
#pragma once
// Helpers for the dataflow tests: statements from TC text with sizes, dataflows from specs.

#include "rubick/dataflow/DataflowSpec.h"
#include "rubick/dataflow/Decompose.h"
#include "rubick/frontend/Parser.h"
#include "rubick/frontend/Sema.h"

#include <memory>
#include <string>
#include <vector>

namespace rubick::dataflow::test {

/// A program from TC text with sizes bound.
inline tc::Program program(const std::string& tc,
                           std::vector<std::pair<std::string, int64_t>> sizes) {
  auto file = std::make_shared<const SourceFile>("t.tc", tc);
  tc::SemaOptions o;
  for (auto& [n, v] : sizes)
    o.sizes.push_back({n, v, {}});
  return tc::analyze(tc::parse(file), file, o);
}

inline StatementView statement(const std::string& tc,
                               std::vector<std::pair<std::string, int64_t>> sizes,
                               size_t stmt = 0) {
  auto file = std::make_shared<const SourceFile>("t.tc", tc);
  tc::SemaOptions o;
  for (auto& [n, v] : sizes)
    o.sizes.push_back({n, v, {}});
  return viewStatement(tc::analyze(tc::parse(file), file, o), stmt);
}

inline const char* kGemm =
    "def gemm(int8(M,K) A, int8(K,N) B) -> (C) { C(i,j) +=! A(i,k) * B(k,j) }";
inline const char* kGemv = "def gemv(int8(M,N) A, int8(N) x) -> (y) { y(i) +=! A(i,j) * x(j) }";
inline const char* kBmm =
    "def bmm(int8(NB,M,K) A, int8(NB,K,N) B) -> (C) { C(b,i,j) +=! A(b,i,k) * B(b,k,j) }";
inline const char* kConv = "def conv2d(int8(N,C,H,W) I, int8(F,C,R,S) Wt) -> (O) {"
                           " O(n,f,h,w) +=! I(n,c,h + r,w + s) * Wt(f,c,r,s) }";
inline const char* kMttkrp = "def mttkrp(int8(I,K,L) A, int8(K,J) B, int8(L,J) C) -> (D) {"
                             " D(i,j) +=! A(i,k,l) * B(k,j) * C(l,j) }";
inline const char* kScaledGemm = "def sgemm(int8 alpha, int8(M,K) A, int8(K,N) B) -> (C) {"
                                 " C(i,j) +=! alpha * A(i,k) * B(k,j) }";

/// An example program from examples/, with sizes overridden.
inline StatementView example(const std::string& name,
                             std::vector<std::pair<std::string, int64_t>> sizes) {
  tc::SemaOptions o;
  for (auto& [n, v] : sizes)
    o.sizes.push_back({n, v, {}});
  return viewStatement(tc::loadProgram(std::string(RUBICK_SOURCE_DIR) + "/examples/" + name, o), 0);
}

inline StatementView gemm(int64_t m, int64_t n, int64_t k) {
  return statement(kGemm, {{"M", m}, {"N", n}, {"K", k}});
}

/// Entry kind per access (write first, then reads) of a decomposed dataflow.
inline std::vector<ir::EntryKind> kinds(const Decomposition& d) {
  std::vector<ir::EntryKind> out;
  for (const TensorDecomposition& t : d.tensors)
    out.push_back(t.entry ? t.entry->kind : ir::EntryKind{});
  return out;
}

} // namespace rubick::dataflow::test
