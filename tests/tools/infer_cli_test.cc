// `onyx infer` as scripts use it: without OUT it prints each graph output's type; with OUT
// it writes the model with value_info filled in; exit 1 on an inference error, 2 when the
// model cannot be read.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "onyx/ir/graph.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"
#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"
#include "support/tool_testing.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;

using testing::ToolRun;

ToolRun onyx(const std::string& arguments) {
  return testing::runOnyx(arguments, testing::Stderr::kDropped);
}

class InferCli : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-infer-cli-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string writeModel(const std::string& name, std::string_view text) {
    Result<Model> parsed = parseText(text);
    EXPECT_TRUE(parsed) << parsed.status().toString();
    std::string path = (dir_ / name).string();
    EXPECT_TRUE(saveModel(*parsed, path).isOk());
    return path;
  }

  fs::path dir_;
};

constexpr const char* kChain = R"(
  <ir_version: 10, opset_import: ["" : 21]>
  g (float[N, 3] x, float[3] b) => (y) { t = Relu(x)  y = Add(t, b) })";

TEST_F(InferCli, PrintsOutputTypes) {
  std::string model = writeModel("chain.onnx", kChain);
  ToolRun run = onyx("infer " + model);
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out, "y: float[N,3]\n");
}

TEST_F(InferCli, ConstantInitializersReadsTheInitializersListedAsInputs) {
  std::string model = writeModel("defaults.onnx", R"(
    <ir_version: 8, opset_import: ["" : 8]>
    g (float[2,12] x, int64[2] target) => (y) <int64[2] target = {3, 8}> {
      y = Reshape (x, target)
    })");
  EXPECT_EQ(onyx("infer " + model).out, "y: float[?,?]\n");
  ToolRun run = onyx("infer " + model + " --constant-initializers");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out, "y: float[3,8]\n");
}

TEST_F(InferCli, WritesValueInfoIntoOut) {
  std::string model = writeModel("chain.onnx", kChain);
  std::string out = (dir_ / "inferred.onnx").string();
  ASSERT_EQ(onyx("infer " + model + " " + out).status, 0);
  Result<Model> written = loadModel(out);
  ASSERT_TRUE(written) << written.status().toString();
  const Value* t = written->graph->lookup("t");
  ASSERT_NE(t, nullptr);
  ASSERT_NE(t->type(), nullptr);
  EXPECT_EQ(formatType(*t->type()), "float[N,3]");
  ASSERT_NE(written->graph->outputs[0]->type, nullptr);
  EXPECT_EQ(formatType(*written->graph->outputs[0]->type), "float[N,3]");
}

TEST_F(InferCli, ConflictExitsOneWithR36) {
  std::string model = writeModel("conflict.onnx", R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[2, 3] x) => (float[2, 4] y) { y = Relu(x) })");
  ToolRun run = onyx("infer " + model);
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("error R36 graph.node[0].output[0]: 'y': the graph output declares "
                         "float[2,4], Relu gives float[2,3] (dimension 1)"),
            std::string::npos)
      << run.out;
}

TEST_F(InferCli, StrictVerboseAndJson) {
  std::string model = writeModel("custom.onnx", R"(
    <ir_version: 10, opset_import: ["" : 21, "custom" : 1]>
    g (float[2] x) => (y) { y = custom.Mystery(x) })");
  EXPECT_EQ(onyx("infer " + model).status, 0);
  ToolRun strict = onyx("infer --strict --verbose " + model);
  EXPECT_EQ(strict.status, 1);
  EXPECT_NE(strict.out.find("error X6"), std::string::npos) << strict.out;
  EXPECT_NE(strict.out.find("unknown operator 'Mystery'"), std::string::npos) << strict.out;
  ToolRun json = onyx("infer --json " + model);
  nlohmann::json parsed = nlohmann::json::parse(json.out);
  EXPECT_EQ(parsed["outputs"][0]["name"], "y");
  EXPECT_EQ(parsed["stats"]["nodes_without_rule"], 1);
}

TEST_F(InferCli, UnreadableExitsTwo) {
  std::ofstream(dir_ / "junk.onnx") << "not a model";
  EXPECT_EQ(onyx("infer " + (dir_ / "junk.onnx").string()).status, 2);
  EXPECT_EQ(onyx("infer " + (dir_ / "absent.onnx").string()).status, 2);
}

TEST_F(InferCli, InfoMarksInferredOutputTypes) {
  std::string model = writeModel("chain.onnx", kChain);
  ToolRun run = onyx("info " + model);
  EXPECT_NE(run.out.find("y: float[N,3] (inferred)"), std::string::npos) << run.out;
}

// An output declared in full is shown as declared: info runs inference only when it could
// add to a declaration (on a large graph inference is most of the command's time), and
// judging a declaration is the checker's work.
TEST_F(InferCli, InfoShowsCompleteDeclarationsAsDeclared) {
  std::string model = writeModel("declared.onnx", R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[N, 3] x) => (float[M, 3] y) { y = Relu(x) })");
  ToolRun run = onyx("info " + model);
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("y: float[M,3]\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("(inferred)"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace onyx
