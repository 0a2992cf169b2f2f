// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checks a parsed TC function and infers what TC leaves implicit.
//
// - Sizes: --size values override `# rubick: size` defaults; every size must be bound, positive.
// - Ranges (per statement): `where i in lo:hi` wins; otherwise an index used alone in a tensor
//   dimension takes that dimension's range (two such dimensions that disagree are an error);
//   otherwise it is solved from an affine use such as I(i + r) so the access stays in bounds.
// - Every access, including the written one, is then checked to lie inside its tensor.
// - Outputs and local tensors (written but not listed as outputs) take their shape from the
//   written ranges and, if undeclared, the widest element type read on the right-hand side.

#include "rubick/frontend/Ast.h"
#include "rubick/frontend/Program.h"
#include "rubick/support/Diagnostic.h"

#include <memory>
#include <string>
#include <vector>

namespace rubick::tc {

/// The largest size accepted for any dimension or range bound.
inline constexpr int64_t kMaxSize = (int64_t(1) << 31) - 1;

struct SemaOptions {
  /// From --size; these override the file's defaults. Errors about them name "--size".
  std::vector<SizeDefault> sizes;
  /// Which def to check when the file has several; empty means "the only one". Errors about it
  /// name "--def".
  std::string defName;
};

Program analyze(const Module& module, const std::shared_ptr<const SourceFile>& file,
                const SemaOptions& options = {});

/// Convenience: read, parse and analyze a file.
Program loadProgram(const std::string& path, const SemaOptions& options = {});

} // namespace rubick::tc
