#pragma once
// The Verilog templates of rtl_templates/, compiled into the library (name -> file text).

#include <map>
#include <string>

namespace rubick::emit {

const std::map<std::string, std::string>& rtlTemplates();

} // namespace rubick::emit
