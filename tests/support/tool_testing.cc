#include "support/tool_testing.h"

#include <sys/wait.h>

#include <cstdio>

namespace onyx::testing {

ToolRun runOnyx(const std::string& arguments, Stderr stderr_mode, const std::string& environment) {
  std::string command = (environment.empty() ? "" : "env " + environment + " ") +
                        std::string(ONYX_TOOL_PATH) + " " + arguments +
                        (stderr_mode == Stderr::kMerged ? " 2>&1" : " 2>/dev/null");
  ToolRun run{-1, {}};
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) run.out.append(buffer, n);
  int raw = pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return run;
}

}  // namespace onyx::testing
