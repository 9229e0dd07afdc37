// The text parser on valid snippets: each form of the grammar, checked against the fields
// of the Model it gives (the fields onnx's parser fills for the same text).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "onyx/ir/tensor_data.h"
#include "onyx/text/parser.h"

namespace onyx {
namespace {

Model parse(std::string_view text) {
  Result<Model> model = parseText(text);
  EXPECT_TRUE(model) << model.status().toString() << "\n" << text;
  if (!model) return Model();
  return std::move(model).value();
}

// The graph `g () => () { <node> }`'s only node.
struct OneNode {
  Model model;
  Node* node = nullptr;
};
OneNode parseNode(std::string_view node_text) {
  OneNode result{parse("g () => () { " + std::string(node_text) + " }")};
  if (result.model.graph != nullptr) result.node = result.model.graph->firstNode();
  EXPECT_NE(result.node, nullptr) << node_text;
  return result;
}

const Attribute& attr(const Node* node, std::string_view name) {
  static const Attribute kMissing;
  if (node == nullptr) return kMissing;
  const Attribute* found = node->attribute(name);
  EXPECT_NE(found, nullptr) << "no attribute " << name;
  return found ? *found : kMissing;
}

Node* nodeAt(const Graph& graph, size_t index) {
  Node* node = graph.firstNode();
  while (node != nullptr && index-- > 0) node = node->next();
  return node;
}

std::vector<std::string> inputNames(const Node* node) {
  std::vector<std::string> names;
  for (const Use& use : node->inputs()) names.emplace_back(use.value() ? use.value()->name() : "");
  return names;
}
std::vector<std::string> outputNames(const Node* node) {
  std::vector<std::string> names;
  for (const Value* value : node->outputs()) names.emplace_back(value ? value->name() : "");
  return names;
}

template <class T>
std::vector<T> packed(const PackedData& data) {
  std::vector<T> values(data.payload.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), data.payload.data(), data.payload.size());
  return values;
}
// Varint payloads of int32_data, int64_data, uint64_data.
std::vector<uint64_t> varints(const PackedData& data) {
  std::vector<uint64_t> values;
  uint64_t value = 0;
  int shift = 0;
  for (char c : data.payload) {
    value |= static_cast<uint64_t>(static_cast<unsigned char>(c) & 0x7f) << shift;
    shift += 7;
    if ((static_cast<unsigned char>(c) & 0x80) == 0) {
      values.push_back(value);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

std::vector<int64_t> dimsOf(const Type* type) {
  std::vector<int64_t> dims;
  if (type == nullptr || type->shape == nullptr) return dims;
  for (const Dimension& dim : type->shape->dims) dims.push_back(dim.dim_value.value_or(-999));
  return dims;
}

// ---- the model header ------------------------------------------------------------------

TEST(TextParserFields, HeaderKeysFillTheirFields) {
  Model model = parse(R"(<
    ir_version: 9,
    opset_import: ["" : 19, "ai.onnx.ml" : 3],
    producer_name: "hand",
    producer_version: "0.1",
    domain: "org.example",
    model_version: 42,
    doc_string: "written by hand",
    metadata_props: ["author" : "me", "k" : "v"]
  > g () => () {})");
  EXPECT_EQ(model.ir_version, 9);
  ASSERT_EQ(model.opset_import.size(), 2u);
  EXPECT_EQ(*model.opset_import[0].domain, "");
  EXPECT_EQ(model.opset_import[0].version, 19);
  EXPECT_EQ(*model.opset_import[1].domain, "ai.onnx.ml");
  EXPECT_EQ(model.opset_import[1].version, 3);
  EXPECT_EQ(*model.producer_name, "hand");
  EXPECT_EQ(*model.producer_version, "0.1");
  EXPECT_EQ(*model.domain, "org.example");
  EXPECT_EQ(model.model_version, 42);
  EXPECT_EQ(*model.doc_string, "written by hand");
  ASSERT_EQ(model.metadata_props.size(), 2u);
  EXPECT_EQ(*model.metadata_props[1].key, "k");
  EXPECT_EQ(*model.metadata_props[1].value, "v");
}

TEST(TextParserFields, AbsentHeaderKeysStayAbsent) {
  Model model = parse("g () => () {}");
  EXPECT_FALSE(model.ir_version.has_value());
  EXPECT_TRUE(model.opset_import.empty());
  EXPECT_FALSE(model.producer_name.has_value());
  EXPECT_FALSE(model.doc_string.has_value());
  ASSERT_NE(model.graph, nullptr);
  EXPECT_EQ(*model.graph->name, "g");
}

TEST(TextParserFields, RepeatedHeaderKeysActAsInOnnx) {
  // onnx refuses no repeated key: a single field keeps the last value, lists add up.
  Model model = parse(
      R"(<ir_version: 3, ir_version: 8, opset_import: ["" : 13], opset_import: ["x" : 1],
          doc_string: "first", doc_string: "last"> g () => () {})");
  EXPECT_EQ(model.ir_version, 8);
  EXPECT_EQ(model.opset_import.size(), 2u);
  EXPECT_EQ(*model.doc_string, "last");
}

// ---- types -----------------------------------------------------------------------------

TEST(TextParserFields, TensorTypesAndDims) {
  Model model = parse(
      R"(g (float scalar, float[] unranked, float[N, ?, "a + b", 3, -1] mixed, int64[0] none) => () {})");
  const auto& inputs = model.graph->inputs;
  ASSERT_EQ(inputs.size(), 4u);
  const Type* scalar = inputs[0]->type;
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(scalar->kind, Type::Kind::kTensor);
  EXPECT_EQ(scalar->elem_type, 1);
  ASSERT_NE(scalar->shape, nullptr);  // a scalar has a shape, with no dims
  EXPECT_EQ(scalar->shape->rank(), 0u);
  EXPECT_EQ(inputs[1]->type->shape, nullptr);  // [] is an unknown rank: no shape at all
  const TensorShape& mixed = *inputs[2]->type->shape;
  ASSERT_EQ(mixed.rank(), 5u);
  EXPECT_EQ(*mixed.dims[0].dim_param, "N");
  EXPECT_FALSE(mixed.dims[1].dim_param.has_value());
  EXPECT_FALSE(mixed.dims[1].dim_value.has_value());
  EXPECT_EQ(*mixed.dims[2].dim_param, "a + b");
  EXPECT_EQ(mixed.dims[3].dim_value, 3);
  EXPECT_EQ(mixed.dims[4].dim_value, -1);  // a type's dim may be negative; onnx's parser agrees
  EXPECT_EQ(inputs[3]->type->elem_type, 7);
  EXPECT_EQ(dimsOf(inputs[3]->type), std::vector<int64_t>{0});
}

TEST(TextParserFields, EveryElementTypeName) {
  Model model = parse(
      "g (float a, uint8 b, int8 c, uint16 d, int16 e, int32 f, int64 g, string h, bool i, "
      "float16 j, double k, uint32 l, uint64 m, complex64 n, complex128 o, bfloat16 p, "
      "float8e4m3fn q, float8e4m3fnuz r, float8e5m2 s, float8e5m2fnuz t, uint4 u, int4 v, "
      "float4e2m1 w, float8e8m0 x, uint2 y, int2 z) => () {}");
  ASSERT_EQ(model.graph->inputs.size(), 26u);
  for (size_t i = 0; i < 26; ++i) {
    EXPECT_EQ(model.graph->inputs[i]->type->elem_type, static_cast<int32_t>(i + 1)) << i;
  }
}

TEST(TextParserFields, CompositeTypes) {
  Model model = parse(
      "g (seq(float[N]) s, map(string, seq(int64)) m, optional(bool[2]) o, "
      "sparse_tensor(float[10, 10]) sp, sparse_tensor(int8) sps, opaque() o0, opaque(Thing) o1, "
      "opaque(com.example, Thing) o2, opaque(com . example . Thing) o3) => () {}");
  const auto& in = model.graph->inputs;
  ASSERT_EQ(in.size(), 9u);
  EXPECT_EQ(in[0]->type->kind, Type::Kind::kSequence);
  EXPECT_EQ(in[0]->type->elem->elem_type, 1);
  EXPECT_EQ(*in[0]->type->elem->shape->dims[0].dim_param, "N");
  EXPECT_EQ(in[1]->type->kind, Type::Kind::kMap);
  EXPECT_EQ(in[1]->type->key_type, 8);
  EXPECT_EQ(in[1]->type->elem->kind, Type::Kind::kSequence);
  EXPECT_EQ(in[1]->type->elem->elem->elem_type, 7);
  EXPECT_EQ(in[2]->type->kind, Type::Kind::kOptional);
  EXPECT_EQ(dimsOf(in[2]->type->elem), std::vector<int64_t>{2});
  EXPECT_EQ(in[3]->type->kind, Type::Kind::kSparseTensor);
  EXPECT_EQ(dimsOf(in[3]->type), (std::vector<int64_t>{10, 10}));
  EXPECT_EQ(in[4]->type->shape->rank(), 0u);
  EXPECT_EQ(in[5]->type->kind, Type::Kind::kOpaque);
  EXPECT_FALSE(in[5]->type->opaque_domain.has_value());
  EXPECT_FALSE(in[5]->type->opaque_name.has_value());
  // A lone name is the name, with no domain, as onnx reads it.
  EXPECT_FALSE(in[6]->type->opaque_domain.has_value());
  EXPECT_EQ(*in[6]->type->opaque_name, "Thing");
  EXPECT_EQ(*in[7]->type->opaque_domain, "com.example");
  EXPECT_EQ(*in[7]->type->opaque_name, "Thing");
  EXPECT_EQ(*in[8]->type->opaque_name, "com.example.Thing");  // joined across the spaces
}

TEST(TextParserFields, TypeEntryPoint) {
  Model owner;
  Result<Type*> type = parseTypeText("map(int64, seq(float[N, 3]))", owner);
  ASSERT_TRUE(type) << type.status().toString();
  EXPECT_EQ((*type)->kind, Type::Kind::kMap);
  EXPECT_EQ(formatType(**type), "map(int64, seq(float[N,3]))");
  EXPECT_FALSE(parseTypeText("float[N] extra", owner));
}

// ---- graphs: inputs, outputs, initializers, value_info -----------------------------------

TEST(TextParserFields, InputsOutputsInitializersAndValueInfo) {
  Model model = parse(R"(g (float[2] x, float b = {0.5}, untyped) => (float[2] y, z)
    <float[2] w = {1, 2}, float[2] hidden, bare> {
      hidden = Add(x, w)
      y = Add(hidden, b)
      z = Identity(untyped)
    })");
  const Graph& g = *model.graph;
  ASSERT_EQ(g.inputs.size(), 3u);
  EXPECT_EQ(g.inputs[2]->type, nullptr);  // types are optional
  ASSERT_EQ(g.outputs.size(), 2u);
  EXPECT_EQ(g.outputs[1]->type, nullptr);
  // An input with '=' is an input and an initializer; in the '<' list, only an initializer.
  ASSERT_EQ(g.initializers.size(), 2u);
  EXPECT_EQ(*g.initializers[0]->name, "b");
  EXPECT_EQ(*g.initializers[1]->name, "w");
  ASSERT_EQ(g.value_info.size(), 2u);
  EXPECT_EQ(*g.value_info[0]->name, "hidden");
  EXPECT_EQ(g.value_info[1]->type, nullptr);
  // Names bind as in a decoded model: the initializer is the input's default.
  Value* b = g.lookup("b");
  ASSERT_NE(b, nullptr);
  EXPECT_NE(b->graphInput(), nullptr);
  EXPECT_EQ(b->initializer(), g.initializers[0]);
  EXPECT_EQ(g.value_info[0]->value, nodeAt(g, 0)->output(0));
}

TEST(TextParserFields, GraphInputListMayBeLeftOut) {
  // Syntax.md requires the '(' inputs ')'; onnx's parser, and so this one, does not.
  Model model = parse("g => (float c) { c = Constant <value = float {1}> () }");
  EXPECT_TRUE(model.graph->inputs.empty());
  EXPECT_EQ(model.graph->outputs.size(), 1u);
}

TEST(TextParserFields, TensorDataGoesWhereOnnxPutsIt) {
  Model model = parse(R"(g () => () <
      float[2] f = {1.5, -2}, double[2] d = {0.25, 1e300}, int64[2] i64 = {-1, 9223372036854775807},
      int32[2] i32 = {-5, 7}, uint8[2] u8 = {0, 255}, float16[1] h = {15360}, bool[1] t = {1},
      uint32[1] u32 = {4294967295}, uint64[2] u64 = {18446744073709551615, -1},
      string[2] s = {"a", "b\"c"}, complex64[2] c = {1, 2}, int4[1] n = {-3}> {})");
  const auto& init = model.graph->initializers;
  ASSERT_EQ(init.size(), 12u);
  EXPECT_EQ(packed<float>(init[0]->rare().float_data), (std::vector<float>{1.5f, -2.0f}));
  EXPECT_EQ(packed<double>(init[1]->rare().double_data), (std::vector<double>{0.25, 1e300}));
  EXPECT_EQ(varints(init[2]->rare().int64_data),
            (std::vector<uint64_t>{~uint64_t{0}, 0x7fffffffffffffffull}));
  // int32 data sign-extends to 64 bits, as protobuf writes an int32.
  EXPECT_EQ(varints(init[3]->rare().int32_data), (std::vector<uint64_t>{~uint64_t{4}, 7}));
  EXPECT_EQ(varints(init[4]->rare().int32_data), (std::vector<uint64_t>{0, 255}));
  EXPECT_EQ(varints(init[5]->rare().int32_data), std::vector<uint64_t>{15360});
  EXPECT_EQ(varints(init[6]->rare().int32_data), std::vector<uint64_t>{1});
  EXPECT_EQ(varints(init[7]->rare().uint64_data), std::vector<uint64_t>{4294967295u});
  // A negative uint64 wraps around, as onnx reads it (strtoull).
  EXPECT_EQ(varints(init[8]->rare().uint64_data),
            (std::vector<uint64_t>{~uint64_t{0}, ~uint64_t{0}}));
  ASSERT_EQ(init[9]->rare().string_data.size(), 2u);
  EXPECT_EQ(init[9]->rare().string_data[1], "b\"c");
  EXPECT_EQ(packed<float>(init[10]->rare().float_data), (std::vector<float>{1, 2}));
  EXPECT_EQ(varints(init[11]->rare().int32_data), std::vector<uint64_t>{~uint64_t{2}});
  for (const Tensor* tensor : init) EXPECT_FALSE(tensor->raw_data.has_value());
  // The values are readable as raw bytes like any loaded tensor's.
  auto bytes = rawBytes(*init[0]);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->bytes().size(), 8u);
}

TEST(TextParserFields, TensorWithoutDataAndEmptyTensor) {
  Model model = parse("g () => () <int32[2] dims_only =, float[0] empty = {}> {}");
  const auto& init = model.graph->initializers;
  ASSERT_EQ(init.size(), 2u);
  EXPECT_EQ(init[0]->dims.values[0], 2);
  EXPECT_EQ(init[0]->data_type, 6);
  EXPECT_FALSE(init[0]->rare().int32_data.present);
  EXPECT_FALSE(init[1]->rare().float_data.present);
}

TEST(TextParserFields, ExternalData) {
  Model model =
      parse(R"(g () => () <float[3, 2] m = ["location" : "weights.bin", "offset" : "17"]> {})");
  const Tensor& m = *model.graph->initializers[0];
  EXPECT_TRUE(m.isExternal());
  EXPECT_EQ(m.externalValue("location"), "weights.bin");
  EXPECT_EQ(m.externalValue("offset"), "17");
  EXPECT_EQ(m.dims.size(), 2u);
  EXPECT_FALSE(m.rare().external_bytes.has_value());  // no folder given: the file is not read
}

TEST(TextParserFields, NumberSpellings) {
  Model model = parse(
      "g () => () <float[9] f = {1e1, 2.5E-1, 4E+1, 1., 007, inf, -Infinity, nan, -0}, "
      "float[1] sub = {1e-40}, float[1] zero = {1e-50}, double[1] d = {4.9e-324}> {}");
  std::vector<float> f = packed<float>(model.graph->initializers[0]->rare().float_data);
  ASSERT_EQ(f.size(), 9u);
  EXPECT_EQ(f[0], 10.0f);
  EXPECT_EQ(f[1], 0.25f);
  EXPECT_EQ(f[2], 40.0f);
  EXPECT_EQ(f[3], 1.0f);
  EXPECT_EQ(f[4], 7.0f);
  EXPECT_TRUE(std::isinf(f[5]) && f[5] > 0);
  EXPECT_TRUE(std::isinf(f[6]) && f[6] < 0);
  EXPECT_TRUE(std::isnan(f[7]));
  EXPECT_TRUE(f[8] == 0.0f && std::signbit(f[8]));
  // Underflow gives the nearest subnormal or zero, as onnx accepts it.
  EXPECT_EQ(packed<float>(model.graph->initializers[1]->rare().float_data)[0], 1e-40f);
  EXPECT_EQ(packed<float>(model.graph->initializers[2]->rare().float_data)[0], 0.0f);
  EXPECT_EQ(packed<double>(model.graph->initializers[3]->rare().double_data)[0], 4.9e-324);
}

// ---- nodes -----------------------------------------------------------------------------

TEST(TextParserFields, NodeInputListsWithEmptyNames) {
  Model model = parse(R"(g (a, b) => () {
    x1 = Op(a, , b)
    x2 = Op( , b)
    x3 = Op("", b)
    x4 = Op(a,)
    x5 = Op(,)
    x6 = Op()
    p, , q = Split(a)
    = NoOutputs(a)
  })");
  const Graph& g = *model.graph;
  using Names = std::vector<std::string>;
  EXPECT_EQ(inputNames(nodeAt(g, 0)), (Names{"a", "", "b"}));
  EXPECT_EQ(inputNames(nodeAt(g, 1)), (Names{"", "b"}));
  EXPECT_EQ(inputNames(nodeAt(g, 2)), (Names{"", "b"}));
  EXPECT_EQ(inputNames(nodeAt(g, 3)), (Names{"a"}));  // a trailing comma adds nothing
  EXPECT_EQ(inputNames(nodeAt(g, 4)), (Names{""}));
  EXPECT_EQ(inputNames(nodeAt(g, 5)), (Names{}));
  EXPECT_EQ(outputNames(nodeAt(g, 6)), (Names{"p", "", "q"}));
  EXPECT_EQ(outputNames(nodeAt(g, 7)), (Names{}));
}

TEST(TextParserFields, NodeLabelsDomainsAndOverloads) {
  Model model = parse(R"(g (a) => () {
    [first] x1 = Op(a)
    ["a label"] x2 = Op(a)
    [] x3 = Op(a)
    x4 = Op(a)
    x5 = com.example.Op(a)
    x6 = com . example # a comment between the parts
         . Op(a)
    x7 = .Op(a)
    x8 = (a)
    x9 = Op:variant(a)
  })");
  const Graph& g = *model.graph;
  EXPECT_EQ(*nodeAt(g, 0)->name, "first");
  EXPECT_EQ(*nodeAt(g, 1)->name, "a label");
  EXPECT_TRUE(nodeAt(g, 2)->name.has_value());  // [] is a present, empty name
  EXPECT_EQ(*nodeAt(g, 2)->name, "");
  EXPECT_FALSE(nodeAt(g, 3)->name.has_value());
  // Every node has a domain field, empty when the text gives none, as onnx sets it.
  EXPECT_TRUE(nodeAt(g, 3)->domain.has_value());
  EXPECT_EQ(*nodeAt(g, 3)->domain, "");
  EXPECT_EQ(*nodeAt(g, 4)->domain, "com.example");
  EXPECT_EQ(nodeAt(g, 4)->opType(), "Op");
  EXPECT_EQ(*nodeAt(g, 5)->domain, "com.example");
  EXPECT_EQ(*nodeAt(g, 6)->domain, "");
  EXPECT_EQ(nodeAt(g, 6)->opType(), "Op");
  EXPECT_TRUE(nodeAt(g, 7)->op_type.has_value());
  EXPECT_EQ(nodeAt(g, 7)->opType(), "");
  EXPECT_EQ(*nodeAt(g, 8)->rare().overload, "variant");
  EXPECT_FALSE(nodeAt(g, 7)->rare().overload.has_value());
}

TEST(TextParserFields, QuotedNamesAndEscapes) {
  Model model = parse(R"("the graph" (float[N] "input/0") => (float[N] "out:0") {
    "tmp \"x\"" = Relu("input/0")
    "out:0" = Identity("tmp \"x\"")
    y = Op <s = "back\\slash, \n is n"> ()
  })");
  const Graph& g = *model.graph;
  EXPECT_EQ(*g.name, "the graph");
  EXPECT_EQ(*g.inputs[0]->name, "input/0");
  EXPECT_EQ(outputNames(nodeAt(g, 0))[0], "tmp \"x\"");
  EXPECT_EQ(nodeAt(g, 1)->input(0), nodeAt(g, 0)->output(0));
  // A backslash takes the next character as it is: there are no other escapes.
  EXPECT_EQ(*attr(nodeAt(g, 2), "s").s, "back\\slash, n is n");
}

TEST(TextParserFields, AttributesBeforeOrAfterInputs) {
  Model model = parse("g (a) => () { x = Op <k = 1> (a) \n y = Op (a) <k = 2> }");
  EXPECT_EQ(attr(nodeAt(*model.graph, 0), "k").i, 1);
  EXPECT_EQ(attr(nodeAt(*model.graph, 1), "k").i, 2);
}

// ---- attributes ------------------------------------------------------------------------

TEST(TextParserFields, ScalarAttributesTakeTheirTypeFromTheValue) {
  OneNode n = parseNode(R"(x = Op <i = 100, f = 200.5, s = "text", neg = -7, z = -0> ())");
  const Attribute& i = attr(n.node, "i");
  EXPECT_EQ(i.kind(), AttributeKind::kInt);
  EXPECT_EQ(i.i, 100);
  EXPECT_FALSE(i.f.has_value());
  EXPECT_EQ(attr(n.node, "f").kind(), AttributeKind::kFloat);
  EXPECT_EQ(attr(n.node, "f").f, 200.5f);
  EXPECT_EQ(attr(n.node, "s").kind(), AttributeKind::kString);
  EXPECT_EQ(*attr(n.node, "s").s, "text");
  EXPECT_EQ(attr(n.node, "neg").i, -7);
  EXPECT_EQ(attr(n.node, "z").kind(), AttributeKind::kInt);
}

TEST(TextParserFields, AnnotatedFloatTakesAnInteger) {
  OneNode n = parseNode("x = Op <f: float = 2, nz: float = -0, w = inf, v = -nan> ()");
  const Attribute& f = attr(n.node, "f");
  EXPECT_EQ(f.kind(), AttributeKind::kFloat);
  EXPECT_EQ(f.f, 2.0f);
  EXPECT_FALSE(f.i.has_value());
  EXPECT_TRUE(std::signbit(*attr(n.node, "nz").f));  // read as a float: "-0" stays negative
  EXPECT_TRUE(std::isinf(*attr(n.node, "w").f));
  EXPECT_TRUE(std::isnan(*attr(n.node, "v").f));
  EXPECT_EQ(attr(n.node, "v").kind(), AttributeKind::kFloat);
}

TEST(TextParserFields, ListAttributes) {
  OneNode n = parseNode(
      R"(x = Op <ints = [2, 4, 6], floats = [0.5, 1, 2], strings = ["a", "b"],
                 typed: floats = [1, 2], singleton_typed: int = [1, 2],
                 empty: ints = [], none: strings = []> ())");
  const Attribute& ints = attr(n.node, "ints");
  EXPECT_EQ(ints.kind(), AttributeKind::kInts);
  EXPECT_EQ(std::vector<int64_t>(ints.ints.begin(), ints.ints.end()),
            (std::vector<int64_t>{2, 4, 6}));
  EXPECT_FALSE(ints.ints.packed);  // AttributeProto.ints is not packed in onnx.proto
  // After a float, an integer is read as a float (the list's type so far is floats).
  const Attribute& floats = attr(n.node, "floats");
  EXPECT_EQ(floats.kind(), AttributeKind::kFloats);
  EXPECT_EQ(std::vector<float>(floats.floats.begin(), floats.floats.end()),
            (std::vector<float>{0.5f, 1.0f, 2.0f}));
  EXPECT_EQ(attr(n.node, "strings").kind(), AttributeKind::kStrings);
  ASSERT_EQ(attr(n.node, "strings").rare().strings.size(), 2u);
  EXPECT_EQ(attr(n.node, "strings").rare().strings[1], "b");
  EXPECT_EQ(attr(n.node, "typed").kind(), AttributeKind::kFloats);
  EXPECT_EQ(attr(n.node, "typed").floats.size(), 2u);
  // onnx accepts a list where a single int is declared, and makes it a list.
  EXPECT_EQ(attr(n.node, "singleton_typed").kind(), AttributeKind::kInts);
  EXPECT_EQ(attr(n.node, "empty").kind(), AttributeKind::kInts);
  EXPECT_TRUE(attr(n.node, "empty").ints.empty());
  EXPECT_EQ(attr(n.node, "none").kind(), AttributeKind::kStrings);
}

TEST(TextParserFields, TensorAttributes) {
  OneNode n = parseNode(
      R"(x = Op <t = float[3] {1, 2, 3}, named = int64[2] shape {4, 5}, eq = float[1] = {1},
                 scalar = double {2.5}> ())");
  const Attribute& t = attr(n.node, "t");
  EXPECT_EQ(t.kind(), AttributeKind::kTensor);
  ASSERT_NE(t.t, nullptr);
  EXPECT_EQ(t.t->data_type, 1);
  EXPECT_EQ(packed<float>(t.t->rare().float_data), (std::vector<float>{1, 2, 3}));
  // An attribute's tensor always has a name field, empty when the text gives none.
  EXPECT_TRUE(t.t->name.has_value());
  EXPECT_EQ(*t.t->name, "");
  EXPECT_EQ(*attr(n.node, "named").t->name, "shape");
  EXPECT_EQ(attr(n.node, "eq").t->rare().float_data.count, 1u);
  EXPECT_TRUE(attr(n.node, "scalar").t->dims.empty());
}

TEST(TextParserFields, TypeAndGraphAttributes) {
  OneNode n = parseNode(R"(x = Op <tp = float[N, 3], seq_tp = seq(int64[]),
      body = inner (float[N] a) => (b) { b = Neg(a) }> ())");
  const Attribute& tp = attr(n.node, "tp");
  EXPECT_EQ(tp.kind(), AttributeKind::kTypeProto);
  ASSERT_NE(tp.rare().tp, nullptr);
  EXPECT_EQ(formatType(*tp.rare().tp), "float[N,3]");
  EXPECT_EQ(formatType(*attr(n.node, "seq_tp").rare().tp), "seq(int64)");
  const Attribute& body = attr(n.node, "body");
  EXPECT_EQ(body.kind(), AttributeKind::kGraph);
  ASSERT_NE(body.g, nullptr);
  EXPECT_EQ(*body.g->name, "inner");
  EXPECT_EQ(body.g->nodeCount(), 1u);
  EXPECT_EQ(body.g->owner(), n.node);  // scoped inside the node, as a decoded subgraph is
}

TEST(TextParserFields, ListsOfTensorsGraphsAndTypesAreKept) {
  // onnx's parser reads these lists and drops their elements; onnx's printer writes them, so
  // onyx keeps them.
  OneNode n = parseNode(
      R"(x = Op <types = [float, int64[2]], tensors = [float[1] {1}, float[2] b {2, 3}],
                 graphs = [first () => () {}, second () => () {}]> ())");
  const Attribute& types = attr(n.node, "types");
  EXPECT_EQ(types.kind(), AttributeKind::kTypeProtos);
  ASSERT_NE(types.rare_fields, nullptr);
  EXPECT_EQ(types.rare().type_protos.size(), 2u);
  const Attribute& tensors = attr(n.node, "tensors");
  EXPECT_EQ(tensors.kind(), AttributeKind::kTensors);
  ASSERT_EQ(tensors.rare().tensors.size(), 2u);
  EXPECT_EQ(*tensors.rare().tensors[1]->name, "b");
  const Attribute& graphs = attr(n.node, "graphs");
  EXPECT_EQ(graphs.kind(), AttributeKind::kGraphs);
  ASSERT_EQ(graphs.rare().graphs.size(), 2u);
  EXPECT_EQ(*graphs.rare().graphs[1]->name, "second");
}

TEST(TextParserFields, SubgraphsReadOuterValues) {
  Model model = parse(R"(g (bool c, float[2] x) => (float[2] y) {
    y = If (c) <then_branch = t () => (float[2] a) { a = Identity(x) },
                else_branch = e () => (float[2] b) { b = Neg(x) }>
  })");
  const Node* if_node = model.graph->firstNode();
  const Graph* then_branch = attr(if_node, "then_branch").g;
  ASSERT_NE(then_branch, nullptr);
  // The branch's read of x is a use of the outer graph's input, as after decoding.
  EXPECT_EQ(then_branch->firstNode()->input(0), model.graph->lookup("x"));
  EXPECT_EQ(then_branch->parent(), model.graph);
}

// ---- functions -------------------------------------------------------------------------

TEST(TextParserFields, FunctionsWithAttributesDefaultsAndValueInfo) {
  Model model = parse(R"(<ir_version: 10, opset_import: ["" : 18, "lib" : 1]>
    main (float[N] x) => (float[N] y) { y = lib.Scaled <alpha = 2.0> (x) }
    <opset_import: ["" : 18], domain: "lib", doc_string: "scales", overload: "v2">
    Scaled <alpha: float = 1.5, gamma, "odd name"> (float[N] X, s) => (Y) <float[N] t, u> {
      a = Constant <value_float: float = @alpha> ()
      g = Constant <value_float = @gamma> ()
      Y = Mul(a, X)
    })");
  ASSERT_EQ(model.functions.size(), 1u);
  const Function& fn = *model.functions[0];
  EXPECT_EQ(*fn.name, "Scaled");
  EXPECT_EQ(*fn.domain, "lib");
  EXPECT_EQ(*fn.doc_string, "scales");
  EXPECT_EQ(*fn.overload, "v2");
  ASSERT_EQ(fn.opset_import.size(), 1u);
  // Attributes without a default are names; with one, attribute_proto entries.
  ASSERT_EQ(fn.attribute.size(), 2u);
  EXPECT_EQ(fn.attribute[0], "gamma");
  EXPECT_EQ(fn.attribute[1], "odd name");
  ASSERT_EQ(fn.attribute_proto.size(), 1u);
  EXPECT_EQ(*fn.attribute_proto[0]->name, "alpha");
  EXPECT_EQ(fn.attribute_proto[0]->f, 1.5f);
  ASSERT_EQ(fn.inputs.size(), 2u);
  EXPECT_EQ(fn.outputs.size(), 1u);
  // Typed inputs and outputs come first in value_info, then the '<' list.
  const auto& infos = fn.body->value_info;
  ASSERT_EQ(infos.size(), 3u);
  EXPECT_EQ(*infos[0]->name, "X");
  EXPECT_EQ(*infos[1]->name, "t");
  EXPECT_EQ(infos[2]->type, nullptr);
  // A reference keeps its annotated type; without one, it has none.
  const Node* first = fn.body->firstNode();
  EXPECT_EQ(*attr(first, "value_float").rare().ref_attr_name, "alpha");
  EXPECT_EQ(attr(first, "value_float").kind(), AttributeKind::kFloat);
  EXPECT_FALSE(attr(first->next(), "value_float").type.has_value());
}

TEST(TextParserFields, LoneEntryPoints) {
  Result<Model> graph = parseGraphText("g (x) => (y) { y = Identity(x) }");
  ASSERT_TRUE(graph) << graph.status().toString();
  EXPECT_FALSE(graph->ir_version.has_value());
  EXPECT_EQ(graph->graph->nodeCount(), 1u);

  Result<Model> nodes = parseNodesText("{ a = Foo(x) \n b = Bar(a) }");
  ASSERT_TRUE(nodes) << nodes.status().toString();
  EXPECT_EQ(nodes->graph->nodeCount(), 2u);
  EXPECT_FALSE(nodes->graph->name.has_value());
  EXPECT_EQ(nodeAt(*nodes->graph, 1)->input(0), nodes->graph->firstNode()->output(0));

  Result<Model> function = parseFunctionText("<domain: \"d\"> f (x) => (y) { y = Neg(x) }");
  ASSERT_TRUE(function) << function.status().toString();
  ASSERT_EQ(function->functions.size(), 1u);
  EXPECT_EQ(*function->functions[0]->domain, "d");
  EXPECT_EQ(function->graph, nullptr);
}

TEST(TextParserFields, ByteOrderMarkAndLineEndings) {
  // A byte-order mark at the start is skipped; CR LF line endings are spaces like any other.
  Model model = parse("\xef\xbb\xbfg (x) => (y) {\r\n  y = Identity(x) # done\r\n}\r\n");
  EXPECT_EQ(*model.graph->name, "g");
  EXPECT_EQ(model.graph->nodeCount(), 1u);
  // Elsewhere it is a character like any other, and not a name.
  EXPECT_FALSE(parseText("g (x) => (y) {\xef\xbb\xbf}"));
}

TEST(TextParserFields, TextMayBeFreedAfterParsing) {
  std::string text = "g (float[2] x) => (y) <float[2] w = {1, 2}> { y = Add(x, w) }";
  Result<Model> model = parseText(text);
  ASSERT_TRUE(model);
  std::fill(text.begin(), text.end(), '#');
  text.clear();
  text.shrink_to_fit();
  EXPECT_EQ(*model->graph->name, "g");
  EXPECT_EQ(model->graph->firstNode()->input(1)->name(), "w");
}

}  // namespace
}  // namespace onyx
