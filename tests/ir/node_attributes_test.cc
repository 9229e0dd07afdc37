// Node attributes: typed reading and writing of all 14 kinds, references, and the
// subgraphs graph attributes own. Every change is followed by verifyModel.
#include <gtest/gtest.h>

#include "onyx/core/element_type.h"
#include "onyx/ir/graph.h"
#include "support/graph_testing.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

using testing::verified;
constexpr int32_t kFloat = static_cast<int32_t>(ElementType::kFloat);

struct OneNode {
  Model model = testing::emptyModel();
  Arena& arena = model.arena();
  Graph& g = *model.graph;
  Value* x = *g.addInput(arena, "x");
  Node* node = nullptr;

  OneNode() {
    node = g.createNode(arena, "Custom", {x});
    g.appendNode(node);
    g.addOutput(arena, node->output(0));
  }
};

SparseTensor* sparseTensor(Arena& arena, std::string_view name) {
  auto* sparse = arena.make<SparseTensor>();
  sparse->values = testing::floatTensor(arena, name, {2}, {5, 6});
  sparse->indices = arena.make<Tensor>();
  sparse->indices->data_type = static_cast<int32_t>(ElementType::kInt64);
  sparse->indices->dims.values.push_back(arena, 2);
  sparse->indices->raw_data = arena.copy(std::string("\1\0\0\0\0\0\0\0\3\0\0\0\0\0\0\0", 16));
  sparse->dims.values.push_back(arena, 4);
  return sparse;
}

// Sets one attribute of every kind on `node`.
void setAllKinds(Arena& arena, Node* node) {
  node->setFloatAttr(arena, "f", 0.5f);
  node->setIntAttr(arena, "i", -3);
  node->setStringAttr(arena, "s", std::string("temporary text"));
  node->setTensorAttr(arena, "t", testing::floatTensor(arena, "t0", {1}, {9}));
  Graph* g = node->setGraphAttr(arena, "g");
  g->name = "body";
  node->setFloatsAttr(arena, "floats", {1.0f, 2.5f});
  node->setIntsAttr(arena, "ints", {4, -5, 6});
  node->setStringsAttr(arena, "strings", {"a", "bc"});
  Tensor* const tensors[] = {testing::floatTensor(arena, "t1", {1}, {1}),
                             testing::floatTensor(arena, "t2", {1}, {2})};
  node->setTensorsAttr(arena, "tensors", tensors);
  Graph* const graphs[] = {newGraph(arena), newGraph(arena)};
  graphs[0]->name = "first";
  graphs[1]->name = "second";
  node->setGraphsAttr(arena, "graphs", graphs);
  node->setSparseTensorAttr(arena, "sparse_tensor", sparseTensor(arena, "sp"));
  SparseTensor* const sparse[] = {sparseTensor(arena, "sp1")};
  node->setSparseTensorsAttr(arena, "sparse_tensors", sparse);
  node->setTypeAttr(arena, "tp", Type::tensor(arena, kFloat, {Dim("N")}));
  Type* const types[] = {Type::tensor(arena, kFloat, {}),
                         Type::sequence(arena, Type::tensor(arena, kFloat, {1}))};
  node->setTypesAttr(arena, "type_protos", types);
}

void expectAllKinds(const Node& node) {
  EXPECT_EQ(node.floatAttr("f"), 0.5f);
  EXPECT_EQ(node.intAttr("i"), -3);
  EXPECT_EQ(node.stringAttr("s").value_or(""), "temporary text");
  ASSERT_NE(node.tensorAttr("t"), nullptr);
  EXPECT_EQ(node.tensorAttr("t")->nameOrEmpty(), "t0");
  ASSERT_NE(node.graphAttr("g"), nullptr);
  EXPECT_EQ(node.graphAttr("g")->name.value_or(""), "body");
  EXPECT_EQ(std::vector<float>(node.floatsAttr("floats").begin(), node.floatsAttr("floats").end()),
            (std::vector<float>{1.0f, 2.5f}));
  EXPECT_EQ(std::vector<int64_t>(node.intsAttr("ints").begin(), node.intsAttr("ints").end()),
            (std::vector<int64_t>{4, -5, 6}));
  ASSERT_EQ(node.stringsAttr("strings").size(), 2u);
  EXPECT_EQ(node.stringsAttr("strings")[1], "bc");
  ASSERT_EQ(node.tensorsAttr("tensors").size(), 2u);
  EXPECT_EQ(node.tensorsAttr("tensors")[1]->nameOrEmpty(), "t2");
  ASSERT_EQ(node.graphsAttr("graphs").size(), 2u);
  EXPECT_EQ(node.graphsAttr("graphs")[1]->name.value_or(""), "second");
  ASSERT_NE(node.sparseTensorAttr("sparse_tensor"), nullptr);
  EXPECT_EQ(node.sparseTensorAttr("sparse_tensor")->values->nameOrEmpty(), "sp");
  ASSERT_EQ(node.sparseTensorsAttr("sparse_tensors").size(), 1u);
  ASSERT_NE(node.typeAttr("tp"), nullptr);
  EXPECT_EQ(formatType(*node.typeAttr("tp")), "float[N]");
  ASSERT_EQ(node.typesAttr("type_protos").size(), 2u);
  EXPECT_EQ(formatType(*node.typesAttr("type_protos")[1]), "seq(float[1])");
  const AttributeKind kinds[] = {
      AttributeKind::kFloat,     AttributeKind::kInt,          AttributeKind::kString,
      AttributeKind::kTensor,    AttributeKind::kGraph,        AttributeKind::kFloats,
      AttributeKind::kInts,      AttributeKind::kStrings,      AttributeKind::kTensors,
      AttributeKind::kGraphs,    AttributeKind::kSparseTensor, AttributeKind::kSparseTensors,
      AttributeKind::kTypeProto, AttributeKind::kTypeProtos};
  ASSERT_EQ(node.attributes.size(), 14u);
  for (size_t i = 0; i < 14; ++i) EXPECT_EQ(node.attributes[i]->kind(), kinds[i]) << i;
}

TEST(NodeAttributes, AllFourteenKindsSetReadAndSurviveARoundTrip) {
  OneNode one;
  setAllKinds(one.arena, one.node);
  expectAllKinds(*one.node);
  EXPECT_TRUE(verified(one.model));
  EXPECT_EQ(one.g.subgraphs().size(), 3u);
  Model back = testing::reparse(one.model);
  expectAllKinds(*back.graph->firstNode());
  EXPECT_TRUE(verified(back));
  EXPECT_EQ(testing::bytesOf(back), testing::bytesOf(one.model));
}

TEST(NodeAttributes, GettersGiveNothingForAnotherKindOrAnAbsentName) {
  OneNode one;
  one.node->setIntAttr(one.arena, "axis", 1);
  EXPECT_EQ(one.node->floatAttr("axis"), std::nullopt);
  EXPECT_FALSE(one.node->stringAttr("axis").has_value());
  EXPECT_TRUE(one.node->intsAttr("axis").empty());
  EXPECT_EQ(one.node->graphAttr("axis"), nullptr);
  EXPECT_EQ(one.node->intAttr("missing"), std::nullopt);
  EXPECT_FALSE(one.node->hasAttr("missing"));
  EXPECT_TRUE(one.node->hasAttr("axis"));
}

TEST(NodeAttributes, SettingAgainReplacesInPlaceAndRemoveDeletes) {
  OneNode one;
  one.node->setIntAttr(one.arena, "a", 1);
  one.node->setIntAttr(one.arena, "b", 2);
  one.node->setIntAttr(one.arena, "c", 3);
  one.node->setFloatAttr(one.arena, "b", 2.5f).rare(one.arena).doc_string = "now a float";
  ASSERT_EQ(one.node->attributes.size(), 3u);
  EXPECT_EQ(one.node->attributes[1]->nameOrEmpty(), "b");
  EXPECT_EQ(one.node->floatAttr("b"), 2.5f);
  EXPECT_EQ(one.node->intAttr("b"), std::nullopt);
  EXPECT_TRUE(one.node->removeAttr("a"));
  EXPECT_FALSE(one.node->removeAttr("a"));
  ASSERT_EQ(one.node->attributes.size(), 2u);
  EXPECT_EQ(one.node->attributes[0]->nameOrEmpty(), "b");
  Model back = testing::reparse(one.model);
  EXPECT_EQ(back.graph->firstNode()->floatAttr("b"), 2.5f);
  EXPECT_EQ(back.graph->firstNode()->attribute("b")->rare().doc_string.value_or(""), "now a float");
}

TEST(NodeAttributes, ReferencesToFunctionAttributes) {
  Model model = testing::emptyModel();
  Arena& arena = model.arena();
  Function* function = newFunction(arena, "custom", "Scale");
  function->attribute.push_back(arena, "factor");
  Value* in = *function->addInput(arena, "in");
  Node* mul = function->body->createNode(arena, "Mul", {in, in});
  function->body->appendNode(mul);
  mul->setAttrRef(arena, "alpha", AttributeKind::kFloat, "factor");
  function->addOutput(arena, mul->output(0));
  ASSERT_TRUE(model.addFunction(function));
  const Attribute* alpha = mul->attribute("alpha");
  ASSERT_NE(alpha, nullptr);
  EXPECT_TRUE(alpha->isReference());
  EXPECT_EQ(alpha->kind(), AttributeKind::kFloat);
  EXPECT_EQ(mul->floatAttr("alpha"), std::nullopt);  // no value of its own
  EXPECT_TRUE(verified(model));
  Model back = testing::reparse(model);
  const Attribute* read = back.functions[0]->body->firstNode()->attribute("alpha");
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->rare().ref_attr_name.value_or(""), "factor");
  EXPECT_TRUE(verified(back));
}

TEST(NodeAttributes, SubgraphsAreOwnedByTheNodeAndReadOuterValues) {
  OneNode one;
  Graph* body = one.node->setGraphAttr(one.arena, "body");
  EXPECT_EQ(body->parent(), &one.g);
  EXPECT_EQ(body->owner(), one.node);
  Node* inner = body->createNode(one.arena, "Neg", {one.x});
  body->appendNode(inner);
  body->addOutput(one.arena, inner->output(0));
  EXPECT_EQ(one.x->useCount(), 2u);
  EXPECT_TRUE(verified(one.model));
  // A graph built apart is adopted.
  Graph* apart = newGraph(one.arena);
  one.node->setGraphAttr(one.arena, "other", apart);
  EXPECT_EQ(apart->parent(), &one.g);
  EXPECT_EQ(apart->owner(), one.node);
  EXPECT_TRUE(verified(one.model));
  // Replacing the attribute discards the old subgraph and its reads of x.
  one.node->setIntAttr(one.arena, "body", 0);
  EXPECT_EQ(one.x->useCount(), 1u);
  EXPECT_EQ(body->parent(), nullptr);
  EXPECT_EQ(one.g.subgraphs().size(), 1u);
  EXPECT_TRUE(verified(one.model));
  EXPECT_TRUE(one.node->removeAttr("other"));
  EXPECT_TRUE(one.g.subgraphs().empty());
  EXPECT_TRUE(verified(one.model));
}

TEST(NodeAttributes, SettingTheSameSubgraphAgainKeepsIt) {
  OneNode one;
  Graph* body = one.node->setGraphAttr(one.arena, "body");
  Node* inner = body->createNode(one.arena, "Neg", {one.x});
  body->appendNode(inner);
  one.node->setGraphAttr(one.arena, "body", body);
  EXPECT_EQ(one.node->graphAttr("body"), body);
  EXPECT_EQ(inner->input(0), one.x);
  EXPECT_EQ(one.g.subgraphs().size(), 1u);
  EXPECT_TRUE(verified(one.model));
}

TEST(NodeAttributes, KindsOfAttributesWithoutATypeFieldAreInferred) {
  using testing::ProtoBuilder;
  namespace f = testing::field;
  ProtoBuilder node = testing::nodeProto({"x"}, {"y"}, "n", "Custom");
  node.message(f::node::kAttribute,
               ProtoBuilder().bytes(f::attribute::kName, "alpha").floatField(f::attribute::kF, 2))
      .message(f::node::kAttribute, ProtoBuilder()
                                        .bytes(f::attribute::kName, "axes")
                                        .packedVarints(f::attribute::kInts, {0, 1}));
  ProtoBuilder graph;
  graph.message(f::graph::kNode, node).bytes(f::graph::kName, "g");
  Model model = testing::parseOwned(testing::modelWithGraph(graph, 1).str());
  const Node& read = *model.graph->firstNode();
  EXPECT_FALSE(read.attribute("alpha")->type.has_value());
  EXPECT_EQ(read.attribute("alpha")->kind(), AttributeKind::kFloat);
  EXPECT_EQ(read.floatAttr("alpha"), 2.0f);
  EXPECT_EQ(read.intsAttr("axes").size(), 2u);
}

}  // namespace
}  // namespace onyx
