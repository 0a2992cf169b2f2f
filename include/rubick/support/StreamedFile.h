// SPDX-License-Identifier: Apache-2.0
#pragma once
// An output file written piece by piece, still atomically: the bytes go (buffered) to a
// temporary file next to the target, `PATH.tmp.PID` as in writeFileAtomically, which commit()
// renames into place once complete; until then the destructor removes it, so an error or an
// interruption leaves nothing behind. For outputs too large to build in memory (`explore --csv`
// of tens of millions of designs).
//
// write() never throws, because it is called where an exception cannot travel (a callback on a
// worker thread): the first failure (disk full, file too large, ...) is recorded, later writes
// are dropped, and check() or commit() throws it as rubick::Error naming the path.
//
// While the temporary exists the object holds an InterruptScope: a signal then unwinds at the
// next poll (commit() polls before renaming) and the destructor removes the temporary.

#include "rubick/support/Interrupt.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rubick {

class StreamedFile {
public:
  /// Creates the temporary next to `path`; throws rubick::Error naming `path` when it cannot.
  explicit StreamedFile(std::string path);
  /// Removes the temporary unless committed.
  ~StreamedFile();
  StreamedFile(const StreamedFile&) = delete;
  StreamedFile& operator=(const StreamedFile&) = delete;

  /// Appends `bytes`. Never throws; one caller at a time.
  void write(std::string_view bytes) noexcept;
  /// Bytes written so far, buffered or not.
  uint64_t size() const noexcept { return size_; }
  /// Throws the first failure write() recorded, if any. Safe to call from another thread
  /// while write() runs.
  void check() const;

  /// Writes the buffer out (throwing any failure), so that readAt and writeAt see every byte.
  void flush();
  /// Reads up to `n` bytes at `offset` of the flushed content into `out`; returns how many
  /// (fewer only at the end).
  size_t readAt(uint64_t offset, char* out, size_t n) const;
  /// Overwrites flushed bytes at `offset` (it cannot grow the file).
  void writeAt(uint64_t offset, std::string_view bytes);

  /// Flushes, checks, closes and renames the temporary over the target. Throws rubick::Error
  /// naming the path (the temporary is then removed by the destructor), or Interrupted.
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temporaryPath() const { return tmp_; }

  static constexpr size_t kBufferBytes = size_t(1) << 20;

private:
  [[noreturn]] void fail(int err) const;

  std::string path_, tmp_;
  int fd_ = -1;
  std::string buf_;
  uint64_t size_ = 0;
  std::atomic<int> error_{0}; // errno of the first failed write, or 0
  bool committed_ = false;
  std::optional<InterruptScope> interruptible_;
};

} // namespace rubick
