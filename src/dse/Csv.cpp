// SPDX-License-Identifier: Apache-2.0
// `rubick explore --csv`: one row per design for spreadsheets and scripts. Fields are quoted as
// RFC 4180 says (a field holding a comma, quote or line break is quoted, quotes doubled); the
// dataflow spec is always quoted since it always holds commas. Lines end in LF, which every CSV
// reader accepts, so the file diffs cleanly.

#include "NumberText.h"

#include "rubick/dse/Metrics.h"
#include "rubick/dse/Report.h"
#include "rubick/support/Interrupt.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace rubick::dse {
namespace {

void appendQuoted(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s)
    if (c == '"')
      out += "\"\"";
    else
      out += c;
  out += '"';
}

void appendField(std::string& out, const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos)
    out += s;
  else
    appendQuoted(out, s);
}

void appendHeader(std::string& out, const dataflow::StatementView& v, bool memory) {
  out += "id,pareto,p,q";
  for (const MetricInfo* m : metricsShownBy(MetricWriter::Csv)) {
    out += ',';
    out += m->key;
  }
  // With a memory system, the table's columns: what sets the pace, bus and compulsory bytes,
  // and the buffer tile.
  if (memory) out += ",bound,traffic_bytes,min_bytes,buffer_tile";
  for (const dataflow::AccessView& a : v.accesses) {
    out += ',';
    appendField(out, a.name + "_entry");
  }
  out += ",dataflow\n";
}

// One design's row; the pareto cell is the byte after the id and its comma (CsvFile sets it).
void appendRow(std::string& out, const dataflow::StatementView& v, const DesignPoint& d,
               bool memory) {
  auto integer = [&out](int64_t x) {
    char buf[24];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
    out += ',';
  };
  auto real = [&out](double x) {
    out += formatSignificant(x);
    out += ',';
  };
  appendField(out, d.id);
  out += d.pareto ? ",1," : ",0,";
  integer(d.dataflow.p);
  integer(d.dataflow.q);
  for (const MetricInfo* metric : metricsShownBy(MetricWriter::Csv)) {
    const MetricValue x = metric->read(d.metrics);
    if (x.real)
      real(x.number);
    else
      integer(x.integer);
  }
  if (memory) {
    out += d.memory.memoryBound ? "memory," : "compute,";
    integer(d.memory.busBytes);
    integer(d.memory.compulsoryBytes);
    appendField(out, toString(d.buffer, v));
    out += ',';
  }
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    if (a < d.entries.size()) appendField(out, ir::toString(d.entries[a]));
    out += ',';
  }
  appendQuoted(out, dataflow::toSpec(d.dataflow, v));
  out += '\n';
}

// The fields of one CSV line (RFC 4180 quoting).
std::vector<std::string> splitLine(std::string_view s) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quoted && c == '"' && i + 1 < s.size() && s[i + 1] == '"')
      out.back() += s[++i];
    else if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

} // namespace

std::string toCsv(const dataflow::StatementView& v, const std::vector<DesignPoint>& points,
                  bool memory) {
  std::string out;
  appendHeader(out, v, memory);
  for (const DesignPoint& d : points)
    appendRow(out, v, d, memory);
  return out;
}

CsvFile::CsvFile(const dataflow::StatementView& v, const std::string& path, bool memory)
    : v_(v), memory_(memory), file_(path) {
  appendHeader(row_, v, memory);
  file_.write(row_);
}

void CsvFile::add(const DesignPoint& d) noexcept {
  if (failed_.load(std::memory_order_relaxed)) return;
  try {
    // finish() finds a design's row by its order and its pareto cell after the fixed-width ID.
    if (d.order != rows_) throw std::logic_error("CSV rows out of search order");
    if (!looksLikeId(d.id)) throw std::logic_error("CSV row without a design ID: " + d.id);
    row_.clear();
    appendRow(row_, v_, d, memory_);
    file_.write(row_);
    ids_.add(idValue(d.id));
    ++rows_;
  } catch (...) {
    failure_ = std::current_exception();
    failed_.store(true);
  }
}

void CsvFile::check() const {
  if (failed_.load()) std::rethrow_exception(failure_);
  file_.check();
}

void CsvFile::finish(const std::vector<DesignPoint>& ranked) {
  check();
  file_.flush();
  std::vector<size_t> front; // data rows to mark, ascending
  for (const DesignPoint& d : ranked)
    if (d.pareto) front.push_back(d.order);
  std::sort(front.begin(), front.end());
  front.erase(std::unique(front.begin(), front.end()), front.end());
  const std::optional<uint64_t> dup = ids_.takeFirstDuplicate();
  const std::string dupId = dup ? idText(*dup) : "";
  std::vector<std::pair<uint64_t, size_t>> dupRows; // (line start, line index) of its rows

  // One sequential pass over the temporary in big chunks, counting lines: the pareto cells are
  // overwritten in place, and the rows of a duplicated ID found.
  const uint64_t total = file_.size();
  std::string chunk(size_t(4) << 20, '\0');
  uint64_t at = 0; // file offset of chunk[0]
  size_t got = 0;
  // Bytes [start, start + n) of the file, from the chunk when it holds them.
  auto bytesAt = [&](uint64_t start, size_t n) {
    if (start >= at && start + n <= at + got) return std::string(chunk.data() + (start - at), n);
    std::string s(n, '\0');
    s.resize(file_.readAt(start, s.data(), n));
    return s;
  };
  size_t line = 0, nextFront = 0;
  auto lineStarts = [&](uint64_t start) {
    ++line;
    if (start == total) return; // after the last line
    const size_t row = line - 1;
    if (nextFront < front.size() && front[nextFront] == row) {
      const uint64_t cell = start + kIdDigits + 1;
      if (bytesAt(cell, 1) != "0") throw std::logic_error("CSV pareto cell not where expected");
      file_.writeAt(cell, "1");
      ++nextFront;
    }
    if (dup && dupRows.size() < 2 && bytesAt(start, kIdDigits) == dupId)
      dupRows.push_back({start, line});
  };
  while (at < total) {
    throwIfInterrupted();
    got = file_.readAt(at, chunk.data(), size_t(std::min<uint64_t>(chunk.size(), total - at)));
    if (got == 0) throw std::logic_error("CSV temporary shorter than written");
    const char* begin = chunk.data();
    const char* end = begin + got;
    for (const char* p = begin; (p = static_cast<const char*>(std::memchr(p, '\n', end - p)));)
      lineStarts(at + uint64_t(++p - begin));
    at += got;
  }
  if (line != rows_ + 1 || nextFront != front.size())
    throw std::logic_error("CSV temporary does not hold the rows written");
  if (dup) {
    if (dupRows.size() < 2) throw std::logic_error("CSV rows of a duplicated ID not found");
    throw duplicateIdError("design", dupId, describeRow(dupRows[0].first, dupRows[0].second),
                           describeRow(dupRows[1].first, dupRows[1].second));
  }
}

std::string CsvFile::describeRow(uint64_t lineStart, size_t line) {
  std::string text(size_t(1) << 16, '\0');
  text.resize(file_.readAt(lineStart, text.data(), text.size()));
  text.resize(std::min(text.find('\n'), text.size()));
  const std::vector<std::string> f = splitLine(text);
  return f.back() + " on " + (f.size() > 3 ? f[2] + "x" + f[3] : "?") + ", line " +
         std::to_string(line + 1) + " of the CSV";
}

} // namespace rubick::dse
