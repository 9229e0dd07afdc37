// The model surgery commands as scripts use them: `onyx extract` writes the part between named
// values, referring to the model's external data instead of copying it, and writes nothing
// when the part cannot be cut.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "onyx/core/array.h"
#include "onyx/ir/editor.h"

#include "onyx/ir/model.h"
#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"
#include "support/graph_testing.h"
#include "support/tool_testing.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;

using testing::ToolRun;

ToolRun onyx(const std::string& arguments) {
  return testing::runOnyx(arguments, testing::Stderr::kMerged);
}

class SurgeryCli : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-surgery-cli-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    model_ = dir_ / "m.onnx";
    writeTestModel(model_, "m.data", 1.0f);
  }

  // Two weights of 4 KiB each, w1 all ones and w2 all `w2`, in one external data file.
  static void writeTestModel(const fs::path& path, const std::string& data_file, float w2) {
    Result<Model> parsed = parseText(R"(
      <ir_version: 10, opset_import: ["" : 18]>
      g (float[1024] x) => (float[1024] y, float[1024] z) {
        a = Mul (x, w1)
        b = Relu (a)
        y = Add (b, w2)
        z = Neg (a)
      })");
    ASSERT_TRUE(parsed) << parsed.status().toString();
    GraphEditor edit(*parsed);
    for (const char* name : {"w1", "w2"}) {
      Array values(ElementType::kFloat, {1024});
      std::fill_n(values.data<float>(), 1024, std::string_view(name) == "w2" ? w2 : 1.0f);
      Tensor* tensor = edit.tensorFromArray(values);
      tensor->name = edit.arena().copy(name);
      ASSERT_TRUE(edit.addInitializer(*parsed->graph, tensor));
    }
    SaveOptions options;
    options.external_threshold = 1024;
    options.external_file = data_file;
    ASSERT_TRUE(saveModel(*parsed, path.string(), options));
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  fs::path model_;
};

TEST_F(SurgeryCli, ExtractRefersToTheModelsDataFile) {
  fs::path out = dir_ / "part.onnx";
  auto data_size = fs::file_size(dir_ / "m.data");
  ToolRun run = onyx("extract " + model_.string() + " " + out.string() + " --inputs b --outputs y");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("kept 1 of 4 nodes; removed 1 initializer"), std::string::npos) << run.out;
  Result<Model> part = loadModel(out.string());
  ASSERT_TRUE(part) << part.status().toString();
  EXPECT_EQ(testing::opTypes(*part->graph), "Add");
  ASSERT_EQ(part->graph->initializers.size(), 1u);
  EXPECT_EQ(part->graph->initializers[0]->externalValue("location"), "m.data");
  // No other file was written beside the two models, and the data file is as it was.
  EXPECT_EQ(fs::file_size(dir_ / "m.data"), data_size);
  size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 3u);
}

TEST_F(SurgeryCli, ExtractWritesThePartsOwnDataFileWhenAsked) {
  fs::path out = dir_ / "part.onnx";
  ToolRun run = onyx("extract " + model_.string() + " " + out.string() +
                     " --inputs x --outputs z --external-data part.data");
  ASSERT_EQ(run.status, 0) << run.out;
  Result<Model> part = loadModel(out.string());
  ASSERT_TRUE(part) << part.status().toString();
  EXPECT_EQ(testing::opTypes(*part->graph), "Mul Neg");
  EXPECT_EQ(part->graph->initializers[0]->externalValue("location"), "part.data");
  EXPECT_EQ(fs::file_size(dir_ / "part.data"), 4096u);
}

TEST_F(SurgeryCli, ExtractWritesNothingWhenThePartCannotBeCut) {
  fs::path out = dir_ / "part.onnx";
  ToolRun unknown = onyx("extract " + model_.string() + " " + out.string() + " --outputs nope");
  EXPECT_EQ(unknown.status, 2) << unknown.out;
  EXPECT_NE(unknown.out.find("the main graph defines no value 'nope'"), std::string::npos)
      << unknown.out;
  ToolRun unreached =
      onyx("extract " + model_.string() + " " + out.string() + " --inputs b --outputs y,z");
  EXPECT_EQ(unreached.status, 1) << unreached.out;
  EXPECT_NE(unreached.out.find("the inputs do not reach output 'z': it depends on 'x'"),
            std::string::npos)
      << unreached.out;
  EXPECT_NE(unreached.out.find("nothing written"), std::string::npos) << unreached.out;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(SurgeryCli, MergeJoinsExtractedHalvesReferringToTheirDataFile) {
  std::string model = model_.string();
  fs::path first = dir_ / "first.onnx";
  fs::path second = dir_ / "second.onnx";
  fs::path whole = dir_ / "whole.onnx";
  ASSERT_EQ(onyx("extract " + model + " " + first.string() + " --outputs a").status, 0);
  ASSERT_EQ(onyx("extract " + model + " " + second.string() + " --inputs a").status, 0);
  ToolRun run = onyx("merge " + first.string() + " " + second.string() + " " + whole.string() +
                     " --connect a=a");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("merged 1 nodes of A and 3 of B"), std::string::npos) << run.out;
  Result<Model> merged = loadModel(whole.string());
  ASSERT_TRUE(merged) << merged.status().toString();
  EXPECT_EQ(testing::opTypes(*merged->graph), "Mul Relu Add Neg");
  for (const Tensor* tensor : merged->graph->initializers) {
    EXPECT_EQ(tensor->externalValue("location"), "m.data");
  }
  // Unconnected, the two share nothing they may: refused, nothing written.
  fs::path refused = dir_ / "refused.onnx";
  ToolRun clash = onyx("merge " + model + " " + model + " " + refused.string());
  EXPECT_EQ(clash.status, 1) << clash.out;
  EXPECT_NE(clash.out.find("both models define 'a', 'b', 'y', 'z'"), std::string::npos)
      << clash.out;
  EXPECT_FALSE(fs::exists(refused));
  ToolRun malformed =
      onyx("merge " + model + " " + model + " " + refused.string() + " --connect y");
  EXPECT_EQ(malformed.status, 2) << malformed.out;
}

TEST_F(SurgeryCli, CompareNamesTheNodeOfAPerturbedInitializer) {
  // The same model with one weight changed.
  fs::path other = dir_ / "other.onnx";
  writeTestModel(other, "other.data", 2.0f);
  ToolRun run = onyx("compare " + model_.string() + " " + other.string());
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find("compared 4 values of 4 nodes"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("first beyond the tolerance: 'y' of node[2] (Add): largest difference 1"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(onyx("compare " + model_.string() + " " + model_.string()).status, 0);
  // Against values saved by onyx run, matched by the names the files hold.
  fs::path saved = dir_ / "saved";
  ASSERT_EQ(onyx("run " + model_.string() + " --keep-all --output-dir " + saved.string()).status,
            0);
  ToolRun against = onyx("compare " + other.string() + " --reference-dir " + saved.string());
  EXPECT_EQ(against.status, 1) << against.out;
  EXPECT_NE(against.out.find("'y' of node[2] (Add)"), std::string::npos) << against.out;
  EXPECT_EQ(onyx("compare " + model_.string()).status, 2);
}

TEST_F(SurgeryCli, ConvertToFloat16HalvesTheDataAndComputesTheSame) {
  fs::path out = dir_ / "half.onnx";
  ToolRun run = onyx("convert " + model_.string() + " " + out.string() +
                     " --float16 --keep-io-types --keep Neg,Resiz --external-data half.data");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("float16: 3 nodes converted, kept in float32: Neg 1; 2 tensors "
                         "converted, 3 Casts added"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("--keep Resiz: no node of the model has that operator type"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(fs::file_size(dir_ / "half.data"), 2u * 2048u);
  Result<Model> half = loadModel(out.string());
  ASSERT_TRUE(half) << half.status().toString();
  EXPECT_EQ(half->graph->initializers[0]->data_type, static_cast<int32_t>(ElementType::kFloat16));
  // The inputs and outputs kept float32: both models take the same inputs.
  ToolRun compared = onyx("compare " + model_.string() + " " + out.string() + " --rtol 1e-2");
  EXPECT_EQ(compared.status, 0) << compared.out;

  ToolRun misused = onyx("convert " + model_.string() + " " + out.string() + " --keep-io-types");
  EXPECT_EQ(misused.status, 2) << misused.out;
  EXPECT_NE(misused.out.find("--keep-io-types and --keep apply to --float16"), std::string::npos)
      << misused.out;
}

TEST_F(SurgeryCli, ReduceShrinksAChainToItsFailingNode) {
  // 300 nodes, one of an operator nothing runs: `onyx run` fails on any part holding it.
  std::string text = R"(<ir_version: 8, opset_import: ["" : 17, "custom" : 1]>
    g (float[4] x) => (float[4] v299) {
)";
  const char* ops[] = {"Relu", "Neg", "Abs", "Sigmoid"};
  std::string previous = "x";
  for (int i = 0; i < 300; ++i) {
    std::string op = i == 211 ? "custom.Boom" : ops[i % 4];
    text += "  v" + std::to_string(i) + " = " + op + " (" + previous + ")\n";
    previous = "v" + std::to_string(i);
  }
  text += "}\n";
  Result<Model> chain = parseText(text);
  ASSERT_TRUE(chain) << chain.status().toString();
  fs::path model = dir_ / "chain.onnx";
  ASSERT_TRUE(saveModel(*chain, model.string()));
  fs::path reduced = dir_ / "reduced.onnx";
  std::string check = std::string(" --check '") + ONYX_TOOL_PATH + " run {}'";
  ToolRun run = onyx("reduce " + model.string() + " " + reduced.string() + check);
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("1 of 300 nodes still fail the check"), std::string::npos) << run.out;
  Result<Model> part = loadModel(reduced.string());
  ASSERT_TRUE(part) << part.status().toString();
  EXPECT_EQ(testing::opTypes(*part->graph), "Boom");
  EXPECT_EQ(part->graph->inputs[0]->value->name(), "v210");
  // A check that passes on the model itself: nothing to reduce, nothing written.
  fs::path none = dir_ / "none.onnx";
  ToolRun passing = onyx("reduce " + model.string() + " " + none.string() + " --check 'true {}'");
  EXPECT_EQ(passing.status, 1) << passing.out;
  EXPECT_NE(passing.out.find("the check does not fail on"), std::string::npos) << passing.out;
  EXPECT_FALSE(fs::exists(none));
  EXPECT_EQ(onyx("reduce " + model.string() + " " + none.string() + " --check false").status, 2);
  // No candidate is left behind.
  size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 4u);  // m.onnx, m.data, chain.onnx, reduced.onnx
}

}  // namespace
}  // namespace onyx
