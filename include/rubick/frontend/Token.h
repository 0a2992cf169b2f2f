// SPDX-License-Identifier: Apache-2.0
#pragma once
// Tokens of the Tensor Comprehensions subset.

#include "rubick/support/SourceFile.h"

#include <cstdint>
#include <string>

namespace rubick::tc {

enum class Tok {
  End,
  Ident,
  IntLit,
  FloatLit,
  LParen,
  RParen,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Arrow, // ->
  Plus,
  Minus,
  Star,
  Slash,
  // Assignment operators. `!` after a reduction operator means "initialise with the identity".
  Assign,     // =
  PlusEq,     // +=
  PlusEqBang, // +=!
  StarEq,     // *=
  StarEqBang, // *=!
  MaxEq,      // max=
  MaxEqBang,  // max=!
  MinEq,      // min=
  MinEqBang,  // min=!
};

/// Spelling of a token kind for messages ("'->'", "identifier", ...).
const char* describe(Tok kind);

struct Token {
  Tok kind = Tok::End;
  std::string text; // identifier name or literal spelling
  SourceLoc loc;
  int64_t intValue = 0;
  double floatValue = 0;
};

/// A `#` or `//` comment, kept because `# rubick: ...` comments carry directives.
struct Comment {
  std::string text; // after the comment marker
  SourceLoc loc;    // of the first character of `text`
};

} // namespace rubick::tc
