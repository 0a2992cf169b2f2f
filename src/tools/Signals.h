// SPDX-License-Identifier: Apache-2.0
#pragma once
// SIGINT and SIGTERM: while the library polls for them (rubick::InterruptScope: verify, writing
// an output directory) they become rubick::Interrupted, which unwinds through the cleanups and
// main turns into exit status 128 + signal; otherwise they end rubick as usual.

namespace rubick::cli {

void installInterruptHandlers();

} // namespace rubick::cli
