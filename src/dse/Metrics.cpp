// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/Metrics.h"

#include <stdexcept>

namespace rubick::dse {

const MetricInfo& objectiveMetric(Objective o) {
  if (size_t(o) >= kObjectives) throw std::logic_error("objective without a row in kMetrics");
  return *metric_detail::kObjectiveRows[size_t(o)];
}

const char* toString(Objective o) {
  return objectiveMetric(o).objective;
}

std::optional<Objective> parseObjective(std::string_view name) {
  for (const MetricInfo& m : kMetrics)
    if (m.objective && name == m.objective) return m.ranks;
  return std::nullopt;
}

std::string objectiveNames() {
  std::string out;
  for (size_t o = 0; o < kObjectives; ++o) {
    if (o) out += o + 1 == kObjectives ? " or " : ", ";
    out += toString(Objective(o));
  }
  return out;
}

RankKey rankKey(const Metrics& m, Objective o) {
  RankKey key;
  key[0] = objectiveMetric(o).read(m);
  for (size_t i = 0; i < kTieBreaks; ++i)
    key[i + 1] = metric_detail::kTieBreakRows[i]->read(m);
  return key;
}

std::array<const MetricInfo*, kParetoAxes> paretoAxes(Objective o) {
  const MetricInfo& objective = objectiveMetric(o);
  std::array<const MetricInfo*, kParetoAxes> axes{};
  for (const MetricInfo& m : kMetrics) {
    if (!m.paretoAxis) continue;
    const MetricInfo*& axis = axes[size_t(m.paretoAxis - 1)];
    if (!axis || &m == &objective) axis = &m;
  }
  return axes;
}

} // namespace rubick::dse
