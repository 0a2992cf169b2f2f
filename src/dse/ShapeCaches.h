// SPDX-License-Identifier: Apache-2.0
#pragma once
// The buffer-search caches of an explore run, one per array shape (private to src/dse).

#include "rubick/dse/BufferSearch.h"

#include <memory>
#include <mutex>
#include <vector>

namespace rubick::dse::detail {

/// Designs share buffer searches almost only within one array shape (a search's numbers hold the
/// array factors and port counts), so each shape gets its own cache, dropped when the last of
/// its work items is done: the caches' memory is bounded by the shapes in progress (work items
/// are handed out in order), not by the whole run.
class ShapeCaches {
public:
  ShapeCaches(const dataflow::StatementView& v, size_t shapes, size_t itemsPerShape)
      : v_(v), items_(itemsPerShape), caches_(shapes), done_(shapes, 0) {}

  /// The cache of `shape` for one of its work items, which calls done(shape) when finished.
  std::shared_ptr<BufferSearchCache> take(size_t shape) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!caches_[shape]) caches_[shape] = std::make_shared<BufferSearchCache>(v_);
    return caches_[shape];
  }
  void done(size_t shape) {
    std::lock_guard<std::mutex> lock(mu_);
    if (++done_[shape] == items_) caches_[shape].reset();
  }

private:
  const dataflow::StatementView& v_;
  size_t items_;
  std::mutex mu_;
  std::vector<std::shared_ptr<BufferSearchCache>> caches_;
  std::vector<size_t> done_;
};

} // namespace rubick::dse::detail
