// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/Select.h"

#include "rubick/support/Unsupported.h"

#include "rubick/dataflow/DataflowSpec.h"
#include "rubick/dataflow/Decompose.h"
#include "rubick/support/Diagnostic.h"

#include <algorithm>
#include <set>

namespace rubick::dse {
namespace {

const char* kTransforms[] = {"plain", "transpose", "skew", "transpose+skew", "stride", "general"};

std::string tensorList(const dataflow::StatementView& v) {
  std::string names;
  for (const dataflow::AccessView& a : v.accesses)
    names += (names.empty() ? "" : ", ") + a.name;
  return names;
}

// "A=X-systolic,B=4" -> (access index, value), each tensor at most once.
std::map<size_t, std::string> parsePairs(const std::string& text, const std::string& flag,
                                         const std::string& what,
                                         const dataflow::StatementView& v) {
  std::map<size_t, std::string> out;
  size_t i = 0;
  while (true) {
    size_t comma = text.find(',', i);
    std::string item = text.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw Error(flag, "expected TENSOR=" + what +
                            " pairs such as A=" + (flag == "--layout" ? "skew" : "X-systolic") +
                            ", found '" + item + "'");
    std::string tensor = item.substr(0, eq);
    size_t a = 0;
    while (a < v.accesses.size() && v.accesses[a].name != tensor)
      ++a;
    if (a == v.accesses.size())
      throw Error(flag, "'" + tensor + "' is not a tensor of " + v.statement +
                            " (tensors: " + tensorList(v) + ")");
    if (!out.emplace(a, item.substr(eq + 1)).second)
      throw Error(flag, "'" + tensor + "' is given twice");
    if (comma == std::string::npos) break;
    i = comma + 1;
  }
  return out;
}

} // namespace

void checkPimSelection(const Selection& s) {
  const std::pair<const char*, bool> other[] = {{"--dataflow", s.dataflow.has_value()},
                                                {"--pipeline", s.pipeline.has_value()},
                                                {"--entries", !s.entries.empty()},
                                                {"--layout", !s.layouts.empty()},
                                                {"--cover", !s.cover.empty()},
                                                {"--skip", s.skip != 0 && !s.all},
                                                {"--limit", s.limit.has_value() && !s.all}};
  for (const auto& [flag, given] : other)
    if (given)
      throw Error(
          flag,
          "with a PIM target a design is chosen by --point UNITID/SPREAD (as "
          "`rubick explore` lists it), or is rank 1 (verify: --all takes every one, with --skip, "
          "--limit)");
  if (s.all && s.point) throw Error("--point", "give either --point or --all, not both");
  if (s.point && s.point->empty())
    throw Error("--point", "the design ID is empty; give one that `rubick explore` lists");
}

void checkSelection(const Selection& s) {
  if (s.pipeline) {
    // A pipeline spec names everything; the other selectors choose among searched designs.
    if (s.point || s.dataflow)
      throw Error("--pipeline", std::string("give either --pipeline or ") +
                                    (s.point ? "--point" : "--dataflow") + ", not both");
    if (!s.entries.empty() || !s.layouts.empty() || s.all || !s.cover.empty() || s.skip || s.limit)
      throw Error("--pipeline", "--pipeline names one pipeline; --entries, --layout, --all, "
                                "--cover, --skip and --limit do not apply");
  }
  if (s.dataflow) {
    if (s.point) throw Error("--dataflow", "give either --dataflow or --point, not both");
    if (!s.entries.empty() || !s.layouts.empty())
      throw Error("--dataflow", "give either --dataflow or --entries/--layout, not both (the "
                                "dataflow decides the entries and layouts)");
    if (s.all) throw Error("--dataflow", "give either --dataflow or --all, not both");
  }
  if (s.point) {
    const std::string& id = *s.point;
    if (id.empty())
      throw Error("--point", "the design ID is empty; give one that `rubick explore` lists");
    if (!s.entries.empty() || !s.layouts.empty())
      throw Error("--point", "give either --point or --entries/--layout, not both");
    if (s.all) throw Error("--point", "give either --point or --all, not both");
    if (!looksLikeId(id))
      throw Error("--point", "'" + id + "' is not a design ID (" + std::to_string(kIdDigits) +
                                 " hex digits, as `rubick explore` lists them" +
                                 (id.size() == 10 ? "; IDs of 10 digits are from an older "
                                                    "rubick: run `rubick explore` again"
                                                  : "") +
                                 ")");
  }
  if (!s.cover.empty() && !s.all) throw Error("--cover", "--cover selects among --all");
  if (!s.cover.empty() && s.cover != "roles" && s.cover != "combinations")
    throw Error("--cover", "expected roles or combinations, found '" + s.cover + "'");
  if (s.skip < 0)
    throw Error("--skip", "expected 0 or more designs to skip, found " + std::to_string(s.skip));
  if (s.limit && *s.limit < 1)
    throw Error("--limit", "expected at least 1 design, found " + std::to_string(*s.limit) +
                               (*s.limit == 0 ? " (leave --limit out for no limit)" : ""));
}

TensorChoices parseChoices(const Selection& s, const dataflow::StatementView& v) {
  TensorChoices c;
  if (!s.entries.empty())
    for (const auto& [a, name] : parsePairs(s.entries, "--entries", "ENTRY", v)) {
      std::optional<ir::EntryKind> k = ir::parseEntryKind(name);
      if (!k) {
        std::string names;
        for (const ir::EntryInfo& e : ir::allEntries())
          names += (names.empty() ? "" : ", ") + std::string(e.name);
        throw Error("--entries", "unknown entry '" + name + "' for " + v.accesses[a].name +
                                     " (entries: " + names + ", or their numbers 1-14)");
      }
      c.entries[a] = *k;
    }
  if (!s.layouts.empty())
    for (const auto& [a, name] : parsePairs(s.layouts, "--layout", "TRANSFORM", v)) {
      if (std::find(std::begin(kTransforms), std::end(kTransforms), name) ==
          std::end(kTransforms)) {
        std::string names;
        for (const char* t : kTransforms)
          names += (names.empty() ? "" : ", ") + std::string(t);
        throw Error("--layout", "unknown layout transform '" + name + "' for " +
                                    v.accesses[a].name + " (transforms: " + names + ")");
      }
      c.layouts[a] = name;
    }
  return c;
}

bool matches(const dataflow::StatementView& v, const DesignPoint& d, const TensorChoices& c) {
  for (const auto& [a, k] : c.entries)
    if (d.entries[a].kind != k) return false;
  if (c.layouts.empty()) return true;
  dataflow::Decomposition dec = dataflow::decompose(v, d.dataflow);
  for (const auto& [a, name] : c.layouts)
    if (ir::transformName(dec.tensors[a].layout) != name) return false;
  return true;
}

std::vector<DesignPoint> selectDesigns(const dataflow::StatementView& v, const ExploreOptions& o,
                                       const Selection& s, const std::string& command,
                                       size_t* selected, const BuildCheck& check,
                                       std::vector<std::string>* passed) {
  checkSelection(s);
  const TensorChoices choices = parseChoices(s, v);
  std::vector<DesignPoint> chosen;
  if (s.pipeline)
    throw Error("--pipeline", "--pipeline names an attention pipeline; " + v.statement +
                                  " is one statement: choose its design with --dataflow or "
                                  "--point");
  if (s.dataflow) {
    // The array is explore's (--array, the target's or the default), so that the ID is the one
    // explore lists with the same flags.
    const std::vector<ArrayShape>& arrays = o.constraints.arrays;
    if (arrays.size() != 1)
      throw Error("--dataflow", "a dataflow is built on one array shape, but the flags allow " +
                                    std::to_string(arrays.size()) +
                                    "; give the one explore listed with --array PxQ");
    dataflow::Dataflow d = dataflow::parseDataflowSpec(*s.dataflow, v, arrays.front().p,
                                                       arrays.front().q, s.dataflowOrigin);
    chosen.push_back(buildDesign(v, o, d));
  } else if (s.point) {
    std::optional<DesignPoint> d = findDesign(v, o, *s.point);
    if (!d)
      throw Error("--point", "no design " + *s.point +
                                 " among the designs these constraints allow; run `rubick "
                                 "explore` with the same program, sizes and flags to list them");
    chosen.push_back(std::move(*d));
  } else {
    ExploreResult r = explore(v, o);
    if (r.points.empty())
      throw Error(command, "no design satisfies the constraints; " + r.mostRestrictive());
    const size_t allowed = r.points.size();
    // The matches in rank order (ranked by the objective: the first is the best); without
    // --all only as many as the build check may look at.
    std::vector<size_t> ranks;
    for (size_t rank = 0; rank < r.points.size(); ++rank) {
      if (!choices.empty() && !matches(v, r.points[rank], choices)) continue;
      ranks.push_back(rank);
      if (!s.all && (!check || ranks.size() == kBuildTries)) break;
    }
    if (s.all || !check) {
      for (size_t rank : ranks)
        chosen.push_back(std::move(r.points[rank]));
    } else if (!ranks.empty()) {
      BuildChoice c = firstBuildable(r.points, ranks, check);
      if (passed) passed->insert(passed->end(), c.passed.begin(), c.passed.end());
      if (!c.rank) {
        throw Unsupported(command, c.first + (c.checked > 1 ? " (as have the next " +
                                                                  std::to_string(c.checked - 1) +
                                                                  " designs in rank order)"
                                                            : ""));
      }
      chosen.push_back(std::move(r.points[*c.rank]));
    }
    if (chosen.empty())
      throw Error(!s.entries.empty() ? "--entries" : "--layout",
                  "no design has the requested entries and layouts among the " +
                      std::to_string(allowed) + " allowed");
    if (!s.cover.empty()) chosen = sampleCover(chosen, s.cover, check, passed);
  }
  // --skip and --limit cut a window out of the selection, so a long sweep can run in pieces.
  const size_t n = chosen.size();
  if (selected) *selected = n;
  const auto skip = static_cast<size_t>(s.skip);
  if (skip >= n && skip > 0)
    throw Error("--skip",
                "skips all " + std::to_string(n) + " selected design" + (n == 1 ? "" : "s"));
  chosen.erase(chosen.begin(), chosen.begin() + static_cast<std::ptrdiff_t>(skip));
  if (s.limit && chosen.size() > static_cast<size_t>(*s.limit))
    chosen.resize(static_cast<size_t>(*s.limit));
  return chosen;
}

BuildChoice firstBuildable(const std::vector<DesignPoint>& points, const std::vector<size_t>& ranks,
                           const BuildCheck& check) {
  BuildChoice c;
  for (size_t rank : ranks) {
    if (c.checked == kBuildTries) break;
    ++c.checked;
    const DesignPoint& d = points.at(rank);
    const std::string why = check(d);
    if (why.empty()) {
      c.rank = rank;
      break;
    }
    if (c.first.empty()) c.first = why;
    c.passed.push_back("rank " + std::to_string(rank + 1) + " (" + d.id +
                       ") cannot be built: " + why);
  }
  return c;
}

std::vector<DesignPoint> sampleCover(const std::vector<DesignPoint>& points, const std::string& how,
                                     const BuildCheck& check, std::vector<std::string>* passed) {
  std::vector<DesignPoint> out;
  std::set<std::vector<ir::EntryKind>> combos;
  std::set<std::pair<size_t, ir::EntryKind>> roles;
  for (size_t rank = 0; rank < points.size(); ++rank) {
    const DesignPoint& d = points[rank];
    std::vector<ir::EntryKind> k;
    bool fresh = false;
    if (how == "combinations") {
      for (const ir::OrientedEntry& e : d.entries)
        k.push_back(e.kind);
      fresh = !combos.count(k);
    } else {
      for (size_t a = 0; a < d.entries.size(); ++a)
        fresh |= !roles.count({a, d.entries[a].kind});
    }
    if (!fresh) continue;
    if (check) {
      if (std::string why = check(d); !why.empty()) {
        if (passed)
          passed->push_back("design " + std::to_string(rank + 1) + " of the selection (" + d.id +
                            ") cannot be built: " + why);
        continue;
      }
    }
    combos.insert(k);
    for (size_t a = 0; a < d.entries.size(); ++a)
      roles.insert({a, d.entries[a].kind});
    out.push_back(d);
  }
  return out;
}

} // namespace rubick::dse
