// How the decoder turns names into values: scopes, forward references, duplicates,
// captures from enclosing graphs; and what it keeps so that the bytes come back the same.
#include <gtest/gtest.h>

#include "ir/graph_builder.h"
#include "onyx/serde/model_io.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

using testing::ProtoBuilder;
namespace f = testing::field;

// The model keeps views into its input, so it gets its own copy to own.
Model parse(const std::string& bytes) {
  auto owned = std::make_shared<const std::string>(bytes);
  auto model = parseModel(*owned, owned);
  EXPECT_TRUE(model) << model.status().toString();
  return std::move(model).value();
}

std::string roundTrip(const std::string& bytes) {
  auto model = parseModel(bytes, nullptr);
  EXPECT_TRUE(model) << model.status().toString();
  if (!model) return {};
  auto written = serializeModel(*model);
  EXPECT_TRUE(written);
  return written ? *written : std::string();
}

size_t useCount(const Value* value) {
  size_t count = 0;
  for (const Use& use : value->uses()) count += use.value() == value ? 1 : 0;
  return count;
}

Node* nodeAt(const Graph& graph, size_t index) {
  Node* node = graph.firstNode();
  while (index-- > 0) node = node->next();
  return node;
}

ProtoBuilder graphAttribute(std::string_view name, const ProtoBuilder& graph) {
  return ProtoBuilder()
      .bytes(f::attribute::kName, name)
      .message(f::attribute::kG, graph)
      .varint(f::attribute::kType, testing::attribute_type::kGraph);
}

// An If node (condition `cond`) whose then_branch reads the outer value "t"; with
// `annotate`, the branch also declares t's type in its value_info.
ProtoBuilder ifReadingOuterT(std::string_view cond, bool annotate) {
  ProtoBuilder then_graph;
  then_graph.message(f::graph::kNode, testing::nodeProto({"t"}, {"o"}, "inner", "Identity"))
      .bytes(f::graph::kName, "then")
      .message(f::graph::kOutput, testing::valueInfo("o", 1, {2}));
  if (annotate) then_graph.message(f::graph::kValueInfo, testing::valueInfo("t", 1, {2}));
  ProtoBuilder if_node = testing::nodeProto({cond}, {"r"}, "if", "If");
  if_node.message(f::node::kAttribute, graphAttribute("then_branch", then_graph));
  return if_node;
}

TEST(DecoderScope, SubgraphReadsOfOuterNamesUseTheOuterValue) {
  ProtoBuilder if_node = ifReadingOuterT("cond", false);
  ProtoBuilder graph;
  graph.message(f::graph::kNode, testing::nodeProto({"x"}, {"t"}, "relu", "Relu"))
      .message(f::graph::kNode, if_node)
      .bytes(f::graph::kName, "main")
      .message(f::graph::kInput, testing::valueInfo("x", 1, {2}))
      .message(f::graph::kInput, testing::valueInfo("cond", 9, {}))
      .message(f::graph::kOutput, testing::valueInfo("r", 1, {2}));
  std::string bytes = testing::modelWithGraph(graph).str();
  Model model = parse(bytes);
  Graph& main = *model.graph;
  Node* relu = nodeAt(main, 0);
  Node* if_op = nodeAt(main, 1);
  Graph* sub = if_op->attributes[0]->g;
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(sub->parent(), &main);
  EXPECT_EQ(sub->owner(), if_op);
  ASSERT_EQ(main.subgraphs().size(), 1u);
  Value* t = relu->output(0);
  Node* inner = sub->firstNode();
  EXPECT_EQ(inner->input(0), t);
  EXPECT_EQ(useCount(t), 1u);
  EXPECT_EQ(t->uses().begin()->user()->graph(), sub);
  // The placeholder the subgraph made for "t" is gone from its scope.
  for (Value* value : sub->values()) EXPECT_NE(value->name(), "t");
  EXPECT_EQ(sub->lookup("t"), t);
  EXPECT_EQ(roundTrip(bytes), bytes);
}

TEST(DecoderScope, ForwardReferencesAndGraphInputsBindToTheirDefinitions) {
  ProtoBuilder graph;
  graph.message(f::graph::kNode, testing::nodeProto({"y"}, {"z"}, "late_reader", "Relu"))
      .message(f::graph::kNode, testing::nodeProto({"x"}, {"y"}, "producer", "Relu"))
      .bytes(f::graph::kName, "g")
      .message(f::graph::kInput, testing::valueInfo("x", 1, {1}))
      .message(f::graph::kOutput, testing::valueInfo("z", 1, {1}));
  std::string bytes = testing::modelWithGraph(graph).str();
  Model model = parse(bytes);
  Graph& g = *model.graph;
  Node* reader = nodeAt(g, 0);
  Node* producer = nodeAt(g, 1);
  EXPECT_EQ(reader->input(0)->producer(), producer);
  Value* x = producer->input(0);
  ASSERT_NE(x->graphInput(), nullptr);
  EXPECT_EQ(x->graphInput(), g.inputs[0]);
  EXPECT_EQ(g.inputs[0]->value, x);
  EXPECT_EQ(g.outputs[0]->output.value(), reader->output(0));
  EXPECT_EQ(useCount(reader->output(0)), 1u);  // the graph output is a use
  EXPECT_EQ(roundTrip(bytes), bytes);
}

TEST(DecoderScope, InitializerThatIsAlsoAnInputIsOneValue) {
  ProtoBuilder graph;
  graph.message(f::graph::kNode, testing::nodeProto({"w"}, {"y"}, "n", "Relu"))
      .bytes(f::graph::kName, "g")
      .message(f::graph::kInitializer, testing::floatTensor("w", {1}, {2.0f}))
      .message(f::graph::kInput, testing::valueInfo("w", 1, {1}))
      .message(f::graph::kOutput, testing::valueInfo("y", 1, {1}));
  std::string bytes = testing::modelWithGraph(graph, 3).str();
  Model model = parse(bytes);
  Value* w = model.graph->firstNode()->input(0);
  EXPECT_EQ(w->initializer(), model.graph->initializers[0]);
  EXPECT_EQ(w->graphInput(), model.graph->inputs[0]);
  EXPECT_FALSE(w->isUndefined());
  EXPECT_EQ(roundTrip(bytes), bytes);
}

TEST(DecoderScope, SecondDefinitionOfANameIsKeptApart) {
  ProtoBuilder graph;
  graph.message(f::graph::kNode, testing::nodeProto({"x"}, {"z"}, "first", "Relu"))
      .message(f::graph::kNode, testing::nodeProto({"x"}, {"z"}, "second", "Relu"))
      .message(f::graph::kNode, testing::nodeProto({"z"}, {"out"}, "reader", "Relu"))
      .bytes(f::graph::kName, "g")
      .message(f::graph::kInput, testing::valueInfo("x", 1, {1}));
  std::string bytes = testing::modelWithGraph(graph).str();
  Model model = parse(bytes);
  Node* first = nodeAt(*model.graph, 0);
  Node* second = nodeAt(*model.graph, 1);
  Node* reader = nodeAt(*model.graph, 2);
  EXPECT_NE(first->output(0), second->output(0));
  EXPECT_EQ(second->output(0)->name(), "z");
  EXPECT_EQ(reader->input(0), first->output(0));
  EXPECT_EQ(roundTrip(bytes), bytes);
}

TEST(DecoderScope, UndefinedNamesAndEmptyOptionalSlotsAreKept) {
  ProtoBuilder graph;
  graph.message(f::graph::kNode, testing::nodeProto({"nowhere", "", "x"}, {"", "y"}, "n", "Op"))
      .bytes(f::graph::kName, "g")
      .message(f::graph::kInput, testing::valueInfo("x", 1, {1}));
  std::string bytes = testing::modelWithGraph(graph).str();
  Model model = parse(bytes);
  Node* node = model.graph->firstNode();
  ASSERT_EQ(node->inputCount(), 3u);
  EXPECT_TRUE(node->input(0)->isUndefined());
  EXPECT_EQ(node->input(1), nullptr);
  EXPECT_EQ(node->output(0), nullptr);
  EXPECT_EQ(node->output(1)->producer(), node);
  EXPECT_EQ(node->output(1)->outputIndex(), 1u);
  EXPECT_EQ(roundTrip(bytes), bytes);
}

TEST(DecoderScope, ValueInfoEntriesBindToTheirValues) {
  ProtoBuilder if_node = ifReadingOuterT("x", true);
  ProtoBuilder graph;
  graph.message(f::graph::kNode, testing::nodeProto({"x"}, {"t"}, "relu", "Relu"))
      .message(f::graph::kNode, if_node)
      .bytes(f::graph::kName, "main")
      .message(f::graph::kInput, testing::valueInfo("x", 1, {2}))
      .message(f::graph::kValueInfo, testing::valueInfo("t", 1, {2}))
      .message(f::graph::kValueInfo, testing::valueInfo("ghost", 1, {2}));
  Model model = parse(testing::modelWithGraph(graph).str());
  Value* t = model.graph->firstNode()->output(0);
  EXPECT_EQ(model.graph->value_info[0]->value, t);
  EXPECT_EQ(model.graph->value_info[1]->value, nullptr);
  Graph* sub = nodeAt(*model.graph, 1)->attributes[0]->g;
  EXPECT_EQ(sub->value_info[0]->value, t);  // an annotation of the outer value
}

TEST(DecoderScope, ValuesTakeTheirTypeFromTheGraphThatDefinesThem) {
  ProtoBuilder if_node = ifReadingOuterT("x", true);  // the branch declares t as float[2]
  ProtoBuilder graph;
  graph.message(f::graph::kNode, testing::nodeProto({"x"}, {"t"}, "relu", "Relu"))
      .message(f::graph::kNode, if_node)
      .bytes(f::graph::kName, "main")
      .message(f::graph::kInput, testing::valueInfo("x", 1, {2}))
      .message(f::graph::kValueInfo, testing::valueInfo("t", 1, {5}));
  Model model = parse(testing::modelWithGraph(graph).str());
  Value* t = model.graph->firstNode()->output(0);
  EXPECT_EQ(t->valueInfo(), model.graph->value_info[0]);
  ASSERT_NE(t->shape(), nullptr);
  EXPECT_EQ(*t->shape()->dims[0].dim_value, 5);
  // The branch's output "o" is declared by the branch's output entry.
  Graph* sub = nodeAt(*model.graph, 1)->attributes[0]->g;
  Value* o = sub->firstNode()->output(0);
  EXPECT_EQ(o->valueInfo(), sub->outputs[0]);
}

TEST(DecoderScope, FunctionBodiesAreScopes) {
  ProtoBuilder function;
  function.bytes(f::function::kName, "Double")
      .bytes(f::function::kInput, "a")
      .bytes(f::function::kOutput, "b")
      .message(f::function::kNode, testing::nodeProto({"a", "a"}, {"b"}, "", "Add"))
      .message(f::function::kOpsetImport, testing::opsetImport("", 13))
      .bytes(f::function::kDomain, "custom");
  ProtoBuilder graph;
  graph.message(f::graph::kNode, testing::nodeProto({"x"}, {"y"}, "call", "Double"))
      .bytes(f::graph::kName, "g")
      .message(f::graph::kInput, testing::valueInfo("x", 1, {1}));
  ProtoBuilder model = testing::modelWithGraph(graph);
  model.message(f::model::kFunctions, function);
  std::string bytes = model.str();
  Model parsed = parse(bytes);
  ASSERT_EQ(parsed.functions.size(), 1u);
  Function& fn = *parsed.functions[0];
  Value* a = fn.inputs[0];
  EXPECT_TRUE(a->isFunctionInput());
  EXPECT_EQ(useCount(a), 2u);
  EXPECT_EQ(fn.outputs[0]->value(), fn.body->firstNode()->output(0));
  EXPECT_EQ(roundTrip(bytes), bytes);
}

TEST(DecoderLossless, UnknownFieldsStayWhereTheyWere) {
  ProtoBuilder node = testing::nodeProto({"x"}, {"y"}, "n", "Relu");
  node.varint(50, 7).bytes(60, "opaque");
  ProtoBuilder graph;
  graph.message(f::graph::kNode, node)
      .bytes(f::graph::kName, "g")
      .varint(3, 1)  // GraphProto field 3 was ir_version in IR 1; reserved now
      .message(f::graph::kInput, testing::valueInfo("x", 1, {1}))
      .fixed64(99, 0x0123456789abcdefull);
  std::string bytes = testing::modelWithGraph(graph).str() + ProtoBuilder().varint(1000, 5).str();
  Model model = parse(bytes);
  EXPECT_EQ(model.graph->firstNode()->rare().unknown.size(), 2u);
  EXPECT_EQ(model.graph->unknown.size(), 2u);
  EXPECT_EQ(model.unknown.size(), 1u);
  EXPECT_EQ(roundTrip(bytes), bytes);
}

TEST(DecoderLossless, PresenceAndEncodingsComeBackAsRead) {
  ProtoBuilder node = testing::nodeProto({"x"}, {"y"}, "n", "Relu");
  node.bytes(f::node::kDocString, "").bytes(f::node::kDomain, "");  // present, empty
  ProtoBuilder tensor;
  tensor
      .packedVarints(f::tensor::kDims, {2, 3})                           // dims packed, unusually
      .varint(f::tensor::kDataType, static_cast<uint64_t>(int64_t{-1}))  // ten bytes
      .floatField(f::tensor::kFloatData, 1.0f)  // float_data one key per element
      .floatField(f::tensor::kFloatData, 2.0f)
      .bytes(f::tensor::kName, "w");
  ProtoBuilder graph;
  graph.message(f::graph::kNode, node)
      .bytes(f::graph::kName, "g")
      .message(f::graph::kInitializer, tensor);
  std::string bytes = testing::modelWithGraph(graph).str();
  Model model = parse(bytes);
  EXPECT_TRUE(model.graph->firstNode()->domain.has_value());
  EXPECT_TRUE(model.graph->firstNode()->domain->empty());
  EXPECT_FALSE(model.graph->firstNode()->rare().overload.has_value());
  const Tensor& w = *model.graph->initializers[0];
  EXPECT_TRUE(w.dims.packed);
  EXPECT_EQ(w.data_type, -1);
  EXPECT_FALSE(w.rare().float_data.packed);
  EXPECT_EQ(w.rare().float_data.count, 2u);
  EXPECT_EQ(roundTrip(bytes), bytes);
}

TEST(DecoderLossless, RepeatedSingularMessagesMergeAsInProtobuf) {
  ProtoBuilder first;
  first.message(f::graph::kNode, testing::nodeProto({"x"}, {"y"}, "a", "Relu"));
  ProtoBuilder second;
  second.message(f::graph::kNode, testing::nodeProto({"y"}, {"z"}, "b", "Relu"))
      .bytes(f::graph::kName, "merged");
  ProtoBuilder model;
  model.varint(f::model::kIrVersion, 8)
      .message(f::model::kGraph, first)
      .message(f::model::kGraph, second);
  Model parsed = parse(model.str());
  EXPECT_EQ(parsed.graph->nodeCount(), 2u);
  EXPECT_EQ(parsed.graph->name.value_or(""), "merged");
  EXPECT_EQ(parsed.graph->lastNode()->input(0), parsed.graph->firstNode()->output(0));
  // Written once, merged; and stable from then on.
  std::string once = roundTrip(model.str());
  EXPECT_EQ(roundTrip(once), once);
}

TEST(DecoderLossless, PaddedKeysAndLengthsAreRefusedAsProtobufRefusesThem) {
  // ir_version = 1 with its key padded to 6 bytes; producer_name with a 6-byte length 0.
  auto key = parseModel(std::string_view("\x88\x80\x80\x80\x80\x00\x01", 7), nullptr);
  ASSERT_FALSE(key);
  EXPECT_NE(key.status().message().find("key is longer than 5 bytes"), std::string::npos);
  auto length = parseModel(std::string_view("\x12\x80\x80\x80\x80\x80\x00", 7), nullptr);
  ASSERT_FALSE(length);
  EXPECT_NE(length.status().message().find("padded past 5 bytes"), std::string::npos);
  EXPECT_EQ(length.status().path(), "producer_name");
}

TEST(DecoderLossless, EnumValuesTheSchemaDoesNotDeclareStayUnknownFields) {
  // TensorProto.data_location: EXTERNAL, then 7 (undeclared) as a ten-byte varint.
  ProtoBuilder tensor;
  tensor.bytes(f::tensor::kName, "w")
      .varint(f::tensor::kDataLocation, 1)
      .varint(f::tensor::kDataLocation, (uint64_t{1} << 32) + 7);
  ProtoBuilder attribute;
  attribute.bytes(f::attribute::kName, "value")
      .message(f::attribute::kT, tensor)
      .varint(f::attribute::kType, 99);  // no such AttributeType
  ProtoBuilder node = testing::nodeProto({}, {"c"}, "const", "Constant");
  node.message(f::node::kAttribute, attribute);
  ProtoBuilder graph;
  graph.message(f::graph::kNode, node).bytes(f::graph::kName, "g");
  std::string bytes = testing::modelWithGraph(graph).str();
  LoadOptions options;
  options.load_external_data = false;
  auto owned = std::make_shared<const std::string>(bytes);
  auto model = parseModel(*owned, owned, options);
  ASSERT_TRUE(model) << model.status().toString();
  const Attribute& a = *model->graph->firstNode()->attributes[0];
  EXPECT_FALSE(a.type.has_value());
  ASSERT_EQ(a.rare().unknown.size(), 1u);
  EXPECT_EQ(a.t->data_location, 1);
  EXPECT_TRUE(a.t->isExternal());
  ASSERT_EQ(a.t->rare().unknown.size(), 1u);
  EXPECT_EQ(a.t->rare().unknown[0].encoded.size(), 1u + 5u);  // the full 2^32 + 7, as it came
  auto written = serializeModel(*model);
  ASSERT_TRUE(written);
  EXPECT_EQ(*written, bytes);
}

TEST(DecoderLossless, DimsAreCheckedOnceASingularTensorIsWhole) {
  // Attribute t sent twice: dims [2^40, 2^40], then [0]. Merged, as protobuf merges, the
  // tensor is [2^40, 2^40, 0]: empty, and valid.
  ProtoBuilder first;
  first.packedVarints(f::tensor::kDims, {uint64_t{1} << 40, uint64_t{1} << 40});
  ProtoBuilder second;
  second.packedVarints(f::tensor::kDims, {0});
  ProtoBuilder attribute;
  attribute.bytes(f::attribute::kName, "a")
      .message(f::attribute::kT, first)
      .message(f::attribute::kT, second);
  ProtoBuilder node = testing::nodeProto({}, {"c"}, "n", "Constant");
  node.message(f::node::kAttribute, attribute);
  ProtoBuilder graph;
  graph.message(f::graph::kNode, node).bytes(f::graph::kName, "g");
  Model model = parse(testing::modelWithGraph(graph).str());
  EXPECT_EQ(model.graph->firstNode()->attributes[0]->t->dims.size(), 3u);
}

TEST(UseLists, ReplaceAllUsesWithMovesEveryUseAndRenamesOnWrite) {
  ProtoBuilder graph;
  graph.message(f::graph::kNode, testing::nodeProto({"x"}, {"a"}, "n1", "Relu"))
      .message(f::graph::kNode, testing::nodeProto({"x"}, {"b"}, "n2", "Relu"))
      .message(f::graph::kNode, testing::nodeProto({"a", "a"}, {"c"}, "n3", "Add"))
      .bytes(f::graph::kName, "g")
      .message(f::graph::kInput, testing::valueInfo("x", 1, {1}))
      .message(f::graph::kOutput, testing::valueInfo("a", 1, {1}));
  Model model = parse(testing::modelWithGraph(graph).str());
  Value* a = nodeAt(*model.graph, 0)->output(0);
  Value* b = nodeAt(*model.graph, 1)->output(0);
  ASSERT_EQ(useCount(a), 3u);  // two node inputs and the graph output
  a->replaceAllUsesWith(b);
  EXPECT_EQ(useCount(a), 0u);
  EXPECT_EQ(useCount(b), 3u);
  for (const Use& use : b->uses()) {
    EXPECT_EQ(use.value(), b);
    EXPECT_EQ(*ir_internal::GraphBuilder::prev(const_cast<Use*>(&use)), &use);
  }
  Node* n3 = nodeAt(*model.graph, 2);
  n3->setInput(1, nullptr);
  EXPECT_EQ(useCount(b), 2u);
  auto written = serializeModel(model);
  ASSERT_TRUE(written);
  Model reread = parse(*written);
  Node* reread_n3 = nodeAt(*reread.graph, 2);
  EXPECT_EQ(reread_n3->input(0)->name(), "b");
  EXPECT_EQ(reread_n3->input(1), nullptr);
  EXPECT_EQ(reread.graph->outputs[0]->bound()->name(), "b");
}

}  // namespace
}  // namespace onyx
