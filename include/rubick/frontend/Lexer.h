// SPDX-License-Identifier: Apache-2.0
#pragma once
// Splits TC source text into tokens. Throws rubick::Error on a character that starts no token.

#include "rubick/frontend/Token.h"
#include "rubick/support/Diagnostic.h"

#include <memory>
#include <vector>

namespace rubick::tc {

struct LexResult {
  std::vector<Token> tokens; // always ends with Tok::End
  std::vector<Comment> comments;
};

LexResult lex(const std::shared_ptr<const SourceFile>& file);

} // namespace rubick::tc
