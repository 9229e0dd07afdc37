// Kernels run by a host other than the evaluator get no NativeKernels (ops/native_kernels.h):
// the float product falls back to portable code with the same result, and an image format
// that needs a codec library is refused, naming what is missing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onyx/ops/kernel_context.h"
#include "onyx/ops/registry.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::runText;
using testing::tensorOf;
using testing::valuesOf;

// A host outside the evaluator: KernelHost's defaults, no native kernels.
class PlainHost final : public KernelHost {
 public:
  Result<std::vector<EvalValue>> runSubgraph(const Graph&, std::vector<EvalValue>) override {
    return Status(ErrorCode::kUnsupported, "no subgraphs here");
  }
};

// Runs the one node of `text`'s main graph on `inputs` through PlainHost.
Result<EvalValue> runOnPlainHost(std::string_view text, int64_t opset,
                                 const std::vector<EvalValue>& inputs) {
  Result<Model> model = parseText(text);
  if (!model) return model.status();
  const Node& node = *model->graph->firstNode();
  const OpSchema* schema = findSchema(node.domainOrDefault(), node.opType(), opset);
  if (schema == nullptr || schema->kernel == nullptr) {
    return Status(ErrorCode::kNotFound, "no kernel");
  }
  PlainHost host;
  KernelContext ctx(node, *schema, opset, host);
  for (const EvalValue& input : inputs) ctx.inputs_.push_back(&input);
  ctx.outputs_.resize(1);
  ctx.wanted_ = {true};
  if (Status run = schema->kernel(ctx); !run) return run;
  return std::move(ctx.outputs_[0]);
}

TEST(NativeKernels, FloatProductWithoutThemMatchesTheEvaluators) {
  constexpr const char* kText = R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[3, 4] a, float[4, 5] b) => (float[3, 5] y) { y = MatMul(a, b) })";
  // Small integers: every order of summation gives the same exact sums.
  std::vector<float> a_values, b_values;
  for (int i = 0; i < 12; ++i) a_values.push_back(static_cast<float>(i % 7 - 3));
  for (int i = 0; i < 20; ++i) b_values.push_back(static_cast<float>(i % 5 - 2));
  EvalValue a = tensorOf(ElementType::kFloat, {3, 4}, a_values);
  EvalValue b = tensorOf(ElementType::kFloat, {4, 5}, b_values);
  Result<EvalValue> plain = runOnPlainHost(kText, 13, {a, b});
  ASSERT_TRUE(plain) << plain.status().toString();
  Result<std::vector<EvalValue>> evaluated = runText(kText, {{"a", a}, {"b", b}});
  ASSERT_TRUE(evaluated) << evaluated.status().toString();
  EXPECT_EQ(valuesOf<float>(*plain), valuesOf<float>((*evaluated)[0]));
}

TEST(NativeKernels, LibraryImageFormatsWithoutThemAreRefused) {
  constexpr const char* kText = R"(
    <ir_version: 10, opset_import: ["" : 20]>
    g (uint8[N] encoded) => (uint8[H, W, C] image) { image = ImageDecoder(encoded) })";
  std::string png = "\x89PNG\r\n\x1a\n and more";
  std::vector<uint8_t> bytes(png.begin(), png.end());
  EvalValue encoded = tensorOf(ElementType::kUint8, {static_cast<int64_t>(bytes.size())}, bytes);
  Result<EvalValue> plain = runOnPlainHost(kText, 20, {encoded});
  ASSERT_FALSE(plain);
  EXPECT_NE(plain.status().message().find("decoding PNG needs the evaluator's image codecs"),
            std::string::npos)
      << plain.status().toString();
}

}  // namespace
}  // namespace onyx
