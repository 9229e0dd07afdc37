// Graph: inputs, outputs, initializers (dense and sparse), value_info, annotations,
// metadata, walking every node, and compaction. Every change is followed by verifyModel.
#include <gtest/gtest.h>

#include "onyx/core/element_type.h"
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
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  auto x = g.addInput(arena, std::string("x"), Type::tensor(arena, kFloat, {2}));
  ASSERT_TRUE(x);
  EXPECT_TRUE((*x)->isGraphInput());
  EXPECT_EQ(g.lookup("x"), *x);
  EXPECT_FALSE(g.addInput(arena, "x"));  // taken
  EXPECT_FALSE(g.addInput(arena, ""));
  Value* y = *g.addInput(arena, "y");
  Node* relu = g.createNode(arena, "Relu", {*x});
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
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  auto w = g.addInitializer(arena, testing::floatTensor(arena, "w", {2}, {1, 2}));
  ASSERT_TRUE(w);
  EXPECT_EQ((*w)->initializer(), g.initializers[0]);
  EXPECT_FALSE(g.addInitializer(arena, testing::floatTensor(arena, "w", {1}, {0})));
  EXPECT_FALSE(g.addInitializer(arena, testing::floatTensor(arena, "", {1}, {0})));
  auto* sparse = arena.make<SparseTensor>();
  sparse->values = testing::floatTensor(arena, "s", {1}, {3});
  sparse->indices = arena.make<Tensor>();
  sparse->indices->data_type = static_cast<int32_t>(ElementType::kInt64);
  sparse->indices->dims.values.push_back(arena, 1);
  sparse->indices->raw_data = arena.copy(std::string(8, '\0'));
  sparse->dims.values.push_back(arena, 4);
  auto s = g.addSparseInitializer(arena, sparse);
  ASSERT_TRUE(s);
  EXPECT_EQ((*s)->sparseInitializer(), sparse);
  Node* add = g.createNode(arena, "Add", {*w, *s});
  g.appendNode(add);
  g.addOutput(arena, add->output(0));
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
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  std::vector<Value*> values;
  for (const char* name : {"a", "b", "c", "d"}) {
    values.push_back(*g.addInitializer(arena, testing::floatTensor(arena, name, {1}, {1})));
  }
  // An input's default: removing it leaves the input.
  Value* bias = *g.addInput(arena, "bias", Type::tensor(arena, kFloat, {1}));
  ASSERT_TRUE(g.addInitializer(arena, testing::floatTensor(arena, "bias", {1}, {0})));
  Node* neg = g.createNode(arena, "Neg", {values[2]});
  g.appendNode(neg);
  g.addOutput(arena, neg->output(0));
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
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  Value* bias = *g.addInput(arena, "bias", Type::tensor(arena, kFloat, {1}));
  auto defaulted = g.addInitializer(arena, testing::floatTensor(arena, "bias", {1}, {0.5f}));
  ASSERT_TRUE(defaulted);
  EXPECT_EQ(*defaulted, bias);
  EXPECT_TRUE(bias->isGraphInput() && bias->isInitializer());
  Node* neg = g.createNode(arena, "Neg", {bias});
  g.appendNode(neg);
  EXPECT_TRUE(verified(model));
  // Without its default it is still an input; without its input, still an initializer.
  ASSERT_TRUE(g.removeInitializer(bias));
  EXPECT_TRUE(bias->isAttached());
  ASSERT_TRUE(g.addInitializer(arena, testing::floatTensor(arena, "bias", {1}, {0.5f})));
  ASSERT_TRUE(g.removeInput(bias));
  EXPECT_TRUE(bias->isAttached());
  EXPECT_TRUE(bias->isInitializer());
  EXPECT_TRUE(verified(model));
  // An initializer first, then the input joins it.
  auto joined = g.addInput(arena, "bias");
  ASSERT_TRUE(joined);
  EXPECT_EQ(*joined, bias);
  EXPECT_TRUE(verified(model));
}

TEST(GraphOutputs, AddAndRemove) {
  Model model = testing::emptyModel();
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  Value* x = *g.addInput(arena, "x", Type::tensor(arena, kFloat, {3}));
  Node* relu = g.createNode(arena, "Relu", {x});
  g.appendNode(relu);
  Value* y = relu->output(0);
  y->setType(arena, Type::tensor(arena, kFloat, {3}));
  g.addOutput(arena, y);
  g.addOutput(arena, x);  // an input can be an output too
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
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  Value* x = *g.addInput(arena, "x");
  Node* relu = g.createNode(arena, "Relu", {x});
  g.appendNode(relu);
  Value* y = relu->output(0);
  g.addOutput(arena, y);
  EXPECT_EQ(y->valueInfo(), g.outputs[0]);
  y->setType(arena, Type::tensor(arena, kFloat, {Dim("N")}));
  EXPECT_EQ(formatType(*g.outputs[0]->type), "float[N]");
  EXPECT_TRUE(g.value_info.empty());
  ASSERT_TRUE(g.removeOutput(0));
  EXPECT_EQ(y->valueInfo(), nullptr);
  EXPECT_TRUE(verified(model));
}

TEST(GraphOutputs, OutputTypesFollowTheValuesType) {
  Model model = testing::emptyModel();
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  Value* x = *g.addInput(arena, "x", Type::tensor(arena, kFloat, {2}));
  Node* relu = g.createNode(arena, "Relu", {x});
  g.appendNode(relu);
  Value* y = relu->output(0);
  y->setType(arena, Type::tensor(arena, kFloat, {2}));  // a value_info entry
  g.addOutput(arena, y);
  g.addOutput(arena, x);
  y->setType(arena, Type::tensor(arena, kFloat, {Dim("B")}));
  x->setType(arena, Type::tensor(arena, kFloat, {Dim("B")}));
  EXPECT_EQ(formatType(*g.value_info[0]->type), "float[B]");
  EXPECT_EQ(formatType(*g.outputs[0]->type), "float[B]");
  EXPECT_EQ(formatType(*g.outputs[1]->type), "float[B]");
  EXPECT_EQ(formatType(*g.inputs[0]->type), "float[B]");
  EXPECT_TRUE(verified(model));
}

TEST(GraphValueInfo, EntriesOfRemovedValuesAreNotWrittenAndGoAtCompaction) {
  Model model = testing::emptyModel();
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  Value* x = *g.addInput(arena, "x");
  std::vector<Node*> nodes;
  for (int i = 0; i < 40; ++i) {
    Node* n = g.createNode(arena, "Relu", {x});
    g.appendNode(n);
    n->output(0)->setType(arena, Type::tensor(arena, kFloat, {i + 1}));
    nodes.push_back(n);
  }
  g.addOutput(arena, nodes.back()->output(0));
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
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  Value* x = *g.addInput(arena, "x");
  TensorAnnotation& annotation = g.quantizationAnnotation(arena, "x");
  setMetadata(arena, annotation.quant_parameter_tensor_names, "SCALE_TENSOR", "x_scale");
  setMetadata(arena, annotation.quant_parameter_tensor_names, "ZERO_POINT_TENSOR", "x_zp");
  EXPECT_EQ(&g.quantizationAnnotation(arena, "x"), &annotation);  // found, not made again
  setMetadata(arena, g.metadata_props, "author", "me");
  setMetadata(arena, g.metadata_props, "author", "you");
  EXPECT_EQ(metadataValue(g.metadata_props, "author"), "you");
  EXPECT_EQ(g.metadata_props.size(), 1u);
  Node* n = g.createNode(arena, "Relu", {x});
  g.appendNode(n);
  setMetadata(arena, n->rare(arena).metadata_props, "origin", "pass");
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
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  Value* x = *g.addInput(arena, "x");
  Node* a = g.createNode(arena, "A", {x});
  g.appendNode(a);
  Node* loop = g.createNode(arena, "Loop", {});
  g.appendNode(loop);
  Graph* body = loop->setGraphAttr(arena, "body");
  Node* inner = body->createNode(arena, "B", {a->output(0)});
  body->appendNode(inner);
  Graph* deeper = inner->setGraphAttr(arena, "g");
  deeper->appendNode(deeper->createNode(arena, "C", {x}));
  Node* last = g.createNode(arena, "D", {x});
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
  Arena& arena = model.arena();
  TrainingInfo& training = model.addTrainingInfo();
  ASSERT_NE(training.algorithm, nullptr);
  EXPECT_EQ(training.algorithm->parent(), nullptr);
  Value* lr = *training.algorithm->addInput(arena, "lr");
  Node* node = training.algorithm->createNode(arena, "If", {lr});
  training.algorithm->appendNode(node);
  Graph* branch = node->setGraphAttr(arena, "then_branch");
  EXPECT_EQ(branch->lookup("lr"), lr);
  EXPECT_TRUE(training.algorithm->encloses(branch));
  EXPECT_FALSE(branch->encloses(training.algorithm));
  EXPECT_EQ(model.graph->lookup("lr"), nullptr);  // another root
  EXPECT_TRUE(verified(model));
}

}  // namespace
}  // namespace onyx
