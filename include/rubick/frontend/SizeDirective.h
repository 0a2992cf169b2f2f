#pragma once
// Default sizes written in the source as a comment, so a file runs without --size:
//
//   # rubick: size M=64, N=64, K=64
//
// Several such lines may appear; a size named twice is an error. Values on the command line
// (--size) override these defaults.

#include "rubick/frontend/Ast.h"
#include "rubick/frontend/Token.h"
#include "rubick/support/Diagnostic.h"

#include <memory>
#include <string_view>
#include <vector>

namespace rubick::tc {

/// Extracts `rubick:` directives from the comments; other comments are ignored.
std::vector<SizeDefault> parseSizeDirectives(const std::shared_ptr<const SourceFile>& file,
                                             const std::vector<Comment>& comments);

/// Parses a `M=64, N=32` list (also accepting spaces as separators). `origin`/`loc` locate the
/// list in a file for messages; with a null file, errors name `origin` instead ("command line").
std::vector<SizeDefault> parseSizeList(std::string_view text, const std::string& origin,
                                       const std::shared_ptr<const SourceFile>& file,
                                       SourceLoc loc);

} // namespace rubick::tc
