// The version adapters one by one (OpSchema::step in the op files): a model that crosses a
// step converts, passes the checker and computes what it did; a model that cannot is refused
// with the adapter's reason and left as it was. The sweep (opset_conversion_sweep_test.cc)
// runs the backend models through every opset; these cases are the ones it does not reach.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onyx/check/checker.h"
#include "onyx/eval/evaluator.h"
#include "onyx/eval/test_case.h"
#include "onyx/passes/opset_conversion.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

using testing::listed;
using testing::parseOrFail;

struct AdapterCase {
  const char* name;
  const char* model;
  int target;
  const char* domain = "";
  const char* refusal = "";  // empty: the model converts
};

void PrintTo(const AdapterCase& c, std::ostream* out) { *out << c.name; }

// Inputs for every graph input of static shape: floats in [-1, 1), int64 0, 1, 2, 0, ...,
// strings "a", "b", "c", "a", ...
std::vector<NamedValue> inputsFor(const Model& model) {
  std::vector<NamedValue> inputs;
  uint32_t seed = 11;
  for (const ValueInfo* input : model.graph->inputs) {
    const TensorShape* shape = input->type != nullptr ? input->type->shape : nullptr;
    std::vector<int64_t> dims;
    for (const Dimension& dim : shape->dims) dims.push_back(dim.dim_value.value_or(1));
    size_t count = testing::elementCount(dims);
    auto type = static_cast<ElementType>(input->type->elem_type.value_or(0));
    EvalValue value;
    if (type == ElementType::kFloat) {
      value = testing::tensorOf<float>(type, dims, testing::randomFloats(count, seed++));
    } else if (type == ElementType::kInt64) {
      std::vector<int64_t> numbers(count);
      for (size_t k = 0; k < count; ++k) numbers[k] = static_cast<int64_t>(k % 3);
      value = testing::tensorOf<int64_t>(type, dims, numbers);
    } else {
      Array strings(ElementType::kString, dims);
      for (size_t k = 0; k < count; ++k) strings.strings()[k] = std::string(1, char('a' + k % 3));
      value = EvalValue::of(std::move(strings));
    }
    inputs.push_back({std::string(input->name.value_or("")), std::move(value)});
  }
  return inputs;
}

class VersionAdapter : public ::testing::TestWithParam<AdapterCase> {};

TEST_P(VersionAdapter, ConvertsAndComputesTheSameOrRefusesSayingWhy) {
  const AdapterCase& c = GetParam();
  Model model = parseOrFail(c.model);
  Model original = parseOrFail(c.model);
  std::string before = testing::bytesOf(model);
  OpsetTarget target{c.domain, c.target};
  Result<ConversionSummary> done = convertOpset(model, std::span<const OpsetTarget>(&target, 1));
  if (*c.refusal != '\0') {
    ASSERT_FALSE(done) << "converted: " << testing::bytesOf(model).size() << " bytes";
    EXPECT_NE(done.status().message().find(c.refusal), std::string::npos)
        << done.status().message();
    EXPECT_EQ(testing::bytesOf(model), before);
    return;
  }
  ASSERT_TRUE(done) << done.status().toString();
  EXPECT_EQ(model.opsetVersion(c.domain), c.target);
  Diagnostics found = checkModel(model);
  EXPECT_FALSE(found.hasErrors()) << listed(found);
  std::vector<NamedValue> inputs = inputsFor(original);
  Result<std::vector<EvalValue>> expected = evaluate(original, inputs);
  Result<std::vector<EvalValue>> actual = evaluate(model, inputs);
  ASSERT_TRUE(expected) << expected.status().toString();
  ASSERT_TRUE(actual) << actual.status().toString();
  ASSERT_EQ(expected->size(), actual->size());
  for (size_t i = 0; i < expected->size(); ++i) {
    EXPECT_EQ(compareValues((*expected)[i], (*actual)[i], Tolerance{1e-6, 1e-6}), "")
        << "output " << i;
  }
}

const AdapterCase kCases[] = {
    {"LeakyReluUpDropsConsumedInputs", R"(<ir_version: 3, opset_import: ["" : 1]>
      g (float[4] x) => (float[4] y) { y = LeakyRelu <alpha = 0.2, consumed_inputs = [0]> (x) })",
     16},
    {"LeakyReluDownToSixKeepsAlpha", R"(<ir_version: 8, opset_import: ["" : 16]>
      g (float[4] x) => (float[4] y) { y = LeakyRelu <alpha = 0.2> (x) })",
     6},
    {"PReluUpFromOneDropsConsumedInputs", R"(<ir_version: 3, opset_import: ["" : 1]>
      g (float[2,3] x, float[2,3] s) => (float[2,3] y) { y = PRelu <consumed_inputs = [0]> (x, s) })",
     9},
    {"PReluUpReshapesAConstantChannelSlope", R"(<ir_version: 4, opset_import: ["" : 6]>
      g (float[1,3,2,2] x) => (float[1,3,2,2] y) <float[3] s = {0.1, 0.2, 0.3}> {
        y = PRelu (x, s) })",
     7},
    {"PReluUpRefusesAChannelSlopeThatIsNotConstant", R"(<ir_version: 3, opset_import: ["" : 6]>
      g (float[1,3,2,2] x, float[3] s) => (float[1,3,2,2] y) { y = PRelu (x, s) })",
     7, "", "a slope that does not broadcast to X from the back"},
    {"PReluDownWithASlopeOfOneElement", R"(<ir_version: 8, opset_import: ["" : 16]>
      g (float[2,3] x, float[1] s) => (float[2,3] y) { y = PRelu (x, s) })",
     6},
    {"PReluDownRefusesABroadcastSlope", R"(<ir_version: 8, opset_import: ["" : 16]>
      g (float[2,3] x, float[3] s) => (float[2,3] y) { y = PRelu (x, s) })",
     6, "", "PRelu 7 to 6: a slope not known to have one element or X's shape"},
    {"ThresholdedReluDownFromTwentyTwo", R"(<ir_version: 10, opset_import: ["" : 22]>
      g (float[5] x) => (float[5] y) { y = ThresholdedRelu <alpha = 0.5> (x) })",
     10},
    {"TileUpTurnsTilesAndAxisIntoRepeats", R"(<ir_version: 4, opset_import: ["" : 1]>
      g (float[2,3] x) => (float[2,9] y) <float t = {3.0}, float a = {1.0}> {
        y = Tile (x, t, a) })",
     13},
    {"TileDownTurnsRepeatsAlongOneAxisIntoTilesAndAxis", R"(<ir_version: 8, opset_import: ["" : 13]>
      g (float[2,3] x) => (float[4,3] y) <int64[2] r = {2, 1}> { y = Tile (x, r) })",
     1},
    {"TileDownRefusesRepeatsAlongTwoAxes", R"(<ir_version: 8, opset_import: ["" : 13]>
      g (float[2,3] x) => (float[4,6] y) <int64[2] r = {2, 2}> { y = Tile (x, r) })",
     1, "", "Tile 6 to 1: repeats along more than one axis"},
    {"UpsampleUpFromOneWritesScalesThenAnInput", R"(<ir_version: 3, opset_import: ["" : 1]>
      g (float[1,1,2,2] x) => (float[1,1,4,6] y) {
        y = Upsample <height_scale = 2.0, width_scale = 3.0> (x) })",
     9},
    {"UpsampleDownFromNineTakesAConstantScalesInput", R"(<ir_version: 4, opset_import: ["" : 9]>
      g (float[1,1,2,2] x) => (float[1,1,4,4] y) <float[4] s = {1.0, 1.0, 2.0, 2.0}> {
        y = Upsample <mode = "nearest"> (x, s) })",
     7},
    {"UpsampleDownRefusesScalesComputedAtRunTime", R"(<ir_version: 4, opset_import: ["" : 9]>
      g (float[1,1,2,2] x, float[4] s) => (float[1,1,?,?] y) { y = Upsample (x, s) })",
     7, "", "Upsample 9 to 7: scales is not a constant"},
    {"LabelEncoderUpTurnsClassesIntoKeys",
     R"(<ir_version: 3, opset_import: ["" : 1, "ai.onnx.ml" : 1]>
      g (string[4] x) => (int64[4] y) {
        y = ai.onnx.ml.LabelEncoder <classes_strings = ["b", "a"], default_int64 = 7> (x) })",
     2, "ai.onnx.ml"},
    {"LabelEncoderUpFromIndicesToStrings",
     R"(<ir_version: 3, opset_import: ["" : 1, "ai.onnx.ml" : 1]>
      g (int64[4] x) => (string[4] y) {
        y = ai.onnx.ml.LabelEncoder <classes_strings = ["b", "a"], default_string = "?"> (x) })",
     2, "ai.onnx.ml"},
    {"LabelEncoderDownWithPositionsAsValues",
     R"(<ir_version: 8, opset_import: ["" : 18, "ai.onnx.ml" : 2]>
      g (string[4] x) => (int64[4] y) {
        y = ai.onnx.ml.LabelEncoder <keys_strings = ["c", "a"], values_int64s = [1, 0]> (x) })",
     1, "ai.onnx.ml"},
    {"LabelEncoderDownRefusesFloatValues",
     R"(<ir_version: 8, opset_import: ["" : 18, "ai.onnx.ml" : 2]>
      g (string[4] x) => (float[4] y) {
        y = ai.onnx.ml.LabelEncoder <keys_strings = ["c", "a"], values_floats = [1.5, 0.5]> (x) })",
     1, "ai.onnx.ml", "LabelEncoder 2 to 1: float keys or values, which version 1 lacks"},
    {"LabelEncoderDownRefusesNumbersThatAreNotPositions",
     R"(<ir_version: 8, opset_import: ["" : 18, "ai.onnx.ml" : 2]>
      g (string[4] x) => (int64[4] y) {
        y = ai.onnx.ml.LabelEncoder <keys_strings = ["c", "a"], values_int64s = [5, 0]> (x) })",
     1, "ai.onnx.ml", "int64 keys or values other than the positions 0 to n-1"},
    {"SoftmaxDownFromThirteenOnTheLastAxis", R"(<ir_version: 8, opset_import: ["" : 13]>
      g (float[2,3,4] x) => (float[2,3,4] y) { y = Softmax <axis = -1> (x) })",
     11},
    {"SoftmaxDownOnAMiddleAxisMovesItLastAndBack", R"(<ir_version: 8, opset_import: ["" : 13]>
      g (float[2,3,4] x) => (float[2,3,4] y) { y = Softmax <axis = 1> (x) })",
     11},
    {"LogSoftmaxDownToOneOnTheFirstAxis", R"(<ir_version: 8, opset_import: ["" : 13]>
      g (float[3,2,2] x) => (float[3,2,2] y) { y = LogSoftmax <axis = 0> (x) })",
     1},
    {"HardmaxDownOnAMiddleAxis", R"(<ir_version: 8, opset_import: ["" : 13]>
      g (float[2,3,4] x) => (float[2,3,4] y) { y = Hardmax <axis = -2> (x) })",
     11},
    {"SoftmaxUpFlattensAtAxisAndReshapesBack", R"(<ir_version: 8, opset_import: ["" : 11]>
      g (float[2,3,4] x) => (float[2,3,4] y) { y = Softmax <axis = 1> (x) })",
     13},
    {"LogSoftmaxUpFromOneWithTheDefaultAxis", R"(<ir_version: 3, opset_import: ["" : 1]>
      g (float[2,3,4] x) => (float[2,3,4] y) { y = LogSoftmax (x) })",
     13},
    {"SoftmaxUpRefusesFlattenedAxesOfAnOpenShape", R"(<ir_version: 8, opset_import: ["" : 11]>
      g (float[N,3,4] x) => (float[N,3,4] y) { y = Softmax <axis = 1> (x) })",
     13, "",
     "Softmax 11 to 13: a dimension after axis is not known to be 1, and the shape is not static"},
    {"SplitDownFromEighteenTurnsNumOutputsIntoSizes", R"(<ir_version: 8, opset_import: ["" : 18]>
      g (float[2,6] x) => (float[2,3] a, float[2,3] b) { a, b = Split <axis = 1, num_outputs = 2> (x) })",
     11},
    {"ReduceMeanDownFromEighteenTakesConstantAxes", R"(<ir_version: 8, opset_import: ["" : 18]>
      g (float[2,3] x) => (float[2,1] y) <int64[1] axes = {1}> { y = ReduceMean (x, axes) })",
     13},
    {"ReduceMeanDownRefusesAxesComputedAtRunTime", R"(<ir_version: 8, opset_import: ["" : 18]>
      g (float[2,3] x, int64[1] axes) => (float[?,?] y) { y = ReduceMean (x, axes) })",
     13, "", "ReduceMean 18 to 13: axes is not a constant input"},
    {"ClipDownFromElevenTakesConstantBounds", R"(<ir_version: 8, opset_import: ["" : 13]>
      g (float[5] x) => (float[5] y) <float lo = {-0.5}, float hi = {0.25}> { y = Clip (x, lo, hi) })",
     6},
    {"FlattenDownToNineCountsANegativeAxisFromTheFront", R"(<ir_version: 8, opset_import: ["" : 13]>
      g (float[2,3,4] x) => (float[6,4] y) { y = Flatten <axis = -1> (x) })",
     9},
    {"AddDownToSixWritesLegacyBroadcasting", R"(<ir_version: 8, opset_import: ["" : 13]>
      g (float[2,3] a, float[3] b) => (float[2,3] y) { y = Add (a, b) })",
     6},
    {"AddUpFromSixReadsLegacyBroadcasting", R"(<ir_version: 3, opset_import: ["" : 6]>
      g (float[2,3] a, float[3] b) => (float[2,3] y) { y = Add <broadcast = 1> (a, b) })",
     13},
    {"ShapeDownFromFifteenCutsWithAFollowingSlice", R"(<ir_version: 8, opset_import: ["" : 15]>
      g (float[2,3,4,5] x) => (int64[2] y) { y = Shape <start = 1, end = -1> (x) })",
     13},
    {"ShapeDownToNineCutsWithASliceOfVersionOne", R"(<ir_version: 8, opset_import: ["" : 15]>
      g (float[2,3,4,5] x) => (int64[3] y) { y = Shape <start = -3> (x) })",
     9},
    {"AnInitializerThatIsNoInputIsCheckedByItsTensorsType",
     R"(<ir_version: 8, opset_import: ["" : 14]>
      g (float[2] x) => (int8[2] y) <int8[2] w = {1, -1}> { y = Relu (w) })",
     13, "", "Relu 14 to 13: input 0 is int8[2], which version 13 does not take"},
    {"SqueezeUpToThirteenTurnsAxesIntoAnInput", R"(<ir_version: 8, opset_import: ["" : 11]>
      g (float[2,1,3] x) => (float[2,3] y) { y = Squeeze <axes = [1]> (x) })",
     13},
};

INSTANTIATE_TEST_SUITE_P(Steps, VersionAdapter, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<AdapterCase>& step) {
                           return std::string(step.param.name);
                         });

}  // namespace
}  // namespace onyx
