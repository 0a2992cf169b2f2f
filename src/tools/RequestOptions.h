// SPDX-License-Identifier: Apache-2.0
#pragma once
// The flags as the library's Request (workload/Request.h): what explore, emit and verify hand
// to the library's entry points.

#include "InputOptions.h"
#include "SearchOptions.h"

#include "rubick/workload/Request.h"

#include <string>

namespace rubick::cli {

/// The request the flags make; the library's notes go to stderr ("rubick emit: note: ...").
/// With `choices` (emit, verify), `--entries T=ENTRY,...` (a choice per tensor, with '=') goes
/// to the selection; any other --entries is the search's allowed set (as explore takes it).
workload::Request makeRequest(const InputOptions& input, const SearchOptions& search,
                              const dse::Selection& selection, bool choices);

/// The target's name (empty without --target), for explore's heading.
std::string targetName(const SearchOptions& search);

} // namespace rubick::cli
