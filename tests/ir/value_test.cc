// Value: its type (tensor with known, symbolic and unknown dims; sequence, map, optional,
// sparse), its producer, its use-list (inside its graph and from nested graphs), and
// replacing or renaming it. Every change is followed by verifyModel.
#include <gtest/gtest.h>

#include "onyx/core/element_type.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/unique_names.h"
#include "support/graph_testing.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

using testing::verified;
constexpr int32_t kFloat = static_cast<int32_t>(ElementType::kFloat);
constexpr int32_t kInt64 = static_cast<int32_t>(ElementType::kInt64);
constexpr int32_t kString = static_cast<int32_t>(ElementType::kString);

TEST(ValueLayout, TheGraphApiAddsNothingToTheObjectsALoadMakesPerNodeAndName) {
  // A 200,000-node graph has this many of each: the sizes are the loader's budget.
  EXPECT_EQ(sizeof(Value), 80u);
  EXPECT_EQ(sizeof(Use), 32u);
  EXPECT_EQ(sizeof(Node), 128u);
  EXPECT_EQ(sizeof(Attribute), 136u);
  EXPECT_EQ(sizeof(Tensor), 80u);
}

TEST(ValueType, TensorShapesWithKnownSymbolicAndUnknownDims) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  auto x = edit.addInput(g, "x", edit.tensorType(kFloat, {Dim("N"), 3, Dim()}));
  ASSERT_TRUE(x);
  EXPECT_EQ((*x)->elemType(), kFloat);
  const TensorShape* shape = (*x)->shape();
  ASSERT_NE(shape, nullptr);
  ASSERT_EQ(shape->rank(), 3u);
  EXPECT_TRUE(shape->dims[0].isSymbolic());
  EXPECT_EQ(*shape->dims[0].dim_param, "N");
  EXPECT_TRUE(shape->dims[1].isKnown());
  EXPECT_EQ(*shape->dims[1].dim_value, 3);
  EXPECT_TRUE(shape->dims[2].isUnknown());
  EXPECT_EQ(formatType(*(*x)->type()), "float[N,3,?]");
  auto scalar = edit.addInput(g, "s", edit.tensorType(kInt64, {}));
  ASSERT_TRUE(scalar);
  EXPECT_EQ((*scalar)->shape()->rank(), 0u);
  auto unranked = edit.addInput(g, "u", edit.tensorTypeOfUnknownRank(kFloat));
  ASSERT_TRUE(unranked);
  EXPECT_EQ((*unranked)->shape(), nullptr);
  EXPECT_EQ((*unranked)->elemType(), kFloat);
  EXPECT_TRUE(verified(model));
  // Written and read back, the types are the same.
  Model back = testing::reparse(model);
  EXPECT_EQ(formatType(*back.graph->names().find("x")->type()), "float[N,3,?]");
  EXPECT_EQ(back.graph->names().find("u")->shape(), nullptr);
}

TEST(ValueType, SequenceMapOptionalAndSparseTypes) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Type* seq = edit.sequenceType(edit.tensorType(kFloat, {2}));
  Type* map = edit.mapType(kString, edit.tensorType(kInt64, {}));
  Type* optional = edit.optionalType(edit.sequenceType(edit.tensorType(kFloat, {})));
  Type* sparse = edit.sparseTensorType(kFloat, {10, 10});
  Value* a = *edit.addInput(g, "a", seq);
  Value* b = *edit.addInput(g, "b", map);
  Value* c = *edit.addInput(g, "c", optional);
  Value* d = *edit.addInput(g, "d", sparse);
  EXPECT_EQ(formatType(*a->type()), "seq(float[2])");
  EXPECT_EQ(formatType(*b->type()), "map(string, int64[])");
  EXPECT_EQ(formatType(*c->type()), "optional(seq(float[]))");
  EXPECT_EQ(formatType(*d->type()), "sparse_tensor(float[10,10])");
  EXPECT_EQ(a->elemType(), std::nullopt);  // not a tensor
  EXPECT_EQ(a->shape(), nullptr);
  EXPECT_EQ(d->elemType(), kFloat);
  EXPECT_EQ(d->shape()->rank(), 2u);
  EXPECT_TRUE(verified(model));
  Model back = testing::reparse(model);
  EXPECT_EQ(formatType(*back.graph->names().find("c")->type()), "optional(seq(float[]))");
  EXPECT_EQ(formatType(*back.graph->names().find("b")->type()), "map(string, int64[])");
}

TEST(ValueType, SetTypeDeclaresInValueInfoOrWhereTheValueIsDeclared) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x", nullptr);
  EXPECT_EQ(x->type(), nullptr);
  edit.setType(x, edit.tensorType(kFloat, {4}));
  EXPECT_EQ(formatType(*g.inputs[0]->type), "float[4]");  // on the input itself
  Node* relu = edit.createNode(g, "Relu", {x});
  g.appendNode(relu);
  Value* y = relu->output(0);
  EXPECT_EQ(y->type(), nullptr);
  edit.setType(y, edit.tensorType(kFloat, {4}));
  ASSERT_EQ(g.value_info.size(), 1u);  // a new value_info entry
  EXPECT_EQ(g.value_info[0]->bound(), y);
  edit.setType(y, edit.tensorType(kFloat, {Dim("M")}));
  EXPECT_EQ(g.value_info.size(), 1u);  // the same entry, changed
  EXPECT_EQ(formatType(*y->type()), "float[M]");
  EXPECT_TRUE(verified(model));
  Model back = testing::reparse(model);
  Value* back_y = back.graph->firstNode()->output(0);
  EXPECT_EQ(formatType(*back_y->type()), "float[M]");
  EXPECT_EQ(back_y->valueInfo(), back.graph->value_info[0]);
}

TEST(ValueType, InitializersGiveTheirElementType) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Arena& arena = edit.arena();
  Value* w = *edit.addInitializer(*model.graph, testing::floatTensor(arena, "w", {2}, {1, 2}));
  EXPECT_EQ(w->type(), nullptr);
  EXPECT_EQ(w->elemType(), kFloat);
  EXPECT_TRUE(w->isInitializer());
  EXPECT_FALSE(w->isGraphInput());
}

TEST(ValueType, LoadedValuesFindTheirDeclarationInO1) {
  using testing::ProtoBuilder;
  namespace f = testing::field;
  ProtoBuilder graph;
  graph.message(f::graph::kNode, testing::nodeProto({"x"}, {"t"}, "a", "Relu"))
      .message(f::graph::kNode, testing::nodeProto({"t"}, {"y"}, "b", "Relu"))
      .bytes(f::graph::kName, "g")
      .message(f::graph::kInput, testing::valueInfo("x", kFloat, {2}))
      .message(f::graph::kOutput, testing::valueInfo("y", kFloat, {2}))
      .message(f::graph::kValueInfo, testing::valueInfo("t", kInt64, {2}))
      .message(f::graph::kValueInfo, testing::valueInfo("y", kFloat, {7}));
  Model model = testing::parseOwned(testing::modelWithGraph(graph).str());
  Value* t = model.graph->names().find("t");
  Value* y = model.graph->names().find("y");
  EXPECT_EQ(t->valueInfo(), model.graph->value_info[0]);
  EXPECT_EQ(t->elemType(), kInt64);
  // A value_info entry wins over the output entry.
  EXPECT_EQ(y->valueInfo(), model.graph->value_info[1]);
  EXPECT_EQ(*y->shape()->dims[0].dim_value, 7);
  EXPECT_EQ(model.graph->names().find("x")->valueInfo(), nullptr);  // declared as an input
  EXPECT_TRUE(verified(model));
}

TEST(ValueUses, ProducerAndUseListWithSlotIndices) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  Node* add = edit.createNode(g, "Add", {x, x});
  g.appendNode(add);
  Value* y = add->output(0);
  edit.addOutput(g, y);
  EXPECT_EQ(y->producer(), add);
  EXPECT_EQ(y->outputIndex(), 0u);
  EXPECT_EQ(x->useCount(), 2u);
  std::vector<size_t> slots;
  for (const Use& use : x->uses()) {
    EXPECT_EQ(use.user(), add);
    slots.push_back(use.index());
  }
  std::sort(slots.begin(), slots.end());
  EXPECT_EQ(slots, (std::vector<size_t>{0, 1}));
  ASSERT_EQ(y->useCount(), 1u);
  EXPECT_TRUE(y->uses().begin()->isGraphOutput());
  EXPECT_EQ(graphOf(*y->uses().begin()), &g);
  EXPECT_TRUE(verified(model));
}

TEST(ValueUses, UsesFromNestedGraphsAreInTheSameListAndTellTheirGraph) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* cond = *edit.addInput(g, "cond");
  Value* x = *edit.addInput(g, "x");
  Node* if_node = edit.createNode(g, "If", {cond});
  g.appendNode(if_node);
  Graph* then_branch = edit.setGraphAttr(if_node, "then_branch");
  Node* inner = edit.createNode(*then_branch, "Neg", {x});
  then_branch->appendNode(inner);
  edit.addOutput(*then_branch, inner->output(0));
  Graph* else_branch = edit.setGraphAttr(if_node, "else_branch");
  edit.addOutput(*else_branch, x);  // a branch output that is the outer value itself
  edit.addOutput(g, if_node->output(0));
  EXPECT_TRUE(verified(model));

  EXPECT_TRUE(x->hasUses());  // O(1), nested uses included
  EXPECT_EQ(x->useCount(), 2u);
  EXPECT_TRUE(x->isCaptured());
  EXPECT_FALSE(cond->isCaptured());
  size_t in_then = 0;
  size_t in_else = 0;
  for (const Use& use : x->uses()) {
    Graph* where = graphOf(use);
    in_then += where == then_branch;
    in_else += where == else_branch;
  }
  EXPECT_EQ(in_then, 1u);
  EXPECT_EQ(in_else, 1u);
  EXPECT_EQ(then_branch->lookup("x"), x);  // outer-scope lookup
  EXPECT_EQ(then_branch->names().find("x"), nullptr);
}

TEST(ValueUses, ReplaceAllUsesWithMovesNestedUsesAndOutputs) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* cond = *edit.addInput(g, "cond");
  Value* x = *edit.addInput(g, "x");
  Value* z = *edit.addInput(g, "z");
  Node* if_node = edit.createNode(g, "If", {cond});
  g.appendNode(if_node);
  Graph* then_branch = edit.setGraphAttr(if_node, "then_branch");
  Node* inner = edit.createNode(*then_branch, "Neg", {x});
  then_branch->appendNode(inner);
  edit.addOutput(*then_branch, inner->output(0));
  edit.addOutput(g, x);
  x->replaceAllUsesWith(z);
  EXPECT_FALSE(x->hasUses());
  EXPECT_EQ(z->useCount(), 2u);
  EXPECT_EQ(inner->input(0), z);
  EXPECT_EQ(g.outputs[0]->bound(), z);
  EXPECT_TRUE(verified(model));
  // Back again, only the uses inside the branch.
  z->replaceUsesWith(x, [&](const Use& use) { return graphOf(use) == then_branch; });
  EXPECT_EQ(inner->input(0), x);
  EXPECT_EQ(g.outputs[0]->bound(), z);
  EXPECT_TRUE(verified(model));
  Model back = testing::reparse(model);
  EXPECT_EQ(back.graph->outputs[0]->bound()->name(), "z");
}

TEST(ValueUses, AGraphOutputMovedToAnotherValueDeclaresItsType) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x", edit.tensorType(kFloat, {2}));
  Node* relu = edit.createNode(g, "Relu", {x});
  g.appendNode(relu);
  Node* neg = edit.createNode(g, "Neg", {x});
  g.appendNode(neg);
  Value* r = relu->output(0);
  Value* n = neg->output(0);
  edit.addOutput(g, r);
  edit.setType(r, edit.tensorType(kFloat, {2}));
  ASSERT_EQ(r->valueInfo(), g.outputs[0]);
  // The output entry's type is now n's, as reading the written model would give it.
  r->replaceAllUsesWith(n);
  EXPECT_EQ(n->valueInfo(), g.outputs[0]);
  ASSERT_NE(n->type(), nullptr);
  EXPECT_EQ(formatType(*n->type()), "float[2]");
  EXPECT_EQ(r->type(), nullptr);
  EXPECT_TRUE(verified(model));
  // And back, moving the output only.
  n->replaceUsesWith(r, [](const Use& use) { return use.isGraphOutput(); });
  EXPECT_EQ(r->valueInfo(), g.outputs[0]);
  EXPECT_EQ(n->type(), nullptr);
  EXPECT_TRUE(verified(model));
  // A graph input keeps its own declaration.
  r->replaceAllUsesWith(x);
  EXPECT_EQ(x->valueInfo(), nullptr);
  EXPECT_EQ(x->type(), g.inputs[0]->type);
  EXPECT_TRUE(verified(model));
}

TEST(ValueNames, RenameMovesTheNameAndEveryDeclarationThatSpellsIt) {
  Model model = testing::emptyModel();
  GraphEditor edit(model);
  Arena& arena = edit.arena();
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x", edit.tensorType(kFloat, {2}));
  Value* w = *edit.addInitializer(g, testing::floatTensor(arena, "w", {2}, {1, 2}));
  edit.quantizationAnnotation(g, "w");
  Node* add = edit.createNode(g, "Add", {x, w});
  g.appendNode(add);
  edit.addOutput(g, add->output(0));
  ASSERT_TRUE(edit.rename(w, "weight"));
  ASSERT_TRUE(edit.rename(x, "input"));
  EXPECT_EQ(g.names().find("w"), nullptr);
  EXPECT_EQ(g.names().find("weight"), w);
  EXPECT_EQ(g.initializers[0]->nameOrEmpty(), "weight");
  EXPECT_EQ(g.quantization_annotation[0]->tensor_name.value_or(""), "weight");
  EXPECT_TRUE(verified(model));
  // Names in scope are refused.
  Status taken = edit.rename(x, "weight");
  EXPECT_FALSE(taken);
  EXPECT_EQ(taken.code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE(edit.rename(x, ""));
  Model back = testing::reparse(model);
  Node* back_add = back.graph->firstNode();
  EXPECT_EQ(back_add->input(0)->name(), "input");
  EXPECT_EQ(back_add->input(1)->name(), "weight");
  EXPECT_EQ(back_add->input(1)->initializer(), back.graph->initializers[0]);
  EXPECT_TRUE(verified(back));
}

}  // namespace
}  // namespace onyx
