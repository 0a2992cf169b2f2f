// SPDX-License-Identifier: Apache-2.0
#pragma once
// Files compiled into the library (name -> file text): the Verilog templates of rtl_templates/,
// the simulation harness of sim_templates/ and the target presets of designs/targets/.

#include <map>
#include <string>

namespace rubick::emit {

const std::map<std::string, std::string>& rtlTemplates();
const std::map<std::string, std::string>& simTemplates();
/// The shipped target files of designs/targets/ ("aim" -> the text of aim.json), so that
/// `--target aim` works wherever rubick runs.
const std::map<std::string, std::string>& targetPresets();

} // namespace rubick::emit
