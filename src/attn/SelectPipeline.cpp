// SPDX-License-Identifier: Apache-2.0
// Naming and choosing an attention pipeline (see SelectPipeline.h).

#include "rubick/attn/SelectPipeline.h"

#include "PipelineCost.h"

#include "rubick/support/Diagnostic.h"

#include <algorithm>
#include <map>

namespace rubick::attn {
namespace {

using namespace detail;

const char* kForm = "block=N,lanes=W,gemm1=ID,gemm2=ID";

int64_t number(const std::string& key, const std::string& value, const std::string& origin) {
  if (value.empty() || value.size() > 9 ||
      value.find_first_not_of("0123456789") != std::string::npos)
    throw Error(origin, key + " must be a whole number, found '" + value + "'");
  return std::stoll(value);
}

std::string designIdOf(const std::string& key, const std::string& value,
                       const std::string& origin) {
  if (!dse::looksLikeId(value))
    throw Error(origin, key + " must be a design ID (" + std::to_string(dse::kIdDigits) +
                            " hex digits, as the pipeline table lists them), found '" + value +
                            "'");
  return value;
}

std::string joined(const std::vector<int64_t>& xs) {
  std::string s;
  for (int64_t x : xs)
    s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

} // namespace

PipelineSpec parsePipelineSpec(const std::string& text, const std::string& origin) {
  if (text.empty())
    throw Error(origin, std::string("the pipeline spec is empty; give ") + kForm +
                            " as `rubick explore` prints it");
  std::map<std::string, std::string> items;
  size_t i = 0;
  while (true) {
    const size_t comma = text.find(',', i);
    const std::string item = text.substr(i, comma == std::string::npos ? comma : comma - i);
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(origin,
                  "expected KEY=VALUE items (" + std::string(kForm) + "), found '" + item + "'");
    const std::string key = item.substr(0, eq);
    if (key != "block" && key != "lanes" && key != "gemm1" && key != "gemm2")
      throw Error(origin, "unknown key '" + key + "' (keys: block, lanes, gemm1, gemm2)");
    if (!items.emplace(key, item.substr(eq + 1)).second)
      throw Error(origin, key + " is given twice");
    if (comma == std::string::npos) break;
    i = comma + 1;
  }
  for (const char* key : {"block", "lanes", "gemm1", "gemm2"})
    if (!items.count(key))
      throw Error(origin, std::string("the spec has no ") + key + " (" + kForm + ")");
  PipelineSpec s;
  s.blockKeys = number("block", items["block"], origin);
  s.lanes = number("lanes", items["lanes"], origin);
  s.gemm1 = designIdOf("gemm1", items["gemm1"], origin);
  s.gemm2 = designIdOf("gemm2", items["gemm2"], origin);
  return s;
}

std::string pipelineSpec(const PipelinePoint& p) {
  return "block=" + std::to_string(p.blockKeys) + ",lanes=" + std::to_string(p.lanes) +
         ",gemm1=" + p.g1.design.id + ",gemm2=" + p.g2.design.id;
}

PipelinePoint findPipeline(const tc::Program& prog, const AttentionForm& form,
                           const PipelineOptions& o, const PipelineSpec& spec) {
  const std::string origin = "--pipeline";
  const PipelineContext c = makeContext(prog, form, o);
  // The search flags bound the choices as they bound explore's, so that a spec is accepted
  // with the flags explore printed it under.
  checkBlock(form, spec.blockKeys, origin);
  if (!o.blockKeys.empty() &&
      std::find(o.blockKeys.begin(), o.blockKeys.end(), spec.blockKeys) == o.blockKeys.end())
    throw Error(origin, "block " + std::to_string(spec.blockKeys) + " is not among --block-keys " +
                            joined(o.blockKeys));
  checkLanes(spec.lanes, origin);
  if (!o.lanes.empty() && std::find(o.lanes.begin(), o.lanes.end(), spec.lanes) == o.lanes.end())
    throw Error(origin, "lanes " + std::to_string(spec.lanes) + " is not among --vector-lanes " +
                            joined(o.lanes));
  const auto [base1, base2] = baseStages(c, spec.blockKeys);
  auto stage = [&](const GemmStage& g, const std::string& id, const char* which) {
    dse::ExploreOptions x = c.gemm;
    x.constraints.elementBits = g.elementBits;
    std::optional<dse::DesignPoint> d = dse::findDesign(g.view, x, id);
    if (!d)
      throw Error(origin, std::string("no ") + which + " design " + id + " for blocks of " +
                              std::to_string(spec.blockKeys) +
                              " keys among the designs these constraints allow; take the spec "
                              "from `rubick explore` with the same program, sizes and flags");
    return withDesign(g, *d);
  };
  const StageWithMaps g1 = stage(base1, spec.gemm1, "GEMM 1");
  const StageWithMaps g2 = stage(base2, spec.gemm2, "GEMM 2");
  const PassItems items = passItems(form, g1.stage, g2.stage, g1.maps, g2.maps);
  PipelinePoint pt = costPipeline(c, spec.blockKeys, spec.lanes, g1, g2, items,
                                  blockMemoryPlan(c, spec.blockKeys));
  if (std::string why = widthProblem(prog, form, pt); !why.empty())
    throw Error(origin, "the vector unit cannot take this pipeline: " + why);
  if (c.budget && pt.bufferBytes > c.budget)
    throw Error(origin, "the pipeline needs " + std::to_string(pt.bufferBytes) +
                            " bytes of buffer, above the budget of " + std::to_string(c.budget) +
                            " bytes (--buffer-kib)");
  return pt;
}

PipelinePoint selectPipeline(const tc::Program& prog, const AttentionForm& form,
                             const PipelineOptions& o, const dse::Selection& s) {
  if (s.dataflow)
    throw Error("--dataflow", "--dataflow names one statement's design; name an attention "
                              "pipeline with --pipeline (or choose a statement with --stmt)");
  if (!s.entries.empty())
    throw Error("--entries", "T=ENTRY choices are for single statements (use --stmt); name an "
                             "attention pipeline with --pipeline or --point");
  const char* flag = s.all                ? "--all"
                     : !s.cover.empty()   ? "--cover"
                     : !s.layouts.empty() ? "--layout"
                     : s.skip             ? "--skip"
                     : s.limit            ? "--limit"
                                          : nullptr;
  if (flag)
    throw Error(flag, "--all, --cover, --layout, --skip and --limit are for single statements "
                      "(use --stmt)");
  dse::checkSelection(s);
  if (s.pipeline) return findPipeline(prog, form, o, parsePipelineSpec(*s.pipeline));
  PipelineResult r = explorePipeline(prog, form, o);
  if (!s.point) return std::move(r.points.front()); // explorePipeline never returns none
  for (PipelinePoint& p : r.points)
    if (p.id == *s.point) return std::move(p);
  throw Error("--point", "no attention pipeline " + *s.point + " among the " +
                             std::to_string(r.points.size()) +
                             " these constraints allow; run `rubick explore` with the same "
                             "program, sizes and flags to list them");
}

} // namespace rubick::attn
