// SPDX-License-Identifier: Apache-2.0
// The rubick command line: a thin driver over the library. Exit statuses are in ExitCodes.h.

#include "Commands.h"
#include "ExitCodes.h"
#include "Signals.h"

#include "rubick/support/Diagnostic.h"
#include "rubick/support/Interrupt.h"
#include "rubick/support/Unsupported.h"

#include <exception>
#include <iostream>
#include <map>
#include <new>

namespace {

// Anything that is not rubick::Error is a bug in rubick: say so in one line, naming the
// command, rather than letting std::terminate abort with a core dump and no message. Outputs
// are written atomically (temporary file or directory, renamed at the end), so unwinding to
// here leaves nothing half-written behind.
int internalError(const std::string& command, const std::string& what) {
  std::cerr << "rubick " << command << ": internal error: " << what
            << " (this is a bug in rubick; please report it with the command line)\n";
  return rubick::cli::kExitInternal;
}

} // namespace

int main(int argc, char** argv) {
  using namespace rubick::cli;
  CLI::App app{"rubick: turns a tensor program into a spatial hardware accelerator.\n"
               "Write the program in Tensor Comprehensions syntax (see docs/language.md), list\n"
               "its dataflows with `rubick explore`, build one with `rubick emit`, prove it with\n"
               "`rubick verify`, measure it with `rubick synth`, and inspect any stage with\n"
               "`rubick dump`.",
               "rubick"};
  app.set_version_flag("--version", "rubick " RUBICK_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Run `rubick <command> --help` for the options of each command.\n"
      "Exit status: 0 success; 1 an error in the input (or a design failed verify);\n"
      "2 a usage error; 3 unsupported: rubick cannot build this program yet; 70 an internal\n"
      "error; 130 interrupted. docs/user-guide.md lists them.");

  std::map<std::string, Action> actions;
  const std::vector<std::string> args(argv, argv + argc);
  actions["explore"] = addExploreCommand(app, args);
  actions["merge"] = addMergeCommand(app);
  actions["emit"] = addEmitCommand(app, args);
  actions["verify"] = addVerifyCommand(app, args);
  actions["dump"] = addDumpCommand(app);
  actions["synth"] = addSynthCommand(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  } catch (const std::exception& e) {
    return internalError("(parsing the command line)", e.what());
  }
  std::string command = "(no command)";
  installInterruptHandlers();
  try {
    for (CLI::App* sub : app.get_subcommands()) {
      command = sub->get_name();
      return actions.at(command)();
    }
  } catch (const rubick::Unsupported& e) {
    std::cerr << "rubick " << command << ": unsupported: " << e.diag().message << "\n";
    return kExitUnsupported;
  } catch (const rubick::Error& e) {
    std::cerr << rubick::formatError(e);
    return kExitError;
  } catch (const rubick::Interrupted& e) {
    // Temporary and half-built files were removed while unwinding (docs/user-guide.md).
    std::cerr << "rubick " << command << ": " << e.what() << "; stopped\n";
    return 128 + e.signal();
  } catch (const std::bad_alloc&) {
    return internalError(command, "out of memory");
  } catch (const std::exception& e) {
    return internalError(command, e.what());
  } catch (...) {
    return internalError(command, "unknown exception");
  }
  return kExitUsage;
}
