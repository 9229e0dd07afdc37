// `onyx run` as scripts use it: inputs from .pb and .npy files, outputs printed and written,
// exit 1 when the model cannot run on what it was given, 2 when a file cannot be read.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "onyx/core/array_elements.h"
#include "onyx/core/cpu_tier.h"
#include "onyx/core/mapped_file.h"
#include "onyx/ir/editor.h"
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

const std::string kExample = ONYX_SOURCE_DIR "/examples/tiny_cnn.onnx";

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
    Model owner;  // holds what the test builds
    GraphEditor edit{owner};
    Result<std::string> bytes = serializeTensor(*edit.tensorFromArray(array));
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

  // The elements of a tensor written by --output-dir, as doubles.
  static std::vector<double> writtenElements(const fs::path& path) {
    Result<TestValue> written = loadTestValue(path.string(), TestValueKind::kTensor);
    EXPECT_TRUE(written) << written.status().toString();
    if (!written) return {};
    Result<Array> array = arrayFromTensor(*written->tensor());
    EXPECT_TRUE(array) << array.status().toString();
    if (!array) return {};
    std::vector<double> elements;
    for (size_t i = 0; i < array->size(); ++i) elements.push_back(elementAsDouble(*array, i));
    return elements;
  }
  // `onyx run ARGUMENTS` exits with `status`, saying `message`.
  static void expectRefusal(const std::string& arguments, int status, const std::string& message) {
    ToolRun run = onyx("run " + arguments);
    EXPECT_EQ(run.status, status) << arguments << "\n" << run.out;
    EXPECT_NE(run.out.find(message), std::string::npos) << arguments << "\n" << run.out;
  }
  std::string saveText(const std::string& name, const char* text) {
    Result<Model> parsed = parseText(text);
    EXPECT_TRUE(parsed) << parsed.status().toString();
    std::string path = (dir_ / name).string();
    if (parsed) {
      EXPECT_TRUE(saveModel(*parsed, path).isOk());
    }
    return path;
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

// Intermediate values read as outputs: --keep NAME, --keep-all every node's outputs, after
// the model's own and written beside them.
TEST_F(RunCli, KeptValuesArePrintedAndWrittenAfterTheOutputs) {
  const std::string model = saveText("chain.onnx", R"(
      <ir_version: 10, opset_import: ["" : 21]>
      g (float[2] x) => (float[2] z) {
        y = Mul (x, x)
        t = Add (y, x)
        z = Neg (t)
      })");
  const std::string x = floatPb("x.pb", 2.0f, 3.0f);
  fs::path out = dir_ / "kept";
  ToolRun run = onyx("run " + model + " --input x=" + x + " --keep t --output-dir " + out.string());
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("z: FLOAT[2] = [-6, -12]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("t: FLOAT[2] = [6, 12]"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("y: "), std::string::npos) << run.out;
  EXPECT_EQ(writtenElements(out / "output_1.pb"), (std::vector<double>{6, 12}));
  ToolRun all = onyx("run " + model + " --input x=" + x + " --keep-all");
  EXPECT_EQ(all.status, 0) << all.out;
  EXPECT_NE(all.out.find("y: FLOAT[2] = [4, 9]"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("t: FLOAT[2] = [6, 12]"), std::string::npos) << all.out;
  expectRefusal(model + " --input x=" + x + " --keep nothing", 2,
                "--keep nothing: the main graph has no value named 'nothing'");
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

TEST_F(RunCli, AnInputLeftOutIsMadeUpFromItsDeclaredType) {
  std::string x = floatPb("x.pb", 1.0f, 2.0f);
  fs::path out = dir_ / "out";
  ToolRun run = onyx("run " + model_ + " --input x=" + x + " --output-dir " + out.string());
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("generated input y: float[2], uniform in [0, 1) (seed 0)"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("generated input x"), std::string::npos) << run.out;
  std::vector<double> sum = writtenElements(out / "output_0.pb");
  ASSERT_EQ(sum.size(), 2u);
  EXPECT_GE(sum[0], 1.0);
  EXPECT_LT(sum[0], 2.0);
  EXPECT_GE(sum[1], 2.0);
  EXPECT_LT(sum[1], 3.0);
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

// The bundled example's input is float[N,3,32,32]: N comes from --dim.
TEST_F(RunCli, TheExampleRunsOnMadeUpInputsSizedByDim) {
  ToolRun run = onyx("run " + kExample + " --dim N=2");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("generated input image: float[2,3,32,32], uniform in [0, 1) (seed 0)"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("probabilities: FLOAT[2,10] = ["), std::string::npos) << run.out;
}

TEST_F(RunCli, MaxIsaCapsTheTierTheProfileNames) {
  ToolRun capped = onyx("run " + kExample + " --dim N=1 --max-isa avx2 --profile --threads 1");
  ASSERT_EQ(capped.status, 0) << capped.out;
  // The tier in force is the lower of the cap and the CPU's own (a CPU below AVX2 stays there).
  const std::string tier(cpuTierName(std::min(CpuTier::kAvx2, detectedCpuTier())));
  EXPECT_NE(capped.out.find("CPU tier: " + tier), std::string::npos) << capped.out;
  ToolRun bad = onyx("run " + kExample + " --dim N=1 --max-isa avx-512");
  EXPECT_EQ(bad.status, 2) << bad.out;
  ToolRun bad_environment = testing::runOnyx("run " + kExample + " --dim N=1",
                                             testing::Stderr::kMerged, "ONYX_MAX_ISA=sse9");
  EXPECT_EQ(bad_environment.status, 2) << bad_environment.out;
  EXPECT_NE(bad_environment.out.find("ONYX_MAX_ISA is 'sse9'"), std::string::npos)
      << bad_environment.out;
}

TEST_F(RunCli, MadeUpInputsDependOnlyOnTheSeed) {
  auto outputs = [](const std::string& options) {
    return testing::runOnyx("run " + kExample + " --dim N=1" + options, testing::Stderr::kDropped);
  };
  ToolRun first = outputs("");
  ToolRun again = outputs("");
  ToolRun other = outputs(" --seed 7");
  ASSERT_EQ(first.status, 0) << first.out;
  EXPECT_NE(first.out.find("probabilities: FLOAT[1,10]"), std::string::npos) << first.out;
  EXPECT_EQ(first.out, again.out);
  EXPECT_NE(first.out, other.out);
}

TEST_F(RunCli, MadeUpValuesFollowTheElementType) {
  std::string model = saveText("types.onnx", R"(
      <ir_version: 10, opset_import: ["" : 21]>
      g (int64[64] i, uint8[64] u, int4[64] q, bool[64] b, float16[64] h)
        => (int64[64] i2, uint8[64] u2, int4[64] q2, bool[64] b2, float16[64] h2) {
        i2 = Identity(i)
        u2 = Identity(u)
        q2 = Identity(q)
        b2 = Identity(b)
        h2 = Identity(h)
      })");
  fs::path out = dir_ / "out";
  ToolRun run = onyx("run " + model + " --output-dir " + out.string());
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("generated input i: int64[64], integers 0..9"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("generated input u: uint8[64], integers 0..255"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("generated input q: int4[64], integers 0..7"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("generated input b: bool[64], true or false"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("generated input h: float16[64], uniform in [0, 1)"), std::string::npos)
      << run.out;
  struct Expected {
    double low, high;  // inclusive bounds
  };
  const Expected bounds[] = {{0, 9}, {0, 255}, {0, 7}, {0, 1}, {0, 1}};
  for (size_t k = 0; k < std::size(bounds); ++k) {
    std::vector<double> values = writtenElements(out / ("output_" + std::to_string(k) + ".pb"));
    ASSERT_EQ(values.size(), 64u) << k;
    double low = *std::min_element(values.begin(), values.end());
    double high = *std::max_element(values.begin(), values.end());
    EXPECT_GE(low, bounds[k].low) << k;
    EXPECT_LE(high, bounds[k].high) << k;
    // 64 draws: more than one value, or the generator is not random at all.
    EXPECT_LT(low, high) << k;
  }
}

TEST_F(RunCli, AnUnsizedSymbolicDimIsNamedWithTheOptionThatSizesIt) {
  expectRefusal(kExample, 1,
                "input 'image' (float[N,3,32,32]): dimension 0 is 'N'; give its size with --dim "
                "N=VALUE");
}

TEST_F(RunCli, ABadDimOptionIsRefused) {
  struct Case {
    const char* options;
    const char* message;
  };
  const Case cases[] = {
      {" --dim N=1 --dim batch=1",
       "--dim batch: no graph input has a dimension named 'batch' (the inputs' names: N)"},
      {" --dim N", "--dim takes NAME=VALUE, not 'N'"},
      {" --dim N=-1", "--dim N: the size must be a non-negative integer, not '-1'"},
      {" --dim N=1 --dim N=2", "--dim N is given twice"},
  };
  for (const Case& bad : cases) expectRefusal(kExample + bad.options, 2, bad.message);
}

TEST_F(RunCli, InputsThatCannotBeMadeUpAreNamed) {
  std::string sequence = saveText("sequence.onnx", R"(
      <ir_version: 10, opset_import: ["" : 21]>
      g (seq(float[2]) s) => (int64 n) { n = SequenceLength(s) })");
  expectRefusal(sequence, 1,
                "input 's' is a seq(float[2]), and values are made up only for tensors; give it "
                "with --input s=FILE");
  std::string unknown = saveText("unknown.onnx", R"(
      <ir_version: 10, opset_import: ["" : 21]>
      g (float[?] x) => (float[?] y) { y = Relu(x) })");
  expectRefusal(unknown, 1, "input 'x' (float[?]): dimension 0 has neither a size nor a name");
}

// The statistics row of `onyx run --repeat`: min, median, p90, max.
std::vector<double> latencyRow(const std::string& out) {
  size_t header = out.find("p90");
  if (header == std::string::npos) return {};
  std::istringstream row(out.substr(out.find('\n', header) + 1));
  std::vector<double> values(4);
  for (double& value : values) row >> value;
  return row ? values : std::vector<double>{};
}

TEST_F(RunCli, RepeatPrintsLatencyStatistics) {
  fs::path out = dir_ / "out";
  ToolRun run = testing::runOnyx(
      "run " + kExample + " --dim N=1 --repeat 3 --warmup 1 --output-dir " + out.string(),
      testing::Stderr::kDropped);
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("first run (plan + run): "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("3 timed runs after 1 warm-up run, in ms:\n"), std::string::npos)
      << run.out;
  std::vector<double> row = latencyRow(run.out);
  ASSERT_EQ(row.size(), 4u) << run.out;
  EXPECT_GT(row[0], 0.0) << run.out;
  EXPECT_LE(row[0], row[1]) << run.out;
  EXPECT_LE(row[1], row[2]) << run.out;
  EXPECT_LE(row[2], row[3]) << run.out;
  EXPECT_EQ(writtenElements(out / "output_0.pb").size(), 10u);
}

TEST_F(RunCli, RepeatWarmsUpOnceUnlessToldOtherwise) {
  ToolRun run = onyx("run " + model_ + " --repeat 2");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("2 timed runs after 1 warm-up run, in ms:"), std::string::npos) << run.out;
  run = onyx("run " + model_ + " --repeat 2 --warmup 0");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("2 timed runs (the first among them), in ms:"), std::string::npos)
      << run.out;
  run = onyx("run " + model_ + " --repeat 0");
  EXPECT_EQ(run.status, 2) << run.out;
}

TEST_F(RunCli, ProfileShowsFusedStepsUnderTheChainOfTheirOperators) {
  ToolRun run = testing::runOnyx("run " + kExample + " --dim N=1 --repeat 2 --profile",
                                 testing::Stderr::kDropped);
  ASSERT_EQ(run.status, 0) << run.out;
  // conv → relu run as one oneDNN convolution: 7 steps for the 9 nodes.
  EXPECT_NE(run.out.find("profile of 2 runs: 7 steps took "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nop type            steps   total ms      %    avg ms  ran by\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\nConv+Relu              2"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nSoftmax                1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n7 slowest steps\n"), std::string::npos) << run.out;
  // What ran each step: oneDNN's fused convolutions, the MaxPool between them on the
  // channels-last values they keep, the Gemm of fixed weights as onyx's linear layer, the
  // rest on the operators' own kernels.
  EXPECT_NE(run.out.find("Conv+Relu          oneDNN: convolution chain  conv1+relu1\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("MaxPool            onyx (channels-last)       pool1\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("Gemm               onyx: linear layer (Gemm)  fc\n"), std::string::npos)
      << run.out;
}

TEST_F(RunCli, ProfileWithoutFusionsTimesEveryNode) {
  ToolRun run = testing::runOnyx("run " + kExample + " --dim N=1 --profile --no-fusions",
                                 testing::Stderr::kDropped);
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("profile of 1 run: 9 steps took "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nConv                   2"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nRelu                   2"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("Conv+Relu"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n9 slowest steps\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Conv               oneDNN    conv2\n"), std::string::npos) << run.out;
  // Every node is listed by name.
  for (const char* name : {"conv1", "relu1", "pool1", "relu2", "gap", "flatten", "softmax"}) {
    EXPECT_NE(run.out.find(std::string("  ") + name + "\n"), std::string::npos) << name;
  }
}

// A fused step that declines a run (here a 1-D Conv of one input channel over many columns,
// which onyx's own kernel runs faster than oneDNN's) runs its nodes one by one; the profile
// says so.
TEST_F(RunCli, ProfileListsTheFusedStepsThatDeclined) {
  std::string model = saveText("conv1d.onnx", R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[1, 1, 40] x) => (float[1, 2, 38] y) <float[2, 1, 3] w = {1, 2, 3, 4, 5, 6}> {
      c = Conv (x, w)
      y = Relu (c)
    })");
  ToolRun run =
      testing::runOnyx("run " + model + " --repeat 3 --profile", testing::Stderr::kDropped);
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("fused steps that declined and ran their nodes one by one"),
            std::string::npos)
      << run.out;
  // In each of the three timed runs (the warm-up is not recorded).
  EXPECT_NE(run.out.find("  Conv+Relu: 1 step, 3 times\n"), std::string::npos) << run.out;
}

// An If whose then-branch holds another If: the profile names the steps inside by their path,
// and --json gives a Chrome trace with one event per step run, nested ones included.
constexpr const char* kNestedIf = R"(
  <ir_version: 10, opset_import: ["" : 21]>
  g (float[2] x, bool c) => (float[2] y) {
    [outer] y = If (c) <then_branch = t () => (float[2] a) {
                          [neg] n = Neg (x)
                          [inner] a = If (c) <then_branch = tt () => (float[2] p) {
                                                 [relu] p = Relu (n)
                                               },
                                               else_branch = te () => (float[2] q) {
                                                 [abs] q = Abs (n)
                                               }>
                        },
                        else_branch = e () => (float[2] b) { [id] b = Identity (x) }>
  })";

TEST_F(RunCli, ProfileNamesTheStepsInsideSubgraphsByTheirPath) {
  std::string model = saveText("nested.onnx", kNestedIf);
  Array condition(ElementType::kBool, {});
  condition.data<bool>()[0] = true;
  Result<std::string> condition_bytes = serializeNpy(condition);
  ASSERT_TRUE(condition_bytes);
  model += " --input c=" + writeFile("c.npy", *condition_bytes);
  ToolRun run =
      testing::runOnyx("run " + model + " --repeat 3 --profile", testing::Stderr::kDropped);
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("3 slowest of 3 steps inside subgraphs and function bodies"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("Neg      outer/then_branch/neg\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Relu     outer/then_branch/inner/then_branch/relu\n"), std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("abs"), std::string::npos) << "the else branch never ran\n" << run.out;

  ToolRun traced = testing::runOnyx("run " + model + " --repeat 3 --warmup 0 --profile --json",
                                    testing::Stderr::kDropped);
  ASSERT_EQ(traced.status, 0) << traced.out;
  nlohmann::json report = nlohmann::json::parse(traced.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << traced.out;
  ASSERT_TRUE(report.contains("traceEvents"));
  const nlohmann::json& events = report["traceEvents"];
  // Per run: the outer If, and inside it Neg, the inner If and Relu.
  ASSERT_EQ(events.size(), 3u * 4);
  size_t nested = 0;
  for (const nlohmann::json& event : events) {
    EXPECT_EQ(event["ph"], "X");
    EXPECT_GE(event["dur"].get<double>(), 0.0);
    if (event["tid"].get<int>() > 1) {
      ++nested;
    } else {
      EXPECT_EQ(event["args"]["ran_by"], "built-in") << event;  // the outer If's own kernel
    }
  }
  EXPECT_EQ(nested, 3u * 3);
  EXPECT_EQ(report["outputs"][0]["name"], "y");
  EXPECT_EQ(report["timed_runs_ms"].size(), 3u);
}

}  // namespace
}  // namespace onyx
