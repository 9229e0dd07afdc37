// Node attributes: typed reading and writing of all 14 kinds, references, and the
// subgraphs graph attributes own. Every change is followed by verifyModel.
#include <gtest/gtest.h>

#include "onyx/core/element_type.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "support/graph_testing.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

using testing::verified;
constexpr int32_t kFloat = static_cast<int32_t>(ElementType::kFloat);

struct OneNode {
  Model model = testing::emptyModel();
  GraphEditor edit{model};
  Graph& g = *model.graph;
  Value* x = *edit.addInput(g, "x");
  Node* node = nullptr;

  OneNode() {
    node = edit.createNode(g, "Custom", {x});
    g.appendNode(node);
    edit.addOutput(g, node->output(0));
  }
};

SparseTensor* sparseTensor(const GraphEditor& edit, std::string_view name) {
  auto* sparse = edit.arena().make<SparseTensor>();
  sparse->values = testing::floatTensor(edit.arena(), name, {2}, {5, 6});
  sparse->indices = edit.arena().make<Tensor>();
  sparse->indices->data_type = static_cast<int32_t>(ElementType::kInt64);
  sparse->indices->dims.values.push_back(edit.arena(), 2);
  sparse->indices->raw_data =
      edit.arena().copy(std::string("\1\0\0\0\0\0\0\0\3\0\0\0\0\0\0\0", 16));
  sparse->dims.values.push_back(edit.arena(), 4);
  return sparse;
}

// Sets one attribute of every kind on `node`.
void setAllKinds(const GraphEditor& edit, Node* node) {
  edit.setFloatAttr(node, "f", 0.5f);
  edit.setIntAttr(node, "i", -3);
  edit.setStringAttr(node, "s", std::string("temporary text"));
  edit.setTensorAttr(node, "t", testing::floatTensor(edit.arena(), "t0", {1}, {9}));
  Graph* g = edit.setGraphAttr(node, "g");
  g->name = "body";
  edit.setFloatsAttr(node, "floats", {1.0f, 2.5f});
  edit.setIntsAttr(node, "ints", {4, -5, 6});
  edit.setStringsAttr(node, "strings", {"a", "bc"});
  Tensor* const tensors[] = {testing::floatTensor(edit.arena(), "t1", {1}, {1}),
                             testing::floatTensor(edit.arena(), "t2", {1}, {2})};
  edit.setTensorsAttr(node, "tensors", tensors);
  Graph* const graphs[] = {edit.newGraph(), edit.newGraph()};
  graphs[0]->name = "first";
  graphs[1]->name = "second";
  edit.setGraphsAttr(node, "graphs", graphs);
  edit.setSparseTensorAttr(node, "sparse_tensor", sparseTensor(edit, "sp"));
  SparseTensor* const sparse[] = {sparseTensor(edit, "sp1")};
  edit.setSparseTensorsAttr(node, "sparse_tensors", sparse);
  edit.setTypeAttr(node, "tp", edit.tensorType(kFloat, {Dim("N")}));
  Type* const types[] = {edit.tensorType(kFloat, {}),
                         edit.sequenceType(edit.tensorType(kFloat, {1}))};
  edit.setTypesAttr(node, "type_protos", types);
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
  setAllKinds(one.edit, one.node);
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
  one.edit.setIntAttr(one.node, "axis", 1);
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
  one.edit.setIntAttr(one.node, "a", 1);
  one.edit.setIntAttr(one.node, "b", 2);
  one.edit.setIntAttr(one.node, "c", 3);
  one.edit.rare(&one.edit.setFloatAttr(one.node, "b", 2.5f)).doc_string = "now a float";
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
  GraphEditor edit(model);

  Function* function = edit.newFunction("custom", "Scale");
  function->attribute.push_back(edit.arena(), "factor");
  Value* in = *edit.addInput(*function, "in");
  Node* mul = edit.createNode(*function->body, "Mul", {in, in});
  function->body->appendNode(mul);
  edit.setAttrRef(mul, "alpha", AttributeKind::kFloat, "factor");
  edit.addOutput(*function, mul->output(0));
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
  Graph* body = one.edit.setGraphAttr(one.node, "body");
  EXPECT_EQ(body->parent(), &one.g);
  EXPECT_EQ(body->owner(), one.node);
  Node* inner = one.edit.createNode(*body, "Neg", {one.x});
  body->appendNode(inner);
  one.edit.addOutput(*body, inner->output(0));
  EXPECT_EQ(one.x->useCount(), 2u);
  EXPECT_TRUE(verified(one.model));
  // A graph built apart is adopted.
  Graph* apart = one.edit.newGraph();
  one.edit.setGraphAttr(one.node, "other", apart);
  EXPECT_EQ(apart->parent(), &one.g);
  EXPECT_EQ(apart->owner(), one.node);
  EXPECT_TRUE(verified(one.model));
  // Replacing the attribute discards the old subgraph and its reads of x.
  one.edit.setIntAttr(one.node, "body", 0);
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
  Graph* body = one.edit.setGraphAttr(one.node, "body");
  Node* inner = one.edit.createNode(*body, "Neg", {one.x});
  body->appendNode(inner);
  one.edit.setGraphAttr(one.node, "body", body);
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
