// Operator traits: set per version in the op files, read through the registry, and the same
// answer wherever a node is asked about (its graph's scope decides the version).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onyx/ir/graph_scope.h"
#include "onyx/ops/registry.h"
#include "onyx/text/parser.h"

namespace onyx {
namespace {

bool has(std::string_view op, int64_t opset, OpTraits trait) {
  return hasTraits(traitsOf("", op, opset), trait);
}

TEST(OpTraits, CommutativeOperatorsFromTheirNumpyBroadcastingVersions) {
  for (const char* op : {"Add", "Mul", "And", "Or", "Xor", "Equal", "BitwiseAnd", "BitwiseOr",
                         "BitwiseXor", "Sum", "Mean"}) {
    EXPECT_TRUE(has(op, 18, OpTraits::kCommutative)) << op;
  }
  // Before 7 `broadcast` stretches only the second input: swapping changes the meaning.
  EXPECT_FALSE(has("Add", 6, OpTraits::kCommutative));
  EXPECT_FALSE(has("Equal", 1, OpTraits::kCommutative));
  EXPECT_TRUE(has("Add", 7, OpTraits::kCommutative));
  // Max and Min may pick a different zero or NaN with the operands swapped.
  for (const char* op : {"Max", "Min", "Sub", "Div", "Pow", "Less", "MatMul"}) {
    EXPECT_FALSE(has(op, 18, OpTraits::kCommutative)) << op;
  }
}

TEST(OpTraits, ElementwiseShapeOnlyNondeterministicQuantization) {
  for (const char* op : {"Relu", "Sigmoid", "Add", "Max", "Where", "Cast", "Clip", "Not"}) {
    EXPECT_TRUE(has(op, 18, OpTraits::kElementwise)) << op;
  }
  for (const char* op : {"Softmax", "MatMul", "Transpose", "Reshape", "QuantizeLinear"}) {
    EXPECT_FALSE(has(op, 18, OpTraits::kElementwise)) << op;
  }
  for (const char* op : {"Reshape", "Squeeze", "Unsqueeze", "Flatten"}) {
    EXPECT_TRUE(has(op, 11, OpTraits::kShapeOnly)) << op;
    EXPECT_TRUE(has(op, 21, OpTraits::kShapeOnly)) << op;
  }
  EXPECT_FALSE(has("Transpose", 18, OpTraits::kShapeOnly));
  for (const char* op : {"Bernoulli", "Dropout", "Multinomial", "RandomNormal", "RandomUniform",
                         "RandomNormalLike", "RandomUniformLike"}) {
    EXPECT_TRUE(has(op, 18, OpTraits::kNondeterministic)) << op;
  }
  for (const char* op : {"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear"}) {
    EXPECT_TRUE(has(op, 21, OpTraits::kQuantization)) << op;
  }
  for (const char* op : {"Shape", "Size"}) {
    EXPECT_TRUE(has(op, 1, OpTraits::kReadsShape)) << op;
    EXPECT_TRUE(has(op, 25, OpTraits::kReadsShape)) << op;
  }
  EXPECT_FALSE(has("Reshape", 18, OpTraits::kReadsShape));
  EXPECT_EQ(traitsOf("com.example", "Add", 1), OpTraits::kNone);
  EXPECT_EQ(traitsOf("", "NoSuchOperator", 18), OpTraits::kNone);
}

TEST(OpTraits, NamesInFlagOrder) {
  EXPECT_EQ(traitNames(OpTraits::kElementwise | OpTraits::kCommutative),
            (std::vector<std::string_view>{"commutative", "elementwise"}));
  EXPECT_TRUE(traitNames(OpTraits::kNone).empty());
}

TEST(OpTraits, ANodeIsAskedAtItsScopesOpset) {
  // The function body imports the default domain at 6, the model at 17: Add in the body is
  // the legacy one, not commutative; in the main graph it is.
  Result<Model> model = parseText(R"(
    <ir_version: 8, opset_import: ["" : 17, "local" : 1]>
    g (float[2] x) => (float[2] y) {
      s = Add (x, x)
      y = local.F (s)
    }
    <domain: "local", opset_import: ["" : 6]>
    F (a) => (b) { b = Add (a, a) })");
  ASSERT_TRUE(model) << model.status().toString();
  const Node& in_main = **model->graph->nodes().begin();
  const Node& in_body = **model->functions[0]->body->nodes().begin();
  EXPECT_TRUE(hasTraits(traitsOf(in_main, scopeOf(*model, in_main)), OpTraits::kCommutative));
  EXPECT_FALSE(hasTraits(traitsOf(in_body, scopeOf(*model, in_body)), OpTraits::kCommutative));
  EXPECT_EQ(traitsOf(in_body, scopeOf(*model, in_body)), OpTraits::kNone);
}

}  // namespace
}  // namespace onyx
