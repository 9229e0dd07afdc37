// misfitsOf: the one answer to "does this node fit this operator version", which the checker
// reports rule by rule and the opset converter refuses a step with.
#include "onyx/ops/signature_fit.h"

#include <gtest/gtest.h>

#include "onyx/ops/registry.h"
#include "support/check_testing.h"

namespace onyx {
namespace {

std::vector<Misfit::Kind> kindsOf(const std::vector<Misfit>& misfits) {
  std::vector<Misfit::Kind> kinds;
  for (const Misfit& misfit : misfits) kinds.push_back(misfit.kind);
  return kinds;
}

const Node& nodeOf(const Model& model) { return *model.graph->firstNode(); }

TEST(SignatureFit, ANodeThatFitsHasNoMisfits) {
  Model model = testing::parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[2] x) => (float[2] y) { y = LeakyRelu <alpha = 0.1, __private = 1> (x) })");
  const OpSchema* schema = findSchema("", "LeakyRelu", 13);
  ASSERT_NE(schema, nullptr);
  // An implementation's internal symbol ("__...") is outside every signature.
  EXPECT_TRUE(misfitsOf(*schema, NodeSignatureView(nodeOf(model))).empty());
}

TEST(SignatureFit, AttributesUndeclaredAndMissingComeFirstInOrder) {
  Model model = testing::parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[2,3] x) => (float[3,2] y) { y = Transpose <a = 1, perm = [1, 0], b = 2> (x) })");
  std::vector<Misfit> misfits =
      misfitsOf(*findSchema("", "Transpose", 13), NodeSignatureView(nodeOf(model)));
  ASSERT_EQ(misfits.size(), 2u);
  EXPECT_EQ(misfits[0].kind, Misfit::Kind::kUndeclaredAttribute);
  EXPECT_EQ(misfits[0].index, 0u);
  EXPECT_EQ(misfits[1].index, 2u);
  Model cast = testing::parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[2] x) => (int64[2] y) { y = Cast (x) })");
  misfits = misfitsOf(*findSchema("", "Cast", 13), NodeSignatureView(nodeOf(cast)));
  ASSERT_EQ(misfits.size(), 1u);
  EXPECT_EQ(misfits[0].kind, Misfit::Kind::kMissingAttribute);
  EXPECT_EQ(std::string_view(misfits[0].spec->name), "to");
}

TEST(SignatureFit, ATrailingOmittedInputCountsAndARequiredOneMayNotBeLeftOut) {
  // Relu takes one input: a second slot, even left out, is one too many (as onnx counts).
  Model model = testing::parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[2] x, float[2] w) => (float[2] y, float[2] z) {
      y = Relu (x, "")
      z = Add ("", w)
    })");
  const Node& relu = nodeOf(model);
  EXPECT_EQ(kindsOf(misfitsOf(*findSchema("", "Relu", 13), NodeSignatureView(relu))),
            std::vector<Misfit::Kind>{Misfit::Kind::kInputCount});
  std::vector<Misfit> add = misfitsOf(*findSchema("", "Add", 13), NodeSignatureView(*relu.next()));
  ASSERT_EQ(kindsOf(add), std::vector<Misfit::Kind>{Misfit::Kind::kOmittedInput});
  EXPECT_EQ(add[0].index, 0u);
}

}  // namespace
}  // namespace onyx
