// SPDX-License-Identifier: Apache-2.0
#pragma once
// Interruption (SIGINT, SIGTERM) without exit(): the CLI's signal handler calls
// requestInterrupt, which records the signal and passes it on to the external tools running
// (each in its own process group); the library notices at its next check (throwIfInterrupted,
// or runProcess once the tool has died) and throws Interrupted, which unwinds through the RAII
// cleanups of temporary and half-built directories. main turns it into exit status 128 + signal.
//
// Library code that polls holds an InterruptScope; outside one, the handler lets the signal
// kill the process as usual (nothing half-written is left: outputs are renamed into place).

#include <exception>
#include <string>
#include <sys/types.h>

namespace rubick {

/// Thrown when a signal asked rubick to stop. Deliberately not a rubick::Error, so code that
/// records per-design errors does not swallow it.
class Interrupted : public std::exception {
public:
  explicit Interrupted(int signal);
  int signal() const noexcept { return signal_; }
  const char* what() const noexcept override { return what_.c_str(); }

private:
  int signal_;
  std::string what_;
};

/// For a signal handler (async-signal-safe): remembers `signal` and sends it to the process
/// group of every registered child.
void requestInterrupt(int signal) noexcept;

/// The signal that asked rubick to stop, or 0.
int interruptSignal() noexcept;

/// Throws Interrupted when a signal asked rubick to stop.
void throwIfInterrupted();

/// True while some InterruptScope is alive (async-signal-safe).
bool interruptsPolled() noexcept;

/// While alive, signals are handled by unwinding (see above) instead of killing the process.
class InterruptScope {
public:
  InterruptScope() noexcept;
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

/// Children requestInterrupt passes the signal on to (runProcess registers each it starts).
/// registerChild returns a slot for unregisterChild, or -1 when all are taken (runProcess then
/// forwards the signal itself when it notices).
int registerChild(pid_t pid) noexcept;
void unregisterChild(int slot) noexcept;

/// Forgets a recorded signal (for tests).
void resetInterrupt() noexcept;

} // namespace rubick
