#include "support/conformance.h"

#include <algorithm>
#include <cstdlib>

namespace onyx::testing {

std::filesystem::path conformanceDir() {
  std::filesystem::path dir = ONYX_CONFORMANCE_DIR;
  if (const char* env = std::getenv("ONYX_CONFORMANCE_DIR")) dir = env;
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) return {};
  return dir;
}

std::vector<std::filesystem::path> conformanceCases() {
  std::vector<std::filesystem::path> cases;
  std::filesystem::path dir = conformanceDir();
  if (dir.empty()) return cases;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_directory()) cases.push_back(entry.path());
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

std::string conformanceMissingReason() {
  return std::string("the ONNX conformance cases are not at ") + ONYX_CONFORMANCE_DIR +
         " (set ONYX_CONFORMANCE_DIR to their folder to run this test)";
}

}  // namespace onyx::testing
