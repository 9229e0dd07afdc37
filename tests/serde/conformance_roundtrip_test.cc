// Every conformance model decodes and encodes back to the very same bytes.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "onyx/serde/model_io.h"
#include "onyx/serde/test_data.h"
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

// input_K.pb / output_K.pb hold the message kind of the graph's K-th input / output.
const Type* typeOfDataFile(const Model& model, const std::string& file_name) {
  bool is_input = file_name.rfind("input_", 0) == 0;
  size_t prefix = is_input ? 6 : 7;
  size_t index = std::stoul(file_name.substr(prefix));
  const auto& list = is_input ? model.graph->inputs : model.graph->outputs;
  return index < list.size() ? list[index]->type : nullptr;
}

TEST(ConformanceRoundTrip, EveryTestDataFileWritesBackByteIdentical) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t total = 0;
  size_t identical = 0;
  std::vector<std::string> failures;
  for (const auto& dir : cases) {
    auto model = loadModel((dir / "model.onnx").string());
    ASSERT_TRUE(model) << model.status().toString();
    for (const auto& set : std::filesystem::directory_iterator(dir)) {
      if (!set.is_directory()) continue;
      for (const auto& file : std::filesystem::directory_iterator(set.path())) {
        if (file.path().extension() != ".pb") continue;
        ++total;
        std::string name = file.path().filename().string();
        std::string where =
            dir.filename().string() + "/" + set.path().filename().string() + "/" + name;
        std::string original = readFile(file.path());
        auto value =
            parseTestValue(original, testValueKindOf(typeOfDataFile(*model, name)), nullptr);
        if (!value) {
          failures.push_back(where + ": " + value.status().toString());
          continue;
        }
        auto written = serializeTestValue(*value);
        if (!written || *written != original) {
          failures.push_back(where + ": bytes differ");
          continue;
        }
        ++identical;
      }
    }
  }
  std::cout << identical << "/" << total << " identical\n";
  for (size_t i = 0; i < failures.size() && i < 20; ++i) std::cout << "  " << failures[i] << "\n";
  EXPECT_GT(total, 0u);
  EXPECT_EQ(identical, total);
}

}  // namespace
}  // namespace onyx
