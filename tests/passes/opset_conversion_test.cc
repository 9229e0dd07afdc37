// Opset conversion: steps crossed by their adapters, every blocking node named, nothing
// changed when a conversion is refused, each scope converted by its own imports.
#include "onyx/passes/opset_conversion.h"

#include <gtest/gtest.h>

#include "onyx/check/checker.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ops/registry.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

using testing::listed;
using testing::parseOrFail;

TEST(OpsetConversion, AReluCrossesATypesOnlyStepAndTheModelChecks) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 14]>
    g (float[2] x) => (float[2] y) {
      y = Relu (x)
    })");
  Result<ConversionSummary> done = convertOpset(model, 13);
  ASSERT_TRUE(done) << done.status().toString();
  EXPECT_EQ(model.opsetVersion(""), 13);
  EXPECT_EQ(done->nodes_seen, 1u);
  EXPECT_EQ(done->nodes_changed, 0u);  // nothing but the import changes
  Diagnostics found = checkModel(model);
  EXPECT_FALSE(found.hasErrors()) << listed(found);
}

TEST(OpsetConversion, ARefusalNamesEveryBlockingNodeAndChangesNothing) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 14]>
    g (int8[2] a, int32[2] b, float[2] c) => (int8[2] y, int32[2] z, float[2] w) {
      y = Relu (a)
      z = Relu (b)
      w = Relu (c)
    })");
  std::string before = testing::bytesOf(model);
  Result<ConversionSummary> done = convertOpset(model, 13);
  ASSERT_FALSE(done);
  EXPECT_EQ(done.status().code(), ErrorCode::kUnsupported);
  const std::string& message = done.status().message();
  EXPECT_NE(message.find("2 nodes cannot cross"), std::string::npos) << message;
  EXPECT_NE(message.find("graph.node[0]: Relu 14 to 13: input 0 is int8[2]"), std::string::npos)
      << message;
  EXPECT_NE(message.find("graph.node[1]: Relu 14 to 13: input 0 is int32[2]"), std::string::npos)
      << message;
  EXPECT_EQ(message.find("graph.node[2]"), std::string::npos) << message;
  EXPECT_EQ(testing::bytesOf(model), before);
}

// Before IR 4 an initializer listed as an input is a constant (onyx/ir/constant_value.h): a
// step that needs an input's values reads it, as it would not at IR 4 and later.
TEST(OpsetConversion, BeforeIrFourAnInitializerListedAsAnInputIsAConstant) {
  for (int ir_version : {3, 8}) {
    Model model = parseOrFail(R"(<ir_version: )" + std::to_string(ir_version) + R"(,
      opset_import: ["" : 6]>
      g (float[2,12] x, int64[2] shape) => (float[3,8] y) <int64[2] shape = {3, 8}> {
        y = Reshape (x, shape)
      })");
    Result<ConversionSummary> done = convertOpset(model, 4);
    if (ir_version >= 4) {
      EXPECT_FALSE(done) << "a default the caller may override is no attribute";
      continue;
    }
    ASSERT_TRUE(done) << done.status().toString();
    const Node& reshape = *model.graph->firstNode();
    ASSERT_TRUE(reshape.hasAttr("shape"));
    std::span<const int64_t> shape = reshape.intsAttr("shape");
    EXPECT_EQ(std::vector<int64_t>(shape.begin(), shape.end()), (std::vector<int64_t>{3, 8}));
  }
}

TEST(OpsetConversion, EveryStepOfEveryOperatorIsReviewed) {
  // The converter refuses a step nobody reviewed; none is left.
  std::vector<std::string> unreviewed;
  for (const Operator* op : allOperators()) {
    bool first = true;
    for (const OpSchema& version : op->versions) {
      if (!first && !version.step.reviewed) {
        unreviewed.push_back(std::string(op->name) + " " + std::to_string(version.since_version));
      }
      first = false;
    }
  }
  EXPECT_TRUE(unreviewed.empty()) << ::testing::PrintToString(unreviewed);
}

TEST(OpsetConversion, AStepNeedingTwoNodesAddsTheSecondAndKeepsTheOutputsName) {
  // Shape 15's start and end have no form in Shape 13: a Slice of the whole shape follows,
  // and takes over the output, its readers (a node and the graph) and its name.
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 15]>
    g (float[2,3,4] x) => (int64[2] dims, int64[2] twice) {
      dims = Shape <start = 1> (x)
      twice = Add (dims, dims)
    })");
  Result<ConversionSummary> done = convertOpset(model, 13);
  ASSERT_TRUE(done) << done.status().toString();
  EXPECT_EQ(testing::opTypes(*model.graph), "Shape Slice Add");
  EXPECT_EQ(model.graph->outputs[0]->bound()->name(), "dims");
  EXPECT_EQ(model.graph->outputs[0]->bound()->producer()->opType(), "Slice");
  EXPECT_FALSE(model.graph->firstNode()->hasAttr("start"));
  Diagnostics found = checkModel(model);
  EXPECT_FALSE(found.hasErrors()) << listed(found);
}

TEST(OpsetConversion, ANodeCanGainANodeBeforeAndAfter) {
  // Softmax 13 along axis 1 of a 3-D input has no form in Softmax 11 but through its last
  // axis: a Transpose moves axis 1 last and another moves it back.
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[2,3,4] x) => (float[2,3,4] probabilities) {
      probabilities = Softmax <axis = 1> (x)
    })");
  Result<ConversionSummary> done = convertOpset(model, 11);
  ASSERT_TRUE(done) << done.status().toString();
  EXPECT_EQ(testing::opTypes(*model.graph), "Transpose Softmax Transpose");
  const Node* softmax = model.graph->firstNode()->next();
  EXPECT_EQ(softmax->intAttr("axis"), 2);
  EXPECT_EQ(model.graph->outputs[0]->bound()->name(), "probabilities");
  Diagnostics found = checkModel(model);
  EXPECT_FALSE(found.hasErrors()) << listed(found);
}

TEST(OpsetConversion, UpFromOpsetOneDropsTheConsumedInputsHint) {
  Model model = parseOrFail(R"(
    <ir_version: 3, opset_import: ["" : 1]>
    g (float[2] x) => (float[2] y) {
      y = Relu <consumed_inputs = [0]> (x)
    })");
  Result<ConversionSummary> done = convertOpset(model, 6);
  ASSERT_TRUE(done) << done.status().toString();
  EXPECT_EQ(done->nodes_changed, 1u);
  EXPECT_FALSE(model.graph->firstNode()->hasAttr("consumed_inputs"));
  EXPECT_EQ(model.opsetVersion(""), 6);
  Diagnostics found = checkModel(model);
  EXPECT_FALSE(found.hasErrors()) << listed(found);
}

TEST(OpsetConversion, AnOperatorYoungerThanTheTargetWithoutABodyIsRefused) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 14]>
    g (float[2,2] x) => (float[2,2] y) {
      y = Trilu (x)
    })");
  Result<ConversionSummary> done = convertOpset(model, 13);
  ASSERT_FALSE(done);
  EXPECT_NE(done.status().message().find("graph.node[0]: Trilu does not exist before opset 14"),
            std::string::npos)
      << done.status().message();
}

// Gelu is younger than opset 19, but the spec defines it as a function of operators that
// opset 19 has: the node becomes its body, which computes what it did.
TEST(OpsetConversion, AnOperatorYoungerThanTheTargetBecomesItsFunctionBody) {
  const char* text = R"(
    <ir_version: 9, opset_import: ["" : 20]>
    g (float[5] x) => (float[5] y) {
      h = Gelu <approximate = "tanh"> (x)
      y = Neg (h)
    })";
  Model model = parseOrFail(text);
  std::vector<NamedValue> inputs = {
      {"x", testing::tensorOf<float>(ElementType::kFloat, {5}, {-3.0f, -0.5f, 0.0f, 0.7f, 2.5f})}};
  std::vector<std::vector<float>> before = testing::floatOutputs(model, inputs);
  Result<ConversionSummary> done = convertOpset(model, 13);
  ASSERT_TRUE(done) << done.status().toString();
  EXPECT_EQ(done->nodes_expanded, 1u);
  EXPECT_EQ(model.opsetVersion(""), 13);
  EXPECT_EQ(testing::opTypes(*model.graph).find("Gelu"), std::string::npos)
      << testing::opTypes(*model.graph);
  Diagnostics found = checkModel(model);
  EXPECT_FALSE(found.hasErrors()) << listed(found);
  std::vector<std::vector<float>> after = testing::floatOutputs(model, inputs);
  ASSERT_EQ(after.size(), 1u);
  ASSERT_EQ(before.size(), 1u);
  for (size_t i = 0; i < before[0].size(); ++i) {
    EXPECT_NEAR(after[0][i], before[0][i], 1e-6) << "element " << i;
  }
}

// CastLike's body is a Cast to the element type of its second input, here a value no type is
// declared for: inference knows it.
TEST(OpsetConversion, ABodyThatNeedsAnInputTypeGetsItFromInference) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 19]>
    g (float[3] x, int32[3] t) => (int32[3] y) {
      like = Abs (t)
      y = CastLike (x, like)
    })");
  Result<ConversionSummary> done = convertOpset(model, 13);
  ASSERT_TRUE(done) << done.status().toString();
  EXPECT_EQ(testing::opTypes(*model.graph), "Abs Cast");
  const Node* cast = model.graph->lastNode();
  EXPECT_EQ(cast->intAttr("to"), static_cast<int64_t>(ElementType::kInt32));
  Diagnostics found = checkModel(model);
  EXPECT_FALSE(found.hasErrors()) << listed(found);
}

// LayerNormalization's body holds an int64 Constant, which opset 8 cannot write: the body is
// taken back, the model is as it was, and the error says what in the body blocks.
TEST(OpsetConversion, ABodyThatCannotCrossIsTakenBack) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,4] x, float[4] scale, float[4] bias) => (float[2,4] y, float[2,4] z) {
      y = LayerNormalization <axis = -1> (x, scale, bias)
      z = Relu (x)
    })");
  std::string before = testing::bytesOf(model);
  Result<ConversionSummary> done = convertOpset(model, 8);
  ASSERT_FALSE(done);
  const std::string& message = done.status().message();
  EXPECT_NE(message.find("1 node cannot cross"), std::string::npos) << message;
  EXPECT_NE(message.find("graph.node[0]: LayerNormalization does not exist before opset 17, "
                         "and its function body cannot cross either:"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("Constant 9 to 1"), std::string::npos) << message;
  EXPECT_EQ(testing::bytesOf(model), before);
}

TEST(OpsetConversion, ANestedNodeIsNamedByItsPath) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 14]>
    g (bool c, int8[2] a) => (int8[2] y) {
      y = If (c) <then_branch = then () => (int8[2] t) { t = Relu (a) },
                  else_branch = other () => (int8[2] e) { e = Relu (a) }>
    })");
  Result<ConversionSummary> done = convertOpset(model, 13);
  ASSERT_FALSE(done);
  EXPECT_NE(done.status().message().find(
                "graph.node[0].attribute[1](else_branch).g.node[0]: Relu 14 to 13"),
            std::string::npos)
      << done.status().message();
  EXPECT_NE(done.status().message().find(
                "graph.node[0].attribute[0](then_branch).g.node[0]: Relu 14 to 13"),
            std::string::npos)
      << done.status().message();
}

// A body is put before its node: a node that reads what is computed after it (here its own
// output, a cycle the fuzzer wrote) keeps its refusal, and the model stays as it was.
TEST(OpsetConversion, ANodeReadingWhatComesAfterItIsNotExpanded) {
  Model model = parseOrFail(R"(
    <ir_version: 9, opset_import: ["" : 20]>
    g (float[2] x) => (float[2] y) {
      y = Gelu (y)
    })");
  std::string before = testing::bytesOf(model);
  Result<ConversionSummary> done = convertOpset(model, 19);
  ASSERT_FALSE(done);
  EXPECT_NE(done.status().message().find("graph.node[0]: Gelu does not exist before opset 20"),
            std::string::npos)
      << done.status().message();
  EXPECT_EQ(testing::bytesOf(model), before);
}

// All or nothing across graphs: the main graph's Softmax converts (a Transpose before it), but
// the same step in the If's branch would put its Transpose before the Relu it reads (the
// branch lists its nodes out of order), which the branch's patch refuses. The main graph,
// whose patch comes first, stays as it was too.
TEST(OpsetConversion, ALaterGraphsRefusedPatchLeavesEveryGraphAsItWas) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[2,3,4] x, bool c) => (float[2,3,4] y, float[2,3,4] z) {
      y = Softmax <axis = 1> (x)
      z = If (c) <then_branch = t () => (float[2,3,4] s) {
          s = Softmax <axis = 1> (r)
          r = Relu (x)
        }, else_branch = e () => (float[2,3,4] s2) {
          s2 = Identity (x)
        }>
    })");
  std::string before = testing::bytesOf(model);
  Result<ConversionSummary> done = convertOpset(model, 12);
  ASSERT_FALSE(done);
  EXPECT_NE(done.status().message().find("would read a value defined after it"), std::string::npos)
      << done.status().message();
  EXPECT_EQ(testing::bytesOf(model), before);
  // In order, both graphs convert.
  Model sorted = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[2,3,4] x, bool c) => (float[2,3,4] y, float[2,3,4] z) {
      y = Softmax <axis = 1> (x)
      z = If (c) <then_branch = t () => (float[2,3,4] s) {
          r = Relu (x)
          s = Softmax <axis = 1> (r)
        }, else_branch = e () => (float[2,3,4] s2) {
          s2 = Identity (x)
        }>
    })");
  done = convertOpset(sorted, 12);
  ASSERT_TRUE(done) << done.status().toString();
  EXPECT_EQ(done->nodes_changed, 2u);
  Diagnostics found = checkModel(sorted);
  EXPECT_FALSE(found.hasErrors()) << listed(found);
}

TEST(OpsetConversion, AFunctionBodyIsConvertedByItsOwnImports) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 14, "local" : 1]>
    g (float[2] x) => (float[2] y) {
      y = local.Act (x)
    }
    <domain: "local", opset_import: ["" : 14]>
    Act (a) => (b) {
      b = Relu (a)
    })");
  Result<ConversionSummary> done = convertOpset(model, 13);
  ASSERT_TRUE(done) << done.status().toString();
  EXPECT_EQ(done->nodes_seen, 1u);  // the Relu in the body
  EXPECT_EQ(OpsetImports(model.functions[0]->opset_import).versionOf(""), 13);
  EXPECT_EQ(model.opsetVersion(""), 13);
  EXPECT_EQ(model.opsetVersion("local"), 1);
}

TEST(OpsetConversion, ATargetOutsideTheKnownVersionsIsAUsageError) {
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 14]>
    g (float[2] x) => (float[2] y) {
      y = Relu (x)
    })");
  for (int64_t version : {0, 99}) {
    Result<ConversionSummary> done = convertOpset(model, version);
    ASSERT_FALSE(done);
    EXPECT_EQ(done.status().code(), ErrorCode::kInvalidArgument);
  }
  OpsetTarget custom{"com.example", 1};
  Result<ConversionSummary> done = convertOpset(model, std::span<const OpsetTarget>(&custom, 1));
  ASSERT_FALSE(done);
  EXPECT_EQ(done.status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace onyx
