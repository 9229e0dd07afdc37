// The executor: kernels run, inputs checked before anything runs.
#include <gtest/gtest.h>

#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::runText;
using testing::tensorOf;
using testing::valuesOf;

TEST(Evaluator, RunsAKernel) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[3] x) => (float[3] y) { y = Relu(x) })",
              {{"x", tensorOf<float>(ElementType::kFloat, {3}, {-1.0f, 0.0f, 2.5f})}});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{0.0f, 0.0f, 2.5f}));
}

TEST(Evaluator, AMissingInputIsAnErrorNamingIt) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[3] x, float[3] z) => (float[3] y) { y = Add(x, z) })",
              {{"x", tensorOf<float>(ElementType::kFloat, {3}, {1.0f, 2.0f, 3.0f})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("'z'"), std::string::npos) << out.status().toString();
}

TEST(Evaluator, AnInputOfTheWrongShapeIsRefusedBeforeRunning) {
  Result<std::vector<EvalValue>> out =
      runText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[3] x) => (float[3] y) { y = Relu(x) })",
              {{"x", tensorOf<float>(ElementType::kFloat, {2}, {1.0f, 2.0f})}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("dimension 0"), std::string::npos)
      << out.status().toString();
}

}  // namespace
}  // namespace onyx
