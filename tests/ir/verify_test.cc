// verifyModel / verifyGraph: silent on every conformance model, and loud on each kind of
// broken invariant.
#include "onyx/ir/verify.h"

#include <gtest/gtest.h>

#include "ir/graph_builder.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/editor.h"
#include "onyx/serde/model_io.h"
#include "support/conformance.h"
#include "support/graph_testing.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

// The tests break invariants on purpose, through the links the API keeps private.
using B = ir_internal::GraphBuilder;
using testing::ProtoBuilder;
namespace f = testing::field;

TEST(Verify, EveryConformanceModelVerifies) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t verified = 0;
  for (const auto& dir : cases) {
    auto model = loadModel((dir / "model.onnx").string());
    ASSERT_TRUE(model) << model.status().toString();
    Status status = verifiedStatus(verifyModel(*model));
    EXPECT_TRUE(status) << dir.filename().string() << ": " << status.toString();
    verified += status.isOk();
  }
  std::cout << verified << "/" << cases.size() << " verified\n";
}

// The model of DecoderScope: relu(x) -> t; If(cond) { then: Identity(t) -> o }.
Model ifModel() {
  ProtoBuilder then_graph;
  then_graph.message(f::graph::kNode, testing::nodeProto({"t"}, {"o"}, "inner", "Identity"))
      .bytes(f::graph::kName, "then")
      .message(f::graph::kOutput, testing::valueInfo("o", 1, {2}));
  ProtoBuilder attribute;
  attribute.bytes(f::attribute::kName, "then_branch")
      .message(f::attribute::kG, then_graph)
      .varint(f::attribute::kType, testing::attribute_type::kGraph);
  ProtoBuilder if_node = testing::nodeProto({"cond"}, {"r"}, "if", "If");
  if_node.message(f::node::kAttribute, attribute);
  ProtoBuilder graph;
  graph.message(f::graph::kNode, testing::nodeProto({"x"}, {"t"}, "relu", "Relu"))
      .message(f::graph::kNode, if_node)
      .bytes(f::graph::kName, "main")
      .message(f::graph::kInitializer, testing::floatTensor("w", {1}, {1.0f}))
      .message(f::graph::kInput, testing::valueInfo("x", 1, {2}))
      .message(f::graph::kInput, testing::valueInfo("cond", 9, {}))
      .message(f::graph::kOutput, testing::valueInfo("r", 1, {2}));
  return testing::parseOwned(testing::modelWithGraph(graph).str());
}

// Finds the problem `what` among the diagnostics, each of which names its place.
void expectBroken(const Model& model, std::string_view what) {
  Diagnostics problems = verifyModel(model);
  ASSERT_TRUE(problems.hasErrors()) << "expected: " << what;
  bool found = false;
  for (const Diagnostic& problem : problems.all()) {
    EXPECT_FALSE(problem.path.empty()) << problem.toString();
    EXPECT_EQ(problem.code, ErrorCode::kInternal);
    found |= problem.message.find(what) != std::string::npos;
  }
  EXPECT_TRUE(found) << verifiedStatus(problems).toString();
}

bool hasProblem(const Diagnostics& problems, std::string_view path, std::string_view message) {
  for (const Diagnostic& problem : problems.all()) {
    if (problem.path == path && problem.message == message) return true;
  }
  return false;
}

TEST(Verify, EveryProblemIsADiagnosticNamingItsPlace) {
  Model model = ifModel();
  EXPECT_FALSE(verifyModel(model).hasErrors());
  Node* relu = model.graph->firstNode();
  B::user(&B::inputs(relu)[0]) = nullptr;
  B::outputIndex(relu->output(0)) = 3;
  Diagnostics problems = verifyModel(model);
  EXPECT_GE(problems.errorCount(), 2u);
  EXPECT_TRUE(hasProblem(problems, "graph.node[0](relu).input[0]", "its user is not the node"))
      << verifiedStatus(problems).toString();
  EXPECT_TRUE(hasProblem(problems, "graph.node[0](relu).output[0](t)",
                         "its value does not name this node and index as its producer"))
      << verifiedStatus(problems).toString();
  Status status = verifiedStatus(problems);
  EXPECT_EQ(status.code(), ErrorCode::kInternal);
  EXPECT_NE(status.message().find("graph.node[0](relu).input[0]: its user is not the node"),
            std::string::npos);
}

TEST(Verify, AUseMissingFromItsListIsFound) {
  Model model = ifModel();
  ASSERT_TRUE(testing::verified(model));
  Node* relu = model.graph->firstNode();
  Value* x = relu->input(0);
  Use* slot = &B::inputs(relu)[0];
  B::firstUse(x) = slot->next();  // drop the slot from x's list, keep its value
  expectBroken(model, "is not linked into the use-list of 'x'");
}

TEST(Verify, AStaleUseInAListIsFound) {
  Model model = ifModel();
  Value* x = model.graph->firstNode()->input(0);
  Use* stray = GraphEditor(model).arena().make<Use>();
  stray->set(x);  // a use no node or output holds
  expectBroken(model, "holds a use that no live input or output holds");
}

TEST(Verify, AWrongBackLinkIsFound) {
  Model model = ifModel();
  Node* relu = model.graph->firstNode();
  B::prev(&B::inputs(relu)[0]) = nullptr;
  expectBroken(model, "wrong back link");
}

TEST(Verify, AWrongProducerOrIndexIsFound) {
  Model model = ifModel();
  Value* t = model.graph->firstNode()->output(0);
  B::outputIndex(t) = 3;
  expectBroken(model, "does not name this node and index as its producer");
}

TEST(Verify, AReadOfAnInvisibleValueIsFound) {
  Model model = ifModel();
  Node* if_node = model.graph->firstNode()->next();
  Graph* then_graph = if_node->attributes[0]->g;
  Value* o = then_graph->firstNode()->output(0);
  // The main graph's If reads the branch's inner value: not visible there.
  B::inputs(if_node)[0].set(o);
  expectBroken(model, "which is not visible from its graph");
}

TEST(Verify, NameTableBindingsAreChecked) {
  Model model = ifModel();
  Value* t = model.graph->firstNode()->output(0);
  ASSERT_TRUE(B::names(model.graph).erase("t"));
  expectBroken(model, "is missing from the name table");
  ir_internal::NameTableWriter::put(B::names(model.graph), GraphEditor(model).arena(), t);
  ASSERT_TRUE(testing::verified(model));
  // A second value named "x": not SSA.
  Node* relu = model.graph->firstNode();
  Value* twin = GraphEditor(model).arena().make<Value>();
  B::name(twin) = "x";
  B::graph(twin) = model.graph;
  B::producer(twin) = relu;
  B::outputIndex(twin) = 1;
  B::outputs(relu).push_back(GraphEditor(model).arena(), twin);
  B::values(model.graph).push_back(GraphEditor(model).arena(), twin);
  expectBroken(model, "has the name of another value of the graph (not SSA)");
}

TEST(Verify, ScopesAreChecked) {
  Model model = ifModel();
  Node* if_node = model.graph->firstNode()->next();
  Graph* then_graph = if_node->attributes[0]->g;
  B::owner(then_graph) = model.graph->firstNode();
  expectBroken(model, "its owner is not the node holding it");
  B::owner(then_graph) = if_node;
  B::subgraphs(model.graph).clear();
  expectBroken(model, "is missing from the graph's subgraphs");
}

TEST(Verify, ShadowingIsFound) {
  Model model = ifModel();
  Graph* then_graph = model.graph->firstNode()->next()->attributes[0]->g;
  Value* inner = then_graph->firstNode()->output(0);
  ASSERT_TRUE(B::names(then_graph).erase(inner->name()));
  B::name(inner) = "x";  // the main graph's input
  ir_internal::NameTableWriter::put(B::names(then_graph), GraphEditor(model).arena(), inner);
  expectBroken(model, "shadows a value of an enclosing graph");
}

TEST(Verify, NodeListLinksAreChecked) {
  Model model = ifModel();
  B::nodeCount(model.graph) = 5;
  expectBroken(model, "node_count is 5, the list has 2");
  B::nodeCount(model.graph) = 2;
  B::prev(model.graph->lastNode()) = nullptr;
  expectBroken(model, "its prev link is wrong");
}

TEST(Verify, DeclarationsAreChecked) {
  Model model = ifModel();
  Value* w = model.graph->names().find("w");
  ASSERT_NE(w, nullptr);
  B::initializer(w) = testing::floatTensor(GraphEditor(model).arena(), "w", {1}, {2.0f});
  expectBroken(model, "its initializer is not one of the graph's");
}

TEST(Verify, ARemovedValueStillReadIsFound) {
  Model model = ifModel();
  Value* t = model.graph->firstNode()->output(0);
  B::graph(t) = nullptr;
  expectBroken(model, "which was removed from its graph");
}

TEST(Verify, ASubgraphAloneIgnoresOuterUsesOfOuterValues) {
  Model model = ifModel();
  Graph* then_graph = model.graph->firstNode()->next()->attributes[0]->g;
  EXPECT_TRUE(testing::verified(*then_graph));
  EXPECT_TRUE(testing::verified(*model.graph));
}

}  // namespace
}  // namespace onyx
