// SPDX-License-Identifier: Apache-2.0
#pragma once
// Directives written in the source as comments. Default sizes, so a file runs without --size:
//
//   # rubick: size M=64, N=64, K=64
//
// Several such lines may appear; a size named twice is an error. Values on the command line
// (--size) override these defaults. The fixed-point format of exp's argument
// (docs/attention-numerics.md), at most once per file, 0..24, default 12:
//
//   # rubick: fixed exp_frac=12

#include "rubick/frontend/Ast.h"
#include "rubick/frontend/Token.h"
#include "rubick/support/Diagnostic.h"

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace rubick::tc {

struct Directives {
  std::vector<SizeDefault> sizes;
  std::optional<int> expFrac; // absent when no `fixed` directive sets it
};

/// Extracts `rubick:` directives from the comments; other comments are ignored.
Directives parseDirectives(const std::shared_ptr<const SourceFile>& file,
                           const std::vector<Comment>& comments);

/// Parses a `M=64, N=32` list (also accepting spaces as separators). `origin`/`loc` locate the
/// list in a file for messages; with a null file, errors name `origin` instead ("command line").
std::vector<SizeDefault> parseSizeList(std::string_view text, const std::string& origin,
                                       const std::shared_ptr<const SourceFile>& file,
                                       SourceLoc loc);

} // namespace rubick::tc
