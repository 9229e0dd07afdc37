// `onyx optimize` as scripts use it: the passes listed, a model simplified and written with
// its external data where it was, --profile, --verify, and the exit statuses.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"
#include "support/graph_testing.h"
#include "support/tool_testing.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;

using testing::ToolRun;

const std::string kExample = ONYX_SOURCE_DIR "/examples/tiny_cnn.onnx";

ToolRun onyx(const std::string& arguments) {
  return testing::runOnyx(arguments, testing::Stderr::kMerged);
}

std::string fileBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

class OptimizeCli : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-optimize-cli-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    Result<Model> parsed = parseText(R"(
      <ir_version: 10, opset_import: ["" : 18]>
      g (float[N,4] x) => (float[N,4] y) <float[4] w = {1, 2, 3, 4}> {
        a = Identity (x)
        b = Add (a, w)
        c = Add (a, w)
        d = Mul (b, c)
        unused = Neg (d)
        y = Identity (d)
      })");
    ASSERT_TRUE(parsed) << parsed.status().toString();
    model_ = dir_ / "m.onnx";
    ASSERT_TRUE(saveModel(*parsed, model_.string()));
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  fs::path model_;
};

TEST_F(OptimizeCli, ListPassesNamesEveryPassWithItsSummary) {
  ToolRun run = onyx("optimize --list-passes");
  ASSERT_EQ(run.status, 0) << run.out;
  for (const char* name : {"dead-code", "constant-to-initializer", "initializer-to-constant",
                           "noop", "common-subexpression", "topological-sort", "inline",
                           "shape-folding", "constant-folding"}) {
    EXPECT_NE(run.out.find(name), std::string::npos) << name;
  }
}

TEST_F(OptimizeCli, SimplifiesAndWritesTheSameBytesEveryTime) {
  fs::path out = dir_ / "o.onnx";
  ToolRun run = onyx("optimize " + model_.string() + " " + out.string());
  ASSERT_EQ(run.status, 0) << run.out;
  Result<Model> optimized = loadModel(out.string());
  ASSERT_TRUE(optimized);
  EXPECT_EQ(testing::opTypes(*optimized->graph), "Add Mul");
  EXPECT_EQ(optimized->graph->outputs[0]->bound()->name(), "y");
  fs::path again = dir_ / "o2.onnx";
  ASSERT_EQ(onyx("optimize " + out.string() + " " + again.string()).status, 0);
  EXPECT_EQ(fileBytes(again), fileBytes(out));
}

TEST_F(OptimizeCli, RunsOnlyThePassesNamedAndProfilesThem) {
  fs::path out = dir_ / "o.onnx";
  ToolRun run =
      onyx("optimize " + model_.string() + " " + out.string() + " --passes noop --profile");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("noop"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("dead-code"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("rounds"), std::string::npos) << run.out;
  Result<Model> optimized = loadModel(out.string());
  ASSERT_TRUE(optimized);
  EXPECT_EQ(testing::opTypes(*optimized->graph), "Add Add Mul Neg");
}

TEST_F(OptimizeCli, InitializersListedAsInputsAreNotedAndFoldedOnRequest) {
  Result<Model> parsed = parseText(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,12] x, int64[2] target, float[1] k) => (y)
    <int64[2] target = {3, 8}, float[1] k = {2}> {
      twice = Add (k, k)
      r = Reshape (x, target)
      y = Mul (r, twice)
    })");
  ASSERT_TRUE(parsed) << parsed.status().toString();
  fs::path model = dir_ / "defaults.onnx";
  ASSERT_TRUE(saveModel(*parsed, model.string()));
  fs::path out = dir_ / "o.onnx";
  ToolRun profiled = onyx("optimize " + model.string() + " " + out.string() + " --profile");
  ASSERT_EQ(profiled.status, 0) << profiled.out;
  EXPECT_NE(profiled.out.find("note: 2 initializers are also graph inputs"), std::string::npos)
      << profiled.out;
  EXPECT_NE(profiled.out.find("2 node outputs go without a full shape"), std::string::npos)
      << profiled.out;
  Result<Model> kept = loadModel(out.string());
  ASSERT_TRUE(kept);
  EXPECT_EQ(testing::opTypes(*kept->graph), "Add Reshape Mul");

  ToolRun folded =
      onyx("optimize " + model.string() + " " + out.string() + " --constant-initializers");
  ASSERT_EQ(folded.status, 0) << folded.out;
  Result<Model> constants = loadModel(out.string());
  ASSERT_TRUE(constants);
  EXPECT_EQ(testing::opTypes(*constants->graph), "Reshape Mul");
  EXPECT_EQ(constants->graph->inputs.size(), 3u);  // the interface stays

  ASSERT_EQ(
      onyx("optimize " + model.string() + " " + out.string() + " --passes initializers-not-inputs")
          .status,
      0);
  Result<Model> apart = loadModel(out.string());
  ASSERT_TRUE(apart);
  EXPECT_EQ(apart->graph->inputs.size(), 1u);
  ToolRun quiet =
      onyx("optimize " + out.string() + " " + (dir_ / "o2.onnx").string() + " --profile");
  EXPECT_EQ(quiet.out.find("note:"), std::string::npos) << quiet.out;
}

TEST_F(OptimizeCli, VerifyRunsBothModelsAndReportsEachOutput) {
  fs::path out = dir_ / "o.onnx";
  ToolRun run = onyx("optimize " + model_.string() + " " + out.string() + " --verify 3 --dim N=2");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("output y: largest difference 0"), std::string::npos) << run.out;
  // Without a size for N there is nothing to generate.
  run = onyx("optimize " + model_.string() + " " + out.string() + " --verify 1");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("N"), std::string::npos) << run.out;
}

TEST_F(OptimizeCli, ExternalDataStaysExternal) {
  fs::path external = dir_ / "cnn.onnx";
  ASSERT_EQ(onyx("convert " + kExample + " " + external.string() +
                 " --external-data w.bin --size-threshold 64")
                .status,
            0);
  fs::create_directories(dir_ / "out");
  fs::path out = dir_ / "out" / "cnn.onnx";
  ToolRun run =
      onyx("optimize " + external.string() + " " + out.string() + " --verify 1 --dim N=1");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "w.bin"));
  EXPECT_TRUE(loadModel(out.string()));
}

TEST_F(OptimizeCli, FoldsConstantsUpToTheFoldLimit) {
  Result<Model> parsed = parseText(R"(
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[N,4] x) => (float[N,4] y, float[64,4] z) <int64[2] shape = {64, 4}> {
      ones = ConstantOfShape <value = float[1] {1}> (shape)
      two = Add (ones, ones)
      y = Mul (x, x)
      z = Mul (two, two)
    })");
  ASSERT_TRUE(parsed) << parsed.status().toString();
  fs::path in = dir_ / "large.onnx";
  ASSERT_TRUE(saveModel(*parsed, in.string()));
  fs::path out = dir_ / "o.onnx";
  // 1 KiB per output: the 1 KiB tensor of ones folds, then each 1 KiB result replaces one.
  ASSERT_EQ(onyx("optimize " + in.string() + " " + out.string()).status, 0);
  Result<Model> folded = loadModel(out.string());
  ASSERT_TRUE(folded);
  EXPECT_EQ(testing::opTypes(*folded->graph), "Mul");
  // No growth allowed: the tensor of ones (1 KiB from 16 bytes) stays computed.
  ToolRun run = onyx("optimize " + in.string() + " " + out.string() + " --fold-limit 0");
  ASSERT_EQ(run.status, 0) << run.out;
  Result<Model> kept = loadModel(out.string());
  ASSERT_TRUE(kept);
  EXPECT_EQ(testing::opTypes(*kept->graph), "ConstantOfShape Add Mul Mul");
}

TEST_F(OptimizeCli, BadUsageAndUnreadableInputExitTwo) {
  fs::path out = dir_ / "o.onnx";
  ToolRun run = onyx("optimize " + model_.string() + " " + out.string() + " --passes nope");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("no pass named 'nope'"), std::string::npos) << run.out;
  EXPECT_FALSE(fs::exists(out));
  run = onyx("optimize " + (dir_ / "missing.onnx").string() + " " + out.string());
  EXPECT_EQ(run.status, 2) << run.out;
}

}  // namespace
}  // namespace onyx
