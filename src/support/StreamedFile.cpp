// SPDX-License-Identifier: Apache-2.0
#include "rubick/support/StreamedFile.h"

#include "rubick/support/Diagnostic.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <unistd.h>

namespace rubick {

StreamedFile::StreamedFile(std::string path)
    : path_(std::move(path)), tmp_(path_ + ".tmp." + std::to_string(::getpid())) {
  interruptible_.emplace(); // before the temporary exists, so a signal can never strand it
  fd_ = ::open(tmp_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) fail(errno);
  buf_.reserve(kBufferBytes);
}

StreamedFile::~StreamedFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(tmp_.c_str());
}

void StreamedFile::fail(int err) const {
  throw Error(path_, std::string("cannot write file: ") + std::strerror(err));
}

void StreamedFile::write(std::string_view bytes) noexcept {
  if (error_.load(std::memory_order_relaxed)) return;
  size_ += bytes.size();
  if (buf_.size() + bytes.size() <= kBufferBytes) {
    buf_.append(bytes); // within the reserved capacity: no allocation
    return;
  }
  // Out of the buffer: its content, then the new bytes (directly when they alone fill it).
  for (std::string_view part : {std::string_view(buf_), bytes}) {
    while (!part.empty()) {
      const ssize_t n = ::write(fd_, part.data(), part.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_.store(n < 0 ? errno : EIO);
        buf_.clear();
        return;
      }
      part.remove_prefix(size_t(n));
    }
  }
  buf_.clear();
}

void StreamedFile::check() const {
  if (int err = error_.load()) fail(err);
}

void StreamedFile::flush() {
  check();
  std::string_view part(buf_);
  while (!part.empty()) {
    const ssize_t n = ::write(fd_, part.data(), part.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error_.store(n < 0 ? errno : EIO);
      buf_.clear();
      check();
    }
    part.remove_prefix(size_t(n));
  }
  buf_.clear();
}

size_t StreamedFile::readAt(uint64_t offset, char* out, size_t n) const {
  size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(fd_, out + got, n - got, off_t(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw Error(path_, std::string("cannot read back file: ") + std::strerror(errno));
    if (r == 0) break;
    got += size_t(r);
  }
  return got;
}

void StreamedFile::writeAt(uint64_t offset, std::string_view bytes) {
  if (offset + bytes.size() > size_ - buf_.size())
    throw std::logic_error("StreamedFile::writeAt past the flushed content");
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), off_t(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(n < 0 ? errno : EIO);
    bytes.remove_prefix(size_t(n));
    offset += uint64_t(n);
  }
}

void StreamedFile::commit() {
  if (committed_) throw std::logic_error("StreamedFile committed twice");
  throwIfInterrupted(); // the last moment a signal can still leave no file
  flush();
  // close() reports the errors some file systems (NFS, quotas) keep until then.
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail(errno);
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) fail(errno);
  committed_ = true;
  interruptible_.reset();
}

} // namespace rubick
