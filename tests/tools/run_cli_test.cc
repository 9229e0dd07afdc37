// `onyx run` as scripts use it: inputs from .pb and .npy files, outputs printed and written,
// exit 1 when the model cannot run on what it was given, 2 when a file cannot be read.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "onyx/core/mapped_file.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/serde/model_io.h"
#include "onyx/serde/npy.h"
#include "onyx/serde/test_data.h"
#include "onyx/text/parser.h"
#include "support/tool_testing.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;

using testing::ToolRun;

ToolRun onyx(const std::string& arguments) {
  return testing::runOnyx(arguments, testing::Stderr::kMerged);
}

class RunCli : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-run-cli-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    Result<Model> parsed = parseText(R"(
      <ir_version: 10, opset_import: ["" : 21]>
      g (float[2] x, float[2] y) => (float[2] sum) { sum = Add(x, y) })");
    ASSERT_TRUE(parsed) << parsed.status().toString();
    model_ = (dir_ / "add.onnx").string();
    ASSERT_TRUE(saveModel(*parsed, model_).isOk());
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string writeFile(const std::string& name, const std::string& bytes) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  std::string floatPb(const std::string& name, float a, float b) {
    Array array(ElementType::kFloat, {2});
    array.data<float>()[0] = a;
    array.data<float>()[1] = b;
    Arena arena;
    Result<std::string> bytes = serializeTensor(*tensorFromArray(array, arena));
    EXPECT_TRUE(bytes);
    return writeFile(name, *bytes);
  }
  std::string floatNpy(const std::string& name, float a, float b) {
    Array array(ElementType::kFloat, {2});
    array.data<float>()[0] = a;
    array.data<float>()[1] = b;
    Result<std::string> bytes = serializeNpy(array);
    EXPECT_TRUE(bytes);
    return writeFile(name, *bytes);
  }

  fs::path dir_;
  std::string model_;
};

TEST_F(RunCli, PrintsAndWritesTheOutputs) {
  std::string x = floatPb("x.pb", 1.5f, 2.0f);
  std::string y = floatNpy("y.npy", 10.0f, -2.0f);
  fs::path out = dir_ / "out";
  ToolRun run = onyx("run " + model_ + " --input x=" + x + " --input y=" + y + " --output-dir " +
                     out.string());
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("sum: FLOAT[2] = [11.5, 0]"), std::string::npos) << run.out;
  Result<TestValue> written = loadTestValue((out / "output_0.pb").string(), TestValueKind::kTensor);
  ASSERT_TRUE(written) << written.status().toString();
  Result<Array> array = arrayFromTensor(*written->tensor());
  ASSERT_TRUE(array);
  EXPECT_EQ(array->data<float>()[0], 11.5f);
}

TEST_F(RunCli, WritesNpyOnRequest) {
  std::string x = floatNpy("x.npy", 1.0f, 2.0f);
  fs::path out = dir_ / "out";
  ToolRun run = onyx("run " + model_ + " --input x=" + x + " --input y=" + x + " --output-dir " +
                     out.string() + " --format npy");
  EXPECT_EQ(run.status, 0) << run.out;
  Result<std::shared_ptr<const MappedFile>> file =
      MappedFile::open((out / "output_0.npy").string());
  ASSERT_TRUE(file);
  Result<Array> array = parseNpy((*file)->bytes());
  ASSERT_TRUE(array) << array.status().toString();
  EXPECT_EQ(array->data<float>()[1], 4.0f);
}

TEST_F(RunCli, AMissingInputIsNamedAndNothingRuns) {
  std::string x = floatPb("x.pb", 1.0f, 2.0f);
  ToolRun run = onyx("run " + model_ + " --input x=" + x);
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find("input 'y' is not given"), std::string::npos) << run.out;
}

TEST_F(RunCli, AnInputOfTheWrongShapeIsRefused) {
  Array array(ElementType::kFloat, {3});
  Result<std::string> bytes = serializeNpy(array);
  ASSERT_TRUE(bytes);
  std::string x = writeFile("x.npy", *bytes);
  ToolRun run = onyx("run " + model_ + " --input x=" + x + " --input y=" + x);
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find("dimension 0 is 3, declared 2"), std::string::npos) << run.out;
}

TEST_F(RunCli, AnUnknownInputNameOrAnUnreadableFileIsAnError) {
  std::string x = floatPb("x.pb", 1.0f, 2.0f);
  ToolRun unknown = onyx("run " + model_ + " --input z=" + x);
  EXPECT_EQ(unknown.status, 1) << unknown.out;
  EXPECT_NE(unknown.out.find("no input named 'z'"), std::string::npos) << unknown.out;
  ToolRun missing = onyx("run " + model_ + " --input x=" + (dir_ / "nope.pb").string());
  EXPECT_EQ(missing.status, 2) << missing.out;
  std::string damaged = writeFile("bad.npy", "\x93NUMPY\x01");
  ToolRun bad = onyx("run " + model_ + " --input x=" + damaged);
  EXPECT_NE(bad.status, 0) << bad.out;
  EXPECT_NE(bad.out.find("not a readable .npy file"), std::string::npos) << bad.out;
}

}  // namespace
}  // namespace onyx
