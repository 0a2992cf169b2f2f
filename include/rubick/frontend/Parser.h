// SPDX-License-Identifier: Apache-2.0
#pragma once
// Parses TC source into a Module (syntax only). Throws rubick::Error on the first syntax error.
//
// Grammar (docs/language.md has the full reference):
//   module  := def+
//   def     := 'def' IDENT '(' [param {',' param}] ')' '->' '(' [output {',' output}] ')'
//              '{' stmt* '}'
//   param   := TYPE ['(' [dim {',' dim}] ')'] IDENT
//   output  := [TYPE ['(' [dim {',' dim}] ')']] IDENT
//   stmt    := IDENT ['(' [IDENT {',' IDENT}] ')'] OP expr ['where' range {',' range}]
//   range   := IDENT 'in' expr ':' expr
//   expr    := term {('+'|'-') term};  term := unary {('*'|'/') unary}
//   unary   := '-' unary | primary;    primary := INT | FLOAT | IDENT ['(' args ')'] | '(' expr ')'

#include "rubick/frontend/Ast.h"
#include "rubick/support/Diagnostic.h"

#include <memory>

namespace rubick::tc {

/// Deepest expression nesting accepted; deeper input is an error, not a stack overflow.
inline constexpr int kMaxExprDepth = 256;

Module parse(const std::shared_ptr<const SourceFile>& file);

} // namespace rubick::tc
