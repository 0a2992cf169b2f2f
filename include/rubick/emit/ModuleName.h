// SPDX-License-Identifier: Apache-2.0
#pragma once
// The module prefix a user may give (`emit --name`): it becomes file names (rtl/NAME_top.v) and
// module names (NAME_top, NAME_array, ...), so it must be a plain Verilog identifier.

#include <string>

namespace rubick::emit {

/// Throws rubick::Error (origin "--name") unless `name` matches [A-Za-z_][A-Za-z0-9_]* (no '$':
/// legal in Verilog after the first character, but awkward in file names and shells), has at
/// most 128 characters, and is not a Verilog-2005 or SystemVerilog-2017 keyword.
void checkModulePrefix(const std::string& name);

/// True for the reserved words of Verilog-2005 and SystemVerilog (IEEE 1800-2017, Annex B).
bool isVerilogKeyword(const std::string& word);

} // namespace rubick::emit
