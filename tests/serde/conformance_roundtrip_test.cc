// Every conformance model decodes and encodes back to the very same bytes.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "onyx/serde/model_io.h"
#include "support/conformance.h"

namespace onyx {
namespace {

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

TEST(ConformanceRoundTrip, EveryModelWritesBackByteIdentical) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t identical = 0;
  std::vector<std::string> failures;
  for (const auto& dir : cases) {
    std::filesystem::path path = dir / "model.onnx";
    std::string original = readFile(path);
    auto model = loadModel(path.string());
    if (!model) {
      failures.push_back(dir.filename().string() + ": " + model.status().toString());
      continue;
    }
    auto written = serializeModel(*model);
    if (!written) {
      failures.push_back(dir.filename().string() + ": " + written.status().toString());
    } else if (*written != original) {
      failures.push_back(dir.filename().string() + ": bytes differ (" +
                         std::to_string(original.size()) + " in, " +
                         std::to_string(written->size()) + " out)");
    } else {
      ++identical;
    }
  }
  std::cout << identical << "/" << cases.size() << " identical\n";
  for (size_t i = 0; i < failures.size() && i < 20; ++i) std::cout << "  " << failures[i] << "\n";
  EXPECT_EQ(identical, cases.size());
}

}  // namespace
}  // namespace onyx
