// SPDX-License-Identifier: Apache-2.0
#pragma once
// A well-formed request that rubick cannot carry out yet (a statement the hardware does not
// build, for instance). Distinct from a user mistake so that the CLI can say "unsupported" and
// exit with its own status, and verify does not report it as a hardware failure.

#include "rubick/support/Diagnostic.h"

namespace rubick {

class Unsupported : public Error {
public:
  using Error::Error;
};

} // namespace rubick
