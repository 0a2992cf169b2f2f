// SPDX-License-Identifier: Apache-2.0
#include "Signals.h"

#include "rubick/support/Interrupt.h"

#include <csignal>

namespace rubick::cli {
namespace {

extern "C" void onInterrupt(int signal) {
  if (!rubick::interruptsPolled()) {
    // Nothing will notice the flag: die of the signal as without a handler.
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  rubick::requestInterrupt(signal);
}

} // namespace

void installInterruptHandlers() {
  struct sigaction sa = {};
  sa.sa_handler = onInterrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART; // other system calls carry on; the children's deaths end the waits
  for (int sig : {SIGINT, SIGTERM}) {
    // A signal ignored on entry (nohup, a shell's background job) stays ignored, as usual.
    struct sigaction old = {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

} // namespace rubick::cli
