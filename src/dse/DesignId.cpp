// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/DesignId.h"

#include "rubick/support/Diagnostic.h"
#include "rubick/support/Hash.h"

#include <algorithm>
#include <atomic>

namespace rubick::dse {
namespace {

std::atomic<int> gIdBits{64};

std::string join(const std::vector<int64_t>& xs) {
  std::string s;
  for (int64_t x : xs)
    s += std::to_string(x) + ",";
  return s;
}

} // namespace

std::string designId(const dataflow::StatementView& v, const dataflow::Dataflow& d,
                     const std::vector<int64_t>& elementBits, const std::string& extra) {
  // The version tag keeps IDs of this scheme apart from any later one.
  std::string text = "design/2|" + v.statement + "|" + v.signature + "|" + join(v.extent) + "|";
  for (const dataflow::AccessView& a : v.accesses) {
    text += a.name + (a.write ? "=" : ":");
    for (const IntVec& row : a.coeffs)
      text += join(row) + ";";
    text += join(a.constant) + "|";
  }
  text += "bits " + join(elementBits) + "|" + std::to_string(d.p) + "x" + std::to_string(d.q) +
          "|" + dataflow::toSpec(d, v);
  // Appended only when present, so IDs without a memory system stay as they were.
  if (!extra.empty()) text += "|" + extra;
  return hashId(text);
}

std::string hashId(const std::string& text) {
  uint64_t h = fnv1a(text);
  // FNV-1a leaves the high bits weakly mixed for late bytes: finish with murmur3's fmix64.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  const int bits = gIdBits.load();
  if (bits < 64) h &= (uint64_t(1) << bits) - 1;
  return idText(h);
}

uint64_t idValue(const std::string& id) {
  uint64_t h = 0;
  for (char c : id)
    h = h << 4 | uint64_t(c <= '9' ? c - '0' : c - 'a' + 10);
  return h;
}

std::string idText(uint64_t h) {
  static const char* hex = "0123456789abcdef";
  std::string id(kIdDigits, '0');
  for (size_t i = kIdDigits; i-- > 0; h >>= 4)
    id[i] = hex[h & 15];
  return id;
}

bool looksLikeId(const std::string& text) {
  return text.size() == kIdDigits && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

void setIdBitsForTesting(int bits) {
  gIdBits = std::clamp(bits, 1, 64);
}

void requireUniqueIds(size_t n, const std::function<const std::string&(size_t)>& id,
                      const std::function<std::string(size_t)>& describe, const std::string& kind) {
  // Sorting 64-bit keys keeps this cheap for millions of designs.
  std::vector<std::pair<uint64_t, size_t>> keys(n);
  for (size_t i = 0; i < n; ++i)
    keys[i] = {idValue(id(i)), i};
  std::sort(keys.begin(), keys.end());
  for (size_t i = 1; i < n; ++i)
    if (keys[i].first == keys[i - 1].first) {
      size_t a = std::min(keys[i - 1].second, keys[i].second);
      size_t b = std::max(keys[i - 1].second, keys[i].second);
      throw duplicateIdError(kind, id(a), describe(a), describe(b));
    }
}

Error duplicateIdError(const std::string& kind, const std::string& id, const std::string& a,
                       const std::string& b) {
  return Error("explore", "internal: two " + kind + "s share the ID " + id + " (" + a + ", and " +
                              b + "); please report this with the program and flags");
}

size_t IdSet::size() const {
  size_t n = 0;
  for (const std::deque<uint64_t>& b : buckets_)
    n += b.size();
  return n;
}

std::optional<uint64_t> IdSet::takeFirstDuplicate() {
  // Buckets in order of their top byte, so the first duplicate found is the smallest.
  for (std::deque<uint64_t>& bucket : buckets_) {
    std::vector<uint64_t> ids(bucket.begin(), bucket.end());
    std::deque<uint64_t>().swap(bucket);
    std::sort(ids.begin(), ids.end());
    auto dup = std::adjacent_find(ids.begin(), ids.end());
    if (dup != ids.end()) return *dup;
  }
  return std::nullopt;
}

} // namespace rubick::dse
