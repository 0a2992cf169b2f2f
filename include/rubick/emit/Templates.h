#pragma once
// Files compiled into the library (name -> file text): the Verilog templates of rtl_templates/
// and the simulation harness of sim_templates/.

#include <map>
#include <string>

namespace rubick::emit {

const std::map<std::string, std::string>& rtlTemplates();
const std::map<std::string, std::string>& simTemplates();

} // namespace rubick::emit
