#include <cstdio>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"onyx — read, check, show, transform, write and run ONNX models"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "onyx " ONYX_VERSION_TEXT);
  int exit_code = onyx::tool::kExitOk;
  onyx::tool::addInfoCommand(app, exit_code);
  onyx::tool::addCheckCommand(app, exit_code);
  onyx::tool::addConvertCommand(app, exit_code);
  onyx::tool::addPrintCommand(app, exit_code);
  onyx::tool::addOpsCommand(app, exit_code);
  onyx::tool::addInferCommand(app, exit_code);
  onyx::tool::addTestCommand(app, exit_code);
  onyx::tool::addRunCommand(app, exit_code);
  onyx::tool::addGenerateCommand(app, exit_code);
  onyx::tool::addOptimizeCommand(app, exit_code);
  onyx::tool::addDrawCommand(app, exit_code);
  onyx::tool::addExtractCommand(app, exit_code);
  onyx::tool::addMergeCommand(app, exit_code);
  onyx::tool::addSetDimsCommand(app, exit_code);
  onyx::tool::addCompareCommand(app, exit_code);
  onyx::tool::addReduceCommand(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int status = app.exit(error);
    // Usage errors exit 2 like unreadable input; --help and --version exit 0.
    return status == 0 ? 0 : onyx::tool::kExitUnreadable;
  }
  return exit_code;
}
