// SPDX-License-Identifier: Apache-2.0
#pragma once
// Prints the syntax tree back as TC source. Parsing the printed text gives the same tree
// (locations aside), which the tests and the fuzzer check.

#include "rubick/frontend/Ast.h"

#include <string>

namespace rubick::tc {

std::string print(const Expr& e);
std::string print(const Stmt& s);
std::string print(const Def& d);
/// The whole module: size defaults as a `# rubick: size` line, then each def.
std::string print(const Module& m);

} // namespace rubick::tc
