// The rubick command line: a thin driver over the library. Exit status: 0 success, 1 a mistake
// in the input (reported as file:line:col: error: ...), 2 a command-line usage error.

#include "Commands.h"

#include "rubick/support/Diagnostic.h"

#include <iostream>
#include <map>

int main(int argc, char** argv) {
  CLI::App app{"rubick: turns a tensor program into a spatial hardware accelerator.\n"
               "Write the program in Tensor Comprehensions syntax (see docs/language.md), list\n"
               "its dataflows with `rubick explore`, and inspect any stage with `rubick dump`.",
               "rubick"};
  app.set_version_flag("--version", "rubick " RUBICK_VERSION);
  app.require_subcommand(1);
  app.footer("Run `rubick <command> --help` for the options of each command.");

  std::map<std::string, rubick::cli::Action> actions;
  actions["explore"] = rubick::cli::addExploreCommand(app);
  actions["emit"] = rubick::cli::addEmitCommand(app);
  actions["verify"] = rubick::cli::addVerifyCommand(app);
  actions["dump"] = rubick::cli::addDumpCommand(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    for (CLI::App* sub : app.get_subcommands())
      return actions.at(sub->get_name())();
  } catch (const rubick::Error& e) {
    std::cerr << rubick::formatError(e);
    return 1;
  }
  return 2;
}
