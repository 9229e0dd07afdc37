// What onyx writes, python3-onnx (Debian's onnx 1.12) reads as the same model: inline, and
// with every initializer moved to external data.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "onyx/serde/model_io.h"
#include "support/conformance.h"

namespace onyx {
namespace {

bool pythonOnnxAvailable() {
  return std::system("/usr/bin/python3 -c 'import onnx, numpy' >/dev/null 2>&1") == 0;
}

std::string runCapture(const std::string& command, int& status) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    status = -1;
    return output;
  }
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  status = pclose(pipe);
  return output;
}

class OnnxOracle : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!pythonOnnxAvailable()) GTEST_SKIP() << "python3-onnx is not installed (/usr/bin/python3)";
    char pattern[] = "/tmp/onyx-oracle-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // Writes every model in `sources` with `options` and asks python3-onnx to compare.
  void compareAll(const std::vector<std::filesystem::path>& sources, const SaveOptions& options) {
    std::ofstream manifest(dir_ / "manifest.tsv");
    size_t written = 0;
    for (size_t i = 0; i < sources.size(); ++i) {
      auto model = loadModel(sources[i].string());
      ASSERT_TRUE(model) << sources[i] << ": " << model.status().toString();
      std::filesystem::path folder = dir_ / std::to_string(i);
      std::filesystem::create_directories(folder);
      std::filesystem::path out = folder / "model.onnx";
      Status status = saveModel(*model, out.string(), options);
      ASSERT_TRUE(status) << sources[i] << ": " << status.toString();
      manifest << sources[i].string() << '\t' << out.string() << '\n';
      ++written;
    }
    manifest.close();
    int status = 0;
    std::string output =
        runCapture("/usr/bin/python3 " ONYX_SOURCE_DIR "/tests/serde/onnx_oracle_compare.py " +
                       (dir_ / "manifest.tsv").string() + " 2>&1",
                   status);
    std::cout << output;
    EXPECT_EQ(status, 0) << output;
    EXPECT_NE(output.find(std::to_string(written) + "/" + std::to_string(written) + " same"),
              std::string::npos);
  }

  std::vector<std::filesystem::path> models() {
    std::filesystem::path generated = dir_ / "generated";
    std::filesystem::create_directories(generated);
    int status =
        std::system(("/usr/bin/python3 " ONYX_SOURCE_DIR "/tests/serde/make_oracle_models.py " +
                     generated.string())
                        .c_str());
    EXPECT_EQ(status, 0) << "make_oracle_models.py failed";
    std::vector<std::filesystem::path> list = {ONYX_SOURCE_DIR "/examples/tiny_cnn.onnx",
                                               generated / "storage_forms.onnx"};
    for (const auto& dir : testing::conformanceCases()) list.push_back(dir / "model.onnx");
    return list;
  }

  std::filesystem::path dir_;
};

TEST_F(OnnxOracle, InlineModelsReadTheSame) { compareAll(models(), SaveOptions()); }

TEST_F(OnnxOracle, ExternalDataModelsReadTheSame) {
  SaveOptions options;
  options.external_threshold = 0;
  options.external_file = "weights.bin";
  compareAll(models(), options);
}

}  // namespace
}  // namespace onyx
