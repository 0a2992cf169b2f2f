// `rubick explore --csv`: one row per design for spreadsheets and scripts. Fields are quoted as
// RFC 4180 says (a field holding a comma, quote or line break is quoted, quotes doubled); the
// dataflow spec is always quoted since it always holds commas. Lines end in LF, which every CSV
// reader accepts, so the file diffs cleanly.

#include "NumberText.h"

#include "rubick/dse/Report.h"

namespace rubick::dse {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string field(const std::string& s) {
  return s.find_first_of(",\"\r\n") == std::string::npos ? s : quoted(s);
}

void appendRow(std::string& out, const std::vector<std::string>& cells) {
  for (size_t c = 0; c < cells.size(); ++c)
    out += (c ? "," : "") + cells[c];
  out += "\n";
}

} // namespace

CsvRows::CsvRows(const dataflow::StatementView& v) : v_(v) {
  std::vector<std::string> head = {"id",
                                   "pareto",
                                   "p",
                                   "q",
                                   "latency",
                                   "tiles",
                                   "tile_cycles",
                                   "utilization",
                                   "buffer_bytes",
                                   "wires",
                                   "area",
                                   "energy",
                                   "max_fanout",
                                   "max_fanin",
                                   "ports",
                                   "words_per_cycle",
                                   "peak_words_per_cycle"};
  for (const dataflow::AccessView& a : v.accesses)
    head.push_back(field(a.name + "_entry"));
  head.push_back("dataflow");
  appendRow(text_, head);
}

void CsvRows::add(const DesignPoint& d) {
  auto i = [](int64_t x) { return std::to_string(x); };
  const Metrics& m = d.metrics;
  const std::string id = field(d.id);
  // The pareto cell follows the id; it is known only at the end (see text()).
  pareto_.push_back(text_.size() + id.size() + 1);
  std::vector<std::string> row = {id,
                                  d.pareto ? "1" : "0",
                                  i(d.dataflow.p),
                                  i(d.dataflow.q),
                                  i(m.latency),
                                  i(m.tiles),
                                  i(m.tileCycles),
                                  formatSignificant(m.utilization),
                                  i(m.bufferBytes),
                                  i(m.wires),
                                  formatSignificant(m.area),
                                  formatSignificant(m.energy),
                                  i(m.maxFanout),
                                  i(m.maxFanin),
                                  i(m.ports),
                                  formatSignificant(m.wordsPerCycle),
                                  i(m.peakWordsPerCycle)};
  for (size_t a = 0; a < v_.accesses.size(); ++a)
    row.push_back(a < d.entries.size() ? field(ir::toString(d.entries[a])) : "");
  row.push_back(quoted(dataflow::toSpec(d.dataflow, v_)));
  appendRow(text_, row);
}

const std::string& CsvRows::text(const std::vector<DesignPoint>& ranked) {
  for (const DesignPoint& d : ranked)
    if (d.pareto && d.order < pareto_.size()) text_[pareto_[d.order]] = '1';
  return text_;
}

std::string toCsv(const dataflow::StatementView& v, const std::vector<DesignPoint>& points) {
  CsvRows rows(v);
  for (const DesignPoint& d : points)
    rows.add(d);
  return rows.text({});
}

} // namespace rubick::dse
