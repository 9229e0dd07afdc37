// Deep clones of graphs, functions and models: the same bytes when written, no sharing of
// structure, and captured values resolved in the clone's new scope.
#include "onyx/ir/clone.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "onyx/ir/editor.h"
#include "onyx/ir/topo_sort.h"
#include "onyx/serde/model_io.h"
#include "support/conformance.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

using testing::opTypes;
using testing::verified;

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

TEST(Clone, EveryConformanceModelClonesToTheSameBytes) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t identical = 0;
  for (const auto& dir : cases) {
    std::filesystem::path path = dir / "model.onnx";
    std::string original = readFile(path);
    Model clone;
    {
      auto model = loadModel(path.string());
      ASSERT_TRUE(model) << model.status().toString();
      clone = cloneModel(*model);
    }  // the source is gone; the clone keeps what it shares alive
    ASSERT_TRUE(verified(clone)) << dir.filename().string();
    auto written = serializeModel(clone);
    ASSERT_TRUE(written);
    EXPECT_EQ(*written, original) << dir.filename().string();
    identical += *written == original;
  }
  std::cout << identical << "/" << cases.size() << " clones identical\n";
}

struct WithBranch {
  Model model = testing::emptyModel("main");
  GraphEditor edit{model};

  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  Node* relu = nullptr;
  Node* if_node = nullptr;
  Graph* branch = nullptr;

  // relu(x) -> t; If(x) { then: Neg(t) -> n, output n }; outputs: the If's output.
  WithBranch() {
    relu = edit.createNode(g, "Relu", {x});
    g.appendNode(relu);
    if_node = edit.createNode(g, "If", {x});
    g.appendNode(if_node);
    branch = edit.setGraphAttr(if_node, "then_branch");
    Node* neg = edit.createNode(*branch, "Neg", {relu->output(0)});
    branch->appendNode(neg);
    edit.addOutput(*branch, neg->output(0));
    edit.addOutput(g, if_node->output(0));
    EXPECT_TRUE(edit.addInitializer(g, testing::floatTensor(edit.arena(), "w", {1}, {2})));
  }
};

TEST(Clone, AClonedModelSharesNoStructure) {
  WithBranch source;
  Model clone = cloneModel(source.model);
  ASSERT_TRUE(verified(clone));
  std::string before = testing::bytesOf(source.model);
  EXPECT_EQ(testing::bytesOf(clone), before);
  // Changing the clone leaves the source as it was.
  Graph& g = *clone.graph;
  EXPECT_NE(&g, &source.g);
  Node* relu = g.firstNode();
  EXPECT_NE(relu, source.relu);
  Value* x = g.names().find("x");
  EXPECT_NE(x, source.x);
  Node* extra = GraphEditor(clone).createNode(g, "Sigmoid", {x});
  extra->insertAfter(relu);
  relu->output(0)->replaceAllUsesWith(extra->output(0));
  GraphEditor(clone).setIntAttr(g.firstNode()->next()->next(), "k", 1);
  ASSERT_TRUE(verified(clone));
  EXPECT_EQ(testing::bytesOf(source.model), before);
  EXPECT_TRUE(verified(source.model));
  EXPECT_EQ(source.relu->output(0)->useCount(), 1u);
}

TEST(Clone, AClonedTensorOwnsItsRareFields) {
  // The typed data fields, external_data and the rest sit behind one pointer: a clone that
  // copied the pointer would share them with the source.
  Model owner;  // holds what the test builds
  GraphEditor edit{owner};
  Tensor source;
  source.name = "w";
  TensorRareFields& more = edit.rare(&source);
  more.string_data.push_back(edit.arena(), "a");
  more.external_data.push_back(edit.arena(), {"location", "w.bin", {}});
  more.doc_string = "the weights";
  Tensor* clone = edit.cloneTensor(source);
  ASSERT_NE(clone->rare_fields, nullptr);
  EXPECT_NE(clone->rare_fields, source.rare_fields);
  edit.rare(clone).string_data[0] = "b";
  edit.rare(clone).external_data.push_back(edit.arena(), {"offset", "0", {}});
  edit.rare(clone).doc_string = "changed";
  EXPECT_EQ(source.rare().string_data[0], "a");
  EXPECT_EQ(source.rare().external_data.size(), 1u);
  EXPECT_EQ(*source.rare().doc_string, "the weights");
  // A tensor without them clones without them.
  Tensor plain;
  EXPECT_EQ(edit.cloneTensor(plain)->rare_fields, nullptr);
}

TEST(Clone, ASubgraphClonedUnderAnotherNodeReadsTheSameOuterValues) {
  WithBranch source;
  Node* second_if = source.edit.createNode(source.g, "If", {source.x});
  source.g.appendNode(second_if);
  Graph* copy = source.edit.cloneGraph(*source.branch, &source.g, second_if);
  source.edit.setGraphAttr(second_if, "then_branch", copy);
  Value* t = source.relu->output(0);
  EXPECT_EQ(copy->firstNode()->input(0), t);  // the captured value, not a copy
  EXPECT_EQ(t->useCount(), 2u);
  EXPECT_NE(copy->firstNode()->output(0), source.branch->firstNode()->output(0));
  EXPECT_EQ(copy->firstNode()->output(0)->name(), source.branch->firstNode()->output(0)->name());
  EXPECT_TRUE(verified(source.model));
}

TEST(Clone, AGraphClonedIntoAnotherModelResolvesCapturesByName) {
  WithBranch source;
  Model target = testing::emptyModel("other");
  target.shareBytesOf(source.model);
  GraphEditor edit(target);
  Graph& g = *target.graph;
  Value* x = *edit.addInput(g, "x");
  Node* t_producer = edit.createNode(g, "Identity", {x}, 0);
  ASSERT_TRUE(edit.addOutputNamed(t_producer, source.relu->output(0)->name()));
  g.appendNode(t_producer);
  Node* holder = edit.createNode(g, "If", {x});
  g.appendNode(holder);
  edit.setGraphAttr(holder, "then_branch", edit.cloneGraph(*source.branch, &g, holder));
  EXPECT_EQ(holder->graphAttr("then_branch")->firstNode()->input(0), t_producer->output(0));
  EXPECT_TRUE(verified(target));
  // Without an enclosing value of that name, the read stays an undefined value of the clone.
  Graph* alone = edit.cloneGraph(*source.branch);
  Value* read = alone->firstNode()->input(0);
  EXPECT_TRUE(read->isUndefined());
  EXPECT_EQ(read->graph(), alone);
  EXPECT_TRUE(verified(*alone));
}

TEST(Clone, FunctionsCloneWithTheirBodiesAndCanBeAddedUnderANewKey) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);

  Function* function = edit.newFunction("custom", "Twice");
  Value* a = *edit.addInput(*function, "a");
  ASSERT_FALSE(edit.addInput(*function, "a"));
  Node* add = edit.createNode(*function->body, "Add", {a, a});
  function->body->appendNode(add);
  edit.addOutput(*function, add->output(0));
  function->opset_import.emplace_back(edit.arena()).version = 18;
  ASSERT_TRUE(model.addFunction(function));
  Function* copy = edit.cloneFunction(*function);
  EXPECT_FALSE(model.addFunction(copy));  // same key
  copy->overload = "v2";
  ASSERT_TRUE(model.addFunction(copy));
  EXPECT_NE(copy->body, function->body);
  EXPECT_EQ(copy->inputs[0]->useCount(), 2u);
  EXPECT_EQ(copy->outputs[0]->value(), copy->body->firstNode()->output(0));
  EXPECT_TRUE(verified(model));
  Model back = testing::reparse(model);
  ASSERT_EQ(back.functions.size(), 2u);
  EXPECT_EQ(back.findFunction("custom", "Twice", "v2")->body->nodeCount(), 1u);
  EXPECT_TRUE(verified(back));
}

TEST(Clone, RemovedValuesAreNotCopied) {
  WithBranch source;
  Value* w = source.g.names().find("w");
  ASSERT_TRUE(source.g.removeInitializer(w));
  Node* spare = source.edit.createNode(source.g, "Spare", {source.x});
  source.g.appendNode(spare);
  source.edit.setType(spare->output(0), source.edit.tensorType(1, {1}));
  ASSERT_TRUE(spare->destroy());
  Model clone = cloneModel(source.model);
  ASSERT_TRUE(verified(clone));
  EXPECT_TRUE(clone.graph->value_info.empty());
  for (const Value* value : clone.graph->values()) EXPECT_TRUE(value->isAttached());
  EXPECT_EQ(testing::bytesOf(clone), testing::bytesOf(source.model));
}

}  // namespace
}  // namespace onyx
