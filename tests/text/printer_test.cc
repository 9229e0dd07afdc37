// The text printer, construct by construct: what it writes (as onnx's parser at the mirror's
// HEAD reads it) and what it reports lost.
#include "onyx/text/printer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <iostream>
#include <limits>

#include "onyx/core/element_type.h"
#include "onyx/ir/editor.h"
#include "onyx/serde/model_io.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

using testing::ProtoBuilder;
namespace field = testing::field;

Model load(const ProtoBuilder& model) {
  auto bytes = std::make_shared<std::string>(model.str());
  auto result = parseModel(*bytes, bytes);
  EXPECT_TRUE(result) << result.status().toString();
  return std::move(result).value();
}

ProtoBuilder opset(std::string_view domain, int64_t version) {
  return testing::opsetImport(domain, version);
}

ProtoBuilder model(const ProtoBuilder& graph) {
  return ProtoBuilder()
      .varint(field::model::kIrVersion, 10)
      .message(field::model::kGraph, graph)
      .message(field::model::kOpsetImport, opset("", 21));
}

constexpr const char* kHeader = "<\n  ir_version: 10,\n  opset_import: [\"\" : 21]\n>\n";

// A tensor type with named (N) or numbered dims.
ProtoBuilder tensorType(int32_t elem_type, std::initializer_list<std::string_view> dims) {
  ProtoBuilder shape;
  for (std::string_view dim : dims) {
    ProtoBuilder d;
    if (dim == "?") {
    } else if (dim[0] >= '0' && dim[0] <= '9') {
      d.varint(field::shape::kDimValue, std::stoull(std::string(dim)));
    } else {
      d.bytes(field::shape::kDimParam, dim);
    }
    shape.message(field::shape::kDim, d);
  }
  ProtoBuilder tensor;
  tensor.varint(field::type::kElemType, static_cast<uint64_t>(elem_type))
      .message(field::type::kShape, shape);
  return ProtoBuilder().message(field::type::kTensorType, tensor);
}

ProtoBuilder valueInfo(std::string_view name, const ProtoBuilder& type) {
  return ProtoBuilder()
      .bytes(field::value_info::kName, name)
      .message(field::value_info::kType, type);
}

ProtoBuilder node(std::initializer_list<std::string_view> inputs,
                  std::initializer_list<std::string_view> outputs, std::string_view op_type) {
  ProtoBuilder n;
  for (std::string_view input : inputs) n.bytes(field::node::kInput, input);
  for (std::string_view output : outputs) n.bytes(field::node::kOutput, output);
  n.bytes(field::node::kOpType, op_type);
  return n;
}

ProtoBuilder intAttribute(std::string_view name, int64_t value) {
  return ProtoBuilder()
      .bytes(field::attribute::kName, name)
      .varint(field::attribute::kI, static_cast<uint64_t>(value))
      .varint(field::attribute::kType, testing::attribute_type::kInt);
}

std::string rawFloats(std::initializer_list<float> values) {
  std::string bytes;
  for (float value : values) bytes.append(reinterpret_cast<const char*>(&value), 4);
  return bytes;
}

std::vector<std::string> lossPaths(const Model& m) {
  std::vector<std::string> paths;
  for (const TextLoss& loss : textLosses(m)) paths.push_back(loss.path);
  return paths;
}

// ---- the model header -------------------------------------------------------------------

TEST(Printer, ModelHeaderWritesEveryFieldThatIsSetInOrder) {
  ProtoBuilder m;
  m.varint(field::model::kIrVersion, 9)
      .bytes(field::model::kProducerName, "exporter")
      .bytes(field::model::kProducerVersion, "1.0")
      .bytes(field::model::kDomain, "com.example")
      .varint(field::model::kModelVersion, 3)
      .bytes(field::model::kDocString, "say \"hi\" \\ bye")
      .message(field::model::kGraph, ProtoBuilder().bytes(field::graph::kName, "g"))
      .message(field::model::kOpsetImport, opset("", 18))
      .message(field::model::kOpsetImport, opset("com.x", 1))
      .message(field::model::kMetadataProps, testing::stringEntry("key", "value"))
      .message(field::model::kMetadataProps, testing::stringEntry("k2", ""));
  EXPECT_EQ(printModel(load(m)),
            "<\n"
            "  ir_version: 9,\n"
            "  opset_import: [\"\" : 18, \"com.x\" : 1],\n"
            "  producer_name: \"exporter\",\n"
            "  producer_version: \"1.0\",\n"
            "  domain: \"com.example\",\n"
            "  model_version: 3,\n"
            "  doc_string: \"say \\\"hi\\\" \\\\ bye\",\n"
            "  metadata_props: [\"key\": \"value\", \"k2\": \"\"]\n"
            ">\n"
            "g () => () {\n"
            "}\n");
}

TEST(Printer, ModelWithNothingSetHasNoHeader) {
  Model m = load(
      ProtoBuilder().message(field::model::kGraph, ProtoBuilder().bytes(field::graph::kName, "g")));
  EXPECT_EQ(printModel(m), "g () => () {\n}\n");
  EXPECT_TRUE(textLosses(m).empty());
}

// ---- types ------------------------------------------------------------------------------

class PrinterTypes : public ::testing::Test {
 protected:
  Type* tensor(int32_t elem_type, std::initializer_list<const char*> dims, bool has_shape = true) {
    Type* type = edit().arena().make<Type>();
    type->kind = Type::Kind::kTensor;
    type->elem_type = elem_type;
    if (has_shape) {
      type->shape = edit().arena().make<TensorShape>();
      for (const char* text : dims) {
        Dimension& dim = type->shape->dims.emplace_back(edit().arena());
        std::string_view view(text);
        if (view == "?") continue;
        if (view.find_first_not_of("-0123456789") == std::string_view::npos) {
          dim.dim_value = std::stoll(text);
        } else {
          dim.dim_param = view;
        }
      }
    }
    return type;
  }
  Type* wrap(Type::Kind kind, Type* elem) {
    Type* type = edit().arena().make<Type>();
    type->kind = kind;
    type->elem = elem;
    return type;
  }
  Type* opaque(OptString domain, OptString name) {
    Type* type = edit().arena().make<Type>();
    type->kind = Type::Kind::kOpaque;
    type->opaque_domain = domain;
    type->opaque_name = name;
    return type;
  }
  GraphEditor edit() { return GraphEditor(model_); }
  Model model_;
};

TEST_F(PrinterTypes, TensorShapesAndDims) {
  EXPECT_EQ(printType(*tensor(1, {"2", "N", "?", "-1"})), "float[2,N,?,-1]");
  // A scalar has a shape with no dims; a tensor of unknown rank has no shape at all.
  EXPECT_EQ(printType(*tensor(1, {})), "float");
  EXPECT_EQ(printType(*tensor(7, {}, false)), "int64[]");
  // Symbols that are not identifiers, or that would read as a type, are quoted.
  EXPECT_EQ(printType(*tensor(1, {"batch size", "float", "_x1", "2N"})),
            "float[\"batch size\",\"float\",_x1,\"2N\"]");
}

TEST_F(PrinterTypes, EveryElementTypeHasItsName) {
  for (const ElementTypeInfo& info : kElementTypeTable) {
    EXPECT_EQ(printType(*tensor(static_cast<int32_t>(info.type), {"3"})),
              std::string(info.shortName) + "[3]");
  }
}

TEST_F(PrinterTypes, CompositeTypes) {
  EXPECT_EQ(printType(*wrap(Type::Kind::kSequence, tensor(7, {}))), "seq(int64)");
  EXPECT_EQ(printType(*wrap(Type::Kind::kOptional, wrap(Type::Kind::kSequence, tensor(1, {"3"})))),
            "optional(seq(float[3]))");
  Type* map = wrap(Type::Kind::kMap, tensor(1, {}, false));
  map->key_type = 8;
  EXPECT_EQ(printType(*map), "map(string, float[])");
  Type* sparse = tensor(1, {"10", "M"});
  sparse->kind = Type::Kind::kSparseTensor;
  EXPECT_EQ(printType(*sparse), "sparse_tensor(float[10,M])");
  Type* sparse_scalar = tensor(6, {});
  sparse_scalar->kind = Type::Kind::kSparseTensor;
  EXPECT_EQ(printType(*sparse_scalar), "sparse_tensor(int32)");
}

TEST_F(PrinterTypes, OpaqueTypesInTheThreeFormsTheParserReads) {
  EXPECT_EQ(printType(*opaque(std::nullopt, std::nullopt)), "opaque()");
  EXPECT_EQ(printType(*opaque(std::nullopt, "test.rng.RNG")), "opaque(test.rng.RNG)");
  EXPECT_EQ(printType(*opaque("test.domain", "MyType")), "opaque(test.domain, MyType)");
  EXPECT_EQ(printType(*opaque("", "MyType")), "opaque(MyType)");
}

TEST_F(PrinterTypes, TypesWithoutASpellingPrintAsAQuestionMark) {
  Type* no_elem_type = tensor(1, {"2"});
  no_elem_type->elem_type.reset();
  EXPECT_EQ(printType(*no_elem_type), "?");
  EXPECT_EQ(printType(*tensor(99, {"2"})), "?");
  EXPECT_EQ(printType(*edit().arena().make<Type>()), "?");
  EXPECT_EQ(printType(*wrap(Type::Kind::kSequence, nullptr)), "?");
  Type* map = wrap(Type::Kind::kMap, tensor(1, {}));
  EXPECT_EQ(printType(*map), "?");  // no key type
}

// ---- nodes ------------------------------------------------------------------------------

TEST(Printer, NodeLabelsOutputsDomainsAndOverloads) {
  ProtoBuilder labelled = node({"x", "", "w.1"}, {"y", "", "z"}, "Op");
  labelled.bytes(field::node::kName, "n 1")
      .bytes(field::node::kDomain, "com.example")
      .bytes(field::node::kOverload, "v2")
      .message(field::node::kAttribute, intAttribute("axis", -1));
  ProtoBuilder no_outputs = node({"float"}, {}, "Print");
  ProtoBuilder empty_label = node({}, {"c"}, "Constant");
  empty_label.bytes(field::node::kName, "");
  ProtoBuilder graph;
  graph.message(field::graph::kNode, labelled)
      .message(field::graph::kNode, no_outputs)
      .message(field::graph::kNode, empty_label)
      .bytes(field::graph::kName, "g");
  Model m = load(model(graph));
  EXPECT_EQ(printModel(m), std::string(kHeader) +
                               "g () => () {\n"
                               "  [\"n 1\"] y, \"\", z = com.example.Op:v2 <axis: int = -1> "
                               "(x, \"\", \"w.1\")\n"
                               "  = Print(\"float\")\n"
                               "  [\"\"] c = Constant()\n"
                               "}\n");
  EXPECT_EQ(printNode(*m.graph->firstNode()->next()), "= Print(\"float\")");
  EXPECT_TRUE(textLosses(m).empty());
}

TEST(Printer, NamesTheSyntaxCannotQuoteAreWrittenAsStandInsAndReported) {
  ProtoBuilder n = node({"x"}, {"y"}, "my-op");
  n.bytes(field::node::kDomain, "com..x").message(field::node::kAttribute, intAttribute("a-b", 1));
  Model m =
      load(model(ProtoBuilder().message(field::graph::kNode, n).bytes(field::graph::kName, "g")));
  EXPECT_EQ(printNode(*m.graph->firstNode(), PrintOptions{false, 2}),
            "y = com__x.my_op <a_b: int = 1> (x)");
  EXPECT_EQ(lossPaths(m), (std::vector<std::string>{"graph.node[0].domain", "graph.node[0].op_type",
                                                    "graph.node[0].attribute[0](a-b).name"}));
}

// ---- attributes -------------------------------------------------------------------------

class PrinterAttributes : public ::testing::Test {
 protected:
  Attribute& make(const char* name, AttributeKind kind) {
    Attribute* a = edit().arena().make<Attribute>();
    a->name = name;
    a->type = static_cast<int32_t>(kind);
    return *a;
  }
  AttributeRareFields& lists(Attribute& a) { return edit().rare(&a); }
  GraphEditor edit() { return GraphEditor(model_); }
  Model model_;
};

TEST_F(PrinterAttributes, ScalarsAlwaysCarryTheirKind) {
  Attribute& f = make("alpha", AttributeKind::kFloat);
  // Whole numbers get `.0`: before onnx 1.13 the parser read `2` as an int despite `: float`.
  for (auto [value, text] : std::initializer_list<std::pair<float, const char*>>{
           {2.0f, "2.0"},
           {-0.0f, "-0.0"},
           {0.1f, "0.1"},
           {1e-7f, "1e-07"},
           {3.4028235e38f, "3.4028235e+38"},
           {std::numeric_limits<float>::infinity(), "inf"},
           {-std::numeric_limits<float>::infinity(), "-inf"},
           {std::numeric_limits<float>::quiet_NaN(), "nan"},
           {-std::numeric_limits<float>::quiet_NaN(), "-nan"}}) {
    f.f = value;
    EXPECT_EQ(printAttribute(f), std::string("alpha: float = ") + text);
  }
  Attribute& i = make("axis", AttributeKind::kInt);
  i.i = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(printAttribute(i), "axis: int = -9223372036854775808");
  Attribute& s = make("mode", AttributeKind::kString);
  s.s = "a\"b\\c\nd";
  // Only `"` and `\` are escaped: the parser has no other escapes, so a line break stays one.
  EXPECT_EQ(printAttribute(s), "mode: string = \"a\\\"b\\\\c\nd\"");
}

TEST_F(PrinterAttributes, Lists) {
  Attribute& floats = make("scales", AttributeKind::kFloats);
  floats.floats.values.push_back(edit().arena(), 1.0f);
  floats.floats.values.push_back(edit().arena(), 0.5f);
  EXPECT_EQ(printAttribute(floats), "scales: floats = [1.0, 0.5]");
  Attribute& ints = make("pads", AttributeKind::kInts);
  EXPECT_EQ(printAttribute(ints), "pads: ints = []");
  ints.ints.values.push_back(edit().arena(), 0);
  ints.ints.values.push_back(edit().arena(), -2);
  EXPECT_EQ(printAttribute(ints), "pads: ints = [0, -2]");
  Attribute& strings = make("names", AttributeKind::kStrings);
  lists(strings).strings.push_back(edit().arena(), "a");
  lists(strings).strings.push_back(edit().arena(), "");
  EXPECT_EQ(printAttribute(strings), "names: strings = [\"a\", \"\"]");
  Attribute& empty_graphs = make("branches", AttributeKind::kGraphs);
  EXPECT_EQ(printAttribute(empty_graphs), "branches: graphs = []");
}

TEST_F(PrinterAttributes, TensorsTypesAndReferences) {
  Attribute& t = make("value", AttributeKind::kTensor);
  Tensor* tensor = edit().arena().make<Tensor>();
  tensor->data_type = 7;
  tensor->dims.values.push_back(edit().arena(), 2);
  static const int64_t kData[] = {1, -2};
  tensor->raw_data = std::string_view(reinterpret_cast<const char*>(kData), sizeof kData);
  t.t = tensor;
  EXPECT_EQ(printAttribute(t), "value: tensor = int64[2] {1, -2}");
  tensor->name = "c1";
  EXPECT_EQ(printAttribute(t), "value: tensor = int64[2] c1 {1, -2}");

  Attribute& tp = make("dtype", AttributeKind::kTypeProto);
  Type* type = edit().arena().make<Type>();
  type->kind = Type::Kind::kTensor;
  type->elem_type = 1;
  edit().rare(&tp).tp = type;
  EXPECT_EQ(printAttribute(tp), "dtype: type_proto = float[]");

  Attribute& ref = make("alpha", AttributeKind::kFloat);
  edit().rare(&ref).ref_attr_name = "outer";
  EXPECT_EQ(printAttribute(ref), "alpha: float = @outer");
  Attribute& untyped_ref = make("beta", AttributeKind::kUndefined);
  untyped_ref.type.reset();
  edit().rare(&untyped_ref).ref_attr_name = "an outer";
  EXPECT_EQ(printAttribute(untyped_ref), "beta = @\"an outer\"");
}

TEST_F(PrinterAttributes, WhatTheSyntaxCannotSayIsReported) {
  // onnx's parser keeps no element of a tensor list, so only `[]` can be written.
  Attribute& tensors = make("ts", AttributeKind::kTensors);
  lists(tensors).tensors.push_back(edit().arena(), edit().arena().make<Tensor>());
  EXPECT_EQ(printAttribute(tensors), "ts: tensors = []");
  // No sparse tensor literal exists, so the attribute cannot be written at all.
  Attribute& sparse = make("st", AttributeKind::kSparseTensor);
  edit().rare(&sparse).sparse_tensor = edit().arena().make<SparseTensor>();
  EXPECT_EQ(printAttribute(sparse), "st = ?");
  // A missing type is stated from the value.
  Attribute& untyped = make("k", AttributeKind::kUndefined);
  untyped.type.reset();
  untyped.i = 3;
  EXPECT_EQ(printAttribute(untyped), "k: int = 3");
}

// ---- tensor literals --------------------------------------------------------------------

class PrinterTensors : public ::testing::Test {
 protected:
  Tensor& make(ElementType type, std::initializer_list<int64_t> dims, const char* name = nullptr) {
    Tensor* t = edit().arena().make<Tensor>();
    t->data_type = static_cast<int32_t>(type);
    for (int64_t dim : dims) t->dims.values.push_back(edit().arena(), dim);
    if (name != nullptr) t->name = name;
    return *t;
  }
  // Keeps `bytes` alive as long as the test and returns a view of it.
  std::string_view keep(std::string bytes) {
    kept_.push_back(std::make_unique<std::string>(std::move(bytes)));
    return *kept_.back();
  }
  template <class T>
  std::string_view raw(std::initializer_list<T> values) {
    std::string bytes;
    for (T value : values) bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
    return keep(bytes);
  }
  PackedData varints(std::initializer_list<int64_t> values) {
    PackedData data;
    std::string payload;
    for (int64_t value : values) payload += testing::encodeVarint(static_cast<uint64_t>(value));
    data.payload = keep(payload);
    data.count = values.size();
    data.present = true;
    return data;
  }
  GraphEditor edit() { return GraphEditor(model_); }
  Model model_;
  std::vector<std::unique_ptr<std::string>> kept_;
};

TEST_F(PrinterTensors, ElidedTensorsShowTheirFirstElementsAndACount) {
  Tensor& f = make(ElementType::kFloat, {4, 5});
  f.raw_data = raw<float>(
      {0, 0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4, 4.5f, 5, 5.5f, 6, 6.5f, 7, 7.5f, 8, 8.5f, 9, 9.5f});
  PrintOptions elide;
  elide.elide_tensors_over = 16;
  elide.elided_elements = 3;
  EXPECT_EQ(printTensor(f, elide), "float[4,5] {0, 0.5, 1, ... 17 more}");
  // At the limit, or without elision, every element prints.
  elide.elide_tensors_over = 20;
  EXPECT_EQ(printTensor(f, elide).find("..."), std::string::npos);
  EXPECT_EQ(printTensor(f).find("..."), std::string::npos);
  // Varint and string fields are cut the same way.
  Tensor& i = make(ElementType::kInt64, {3});
  edit().rare(&i).int64_data = varints({7, 8, 9});
  elide.elide_tensors_over = 2;
  elide.elided_elements = 1;
  EXPECT_EQ(printTensor(i, elide), "int64[3] {7, ... 2 more}");
  elide.elided_elements = 0;
  EXPECT_EQ(printTensor(i, elide), "int64[3] {... 3 more}");
}

TEST_F(PrinterTensors, RawDataOfEveryKindOfElement) {
  Tensor& f = make(ElementType::kFloat, {2});
  f.raw_data = raw<float>({1.5f, -2.0f});
  EXPECT_EQ(printTensor(f), "float[2] {1.5, -2}");
  Tensor& d = make(ElementType::kDouble, {1});
  d.raw_data = raw<double>({0.1});
  EXPECT_EQ(printTensor(d), "double[1] {0.1}");
  Tensor& i8 = make(ElementType::kInt8, {2});
  i8.raw_data = raw<int8_t>({-1, 2});
  EXPECT_EQ(printTensor(i8), "int8[2] {-1, 2}");
  Tensor& u8 = make(ElementType::kUint8, {1});
  u8.raw_data = raw<uint8_t>({255});
  EXPECT_EQ(printTensor(u8), "uint8[1] {255}");
  Tensor& i16 = make(ElementType::kInt16, {1});
  i16.raw_data = raw<int16_t>({-300});
  EXPECT_EQ(printTensor(i16), "int16[1] {-300}");
  Tensor& u16 = make(ElementType::kUint16, {1});
  u16.raw_data = raw<uint16_t>({65535});
  EXPECT_EQ(printTensor(u16), "uint16[1] {65535}");
  Tensor& i32 = make(ElementType::kInt32, {1});
  i32.raw_data = raw<int32_t>({-7});
  EXPECT_EQ(printTensor(i32), "int32[1] {-7}");
  Tensor& u32 = make(ElementType::kUint32, {1});
  u32.raw_data = raw<uint32_t>({4294967295u});
  EXPECT_EQ(printTensor(u32), "uint32[1] {4294967295}");
  Tensor& i64 = make(ElementType::kInt64, {1});
  i64.raw_data = raw<int64_t>({std::numeric_limits<int64_t>::min()});
  EXPECT_EQ(printTensor(i64), "int64[1] {-9223372036854775808}");
  Tensor& u64 = make(ElementType::kUint64, {1});
  u64.raw_data = raw<uint64_t>({std::numeric_limits<uint64_t>::max()});
  EXPECT_EQ(printTensor(u64), "uint64[1] {18446744073709551615}");
  Tensor& b = make(ElementType::kBool, {2});
  b.raw_data = raw<uint8_t>({1, 0});
  EXPECT_EQ(printTensor(b), "bool[2] {1, 0}");
  Tensor& c64 = make(ElementType::kComplex64, {1});
  c64.raw_data = raw<float>({1.0f, -2.5f});
  EXPECT_EQ(printTensor(c64), "complex64[1] {1, -2.5}");
  Tensor& c128 = make(ElementType::kComplex128, {1});
  c128.raw_data = raw<double>({0.5, 3.0});
  EXPECT_EQ(printTensor(c128), "complex128[1] {0.5, 3}");
}

TEST_F(PrinterTensors, NarrowFloatsAreBitPatternsAndSubByteTypesPackedBytes) {
  Tensor& h = make(ElementType::kFloat16, {2});
  h.raw_data = raw<uint16_t>({0x3C00, 0xBC00});  // 1.0 and -1.0
  EXPECT_EQ(printTensor(h), "float16[2] {15360, 48128}");
  Tensor& bf = make(ElementType::kBfloat16, {1});
  bf.raw_data = raw<uint16_t>({0x3F80});
  EXPECT_EQ(printTensor(bf), "bfloat16[1] {16256}");
  Tensor& f8 = make(ElementType::kFloat8E4M3FN, {1});
  f8.raw_data = raw<uint8_t>({0x38});
  EXPECT_EQ(printTensor(f8), "float8e4m3fn[1] {56}");
  // INT4 {1, 2, -1} packs into the bytes 0x21 and 0x0F; onnx's parser stores each literal
  // number as one int32_data entry, which for 4-bit types holds one packed byte.
  Tensor& i4 = make(ElementType::kInt4, {3});
  i4.raw_data = raw<uint8_t>({0x21, 0x0F});
  EXPECT_EQ(printTensor(i4), "int4[3] {33, 15}");
  Tensor& u2 = make(ElementType::kUint2, {4});
  u2.raw_data = raw<uint8_t>({0xE4});
  EXPECT_EQ(printTensor(u2), "uint2[4] {228}");
}

TEST_F(PrinterTensors, TypedFieldsPrintTheirValues) {
  Tensor& i32 = make(ElementType::kInt32, {3});
  edit().rare(&i32).int32_data = varints({1, -1, 2147483647});
  EXPECT_EQ(printTensor(i32), "int32[3] {1, -1, 2147483647}");
  Tensor& h = make(ElementType::kFloat16, {1});
  edit().rare(&h).int32_data = varints({15360});
  EXPECT_EQ(printTensor(h), "float16[1] {15360}");
  Tensor& i64 = make(ElementType::kInt64, {2});
  edit().rare(&i64).int64_data = varints({-5, 5});
  EXPECT_EQ(printTensor(i64), "int64[2] {-5, 5}");
  Tensor& u64 = make(ElementType::kUint64, {1});
  edit().rare(&u64).uint64_data = varints({-1});
  EXPECT_EQ(printTensor(u64), "uint64[1] {18446744073709551615}");
  Tensor& f = make(ElementType::kFloat, {2});
  edit().rare(&f).float_data.payload = raw<float>({0.25f, 8.0f});
  edit().rare(&f).float_data.count = 2;
  edit().rare(&f).float_data.present = true;
  EXPECT_EQ(printTensor(f), "float[2] {0.25, 8}");
  Tensor& d = make(ElementType::kDouble, {1});
  edit().rare(&d).double_data.payload = raw<double>({-1e300});
  edit().rare(&d).double_data.count = 1;
  edit().rare(&d).double_data.present = true;
  EXPECT_EQ(printTensor(d), "double[1] {-1e+300}");
  Tensor& s = make(ElementType::kString, {2});
  edit().rare(&s).string_data.push_back(edit().arena(), "Hello");
  edit().rare(&s).string_data.push_back(edit().arena(), "say \"x\"");
  EXPECT_EQ(printTensor(s), "string[2] {\"Hello\", \"say \\\"x\\\"\"}");
}

TEST_F(PrinterTensors, ScalarsEmptyTensorsAndExternalReferences) {
  Tensor& scalar = make(ElementType::kFloat, {});
  scalar.raw_data = raw<float>({3.0f});
  EXPECT_EQ(printTensor(scalar), "float {3}");
  Tensor& empty = make(ElementType::kFloat, {0});
  EXPECT_EQ(printTensor(empty), "float[0] {}");
  Tensor& external = make(ElementType::kFloat, {2, 2}, "w");
  external.data_location = Tensor::kExternal;
  edit().rare(&external).external_data.push_back(edit().arena(), {"location", "w.bin", {}});
  edit().rare(&external).external_data.push_back(edit().arena(), {"offset", "4096", {}});
  // As an attribute the `=` tells the parser a tensor follows and not a type.
  EXPECT_EQ(printTensor(external),
            "float[2,2] w = [\"location\": \"w.bin\", \"offset\": \"4096\"]");
}

TEST_F(PrinterTensors, NansPrintAsTheParserReadsThemAndPayloadsAreReported) {
  Tensor& f = make(ElementType::kFloat, {3});
  f.raw_data = keep(rawFloats({std::bit_cast<float>(0x7fc00000u), std::bit_cast<float>(0xffc00000u),
                               std::bit_cast<float>(0x7fc00001u)}));
  EXPECT_EQ(printTensor(f), "float[3] {nan, -nan, nan}");
}

TEST_F(PrinterTensors, LongLiteralsWrap) {
  std::string bytes;
  for (int64_t i = 0; i < 20; ++i) bytes.append(reinterpret_cast<const char*>(&i), 8);
  Tensor& t = make(ElementType::kInt64, {20});
  t.raw_data = keep(bytes);
  EXPECT_EQ(printTensor(t),
            "int64[20] {\n"
            "  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,\n"
            "  16, 17, 18, 19\n"
            "}");
}

// ---- graphs and functions ---------------------------------------------------------------

TEST(Printer, GraphWithInitializersValueInfoAndASubgraph) {
  ProtoBuilder then_graph;
  then_graph.message(field::graph::kNode, node({"x"}, {"a"}, "Identity"))
      .bytes(field::graph::kName, "then_g")
      .message(field::graph::kOutput, valueInfo("a", tensorType(1, {"N"})));
  ProtoBuilder else_graph;
  else_graph.message(field::graph::kNode, node({"w"}, {"b"}, "Identity"))
      .bytes(field::graph::kName, "float")  // a type word: written as a stand-in
      .message(field::graph::kInitializer, ProtoBuilder()
                                               .packedVarints(field::tensor::kDims, {1})
                                               .varint(field::tensor::kDataType, 1)
                                               .bytes(field::tensor::kName, "k")
                                               .bytes(field::tensor::kRawData, rawFloats({2.0f})))
      .message(field::graph::kOutput, valueInfo("b", tensorType(1, {"N"})));
  ProtoBuilder if_node = node({"cond"}, {"y"}, "If");
  if_node.bytes(field::node::kName, "if0")
      .message(field::node::kAttribute,
               ProtoBuilder()
                   .bytes(field::attribute::kName, "then_branch")
                   .message(field::attribute::kG, then_graph)
                   .varint(field::attribute::kType, testing::attribute_type::kGraph))
      .message(field::node::kAttribute,
               ProtoBuilder()
                   .bytes(field::attribute::kName, "else_branch")
                   .message(field::attribute::kG, else_graph)
                   .varint(field::attribute::kType, testing::attribute_type::kGraph));
  ProtoBuilder graph;
  graph.message(field::graph::kNode, node({"x", "w"}, {"v"}, "Add"))
      .message(field::graph::kNode, if_node)
      .bytes(field::graph::kName, "main")
      .message(field::graph::kInitializer, testing::floatTensor("w", {2}, {1.5f, -2.0f}))
      .message(field::graph::kInitializer, testing::floatTensor("bias.0", {}, {0.5f}))
      .message(field::graph::kInput, valueInfo("x", tensorType(1, {"N"})))
      .message(field::graph::kInput, valueInfo("w", tensorType(1, {"2"})))
      .message(field::graph::kInput, ProtoBuilder().bytes(field::value_info::kName, "cond"))
      .message(field::graph::kOutput, valueInfo("y", tensorType(1, {"N"})))
      .message(field::graph::kValueInfo, valueInfo("v", tensorType(1, {"?"})));
  Model m = load(model(graph));
  EXPECT_EQ(printModel(m, PrintOptions{false, 2}),
            std::string(kHeader) +
                "main (float[N] x, float[2] w, cond) => (float[N] y)\n"
                "  <\n"
                "    float[2] w = {1.5, -2},\n"
                "    float \"bias.0\" = {0.5},\n"
                "    float[?] v\n"
                "  >\n"
                "{\n"
                "  v = Add(x, w)\n"
                "  [if0] y = If (cond) <then_branch: graph = then_g () => (float[N] a) {\n"
                "    a = Identity(x)\n"
                "  }, else_branch: graph = _float () => (float[N] b)\n"
                "    <\n"
                "      float[1] k = {2}\n"
                "    >\n"
                "  {\n"
                "    b = Identity(w)\n"
                "  }>\n"
                "}\n");
  EXPECT_EQ(lossPaths(m),
            (std::vector<std::string>{"graph.node[1](if0).attribute[1](else_branch).g.name"}));
  // On its own a graph is no attribute value, so its name can be quoted.
  EXPECT_EQ(printGraph(*m.graph->lastNode()->attributes[1]->g),
            "\"float\" () => (float[N] b)\n"
            "  <\n"
            "    float[1] k = {2}\n"
            "  >\n"
            "{\n"
            "  b = Identity(w)\n"
            "}");
}

TEST(Printer, FunctionsWithAttributesDefaultsAndTypedSignatures) {
  ProtoBuilder body_node = node({"X"}, {"c"}, "Constant");
  body_node.message(field::node::kAttribute,
                    ProtoBuilder()
                        .bytes(field::attribute::kName, "value_float")
                        .varint(field::attribute::kType, testing::attribute_type::kFloat)
                        .bytes(field::attribute::kRefAttrName, "alpha"));
  ProtoBuilder function;
  function.bytes(field::function::kName, "foo")
      .bytes(field::function::kInput, "X")
      .bytes(field::function::kInput, "Y")
      .bytes(field::function::kOutput, "c")
      .bytes(field::function::kAttribute, "gamma")
      .message(field::function::kNode, body_node)
      .bytes(field::function::kDocString, "a function")
      .message(field::function::kOpsetImport, opset("", 21))
      .bytes(field::function::kDomain, "local")
      .message(field::function::kAttributeProto,
               ProtoBuilder()
                   .bytes(field::attribute::kName, "alpha")
                   .floatField(field::attribute::kF, 4.0f)
                   .varint(field::attribute::kType, testing::attribute_type::kFloat))
      // Y's type leads value_info in input order, so it prints in the signature; t does not.
      .message(field::function::kValueInfo, valueInfo("Y", tensorType(1, {"N"})))
      .message(field::function::kValueInfo, valueInfo("t", tensorType(7, {})));
  ProtoBuilder graph;
  ProtoBuilder call = node({"x"}, {"y"}, "foo");
  call.bytes(field::node::kDomain, "local");
  graph.message(field::graph::kNode, call).bytes(field::graph::kName, "g");
  ProtoBuilder m = model(graph);
  m.message(field::model::kFunctions, function);
  Model loaded = load(m);
  EXPECT_EQ(printFunction(*loaded.functions[0]).substr(0, 12), "<\n  domain: ");
  EXPECT_EQ(printModel(loaded), std::string(kHeader) +
                                    "g () => () {\n"
                                    "  y = local.foo(x)\n"
                                    "}\n"
                                    "\n"
                                    "<\n"
                                    "  domain: \"local\",\n"
                                    "  opset_import: [\"\" : 21],\n"
                                    "  doc_string: \"a function\"\n"
                                    ">\n"
                                    "foo <gamma, alpha: float = 4.0> (X, float[N] Y) => (c)\n"
                                    "  <\n"
                                    "    int64 t\n"
                                    "  >\n"
                                    "{\n"
                                    "  c = Constant <value_float: float = @alpha> (X)\n"
                                    "}\n");
}

// ---- losses -----------------------------------------------------------------------------

TEST(Printer, LossesAreListedAndCommentedBeforeTheirStatement) {
  ProtoBuilder documented = node({"x"}, {"y"}, "Relu");
  documented.bytes(field::node::kName, "r")
      .bytes(field::node::kDocString, "line one\nline two")
      .message(field::node::kMetadataProps, testing::stringEntry("k", "v"))
      .varint(999, 7);  // a field onyx does not know
  ProtoBuilder graph;
  graph.message(field::graph::kNode, documented)
      .bytes(field::graph::kName, "g")
      .bytes(field::graph::kDocString, "graph doc")
      .message(field::graph::kInput, ProtoBuilder()
                                         .bytes(field::value_info::kName, "x")
                                         .message(field::value_info::kType, tensorType(1, {"2"}))
                                         .bytes(field::value_info::kDocString, "input doc"))
      .message(field::graph::kOutput, valueInfo("y", tensorType(1, {"2"})))
      .message(field::graph::kQuantizationAnnotation, ProtoBuilder().bytes(1, "y"));
  ProtoBuilder m = model(graph);
  m.message(field::model::kTrainingInfo, ProtoBuilder());
  Model loaded = load(m);

  std::vector<TextLoss> losses = textLosses(loaded);
  std::vector<std::string> paths;
  for (const TextLoss& loss : losses) paths.push_back(loss.path);
  EXPECT_EQ(paths, (std::vector<std::string>{
                       "training_info[0]",
                       "graph.input[0](x).doc_string",
                       "graph.doc_string",
                       "graph.quantization_annotation",
                       "graph.node[0](r).doc_string",
                       "graph.node[0](r).metadata_props",
                       "graph.node[0](r).unknown",
                   }));
  EXPECT_EQ(losses[4].detail, "line one\nline two");

  std::string text;
  std::vector<TextLoss> printed_losses;
  printModel(loaded, text, PrintOptions(), &printed_losses);
  EXPECT_EQ(printed_losses.size(), losses.size());
  EXPECT_EQ(text,
            "# lost: training_info[0]: training graphs have no text form\n"
            "<\n  ir_version: 10,\n  opset_import: [\"\" : 21]\n>\n"
            "# lost: graph.input[0](x).doc_string: input doc\n"
            "# lost: graph.doc_string: graph doc\n"
            "# lost: graph.quantization_annotation: 1 annotation\n"
            "g (float[2] x) => (float[2] y) {\n"
            "  # lost: graph.node[0](r).doc_string: line one\\nline two\n"
            "  # lost: graph.node[0](r).metadata_props: 1 entry\n"
            "  # lost: graph.node[0](r).unknown: a field onyx does not know, number 999\n"
            "  [r] y = Relu(x)\n"
            "}\n");
}

TEST(Printer, TensorAndAttributeLossesAreReported) {
  ProtoBuilder nan_payload;  // a NaN with a payload, a doc string, a segment, and int32_data too
  nan_payload.packedVarints(field::tensor::kDims, {1})
      .varint(field::tensor::kDataType, 1)
      .message(field::tensor::kSegment, ProtoBuilder().varint(1, 0))
      .packedVarints(field::tensor::kInt32Data, {5})
      .bytes(field::tensor::kName, "w")
      .bytes(field::tensor::kRawData, rawFloats({std::bit_cast<float>(0x7f800001u)}))
      .bytes(field::tensor::kDocString, "weights");
  ProtoBuilder unknown_type;
  unknown_type.varint(field::tensor::kDataType, 99).bytes(field::tensor::kName, "odd");
  ProtoBuilder n = node({"w"}, {"y"}, "Op");
  n.message(field::node::kAttribute,
            ProtoBuilder()
                .bytes(field::attribute::kName, "ts")
                .message(field::attribute::kTensors, testing::floatTensor("", {1}, {1.0f}))
                .varint(field::attribute::kType, testing::attribute_type::kTensors))
      .message(field::node::kAttribute,
               ProtoBuilder()
                   .bytes(field::attribute::kName, "sp")
                   .message(field::attribute::kSparseTensor, ProtoBuilder())
                   .varint(field::attribute::kType, 11))
      .message(field::node::kAttribute,
               ProtoBuilder()
                   .bytes(field::attribute::kName, "both")
                   .floatField(field::attribute::kF, 1.0f)
                   .varint(field::attribute::kI, 2)
                   .bytes(field::attribute::kDocString, "two values")
                   .varint(field::attribute::kType, testing::attribute_type::kInt));
  ProtoBuilder graph;
  graph.message(field::graph::kNode, n)
      .bytes(field::graph::kName, "g")
      .message(field::graph::kInitializer, nan_payload)
      .message(field::graph::kInitializer, unknown_type)
      .message(field::graph::kSparseInitializer,
               ProtoBuilder().message(field::sparse::kValues, testing::floatTensor("s", {1}, {1})));
  Model m = load(model(graph));
  std::vector<TextLoss> losses = textLosses(m);
  std::vector<std::string> paths;
  for (const TextLoss& loss : losses) paths.push_back(loss.path);
  EXPECT_EQ(paths, (std::vector<std::string>{
                       "graph.sparse_initializer[0](s)",
                       "graph.initializer[0](w).raw_data",
                       "graph.initializer[0](w).int32_data",
                       "graph.initializer[0](w).doc_string",
                       "graph.initializer[0](w).segment",
                       "graph.initializer[1](odd).data_type",
                       "graph.node[0].attribute[0](ts).tensors",
                       "graph.node[0].attribute[1](sp).sparse_tensor",
                       "graph.node[0].attribute[2](both).f",
                       "graph.node[0].attribute[2](both).doc_string",
                   }));
  EXPECT_EQ(losses[1].detail,
            "1 NaN with a payload (the first is 0x7f800001) read back as the "
            "default NaN");
  EXPECT_EQ(printModel(m, PrintOptions{false, 2}),
            std::string(kHeader) +
                "g () => ()\n"
                "  <\n"
                "    float[1] w = {nan}\n"
                "  >\n"
                "{\n"
                "  y = Op <ts: tensors = [], both: int = 2> (w)\n"
                "}\n");
}

TEST(Printer, AModelWithoutLossesHasNone) {
  Model m = load(testing::validModel());
  EXPECT_TRUE(textLosses(m).empty());
  EXPECT_EQ(printModel(m), std::string("<\n  ir_version: 8,\n  opset_import: [\"\" : 13]\n>\n") +
                               "g (float[2] x) => (float[2] y)\n"
                               "  <\n"
                               "    float[2] w = {1.5, -2}\n"
                               "  >\n"
                               "{\n"
                               "  [add0] y = Gemm <alpha: float = 1.0> (x, w)\n"
                               "}\n");
}

TEST(Printer, LargeGraphPrintsQuickly) {
  // 200,000 nodes in a chain, as a loaded model has them.
  constexpr int kNodes = 200000;
  ProtoBuilder graph;
  for (int i = 0; i < kNodes; ++i) {
    std::string input = "v" + std::to_string(i);
    std::string output = "v" + std::to_string(i + 1);
    ProtoBuilder n;
    n.bytes(field::node::kInput, input)
        .bytes(field::node::kOutput, output)
        .bytes(field::node::kName, "n" + std::to_string(i))
        .bytes(field::node::kOpType, "Relu");
    graph.message(field::graph::kNode, n);
  }
  graph.bytes(field::graph::kName, "chain")
      .message(field::graph::kInput, valueInfo("v0", tensorType(1, {"N"})))
      .message(field::graph::kOutput,
               valueInfo("v" + std::to_string(kNodes), tensorType(1, {"N"})));
  Model m = load(model(graph));
  auto start = std::chrono::steady_clock::now();
  std::string text = printModel(m);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "printed " << kNodes << " nodes (" << text.size() << " bytes) in " << seconds
            << " s\n";
  size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  EXPECT_EQ(lines, static_cast<size_t>(kNodes) + 6);  // header (4), graph line, nodes, `}`
  EXPECT_NE(text.find("  [n199999] v200000 = Relu(v199999)\n}\n"), std::string::npos);
}

}  // namespace
}  // namespace onyx
