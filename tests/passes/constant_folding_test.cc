// constant-folding: nodes fed only by constants are computed once through the evaluator's
// kernels; random, quantization and unknown operators stay; a fold never grows the model
// beyond the limit; weights in external data that no fold reads stay where they were.
#include <gtest/gtest.h>

#include <filesystem>

#include "onyx/eval/node_evaluator.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/passes/optimize.h"
#include "onyx/serde/model_io.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"
#include "support/pass_testing.h"

namespace onyx {
namespace {

using testing::optimizeChecked;
using testing::opTypes;
using testing::tensorOf;

const std::vector<std::string> kPasses = {"constant-folding", "dead-code"};

std::vector<NamedValue> row() {
  return {{"x", tensorOf<float>(ElementType::kFloat, {1, 4}, {1, -2, 3, -4})}};
}

std::vector<float> initializerFloats(const Graph& graph, std::string_view name) {
  const Value* value = graph.lookup(name);
  if (value == nullptr || value->initializer() == nullptr) return {};
  Result<Array> array = arrayFromTensor(*value->initializer());
  if (!array || array->type() != ElementType::kFloat) return {};
  return std::vector<float>(array->data<float>(), array->data<float>() + array->size());
}

TEST(ConstantFolding, AChainOfConstantsFoldsIntoOneInitializer) {
  auto done = optimizeChecked(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,4] x) => (float[1,4] y) <float[4] w = {1, 2, 3, 4}, double[1] k = {0.5}> {
      kf = Cast <to = 1> (k)
      scaled = Mul (w, kf)
      shifted = Sqrt (scaled)
      y = Add (x, shifted)
    })",
                              kPasses, row());
  const Graph& graph = *done.model.graph;
  EXPECT_EQ(opTypes(graph), "Add");
  EXPECT_EQ(graph.firstNode()->input(1)->name(), "shifted");
  EXPECT_EQ(initializerFloats(graph, "shifted").size(), 4u);
  EXPECT_EQ(graph.initializers.size(), 1u);  // w and k went with the nodes that read them
  EXPECT_EQ(done.changes.nodes_removed, 3u);
}

TEST(ConstantFolding, ConstantNodesFoldAndAFoldedGraphOutputKeepsItsName) {
  auto done = optimizeChecked(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,4] x) => (float[1,4] y, float[2] c) {
      a = Constant <value = float[2] {1, 4}> ()
      c = Sqrt (a)
      y = Relu (x)
    })",
                              kPasses, row());
  const Graph& graph = *done.model.graph;
  EXPECT_EQ(opTypes(graph), "Relu");
  EXPECT_EQ(graph.outputs[1]->bound()->name(), "c");
  EXPECT_EQ(initializerFloats(graph, "c"), (std::vector<float>{1, 2}));
}

TEST(ConstantFolding, RandomAndQuantizationOperatorsStay) {
  auto done = optimizeChecked(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,4] x) => (float[1,4] y, float[4] r)
      <int8[4] q = {1, 2, 3, 4}, float s = {0.5}, int8 z = {0}, float[4] w = {1, 2, 3, 4}> {
      d = DequantizeLinear (q, s, z)
      y = Add (x, d)
      r = RandomNormalLike (w)
    })",
                              kPasses, row());
  EXPECT_EQ(opTypes(*done.model.graph), "DequantizeLinear Add RandomNormalLike");
}

TEST(ConstantFolding, OperatorsOfUnknownDomainsStay) {
  Model model = testing::parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 17, "custom" : 1]>
    g (float[1,4] x) => (float[4] u) <float[4] w = {1, 2, 3, 4}> {
      u = custom.Thing (w)
    })");
  KernelNodeEvaluator evaluator;
  OptimizeOptions options;
  options.passes = kPasses;
  options.node_evaluator = &evaluator;
  ASSERT_TRUE(optimize(model, options));
  EXPECT_EQ(opTypes(*model.graph), "Thing");
}

constexpr std::string_view kLarge = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[1,4] x) => (float[1000,4] y) <int64[2] shape = {1000, 4}> {
    big = ConstantOfShape <value = float[1] {1}> (shape)
    y = Add (x, big)
  })";

TEST(ConstantFolding, AFoldThatWouldGrowTheModelIsRefusedUnlessAllowed) {
  auto done = optimizeChecked(kLarge, kPasses, row());
  EXPECT_EQ(opTypes(*done.model.graph), "ConstantOfShape Add");

  Model model = testing::parseOrFail(kLarge);
  KernelNodeEvaluator evaluator;
  OptimizeOptions options;
  options.passes = kPasses;
  options.node_evaluator = &evaluator;
  options.fold_limit = 16000;
  ASSERT_TRUE(optimize(model, options));
  EXPECT_EQ(opTypes(*model.graph), "Add");
  EXPECT_EQ(initializerFloats(*model.graph, "big").size(), 4000u);
}

TEST(ConstantFolding, WithoutAnEvaluatorNothingFolds) {
  Model model = testing::parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,4] x) => (float[1,4] y) <float[4] w = {1, 2, 3, 4}> {
      r = Sqrt (w)
      y = Add (x, r)
    })");
  OptimizeOptions options;
  options.passes = kPasses;
  ASSERT_TRUE(optimize(model, options));
  EXPECT_EQ(opTypes(*model.graph), "Sqrt Add");
}

TEST(ConstantFolding, InABranchTheResultIsAConstantNode) {
  auto done =
      optimizeChecked(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (bool c, float[1,4] x) => (float[1,4] y) {
      y = If (c) <then_branch = t () => (float[1,4] a) {
        k = Constant <value = float[4] {1, 4, 9, 16}> ()
        r = Sqrt (k)
        a = Add (x, r)
      }, else_branch = e () => (float[1,4] b) {
        b = Neg (x)
      }>
    })",
                      kPasses, {{"c", tensorOf<bool>(ElementType::kBool, {}, {true})}, row()[0]});
  const Graph& branch = *done.model.graph->firstNode()->graphAttr("then_branch");
  EXPECT_EQ(opTypes(branch), "Constant Add");
  EXPECT_EQ(branch.firstNode()->output(0)->name(), "r");
}

// A weight in external data that no fold reads stays a reference to its file; one that a fold
// reads is replaced by the fold's in-memory result.
TEST(ConstantFolding, ExternalWeightsNoFoldReadsStayExternal) {
  namespace fs = std::filesystem;
  fs::path folder = fs::temp_directory_path() / "onyx-constant-folding-external";
  fs::remove_all(folder);
  fs::create_directories(folder);
  // The weights, large enough to go to external data as an exporter writes them.
  auto filled = [](size_t count, std::string_view value) {
    std::string text;
    for (size_t i = 0; i < count; ++i) text += std::string(i ? ", " : "") + std::string(value);
    return text;
  };
  std::string text =
      "<ir_version: 8, opset_import: [\"\" : 17]>\n"
      "g (float[1,64] x) => (float[1,64] y) <float[64,64] w = {" +
      filled(64 * 64, "0.5") + "}, float[64] b = {" + filled(64, "2") +
      "}> {\n"
      "  h = MatMul (x, w)\n"
      "  nb = Neg (b)\n"
      "  y = Add (h, nb)\n"
      "}";
  Model written = testing::parseOrFail(text);
  SaveOptions save;
  save.external_threshold = 128;
  save.external_file = "weights.bin";
  ASSERT_TRUE(saveModel(written, (folder / "model.onnx").string(), save));

  Result<Model> loaded = loadModel((folder / "model.onnx").string());
  ASSERT_TRUE(loaded);
  const Tensor* weight = loaded->graph->lookup("w")->initializer();
  ASSERT_TRUE(weight->isExternal());
  ASSERT_TRUE(loaded->graph->lookup("b")->initializer()->isExternal());
  KernelNodeEvaluator evaluator;
  OptimizeOptions options;
  options.passes = kPasses;
  options.node_evaluator = &evaluator;
  ASSERT_TRUE(optimize(*loaded, options));
  const Graph& optimized = *loaded->graph;
  EXPECT_EQ(opTypes(optimized), "MatMul Add");
  EXPECT_EQ(optimized.lookup("w")->initializer(), weight);  // the same tensor, still a reference
  EXPECT_TRUE(weight->isExternal());
  const Tensor* folded = optimized.lookup("nb")->initializer();
  ASSERT_NE(folded, nullptr);
  EXPECT_FALSE(folded->isExternal());
  EXPECT_EQ(optimized.lookup("b"), nullptr);
  EXPECT_EQ(initializerFloats(optimized, "nb"), std::vector<float>(64, -2.0f));
  fs::remove_all(folder);
}

// An If whose condition is a constant is replaced by the branch it takes, as onnxruntime's
// constant folding does: the branch's nodes, its initializers and the graphs nested in it
// move where the If was, and what the branch reads of the graphs around it it still reads.
TEST(ConstantFolding, AnIfOnAConstantBecomesTheBranchItTakes) {
  for (const char* condition : {"1", "0"}) {
    std::string text = R"(
      <ir_version: 8, opset_import: ["" : 17]>
      g (float[1,4] x) => (float[1,4] y) {
        c = Constant <value = bool {COND}> ()
        y = If (c) <then_branch = t () => (float[1,4] a) <float[4] k = {1, 2, 3, 4}> {
                       m = Mul (x, k)
                       go = Constant <value = bool {1}> ()
                       a = If (go) <then_branch = tt () => (float[1,4] n) { n = Neg (m) },
                                    else_branch = te () => (float[1,4] p) { p = Identity (m) }>
                     },
                     else_branch = e () => (float[1,4] b) { b = Identity (x) }>
      })";
    text.replace(text.find("COND"), 4, condition);
    auto done = optimizeChecked(text, {"constant-folding", "noop", "dead-code"}, row());
    const Graph& graph = *done.model.graph;
    // then: Mul and the inner If's taken branch (Neg); else: x itself, through an Identity
    // that keeps the graph output's name.
    EXPECT_EQ(opTypes(graph), std::string(condition) == "1" ? "Mul Neg" : "Identity") << condition;
    EXPECT_EQ(graph.outputs[0]->bound()->name(), "y");
  }
}

// A branch the copier refuses (it gives one value as two outputs) is left exactly as it was:
// the Identity that would have handed over its outer value, and the graph nested in the
// branch, which the inlining would copy. An If's inlining touches the graph around it, the
// branch and every graph nested in the branch, and is all or nothing across them: the model's
// bytes are the same.
TEST(ConstantFolding, ABranchGivingAValueItDoesNotComputeOrOneValueTwiceGoesThroughIdentities) {
  // The branch gives its initializer, and the nested If's output twice: the If's outputs are
  // handed to what computes them, or to an Identity where the branch computes none (or the
  // value was handed already).
  Model model = testing::parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,4] x, bool s) => (float[1,4] y, float[1,4] z, float[1,4] w) {
      c = Constant <value = bool {1}> ()
      y, z, w = If (c) <then_branch = t () => (float[1,4] k, float[1,4] m, float[1,4] m)
                                            <float[1,4] k = {1, 2, 3, 4}> {
                           m = If (s) <then_branch = it () => (float[1,4] a) { a = Neg (x) },
                                       else_branch = ie () => (float[1,4] b) { b = Abs (x) }>
                         },
                         else_branch = e () => (float[1,4] p, float[1,4] q, float[1,4] r) {
                           p = Relu (x)
                           q = Relu (x)
                           r = Relu (x)
                         }>
    })");
  KernelNodeEvaluator evaluator;
  OptimizeOptions options;
  options.passes = {"constant-folding"};
  options.node_evaluator = &evaluator;
  ASSERT_TRUE(optimize(model, options));
  EXPECT_TRUE(testing::verified(model));
  // y, the branch's initializer through an Identity, folds to a constant itself.
  EXPECT_EQ(opTypes(*model.graph), "Constant If Identity");
  const Node* identity = model.graph->lastNode();
  EXPECT_EQ(identity->input(0)->name(), "z");
  EXPECT_EQ(identity->output(0)->name(), "w");
  EXPECT_NE(model.graph->lookup("y")->initializer(), nullptr);
}

TEST(ConstantFolding, AnIfOnAGraphInputStays) {
  auto done = optimizeChecked(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,4] x, bool c) => (float[1,4] y) {
      y = If (c) <then_branch = t () => (float[1,4] a) { a = Neg (x) },
                  else_branch = e () => (float[1,4] b) { b = Relu (x) }>
    })",
                              kPasses,
                              {{"x", tensorOf<float>(ElementType::kFloat, {1, 4}, {1, -2, 3, -4})},
                               {"c", tensorOf<bool>(ElementType::kBool, {}, {true})}});
  EXPECT_EQ(opTypes(*done.model.graph), "If");
}

// The pass's edits of every graph are one step: made to fail after recording some graphs'
// edits, it leaves the model's bytes as they were.
TEST(ConstantFolding, FailingHalfWayLeavesTheModelAsItWas) {
  testing::expectAllOrNothing(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] y) <float[2] w = {1, 4}> {
      r = Sqrt (w)
      s = Add (x, r)
      y = If (c) <then_branch = t () => (float[2] a) {
                     k = Constant <value = float[2] {1, 2}> ()
                     nk = Neg (k)
                     a = Mul (s, nk)
                   },
                   else_branch = e () => (float[2] b) { b = Identity (s) }>
    })",
                              "constant-folding");
}

}  // namespace
}  // namespace onyx
