// Test support for the onyx tool: run it as a script would and keep its exit status and
// output.
#pragma once

#include <string>

namespace onyx::testing {

struct ToolRun {
  int status;       // the exit status; -1 when it did not exit normally
  std::string out;  // stdout, with stderr when merged
};

enum class Stderr { kMerged, kDropped };

/// Runs `onyx <arguments>` through the shell (arguments are shell words), with the settings
/// `environment` holds ("NAME=VALUE ...", shell words) added to its environment.
ToolRun runOnyx(const std::string& arguments, Stderr stderr_mode,
                const std::string& environment = "");

}  // namespace onyx::testing
