// SPDX-License-Identifier: Apache-2.0
#pragma once
// Design selection, shared by `emit` and `verify` so that both read the selectors alike and
// fail alike.
//
// Rules: --dataflow SPEC builds exactly that design (no search at all: buildDesign); --point ID
// names one design (no costing of the others: findDesign); otherwise the explored designs,
// ranked by the objective, are filtered by --entries T=ENTRY,... and --layout T=TRANSFORM,...
// and the first match is taken, or with --all every match (--cover roles|combinations: the
// first for each entry per role, or per combination). --skip N and --limit N then cut a window
// out of the selection. --dataflow and --point exclude each other, --entries, --layout and
// --all; --cover needs --all. --pipeline SPEC names an attention pipeline (attn/SelectPipeline.h)
// and excludes every other selector.

#include "rubick/dse/Explore.h"
#include "rubick/dse/Shard.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rubick::dse {

struct Selection {
  std::optional<std::string> point;          // --point ID (given, even when empty)
  std::optional<std::string> dataflow;       // --dataflow: the spec's text (@FILE already read)
  std::string dataflowOrigin = "--dataflow"; // where that text came from, for its errors
  std::optional<std::string> pipeline;       // --pipeline SPEC (attention pipelines)
  std::string entries;                       // --entries T=ENTRY,...; "": any
  std::string layouts;                       // --layout T=TRANSFORM,...; "": any
  bool all = false;                          // every match rather than the best
  std::string cover;                         // with `all`: "", "roles" or "combinations"
  int64_t skip = 0;                          // leave out the first `skip` selected designs
  std::optional<int64_t> limit;              // at most `limit` designs (>= 1)
  Shard shard; // verify --shard I/N: of those, the ones at place I modulo N (docs/scale.md)
};

/// Checks the selectors on their own, before any search: the ID's form, conflicting selectors,
/// --cover, --skip and --limit. Throws rubick::Error naming the flag.
void checkSelection(const Selection& s);

/// With a PIM target (docs/pim.md) a design is one spread, named by --point UNITID/SPREAD, or
/// rank 1 without it, or with --all (verify; --skip and --limit cut a window) every one: the
/// other selectors are refused (rubick::Error naming the flag).
void checkPimSelection(const Selection& s);

/// The per-tensor choices of --entries and --layout, by access index.
struct TensorChoices {
  std::map<size_t, ir::EntryKind> entries;
  std::map<size_t, std::string> layouts;
  bool empty() const { return entries.empty() && layouts.empty(); }
};

/// Parses --entries/--layout against the statement; an unknown tensor (the tensors are
/// listed), entry or transform (the choices are listed) is an error.
TensorChoices parseChoices(const Selection& s, const dataflow::StatementView& v);

/// Whether a design has the chosen entries and layouts.
bool matches(const dataflow::StatementView& v, const DesignPoint& d, const TensorChoices& c);

/// The design explore(v, o) lists under `id`, found without costing the others: every
/// candidate (array, matrix, tiling) is hashed, and only a match is costed and checked against
/// the constraints. nullopt when explore lists no such design. `pareto` is left false (the
/// front needs every design).
std::optional<DesignPoint> findDesign(const dataflow::StatementView& v, const ExploreOptions& o,
                                      const std::string& id);

/// Exactly the design `d` (with its tiling and array shape) names, built without any search:
/// decomposed for its entries, costed, given the ID explore lists it under, and checked against
/// the constraints. Throws rubick::Error (origin --dataflow) when a tensor cannot be realised
/// or a constraint is violated, naming the tensor, the entry and the limit's flag.
DesignPoint buildDesign(const dataflow::StatementView& v, const ExploreOptions& o,
                        const dataflow::Dataflow& d);

/// findDesign for several IDs at once (one enumeration): the designs found, by ID.
std::map<std::string, DesignPoint> findDesigns(const dataflow::StatementView& v,
                                               const ExploreOptions& o,
                                               const std::set<std::string>& ids);

/// Why a design cannot be built ("": it can), for the selection's fallback below.
using BuildCheck = std::function<std::string(const DesignPoint&)>;

/// The selected designs, best first, after --skip and --limit (--dataflow: parsed on the one
/// array shape the constraints allow, an error when they allow several); `selected` receives their
/// number before --skip and --limit. Throws rubick::Error when nothing is selected (`command`
/// names the empty search).
/// `check` (may be empty): the best design (no --point, --dataflow or --all) is the best that
/// passes it, among the first kBuildTries that match; each one passed over is described in
/// `passed` ("rank 1 (ID) cannot be built: why"). When none passes, the first one's problem is
/// thrown as Unsupported. With --all --cover, each entry's (or combination's) design is the
/// first that passes it; plain --all checks nothing (a design that cannot be built fails).
std::vector<DesignPoint> selectDesigns(const dataflow::StatementView& v, const ExploreOptions& o,
                                       const Selection& s, const std::string& command,
                                       size_t* selected = nullptr, const BuildCheck& check = {},
                                       std::vector<std::string>* passed = nullptr);

inline constexpr size_t kBuildTries = 64;

/// The first design of `ranks` (indices into `points`, in order; at most kBuildTries are
/// checked) that passes `check`. `passed` describes each one passed over ("rank N (ID) cannot be
/// built: why", N counting from 1 in `points`); `checked` is how many were checked.
struct BuildChoice {
  std::optional<size_t> rank; // into `points`; none: no checked design passes
  std::vector<std::string> passed;
  std::string first; // the first one's problem alone
  size_t checked = 0;
};
BuildChoice firstBuildable(const std::vector<DesignPoint>& points, const std::vector<size_t>& ranks,
                           const BuildCheck& check);

/// The first design (in the given order) for each entry in each role ("roles"), or for each
/// combination of entries ("combinations"); with `check`, the first that passes it (the ones
/// passed over described in `passed`, as selectDesigns does).
std::vector<DesignPoint> sampleCover(const std::vector<DesignPoint>& points, const std::string& how,
                                     const BuildCheck& check = {},
                                     std::vector<std::string>* passed = nullptr);

} // namespace rubick::dse
