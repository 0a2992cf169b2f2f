// SPDX-License-Identifier: Apache-2.0
#include "rubick/poly/IslContext.h"

#include "rubick/support/Diagnostic.h"

#include <isl/options.h>

namespace rubick::poly {

IslContext::IslContext(unsigned long maxOperations) : raw_(isl_ctx_alloc()) {
  // Errors surface as C++ exceptions from the bindings; keep isl itself quiet on stderr.
  isl_options_set_on_error(raw_, ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(raw_, maxOperations);
}

IslContext::~IslContext() {
  isl_ctx_free(raw_);
}

void rethrowIsl(const std::string& what, const isl::exception& e) {
  std::string msg = e.what() ? e.what() : "unknown isl error";
  if (dynamic_cast<const isl::exception_quota*>(&e))
    throw Error("rubick", what + ": the polyhedral computation exceeded its operation budget");
  throw Error("rubick", "internal error while " + what + ": isl: " + msg);
}

} // namespace rubick::poly
