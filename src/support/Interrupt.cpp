// SPDX-License-Identifier: Apache-2.0
#include "rubick/support/Interrupt.h"

#include <atomic>
#include <csignal>
#include <cstring>

namespace rubick {

namespace {

// Lock-free atomics only: they are read and written from the signal handler.
std::atomic<int> gSignal{0};
std::atomic<int> gScopes{0};
constexpr int kSlots = 256;
std::atomic<pid_t> gChildren[kSlots];

static_assert(std::atomic<int>::is_always_lock_free && std::atomic<pid_t>::is_always_lock_free);

} // namespace

Interrupted::Interrupted(int signal)
    : signal_(signal), what_(std::string("interrupted by ") + ::strsignal(signal)) {}

void requestInterrupt(int signal) noexcept {
  gSignal.store(signal);
  for (std::atomic<pid_t>& c : gChildren) {
    const pid_t pid = c.load();
    if (pid > 0) ::kill(-pid, signal);
  }
}

int interruptSignal() noexcept {
  return gSignal.load();
}

void throwIfInterrupted() {
  if (int s = gSignal.load()) throw Interrupted(s);
}

bool interruptsPolled() noexcept {
  return gScopes.load() > 0;
}

InterruptScope::InterruptScope() noexcept {
  ++gScopes;
}

InterruptScope::~InterruptScope() {
  --gScopes;
}

int registerChild(pid_t pid) noexcept {
  for (int i = 0; i < kSlots; ++i) {
    pid_t none = 0;
    if (gChildren[i].compare_exchange_strong(none, pid)) return i;
  }
  return -1;
}

void unregisterChild(int slot) noexcept {
  if (slot >= 0) gChildren[slot].store(0);
}

void resetInterrupt() noexcept {
  gSignal.store(0);
}

} // namespace rubick
