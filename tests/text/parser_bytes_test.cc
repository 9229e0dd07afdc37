// The text parser, field for field: a parsed text serializes to exactly the bytes protobuf
// writes for the ModelProto onnx's parser fills from that text — every field present or
// absent as there (node domains, empty tensor names, scalar shapes), in field-number order,
// repeated scalars packed where onnx.proto says so and not elsewhere. The expected bytes are
// built field by field with the test ProtoBuilder, independently of onyx's encoder.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"
#include "support/proto_builder.h"

namespace onyx {
namespace {

using testing::ProtoBuilder;
namespace f = testing::field;

std::string hex(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
    out.push_back(' ');
  }
  return out;
}

void expectBytes(std::string_view text, const ProtoBuilder& expected) {
  Result<Model> model = parseText(text);
  ASSERT_TRUE(model) << model.status().toString();
  Result<std::string> written = serializeModel(*model);
  ASSERT_TRUE(written) << written.status().toString();
  EXPECT_EQ(hex(*written), hex(expected.str())) << text;
}

ProtoBuilder graphOnly(const ProtoBuilder& graph) {
  return ProtoBuilder().message(f::model::kGraph, graph);
}

ProtoBuilder named(std::string_view name) {
  return ProtoBuilder().bytes(f::value_info::kName, name);
}

ProtoBuilder attribute(std::string_view name) {
  return ProtoBuilder().bytes(f::attribute::kName, name);
}

std::string fixed64Bytes(double value) {
  std::string bytes(8, '\0');
  std::memcpy(bytes.data(), &value, 8);
  return bytes;
}

TEST(TextParserBytes, SmallModelInFieldOrder) {
  // The text gives the nodes last and the name first; GraphProto wants them the other way.
  ProtoBuilder node = testing::nodeProto({"x", "s"}, {"y"}, "n", "Op");
  node.message(f::node::kAttribute,
               attribute("a").varint(f::attribute::kI, 1).varint(f::attribute::kType, 2))
      .bytes(f::node::kDomain, "dom")
      .bytes(f::node::kOverload, "ov");
  ProtoBuilder initializer;
  initializer.varint(f::tensor::kDims, 2)
      .varint(f::tensor::kDataType, 7)
      .packedVarints(f::tensor::kInt64Data, {1, 2})
      .bytes(f::tensor::kName, "s");
  ProtoBuilder graph;
  graph.message(f::graph::kNode, node)
      .bytes(f::graph::kName, "g")
      .message(f::graph::kInitializer, initializer)
      .message(f::graph::kInput, testing::valueInfo("x", 1, {2}))
      .message(f::graph::kOutput, named("y"));
  expectBytes(R"(<ir_version: 7, opset_import: ["" : 13]>
      g (float[2] x) => (y) <int64[2] s = {1, 2}> { [n] y = dom.Op:ov <a = 1> (x, s) })",
              testing::modelWithGraph(graph, 7, 13));
}

TEST(TextParserBytes, HeaderFieldsAndFunctionsInFieldOrder) {
  ProtoBuilder model;
  model.varint(f::model::kIrVersion, 8)
      .bytes(f::model::kProducerName, "p")
      .bytes(f::model::kProducerVersion, "1")
      .bytes(f::model::kDomain, "d")
      .varint(f::model::kModelVersion, 3)
      .bytes(f::model::kDocString, "doc")
      .message(f::model::kGraph, ProtoBuilder().bytes(f::graph::kName, "g"))
      .message(f::model::kOpsetImport, testing::opsetImport("", 13))
      .message(f::model::kMetadataProps, testing::stringEntry("k", "v"));
  ProtoBuilder function;
  ProtoBuilder body_node = testing::nodeProto({"x"}, {"z"}, "", "Op");
  body_node.bytes(f::node::kDomain, "");
  function.bytes(f::function::kName, "fn")
      .bytes(f::function::kInput, "x")
      .bytes(f::function::kInput, "y")
      .bytes(f::function::kOutput, "z")
      .bytes(f::function::kAttribute, "a")
      .message(f::function::kNode, body_node)
      .bytes(f::function::kDocString, "fdoc")
      .message(f::function::kOpsetImport, testing::opsetImport("", 1))
      .bytes(f::function::kDomain, "lib")
      .message(f::function::kAttributeProto,
               attribute("b").varint(f::attribute::kI, 1).varint(f::attribute::kType, 2))
      .message(f::function::kValueInfo,
               named("x").message(f::value_info::kType, testing::tensorType(1, {})))
      .message(f::function::kValueInfo, named("w"))
      .bytes(f::function::kOverload, "o");
  model.message(f::model::kFunctions, function);
  expectBytes(R"(<metadata_props: ["k" : "v"], doc_string: "doc", opset_import: ["" : 13],
                 model_version: 3, domain: "d", producer_version: "1", producer_name: "p",
                 ir_version: 8>
      g () => () {}
      <overload: "o", domain: "lib", opset_import: ["" : 1], doc_string: "fdoc">
      fn <a, b = 1> (float x, y) => (z) <w> { z = Op(x) })",
              model);
}

TEST(TextParserBytes, AttributesOfEveryKind) {
  ProtoBuilder node = testing::nodeProto({}, {"x"}, "", "Op");
  node.message(f::node::kAttribute,
               attribute("f").floatField(f::attribute::kF, 0.5f).varint(f::attribute::kType, 1))
      .message(f::node::kAttribute,
               attribute("s").bytes(f::attribute::kS, "text").varint(f::attribute::kType, 3))
      // Lists are not packed: AttributeProto's floats and ints are plain repeated fields.
      .message(f::node::kAttribute, attribute("fs")
                                        .floatField(f::attribute::kFloats, 1.5f)
                                        .floatField(f::attribute::kFloats, 2.0f)
                                        .varint(f::attribute::kType, 6))
      .message(f::node::kAttribute, attribute("is")
                                        .varint(f::attribute::kInts, 3)
                                        .varint(f::attribute::kInts, static_cast<uint64_t>(-1))
                                        .varint(f::attribute::kType, 7))
      .message(f::node::kAttribute, attribute("ss")
                                        .bytes(f::attribute::kStrings, "a")
                                        .bytes(f::attribute::kStrings, "b")
                                        .varint(f::attribute::kType, 8))
      .message(f::node::kAttribute,
               attribute("t")
                   .message(f::attribute::kT, ProtoBuilder()
                                                  .varint(f::tensor::kDims, 1)
                                                  .varint(f::tensor::kDataType, 1)
                                                  .packedFloats(f::tensor::kFloatData, {1.0f})
                                                  .bytes(f::tensor::kName, ""))
                   .varint(f::attribute::kType, 4))
      .message(f::node::kAttribute, attribute("tp")
                                        .message(f::attribute::kTp, testing::tensorType(7, {}))
                                        .varint(f::attribute::kType, 13))
      .message(
          f::node::kAttribute,
          attribute("r").varint(f::attribute::kType, 2).bytes(f::attribute::kRefAttrName, "ref"))
      .message(f::node::kAttribute, attribute("u").bytes(f::attribute::kRefAttrName, "other"))
      .message(f::node::kAttribute,
               attribute("gr")
                   .message(f::attribute::kG, ProtoBuilder().bytes(f::graph::kName, "b"))
                   .varint(f::attribute::kType, 5))
      .message(f::node::kAttribute,
               attribute("none").varint(f::attribute::kType, 7))  // `none: ints = []`
      .bytes(f::node::kDomain, "");
  ProtoBuilder graph;
  graph.message(f::graph::kNode, node).bytes(f::graph::kName, "g");
  expectBytes(R"(g () => () {
      x = Op <f = 0.5, s = "text", fs = [1.5, 2], is = [3, -1], ss = ["a", "b"], t = float[1] {1},
              tp = int64, r: int = @ref, u = @other, gr = b () => () {}, none: ints = []> ()
    })",
              graphOnly(graph));
}

TEST(TextParserBytes, TensorStorageFieldsAndNamePosition) {
  // TensorProto numbers its name (8) after the 32-bit data fields and before double_data (10),
  // uint64_data (11) and external_data (13).
  ProtoBuilder graph;
  graph.bytes(f::graph::kName, "g")
      .message(f::graph::kInitializer, ProtoBuilder()
                                           .varint(f::tensor::kDims, 1)
                                           .varint(f::tensor::kDataType, 11)
                                           .bytes(f::tensor::kName, "d")
                                           .bytes(f::tensor::kDoubleData, fixed64Bytes(0.5)))
      .message(f::graph::kInitializer, ProtoBuilder()
                                           .varint(f::tensor::kDims, 1)
                                           .varint(f::tensor::kDataType, 13)
                                           .bytes(f::tensor::kName, "u")
                                           .packedVarints(f::tensor::kUint64Data, {5}))
      .message(f::graph::kInitializer, ProtoBuilder()
                                           .varint(f::tensor::kDims, 2)
                                           .varint(f::tensor::kDataType, 8)
                                           .bytes(f::tensor::kStringData, "x")
                                           .bytes(f::tensor::kStringData, "")
                                           .bytes(f::tensor::kName, "s"))
      .message(f::graph::kInitializer,
               ProtoBuilder()
                   .varint(f::tensor::kDims, 2)
                   .varint(f::tensor::kDataType, 3)
                   // int32 data sign-extends a negative value to ten bytes
                   .packedVarints(f::tensor::kInt32Data, {static_cast<uint64_t>(-2), 3})
                   .bytes(f::tensor::kName, "i8"))
      .message(f::graph::kInitializer,
               ProtoBuilder()
                   .varint(f::tensor::kDims, 1)
                   .varint(f::tensor::kDataType, 1)
                   .bytes(f::tensor::kName, "e")
                   .message(f::tensor::kExternalData, testing::stringEntry("location", "f.bin"))
                   .varint(f::tensor::kDataLocation, 1))
      .message(f::graph::kInitializer, ProtoBuilder()
                                           .varint(f::tensor::kDims, 0)
                                           .varint(f::tensor::kDataType, 1)
                                           .bytes(f::tensor::kName, "empty"));
  expectBytes(R"(g () => () <double[1] d = {0.5}, uint64[1] u = {5}, string[2] s = {"x", ""},
                 int8[2] i8 = {-2, 3}, float[1] e = ["location" : "f.bin"], float[0] empty = {}> {})",
              graphOnly(graph));
}

TEST(TextParserBytes, TypesOfEveryKind) {
  auto typed = [](std::string_view name, const ProtoBuilder& type) {
    return named(name).message(f::value_info::kType, type);
  };
  ProtoBuilder empty;
  ProtoBuilder scalar_float = testing::tensorType(1, {});
  ProtoBuilder graph;
  graph.bytes(f::graph::kName, "g")
      .message(f::graph::kInput,
               typed("a", ProtoBuilder().message(
                              f::type::kSequenceType,
                              ProtoBuilder().message(f::type::kElemType, scalar_float))))
      .message(f::graph::kInput,
               typed("b", ProtoBuilder().message(
                              f::type::kMapType,
                              ProtoBuilder()
                                  .varint(f::type::kKeyType, 7)
                                  .message(f::type::kValueType,
                                           ProtoBuilder().message(
                                               f::type::kTensorType,
                                               ProtoBuilder().varint(f::type::kElemType, 1))))))
      .message(
          f::graph::kInput,
          typed("c", ProtoBuilder().message(
                         f::type::kOptionalType,
                         ProtoBuilder().message(
                             f::type::kElemType,
                             ProtoBuilder().message(
                                 f::type::kTensorType,
                                 ProtoBuilder()
                                     .varint(f::type::kElemType, 3)
                                     .message(f::type::kShape,
                                              ProtoBuilder()
                                                  .message(f::shape::kDim, empty)
                                                  .message(f::shape::kDim,
                                                           ProtoBuilder().bytes(f::shape::kDimParam,
                                                                                "N"))))))))
      .message(f::graph::kInput,
               typed("d", ProtoBuilder().message(
                              f::type::kSparseTensorType,
                              ProtoBuilder()
                                  .varint(f::type::kElemType, 1)
                                  .message(f::type::kShape,
                                           ProtoBuilder().message(
                                               f::shape::kDim,
                                               ProtoBuilder().varint(f::shape::kDimValue, 2))))))
      .message(f::graph::kInput,
               typed("e", ProtoBuilder().message(f::type::kOpaqueType,
                                                 ProtoBuilder().bytes(1, "x.y").bytes(2, "Z"))))
      .message(f::graph::kInput,
               typed("o", ProtoBuilder().message(f::type::kOpaqueType, ProtoBuilder())));
  expectBytes(
      R"(g (seq(float) a, map(int64, float[]) b, optional(int8[?, N]) c,
            sparse_tensor(float[2]) d, opaque(x.y, Z) e, opaque() o) => () {})",
      graphOnly(graph));
}

}  // namespace
}  // namespace onyx
