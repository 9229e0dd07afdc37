// Model equality finds a difference in every kind of field, names the first one, and in
// text mode ignores exactly what the text syntax cannot spell.
#include "support/model_equal.h"

#include <gtest/gtest.h>

#include <bit>
#include <functional>

#include "ir/graph_builder.h"
#include "onyx/ir/editor.h"
#include "onyx/serde/model_io.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

using testing::ProtoBuilder;
namespace field = testing::field;
using testing::firstDifference;
using testing::ModelEqualOptions;

constexpr ModelEqualOptions kStrict{false};
constexpr ModelEqualOptions kText{true};

Model load(const std::string& bytes) {
  auto owned = std::make_shared<std::string>(bytes);
  auto result = parseModel(*owned, owned);
  EXPECT_TRUE(result) << result.status().toString();
  return std::move(result).value();
}

ProtoBuilder shapeType(int32_t elem_type, std::string_view param, int64_t value) {
  ProtoBuilder shape;
  shape.message(field::shape::kDim, ProtoBuilder().bytes(field::shape::kDimParam, param));
  shape.message(field::shape::kDim,
                ProtoBuilder().varint(field::shape::kDimValue, static_cast<uint64_t>(value)));
  ProtoBuilder tensor;
  tensor.varint(field::type::kElemType, static_cast<uint64_t>(elem_type))
      .message(field::type::kShape, shape);
  return ProtoBuilder().message(field::type::kTensorType, tensor);
}

// A model with a field of every kind the comparison looks at.
std::string richModel() {
  ProtoBuilder body;
  body.message(field::graph::kNode, testing::nodeProto({"x"}, {"inner"}, "", "Identity"))
      .bytes(field::graph::kName, "body")
      .message(field::graph::kOutput, testing::valueInfo("inner", 1, {2}));
  ProtoBuilder n = testing::nodeProto({"x", "w"}, {"y"}, "n0", "Op");
  n.message(field::node::kAttribute, testing::floatAttribute("fa", 1.5f))
      .message(field::node::kAttribute, ProtoBuilder()
                                            .bytes(field::attribute::kName, "ia")
                                            .varint(field::attribute::kI, 2)
                                            .varint(field::attribute::kType, 2))
      .message(field::node::kAttribute, ProtoBuilder()
                                            .bytes(field::attribute::kName, "sa")
                                            .bytes(field::attribute::kS, "text")
                                            .varint(field::attribute::kType, 3))
      .message(field::node::kAttribute, ProtoBuilder()
                                            .bytes(field::attribute::kName, "fsa")
                                            .packedFloats(field::attribute::kFloats, {1, 2})
                                            .varint(field::attribute::kType, 6))
      .message(field::node::kAttribute, ProtoBuilder()
                                            .bytes(field::attribute::kName, "isa")
                                            .packedVarints(field::attribute::kInts, {3, 4})
                                            .varint(field::attribute::kType, 7))
      .message(field::node::kAttribute, ProtoBuilder()
                                            .bytes(field::attribute::kName, "ssa")
                                            .bytes(field::attribute::kStrings, "a")
                                            .varint(field::attribute::kType, 8))
      .message(field::node::kAttribute,
               ProtoBuilder()
                   .bytes(field::attribute::kName, "ta")
                   .message(field::attribute::kT, testing::floatTensor("c", {1}, {7.0f}))
                   .varint(field::attribute::kType, 4))
      .message(field::node::kAttribute, ProtoBuilder()
                                            .bytes(field::attribute::kName, "ga")
                                            .message(field::attribute::kG, body)
                                            .varint(field::attribute::kType, 5))
      .message(field::node::kAttribute, ProtoBuilder()
                                            .bytes(field::attribute::kName, "tpa")
                                            .message(field::attribute::kTp, shapeType(1, "N", 3))
                                            .varint(field::attribute::kType, 13))
      .bytes(field::node::kDocString, "node doc")
      .bytes(field::node::kDomain, "com.x")
      .bytes(field::node::kOverload, "o1")
      .message(field::node::kMetadataProps, testing::stringEntry("nk", "nv"));
  ProtoBuilder graph;
  graph.message(field::graph::kNode, n)
      .bytes(field::graph::kName, "g")
      .message(field::graph::kInitializer, testing::floatTensor("w", {2}, {1.5f, -2.0f}))
      .bytes(field::graph::kDocString, "graph doc")
      .message(field::graph::kInput, ProtoBuilder()
                                         .bytes(field::value_info::kName, "x")
                                         .message(field::value_info::kType, shapeType(1, "N", 2)))
      .message(field::graph::kInput, testing::valueInfo("w", 1, {2}))
      .message(field::graph::kOutput, testing::valueInfo("y", 1, {2}))
      .message(field::graph::kValueInfo, testing::valueInfo("v", 7, {}))
      .message(field::graph::kSparseInitializer,
               ProtoBuilder().message(field::sparse::kValues, testing::floatTensor("s", {1}, {1})));
  ProtoBuilder function;
  function.bytes(field::function::kName, "f")
      .bytes(field::function::kInput, "a")
      .bytes(field::function::kOutput, "b")
      .bytes(field::function::kAttribute, "alpha")
      .message(field::function::kNode, testing::nodeProto({"a"}, {"b"}, "", "Identity"))
      .bytes(field::function::kDocString, "function doc")
      .message(field::function::kOpsetImport, testing::opsetImport("", 21))
      .bytes(field::function::kDomain, "local")
      .message(field::function::kAttributeProto, ProtoBuilder()
                                                     .bytes(field::attribute::kName, "beta")
                                                     .varint(field::attribute::kI, 1)
                                                     .varint(field::attribute::kType, 2))
      .message(field::function::kValueInfo, testing::valueInfo("a", 1, {2}))
      .bytes(field::function::kOverload, "fo");
  ProtoBuilder training;
  training.message(field::training::kAlgorithm, ProtoBuilder().bytes(field::graph::kName, "t"));
  return ProtoBuilder()
      .varint(field::model::kIrVersion, 10)
      .bytes(field::model::kProducerName, "producer")
      .bytes(field::model::kProducerVersion, "1")
      .bytes(field::model::kDomain, "d")
      .varint(field::model::kModelVersion, 1)
      .bytes(field::model::kDocString, "model doc")
      .message(field::model::kGraph, graph)
      .message(field::model::kOpsetImport, testing::opsetImport("", 21))
      .message(field::model::kOpsetImport, testing::opsetImport("local", 1))
      .message(field::model::kMetadataProps, testing::stringEntry("k", "v"))
      .message(field::model::kTrainingInfo, training)
      .message(field::model::kFunctions, function)
      .str();
}

Node& firstNode(Model& m) { return *m.graph->firstNode(); }
Attribute& attributeOf(Model& m, size_t index) { return *firstNode(m).attributes[index]; }

struct Case {
  const char* what;
  std::function<void(Model&)> change;
  const char* path;
  bool seen_in_text_mode;
};

const std::string kOtherFloats = std::string("\x00\x00\xc0\x3f\x00\x00\x40\xc0", 8);  // 1.5, -3

std::vector<Case> cases() {
  return {
      {"ir_version", [](Model& m) { m.ir_version = 9; }, "ir_version", true},
      {"opset version", [](Model& m) { m.opset_import[1].version = 2; },
       "opset_import[1](local).version", true},
      {"producer_name", [](Model& m) { m.producer_name = "other"; }, "producer_name", true},
      {"producer_version", [](Model& m) { m.producer_version.reset(); }, "producer_version", true},
      {"model domain", [](Model& m) { m.domain = "e"; }, "domain", true},
      {"model_version", [](Model& m) { m.model_version = 2; }, "model_version", true},
      {"model doc_string", [](Model& m) { m.doc_string = "x"; }, "doc_string", true},
      {"metadata value", [](Model& m) { m.metadata_props[0].value = "w"; },
       "metadata_props[0](k).value", true},
      {"node input", [](Model& m) { firstNode(m).setInput(1, nullptr); },
       "graph.node[0](n0).input[1]", true},
      {"node output",
       [](Model& m) { ir_internal::GraphBuilder::outputs(&firstNode(m))[0] = nullptr; },
       "graph.node[0](n0).output[0]", true},
      {"node name", [](Model& m) { firstNode(m).name = "n1"; }, "graph.node[0](n0).name", true},
      {"op_type", [](Model& m) { firstNode(m).op_type = "Other"; }, "graph.node[0](n0).op_type",
       true},
      {"node domain", [](Model& m) { firstNode(m).domain = "com.y"; }, "graph.node[0](n0).domain",
       true},
      {"overload", [](Model& m) { GraphEditor(m).rare(&firstNode(m)).overload = "o2"; },
       "graph.node[0](n0).overload", true},
      {"attribute name", [](Model& m) { attributeOf(m, 0).name = "fb"; },
       "graph.node[0](n0).attribute[0](fa).name", true},
      {"attribute f", [](Model& m) { attributeOf(m, 0).f = 2.5f; },
       "graph.node[0](n0).attribute[0](fa).f", true},
      {"attribute i", [](Model& m) { attributeOf(m, 1).i = 3; },
       "graph.node[0](n0).attribute[1](ia).i", true},
      {"attribute s", [](Model& m) { attributeOf(m, 2).s = "other"; },
       "graph.node[0](n0).attribute[2](sa).s", true},
      {"attribute floats", [](Model& m) { attributeOf(m, 3).floats.values[1] = 5.0f; },
       "graph.node[0](n0).attribute[3](fsa).floats[1]", true},
      {"attribute ints", [](Model& m) { attributeOf(m, 4).ints.values.truncate(1); },
       "graph.node[0](n0).attribute[4](isa).ints", true},
      {"attribute strings",
       [](Model& m) { GraphEditor(m).rare(&attributeOf(m, 5)).strings[0] = "b"; },
       "graph.node[0](n0).attribute[5](ssa).strings[0]", true},
      {"attribute tensor", [](Model& m) { attributeOf(m, 6).t->dims.values[0] = 2; },
       "graph.node[0](n0).attribute[6](ta).t.dims[0]", true},
      {"attribute graph", [](Model& m) { attributeOf(m, 7).g->firstNode()->op_type = "Neg"; },
       "graph.node[0](n0).attribute[7](ga).g.node[0].op_type", true},
      {"attribute type_proto",
       [](Model& m) { GraphEditor(m).rare(&attributeOf(m, 8)).tp->elem_type = 7; },
       "graph.node[0](n0).attribute[8](tpa).tp.elem_type", true},
      {"attribute type", [](Model& m) { attributeOf(m, 1).type = 1; },
       "graph.node[0](n0).attribute[1](ia).type", true},
      {"attribute ref",
       [](Model& m) { GraphEditor(m).rare(&attributeOf(m, 1)).ref_attr_name = "outer"; },
       "graph.node[0](n0).attribute[1](ia).ref_attr_name", true},
      {"attribute doc_string",
       [](Model& m) { GraphEditor(m).rare(&attributeOf(m, 1)).doc_string = "doc"; },
       "graph.node[0](n0).attribute[1](ia).doc_string", false},
      {"node doc_string", [](Model& m) { GraphEditor(m).rare(&firstNode(m)).doc_string = "other"; },
       "graph.node[0](n0).doc_string", false},
      {"node metadata",
       [](Model& m) { GraphEditor(m).rare(&firstNode(m)).metadata_props[0].value = "x"; },
       "graph.node[0](n0).metadata_props[0](nk).value", false},
      {"node unknown field",
       [](Model& m) {
         GraphEditor(m)
             .rare(&firstNode(m))
             .unknown.push_back(GraphEditor(m).arena(), {99, "\x98\x06\x01"});
       },
       "graph.node[0](n0).unknown", false},
      {"graph name", [](Model& m) { m.graph->name = "h"; }, "graph.name", true},
      {"initializer dims", [](Model& m) { m.graph->initializers[0]->dims.values[0] = 3; },
       "graph.initializer[0](w).dims[0]", true},
      {"initializer type", [](Model& m) { m.graph->initializers[0]->data_type = 11; },
       "graph.initializer[0](w).data_type", true},
      {"initializer name", [](Model& m) { m.graph->initializers[0]->name = "w2"; },
       "graph.initializer[0](w).name", true},
      {"initializer data",
       [](Model& m) { m.graph->initializers[0]->raw_data = std::string_view(kOtherFloats); },
       "graph.initializer[0](w).data", true},
      {"initializer location",
       [](Model& m) {
         GraphEditor(m)
             .rare(m.graph->initializers[0])
             .external_data.push_back(GraphEditor(m).arena(), {"location", "w.bin", {}});
       },
       "graph.initializer[0](w).external_data", true},
      {"initializer segment",
       [](Model& m) {
         GraphEditor(m).rare(m.graph->initializers[0]).segment =
             GraphEditor(m).arena().make<TensorSegment>();
       },
       "graph.initializer[0](w).segment", false},
      {"graph doc_string", [](Model& m) { m.graph->doc_string = "x"; }, "graph.doc_string", false},
      {"input elem_type", [](Model& m) { m.graph->inputs[0]->type->elem_type = 7; },
       "graph.input[0](x).type.elem_type", true},
      {"input dim symbol",
       [](Model& m) { m.graph->inputs[0]->type->shape->dims[0].dim_param = "M"; },
       "graph.input[0](x).type.shape.dim[0].dim_param", true},
      {"input dim known or not",
       [](Model& m) { m.graph->inputs[0]->type->shape->dims[1].dim_value.reset(); },
       "graph.input[0](x).type.shape.dim[1]", true},
      {"input shape", [](Model& m) { m.graph->inputs[0]->type->shape = nullptr; },
       "graph.input[0](x).type.shape", true},
      {"input kind", [](Model& m) { m.graph->inputs[0]->type->kind = Type::Kind::kSparseTensor; },
       "graph.input[0](x).type.kind", true},
      {"output type", [](Model& m) { m.graph->outputs[0]->type = nullptr; },
       "graph.output[0](y).type", true},
      {"value_info", [](Model& m) { m.graph->value_info.clear(); }, "graph.value_info", true},
      {"sparse initializer", [](Model& m) { m.graph->sparse_initializers.clear(); },
       "graph.sparse_initializer", false},
      {"training_info", [](Model& m) { m.training_info.clear(); }, "training_info", false},
      {"function name", [](Model& m) { m.functions[0]->name = "g"; }, "functions[0](f).name", true},
      {"function input", [](Model& m) { m.functions[0]->inputs[0] = nullptr; },
       "functions[0](f).input[0]", true},
      {"function attribute", [](Model& m) { m.functions[0]->attribute[0] = "gamma"; },
       "functions[0](f).attribute[0]", true},
      {"function default", [](Model& m) { m.functions[0]->attribute_proto[0]->i = 5; },
       "functions[0](f).attribute_proto[0](beta).i", true},
      {"function node", [](Model& m) { m.functions[0]->body->firstNode()->op_type = "Neg"; },
       "functions[0](f).node[0].op_type", true},
      {"function doc_string", [](Model& m) { m.functions[0]->doc_string = "x"; },
       "functions[0](f).doc_string", true},
      {"function opset", [](Model& m) { m.functions[0]->opset_import[0].version = 20; },
       "functions[0](f).opset_import[0].version", true},
      {"function domain", [](Model& m) { m.functions[0]->domain = "other"; },
       "functions[0](f).domain", true},
      {"function value_info",
       [](Model& m) { m.functions[0]->body->value_info[0]->type->elem_type = 11; },
       "functions[0](f).value_info[0](a).type.elem_type", true},
      {"function overload", [](Model& m) { m.functions[0]->overload = "fp"; },
       "functions[0](f).overload", true},
  };
}

TEST(ModelEqual, AModelEqualsItself) {
  Model a = load(richModel());
  Model b = load(richModel());
  auto strict = firstDifference(a, b, kStrict);
  EXPECT_FALSE(strict) << strict->toString();
  auto text = firstDifference(a, b, kText);
  EXPECT_FALSE(text) << text->toString();
}

TEST(ModelEqual, FindsADifferenceInEveryKindOfField) {
  const std::string bytes = richModel();
  const Model original = load(bytes);
  for (const Case& c : cases()) {
    Model changed = load(bytes);
    c.change(changed);
    auto difference = firstDifference(original, changed, kStrict);
    ASSERT_TRUE(difference) << c.what << ": no difference found";
    EXPECT_EQ(difference->path, c.path) << c.what << ": " << difference->toString();
    EXPECT_NE(difference->left, difference->right) << c.what;
    auto in_text = firstDifference(original, changed, kText);
    EXPECT_EQ(in_text.has_value(), c.seen_in_text_mode)
        << c.what << (in_text ? ": " + in_text->toString() : std::string(": none in text mode"));
  }
}

TEST(ModelEqual, TensorsCompareByValueNotByStorageField) {
  // The same float[2] {1.5, -2}: in raw_data, and in float_data.
  ProtoBuilder typed;
  typed.varint(field::tensor::kDims, 2)
      .varint(field::tensor::kDataType, 1)
      .packedFloats(field::tensor::kFloatData, {1.5f, -2.0f})
      .bytes(field::tensor::kName, "w");
  auto withInitializer = [](const ProtoBuilder& tensor) {
    return testing::modelWithGraph(ProtoBuilder()
                                       .bytes(field::graph::kName, "g")
                                       .message(field::graph::kInitializer, tensor))
        .str();
  };
  Model raw = load(withInitializer(testing::floatTensor("w", {2}, {1.5f, -2.0f})));
  Model field_data = load(withInitializer(typed));
  auto difference = firstDifference(raw, field_data, kStrict);
  EXPECT_FALSE(difference) << difference->toString();

  ProtoBuilder other;
  other.varint(field::tensor::kDims, 2)
      .varint(field::tensor::kDataType, 1)
      .packedFloats(field::tensor::kFloatData, {1.5f, 2.0f})
      .bytes(field::tensor::kName, "w");
  Model different = load(withInitializer(other));
  ASSERT_TRUE(firstDifference(raw, different, kStrict));
  EXPECT_EQ(firstDifference(raw, different, kStrict)->path, "graph.initializer[0](w).data");
}

TEST(ModelEqual, TextModeTakesAbsentAsDefaultAndAnyNanAsNan) {
  Model a = load(testing::validModelBytes());
  Model b = load(testing::validModelBytes());
  b.graph->firstNode()->domain = "";  // absent in a: the text parser always sets it
  EXPECT_EQ(firstDifference(a, b, kStrict)->path, "graph.node[0](add0).domain");
  EXPECT_FALSE(firstDifference(a, b, kText));

  Model c = load(testing::validModelBytes());
  c.graph->firstNode()->attributes[0]->f = std::bit_cast<float>(0x7fc00000u);
  Model d = load(testing::validModelBytes());
  d.graph->firstNode()->attributes[0]->f = std::bit_cast<float>(0x7fc00123u);
  EXPECT_EQ(firstDifference(c, d, kStrict)->path, "graph.node[0](add0).attribute[0](alpha).f");
  EXPECT_FALSE(firstDifference(c, d, kText));
  d.graph->firstNode()->attributes[0]->f = std::bit_cast<float>(0xffc00000u);  // -nan
  EXPECT_TRUE(firstDifference(c, d, kText));
}

}  // namespace
}  // namespace onyx
