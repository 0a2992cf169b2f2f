// SPDX-License-Identifier: Apache-2.0
#pragma once
// What explore's JSON files share (src/dse/Json.cpp, src/dse/PimJson.cpp): compact one-line
// values, and the opening lines every such file starts with (how rubick recognises the files
// it wrote: src/tools/ExploreCommand.cpp, kJsonSignature).

#include "rubick/dataflow/StatementView.h"
#include "rubick/frontend/Program.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rubick::dse::json {

using Json = nlohmann::ordered_json;

/// One line; `replace` keeps a stray non-UTF-8 byte in a name from throwing during output.
inline std::string compact(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// `  "key": value,` and a newline, appended to `out`.
inline void field(std::string& out, const char* key, const Json& value) {
  out += "  " + Json(key).dump() + ": " + compact(value) + ",\n";
}

/// "{" and the fields program, statement and loops (name and extent of each), one per line.
inline std::string opening(const tc::Program& prog, const dataflow::StatementView& v) {
  std::string text;
  for (const tc::Statement& s : prog.statements)
    if (s.name == v.statement) text = s.text;
  Json loops = Json::array();
  for (size_t l = 0; l < v.loops.size(); ++l)
    loops.push_back(Json{{"name", v.loops[l]}, {"extent", v.extent[l]}});
  std::string out = "{\n";
  field(out, "program", prog.name);
  field(out, "statement", text);
  field(out, "loops", loops);
  return out;
}

} // namespace rubick::dse::json
