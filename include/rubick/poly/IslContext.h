// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one owner of an isl context. Create it before any isl object and destroy it after the
// last one (declare it first in the owning scope). isl objects never cross threads: each thread
// that needs isl makes its own IslContext.

#include <isl/cpp.h>

#include <string>

namespace rubick::poly {

class IslContext {
public:
  /// `maxOperations` bounds every isl computation (0 = unbounded); exceeding it raises an
  /// isl quota error, which guardIsl turns into a rubick::Error.
  explicit IslContext(unsigned long maxOperations = 50'000'000);
  ~IslContext();
  IslContext(const IslContext&) = delete;
  IslContext& operator=(const IslContext&) = delete;

  isl::ctx ctx() const { return isl::ctx(raw_); }
  isl_ctx* raw() const { return raw_; }

private:
  isl_ctx* raw_;
};

/// Runs `f`, turning an isl exception into a rubick::Error that names `what` was being done.
template <class F>
auto guardIsl(const std::string& what, F&& f) -> decltype(f());

[[noreturn]] void rethrowIsl(const std::string& what, const isl::exception& e);

template <class F>
auto guardIsl(const std::string& what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const isl::exception& e) {
    rethrowIsl(what, e);
  }
}

} // namespace rubick::poly
