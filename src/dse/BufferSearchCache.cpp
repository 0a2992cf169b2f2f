// SPDX-License-Identifier: Apache-2.0
// The buffer search's cache (include/rubick/dse/BufferSearch.h); its lookups are
// detail::cached in BufferSearchCommon.h.

#include "BufferSearchCommon.h"

namespace rubick::dse {

BufferSearchCache::BufferSearchCache(const dataflow::StatementView& v)
    : view_(&v), maps_(std::make_unique<Maps>()) {}

BufferSearchCache::~BufferSearchCache() = default;

size_t BufferSearchCache::searches() const {
  std::lock_guard<std::mutex> lock(maps_->mu);
  return maps_->results.size();
}

size_t BufferSearchCache::lookups() const {
  std::lock_guard<std::mutex> lock(maps_->mu);
  return maps_->lookups;
}

} // namespace rubick::dse
