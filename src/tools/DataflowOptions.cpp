// SPDX-License-Identifier: Apache-2.0
#include "DataflowOptions.h"

#include "rubick/dataflow/DataflowSpec.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/SourceFile.h"

namespace rubick::cli {

void addStatementOption(CLI::App& cmd, DataflowOptions& o) {
  cmd.add_option("--stmt", o.stmt,
                 "Which statement, as S0, S1, ... or by the tensor it writes (needed when the\n"
                 "program has several)")
      ->type_name("STMT");
}

void addArrayOption(CLI::App& cmd, DataflowOptions& o, const std::string& defaultText) {
  cmd.add_option("--array", o.array, "PE array shape, P (x) by Q (y), e.g. 8x8. " + defaultText)
      ->type_name("PxQ");
}

CLI::Option* addDataflowOption(CLI::App& cmd, DataflowOptions& o, const std::string& description) {
  return cmd
      .add_option("--dataflow", o.dataflow,
                  description.empty() ? "A space-time map such as 'PE(k, j mod 2) | T(i + j mod "
                                        "2, j / 2)', or @FILE\nto read it from a file"
                                      : description)
      ->type_name("SPEC");
}

std::pair<int64_t, int64_t> parseArray(const std::string& text) {
  size_t x = text.find_first_of("xX");
  auto bad = [&] {
    throw Error("--array",
                "expected PxQ with positive integers (such as 8x8), found '" + text + "'");
  };
  if (x == std::string::npos || x == 0 || x + 1 >= text.size()) bad();
  for (size_t i = 0; i < text.size(); ++i)
    if (i != x && !std::isdigit(static_cast<unsigned char>(text[i]))) bad();
  if (x > 6 || text.size() - x - 1 > 6) throw Error("--array", "array " + text + " is too large");
  int64_t p = std::stoll(text.substr(0, x)), q = std::stoll(text.substr(x + 1));
  if (p <= 0 || q <= 0) bad();
  return {p, q};
}

std::string dataflowText(const std::string& value, std::string& origin) {
  origin = "--dataflow";
  if (value.empty() || value[0] != '@') return value;
  // The same reader as programs: size limit, directories and unreadable files refused.
  origin = value.substr(1);
  return readSourceFile(origin).text();
}

dataflow::Dataflow loadDataflow(const DataflowOptions& o, const dataflow::StatementView& v) {
  std::string origin;
  const std::string text = dataflowText(o.dataflow, origin);
  if (!o.array.empty()) {
    auto [p, q] = parseArray(o.array);
    return dataflow::parseDataflowSpec(text, v, p, q, origin);
  }
  constexpr int64_t kAny = int64_t(1) << 30;
  dataflow::Dataflow d = dataflow::parseDataflowSpec(text, v, kAny, kAny, origin);
  IntVec e = d.extent();
  d.p = e[0];
  d.q = e[1];
  return d;
}

} // namespace rubick::cli
