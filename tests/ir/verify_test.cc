// verifyModel / verifyGraph: silent on every conformance model, and loud on each kind of
// broken invariant.
#include "onyx/ir/verify.h"

#include <gtest/gtest.h>

#include "onyx/ir/clone.h"
#include "onyx/serde/model_io.h"
#include "support/conformance.h"
#include "support/graph_testing.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

using testing::ProtoBuilder;
namespace f = testing::field;

TEST(Verify, EveryConformanceModelVerifies) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t verified = 0;
  for (const auto& dir : cases) {
    auto model = loadModel((dir / "model.onnx").string());
    ASSERT_TRUE(model) << model.status().toString();
    Status status = verifyModel(*model);
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

void expectBroken(const Model& model, std::string_view what) {
  Status status = verifyModel(model);
  ASSERT_FALSE(status) << "expected: " << what;
  EXPECT_NE(status.message().find(what), std::string::npos) << status.message();
}

TEST(Verify, AUseMissingFromItsListIsFound) {
  Model model = ifModel();
  ASSERT_TRUE(testing::verified(model));
  Node* relu = model.graph->first_node;
  Value* x = relu->inputs[0].value;
  x->first_use = relu->inputs[0].next;  // drop the slot from x's list, keep its value
  expectBroken(model, "is not linked into the use-list of 'x'");
}

TEST(Verify, AStaleUseInAListIsFound) {
  Model model = ifModel();
  Value* x = model.graph->first_node->inputs[0].value;
  Use* stray = model.arena().make<Use>();
  stray->set(x);  // a use no node or output holds
  expectBroken(model, "holds a use that no live input or output holds");
}

TEST(Verify, AWrongBackLinkIsFound) {
  Model model = ifModel();
  Node* relu = model.graph->first_node;
  Use** wrong = nullptr;
  relu->inputs[0].prev = wrong;
  expectBroken(model, "wrong back link");
}

TEST(Verify, AWrongProducerOrIndexIsFound) {
  Model model = ifModel();
  Value* t = model.graph->first_node->outputs[0];
  t->output_index = 3;
  expectBroken(model, "does not name this node and index as its producer");
}

TEST(Verify, AReadOfAnInvisibleValueIsFound) {
  Model model = ifModel();
  Node* if_node = model.graph->first_node->next;
  Graph* then_graph = if_node->attributes[0]->g;
  Value* o = then_graph->first_node->outputs[0];
  // The main graph's If reads the branch's inner value: not visible there.
  if_node->inputs[0].set(o);
  expectBroken(model, "which is not visible from its graph");
}

TEST(Verify, NameTableBindingsAreChecked) {
  Model model = ifModel();
  Value* t = model.graph->first_node->outputs[0];
  ASSERT_TRUE(model.graph->names.erase("t"));
  expectBroken(model, "is missing from the name table");
  model.graph->names.put(model.arena(), t);
  ASSERT_TRUE(testing::verified(model));
  // A second value named "x": not SSA.
  Node* relu = model.graph->first_node;
  Value* twin = model.arena().make<Value>();
  twin->name = "x";
  twin->graph = model.graph;
  twin->producer = relu;
  twin->output_index = 1;
  relu->outputs.push_back(model.arena(), twin);
  model.graph->values.push_back(model.arena(), twin);
  expectBroken(model, "has the name of another value of the graph (not SSA)");
}

TEST(Verify, ScopesAreChecked) {
  Model model = ifModel();
  Node* if_node = model.graph->first_node->next;
  Graph* then_graph = if_node->attributes[0]->g;
  then_graph->owner = model.graph->first_node;
  expectBroken(model, "its owner is not the node holding it");
  then_graph->owner = if_node;
  model.graph->subgraphs.clear();
  expectBroken(model, "is missing from the graph's subgraphs");
}

TEST(Verify, ShadowingIsFound) {
  Model model = ifModel();
  Graph* then_graph = model.graph->first_node->next->attributes[0]->g;
  Value* inner = then_graph->first_node->outputs[0];
  ASSERT_TRUE(then_graph->names.erase(inner->name));
  inner->name = "x";  // the main graph's input
  then_graph->names.put(model.arena(), inner);
  expectBroken(model, "shadows a value of an enclosing graph");
}

TEST(Verify, NodeListLinksAreChecked) {
  Model model = ifModel();
  model.graph->node_count = 5;
  expectBroken(model, "node_count is 5, the list has 2");
  model.graph->node_count = 2;
  model.graph->last_node->prev = nullptr;
  expectBroken(model, "its prev link is wrong");
}

TEST(Verify, DeclarationsAreChecked) {
  Model model = ifModel();
  Value* w = model.graph->names.find("w");
  ASSERT_NE(w, nullptr);
  w->initializer = testing::floatTensor(model.arena(), "w", {1}, {2.0f});
  expectBroken(model, "its initializer is not one of the graph's");
}

TEST(Verify, ARemovedValueStillReadIsFound) {
  Model model = ifModel();
  Value* t = model.graph->first_node->outputs[0];
  t->graph = nullptr;
  expectBroken(model, "which was removed from its graph");
}

TEST(Verify, ASubgraphAloneIgnoresOuterUsesOfOuterValues) {
  Model model = ifModel();
  Graph* then_graph = model.graph->first_node->next->attributes[0]->g;
  EXPECT_TRUE(testing::verified(*then_graph));
  EXPECT_TRUE(testing::verified(*model.graph));
}

}  // namespace
}  // namespace onyx
