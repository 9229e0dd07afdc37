// Graph: inputs, outputs, initializers (dense and sparse), value_info, annotations,
// metadata, walking every node, and compaction. Every change is followed by verifyModel.
#include <gtest/gtest.h>

#include "onyx/core/element_type.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/metadata.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

using testing::opTypes;
using testing::verified;
constexpr int32_t kFloat = static_cast<int32_t>(ElementType::kFloat);

TEST(GraphInputs, AddAndRemove) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  auto x = edit.addInput(g, std::string("x"), edit.tensorType(kFloat, {2}));
  ASSERT_TRUE(x);
  EXPECT_TRUE((*x)->isGraphInput());
  EXPECT_EQ(g.lookup("x"), *x);
  EXPECT_FALSE(edit.addInput(g, "x"));  // taken
  EXPECT_FALSE(edit.addInput(g, ""));
  Value* y = *edit.addInput(g, "y");
  Node* relu = edit.createNode(g, "Relu", {*x});
  g.appendNode(relu);
  EXPECT_TRUE(verified(model));
  Status refused = g.removeInput(*x);  // read by relu
  EXPECT_FALSE(refused);
  EXPECT_EQ(g.inputs.size(), 2u);
  EXPECT_TRUE(verified(model));
  ASSERT_TRUE(g.removeInput(y));
  EXPECT_EQ(g.inputs.size(), 1u);
  EXPECT_EQ(g.lookup("y"), nullptr);
  EXPECT_FALSE(y->isAttached());
  EXPECT_FALSE(g.removeInput(y));  // not an input any more
  EXPECT_TRUE(verified(model));
  Model back = testing::reparse(model);
  ASSERT_EQ(back.graph->inputs.size(), 1u);
  EXPECT_EQ(back.graph->inputs[0]->bound()->name(), "x");
}

TEST(GraphInitializers, DenseAndSparseAddAndRemove) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Arena& arena = edit.arena();
  Graph& g = *model.graph;
  auto w = edit.addInitializer(g, testing::floatTensor(arena, "w", {2}, {1, 2}));
  ASSERT_TRUE(w);
  EXPECT_EQ((*w)->initializer(), g.initializers[0]);
  EXPECT_FALSE(edit.addInitializer(g, testing::floatTensor(arena, "w", {1}, {0})));
  EXPECT_FALSE(edit.addInitializer(g, testing::floatTensor(arena, "", {1}, {0})));
  auto* sparse = arena.make<SparseTensor>();
  sparse->values = testing::floatTensor(arena, "s", {1}, {3});
  sparse->indices = arena.make<Tensor>();
  sparse->indices->data_type = static_cast<int32_t>(ElementType::kInt64);
  sparse->indices->dims.values.push_back(arena, 1);
  sparse->indices->raw_data = arena.copy(std::string(8, '\0'));
  sparse->dims.values.push_back(arena, 4);
  auto s = edit.addSparseInitializer(g, sparse);
  ASSERT_TRUE(s);
  EXPECT_EQ((*s)->sparseInitializer(), sparse);
  Node* add = edit.createNode(g, "Add", {*w, *s});
  g.appendNode(add);
  edit.addOutput(g, add->output(0));
  EXPECT_TRUE(verified(model));
  Model back = testing::reparse(model);
  EXPECT_EQ(back.graph->firstNode()->input(1)->sparseInitializer(),
            back.graph->sparse_initializers[0]);
  EXPECT_TRUE(verified(back));
  EXPECT_FALSE(g.removeInitializer(*w));  // still read
  add->setInput(0, nullptr);
  add->setInput(1, nullptr);
  ASSERT_TRUE(g.removeInitializer(*w));
  ASSERT_TRUE(g.removeInitializer(*s));
  EXPECT_TRUE(g.initializers.empty());
  EXPECT_TRUE(g.sparse_initializers.empty());
  EXPECT_EQ(g.lookup("w"), nullptr);
  EXPECT_TRUE(verified(model));
}

TEST(GraphInitializers, ManyRemovedAtOnceOrNoneWhenOneIsRead) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Arena& arena = edit.arena();
  Graph& g = *model.graph;
  std::vector<Value*> values;
  for (const char* name : {"a", "b", "c", "d"}) {
    values.push_back(*edit.addInitializer(g, testing::floatTensor(arena, name, {1}, {1})));
  }
  // An input's default: removing it leaves the input.
  Value* bias = *edit.addInput(g, "bias", edit.tensorType(kFloat, {1}));
  ASSERT_TRUE(edit.addInitializer(g, testing::floatTensor(arena, "bias", {1}, {0})));
  Node* neg = edit.createNode(g, "Neg", {values[2]});
  g.appendNode(neg);
  edit.addOutput(g, neg->output(0));
  Value* read = values[2];
  std::vector<Value*> doomed = {values[3], read, values[0]};
  EXPECT_FALSE(g.removeInitializers(doomed));  // c is read: nothing removed
  EXPECT_EQ(g.initializers.size(), 5u);
  doomed = {values[3], values[0], bias, values[0]};  // listed twice: removed once
  ASSERT_TRUE(g.removeInitializers(doomed));
  ASSERT_EQ(g.initializers.size(), 2u);
  EXPECT_EQ(g.initializers[0]->nameOrEmpty(), "b");
  EXPECT_EQ(g.initializers[1]->nameOrEmpty(), "c");
  EXPECT_EQ(g.lookup("a"), nullptr);
  EXPECT_EQ(g.lookup("bias"), bias);
  EXPECT_TRUE(bias->isGraphInput() && !bias->isInitializer());
  EXPECT_TRUE(verified(model));
}

TEST(GraphInitializers, AnInputAndAnInitializerOfOneNameAreOneValue) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Arena& arena = edit.arena();
  Graph& g = *model.graph;
  Value* bias = *edit.addInput(g, "bias", edit.tensorType(kFloat, {1}));
  auto defaulted = edit.addInitializer(g, testing::floatTensor(arena, "bias", {1}, {0.5f}));
  ASSERT_TRUE(defaulted);
  EXPECT_EQ(*defaulted, bias);
  EXPECT_TRUE(bias->isGraphInput() && bias->isInitializer());
  Node* neg = edit.createNode(g, "Neg", {bias});
  g.appendNode(neg);
  EXPECT_TRUE(verified(model));
  // Without its default it is still an input; without its input, still an initializer.
  ASSERT_TRUE(g.removeInitializer(bias));
  EXPECT_TRUE(bias->isAttached());
  ASSERT_TRUE(edit.addInitializer(g, testing::floatTensor(arena, "bias", {1}, {0.5f})));
  ASSERT_TRUE(g.removeInput(bias));
  EXPECT_TRUE(bias->isAttached());
  EXPECT_TRUE(bias->isInitializer());
  EXPECT_TRUE(verified(model));
  // An initializer first, then the input joins it.
  auto joined = edit.addInput(g, "bias");
  ASSERT_TRUE(joined);
  EXPECT_EQ(*joined, bias);
  EXPECT_TRUE(verified(model));
}

TEST(GraphOutputs, AddAndRemove) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x", edit.tensorType(kFloat, {3}));
  Node* relu = edit.createNode(g, "Relu", {x});
  g.appendNode(relu);
  Value* y = relu->output(0);
  edit.setType(y, edit.tensorType(kFloat, {3}));
  edit.addOutput(g, y);
  edit.addOutput(g, x);  // an input can be an output too
  ASSERT_EQ(g.outputs.size(), 2u);
  EXPECT_EQ(formatType(*g.outputs[0]->type), "float[3]");
  EXPECT_TRUE(verified(model));
  ASSERT_TRUE(g.removeOutput(1));
  EXPECT_EQ(x->useCount(), 1u);
  EXPECT_FALSE(g.removeOutput(5));
  EXPECT_TRUE(verified(model));
  Model back = testing::reparse(model);
  ASSERT_EQ(back.graph->outputs.size(), 1u);
  EXPECT_EQ(formatType(*back.graph->outputs[0]->type), "float[3]");
}

TEST(GraphOutputs, AnOutputDeclaresTheTypeOfAValueWithoutOther) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  Node* relu = edit.createNode(g, "Relu", {x});
  g.appendNode(relu);
  Value* y = relu->output(0);
  edit.addOutput(g, y);
  EXPECT_EQ(y->valueInfo(), g.outputs[0]);
  edit.setType(y, edit.tensorType(kFloat, {Dim("N")}));
  EXPECT_EQ(formatType(*g.outputs[0]->type), "float[N]");
  EXPECT_TRUE(g.value_info.empty());
  ASSERT_TRUE(g.removeOutput(0));
  EXPECT_EQ(y->valueInfo(), nullptr);
  EXPECT_TRUE(verified(model));
}

TEST(GraphOutputs, OutputTypesFollowTheValuesType) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x", edit.tensorType(kFloat, {2}));
  Node* relu = edit.createNode(g, "Relu", {x});
  g.appendNode(relu);
  Value* y = relu->output(0);
  edit.setType(y, edit.tensorType(kFloat, {2}));  // a value_info entry
  edit.addOutput(g, y);
  edit.addOutput(g, x);
  edit.setType(y, edit.tensorType(kFloat, {Dim("B")}));
  edit.setType(x, edit.tensorType(kFloat, {Dim("B")}));
  EXPECT_EQ(formatType(*g.value_info[0]->type), "float[B]");
  EXPECT_EQ(formatType(*g.outputs[0]->type), "float[B]");
  EXPECT_EQ(formatType(*g.outputs[1]->type), "float[B]");
  EXPECT_EQ(formatType(*g.inputs[0]->type), "float[B]");
  EXPECT_TRUE(verified(model));
}

TEST(GraphValueInfo, EntriesOfRemovedValuesAreNotWrittenAndGoAtCompaction) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  std::vector<Node*> nodes;
  for (int i = 0; i < 40; ++i) {
    Node* n = edit.createNode(g, "Relu", {x});
    g.appendNode(n);
    edit.setType(n->output(0), edit.tensorType(kFloat, {i + 1}));
    nodes.push_back(n);
  }
  edit.addOutput(g, nodes.back()->output(0));
  EXPECT_EQ(g.value_info.size(), 40u);
  ASSERT_TRUE(nodes[0]->destroy());
  EXPECT_TRUE(g.value_info[0]->isRemoved());
  EXPECT_TRUE(verified(model));
  Model back = testing::reparse(model);
  EXPECT_EQ(back.graph->value_info.size(), 39u);
  EXPECT_EQ(back.graph->nodeCount(), 39u);
  // Removing more than half compacts by itself.
  for (int i = 1; i < 30; ++i) ASSERT_TRUE(nodes[i]->destroy());
  EXPECT_LT(g.values().size(), 41u);  // compacted once already
  EXPECT_LE(g.removedValueCount() * 2, g.values().size() + 32);
  g.compact();
  EXPECT_EQ(g.values().size(), 11u);  // x and ten outputs
  EXPECT_EQ(g.value_info.size(), 10u);
  EXPECT_EQ(g.removedValueCount(), 0u);
  EXPECT_TRUE(verified(model));
  EXPECT_EQ(testing::bytesOf(testing::reparse(model)), testing::bytesOf(model));
}

TEST(GraphAnnotations, QuantizationAnnotationsAndMetadata) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  TensorAnnotation& annotation = edit.quantizationAnnotation(g, "x");
  edit.setMetadata(annotation.quant_parameter_tensor_names, "SCALE_TENSOR", "x_scale");
  edit.setMetadata(annotation.quant_parameter_tensor_names, "ZERO_POINT_TENSOR", "x_zp");
  EXPECT_EQ(&edit.quantizationAnnotation(g, "x"), &annotation);  // found, not made again
  edit.setMetadata(g.metadata_props, "author", "me");
  edit.setMetadata(g.metadata_props, "author", "you");
  EXPECT_EQ(metadataValue(g.metadata_props, "author"), "you");
  EXPECT_EQ(g.metadata_props.size(), 1u);
  Node* n = edit.createNode(g, "Relu", {x});
  g.appendNode(n);
  edit.setMetadata(edit.rare(n).metadata_props, "origin", "pass");
  EXPECT_TRUE(verified(model));
  Model back = testing::reparse(model);
  ASSERT_EQ(back.graph->quantization_annotation.size(), 1u);
  EXPECT_EQ(metadataValue(back.graph->quantization_annotation[0]->quant_parameter_tensor_names,
                          "ZERO_POINT_TENSOR"),
            "x_zp");
  EXPECT_EQ(metadataValue(back.graph->firstNode()->rare().metadata_props, "origin"), "pass");
  EXPECT_TRUE(removeMetadata(g.metadata_props, "author"));
  EXPECT_FALSE(removeMetadata(g.metadata_props, "author"));
  EXPECT_EQ(metadataValue(g.metadata_props, "author"), std::nullopt);
}

TEST(GraphWalk, ForEachNodeVisitsNestedGraphsAndAllowsRewriting) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  Node* a = edit.createNode(g, "A", {x});
  g.appendNode(a);
  Node* loop = edit.createNode(g, "Loop", {});
  g.appendNode(loop);
  Graph* body = edit.setGraphAttr(loop, "body");
  Node* inner = edit.createNode(*body, "B", {a->output(0)});
  body->appendNode(inner);
  Graph* deeper = edit.setGraphAttr(inner, "g");
  deeper->appendNode(edit.createNode(*deeper, "C", {x}));
  Node* last = edit.createNode(g, "D", {x});
  g.appendNode(last);
  std::string order;
  g.forEachNode([&](Node* node) { order += node->opType(); });
  EXPECT_EQ(order, "ALoopBCD");
  // Destroy every node that nothing reads, while walking.
  size_t destroyed = 0;
  g.forEachNode([&](Node* node) {
    bool unused = true;
    for (const Value* out : node->outputs()) unused &= out == nullptr || !out->hasUses();
    if (unused && node->opType() != "A") destroyed += node->destroy().isOk();
  });
  EXPECT_EQ(destroyed, 2u);  // Loop (B and C inside go with it), D
  EXPECT_EQ(opTypes(g), "A");
  EXPECT_TRUE(verified(model));
}

TEST(GraphScopes, NewGraphsAreRootsAndSubgraphsSeeEnclosingValues) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  TrainingInfo& training = model.addTrainingInfo();
  ASSERT_NE(training.algorithm, nullptr);
  EXPECT_EQ(training.algorithm->parent(), nullptr);
  Value* lr = *edit.addInput(*training.algorithm, "lr");
  Node* node = edit.createNode(*training.algorithm, "If", {lr});
  training.algorithm->appendNode(node);
  Graph* branch = edit.setGraphAttr(node, "then_branch");
  EXPECT_EQ(branch->lookup("lr"), lr);
  EXPECT_TRUE(training.algorithm->encloses(branch));
  EXPECT_FALSE(branch->encloses(training.algorithm));
  EXPECT_EQ(model.graph->lookup("lr"), nullptr);  // another root
  EXPECT_TRUE(verified(model));
}

}  // namespace
}  // namespace onyx
