// `onyx convert --opset` as scripts use it: a model converted and written, a refusal that
// lists every blocking node and writes nothing, and the usage errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "onyx/serde/model_io.h"
#include "support/tool_testing.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;
using testing::ToolRun;

// A model at opset 14 that converts down to 13.
constexpr const char* kFloatRelu = R"(
    <ir_version: 8, opset_import: ["" : 14]>
    g (float[2] x) => (float[2] y) {
      y = Relu (x)
    })";

ToolRun onyx(const std::string& arguments) {
  return testing::runOnyx(arguments, testing::Stderr::kMerged);
}

class ConvertOpsetCli : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-convert-opset-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }

  fs::path dir_;
};

TEST_F(ConvertOpsetCli, ConvertsAndWritesTheModel) {
  std::string in = write("in.onnxtxt", kFloatRelu);
  std::string out = (dir_ / "out.onnx").string();
  ToolRun run = onyx("convert " + in + " " + out + " --opset 13");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("0 of 1 nodes rewritten"), std::string::npos) << run.out;
  Result<Model> written = loadModel(out);
  ASSERT_TRUE(written) << written.status().toString();
  EXPECT_EQ(written->opsetVersion(""), 13);
}

TEST_F(ConvertOpsetCli, ARefusalListsEveryNodeAndWritesNothing) {
  std::string in = write("in.onnxtxt", R"(
    <ir_version: 8, opset_import: ["" : 14]>
    g (int8[2] a, int16[2] b) => (int8[2] y, int16[2] z) {
      y = Relu (a)
      z = Relu (b)
    })");
  std::string out = (dir_ / "out.onnx").string();
  ToolRun run = onyx("convert " + in + " " + out + " --opset 13");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find("graph.node[0]: Relu 14 to 13: input 0 is int8[2]"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("graph.node[1]: Relu 14 to 13: input 0 is int16[2]"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("nothing written"), std::string::npos) << run.out;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(ConvertOpsetCli, AMalformedTargetIsAUsageError) {
  std::string in = write("in.onnxtxt", kFloatRelu);
  std::string out = (dir_ / "out.onnx").string();
  EXPECT_EQ(onyx("convert " + in + " " + out + " --domain-opset ai.onnx.ml").status, 2);
  EXPECT_EQ(onyx("convert " + in + " " + out + " --domain-opset ai.onnx.ml=x").status, 2);
  EXPECT_EQ(onyx("convert " + in + " " + out + " --opset 99").status, 2);
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace onyx
