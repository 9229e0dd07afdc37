// Test support: a tiny protobuf wire-format *writer*, to build .onnx bytes field by field.
//
// It is independent of onyx's own encoder on purpose: tests that check the decoder (bad
// input, fuzz seeds, benchmarks) must not build their input with the code under test. It
// also writes what no real encoder would: any field number (0, 2^29, ...), any wire type
// (6, 7, end-group without start), and length prefixes that lie (`bytesWithLength`), so
// that malformed files can be built byte by byte.
//
//   ProtoBuilder node;
//   node.bytes(field::node::kInput, "x").bytes(field::node::kOutput, "y")
//       .bytes(field::node::kOpType, "Relu");
//   std::string model = modelWithGraph(ProtoBuilder().message(field::graph::kNode, node)).str();
//
// Every method appends to the end and returns *this. Field numbers are uint64_t so that
// out-of-range numbers can be written; the key is `(field << 3) | wire_type`.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace onyx::testing {

/// Protobuf wire types (the low three bits of a key). 6 and 7 are invalid on the wire.
namespace wire_type {
inline constexpr uint32_t kVarint = 0;
inline constexpr uint32_t kFixed64 = 1;
inline constexpr uint32_t kLengthDelimited = 2;
inline constexpr uint32_t kStartGroup = 3;
inline constexpr uint32_t kEndGroup = 4;
inline constexpr uint32_t kFixed32 = 5;
}  // namespace wire_type

/// `value` as a base-128 varint, 1 to 10 bytes (negative int64 values take 10).
std::string encodeVarint(uint64_t value);

class ProtoBuilder {
 public:
  /// A key: `field` and `wire_type` as given, unchecked (so 0, 2^29 and type 7 can be written).
  ProtoBuilder& tag(uint64_t field, uint32_t wire_type);
  /// A varint field (int32, int64, enum, bool; negative values are passed as uint64_t).
  ProtoBuilder& varint(uint64_t field, uint64_t value);
  /// A fixed32 field holding `bits`.
  ProtoBuilder& fixed32(uint64_t field, uint32_t bits);
  /// A fixed64 field holding `bits`.
  ProtoBuilder& fixed64(uint64_t field, uint64_t bits);
  /// A float field (fixed32 holding the IEEE bits of `value`).
  ProtoBuilder& floatField(uint64_t field, float value);
  /// A double field (fixed64 holding the IEEE bits of `value`).
  ProtoBuilder& doubleField(uint64_t field, double value);
  /// A length-delimited field: string, bytes, or a packed payload built by hand.
  ProtoBuilder& bytes(uint64_t field, std::string_view data);
  /// A length-delimited field whose length prefix says `claimed_length` while `data`
  /// follows: the tool for lengths that run past the end.
  ProtoBuilder& bytesWithLength(uint64_t field, uint64_t claimed_length, std::string_view data);
  /// A sub-message field.
  ProtoBuilder& message(uint64_t field, const ProtoBuilder& sub);
  /// A packed repeated varint field (int32, int64, uint64, enum).
  ProtoBuilder& packedVarints(uint64_t field, std::initializer_list<uint64_t> values);
  /// A packed repeated float field.
  ProtoBuilder& packedFloats(uint64_t field, std::initializer_list<float> values);
  /// A bare varint, without a key.
  ProtoBuilder& rawVarint(uint64_t value);
  /// Arbitrary bytes, appended as they are.
  ProtoBuilder& raw(std::string_view data);

  const std::string& str() const { return bytes_; }
  size_t size() const { return bytes_.size(); }
  bool empty() const { return bytes_.empty(); }

 private:
  std::string bytes_;
};

/// Field numbers of the ONNX messages (onnx/onnx.in.proto), for readable builders.
namespace field {
namespace model {
inline constexpr uint32_t kIrVersion = 1;
inline constexpr uint32_t kProducerName = 2;
inline constexpr uint32_t kProducerVersion = 3;
inline constexpr uint32_t kDomain = 4;
inline constexpr uint32_t kModelVersion = 5;
inline constexpr uint32_t kDocString = 6;
inline constexpr uint32_t kGraph = 7;
inline constexpr uint32_t kOpsetImport = 8;
inline constexpr uint32_t kMetadataProps = 14;
inline constexpr uint32_t kTrainingInfo = 20;
inline constexpr uint32_t kFunctions = 25;
inline constexpr uint32_t kConfiguration = 26;
}  // namespace model
namespace opset {
inline constexpr uint32_t kDomain = 1;
inline constexpr uint32_t kVersion = 2;
}  // namespace opset
namespace entry {  // StringStringEntryProto
inline constexpr uint32_t kKey = 1;
inline constexpr uint32_t kValue = 2;
}  // namespace entry
namespace training {
inline constexpr uint32_t kInitialization = 1;
inline constexpr uint32_t kAlgorithm = 2;
inline constexpr uint32_t kInitializationBinding = 3;
inline constexpr uint32_t kUpdateBinding = 4;
}  // namespace training
namespace graph {
inline constexpr uint32_t kNode = 1;
inline constexpr uint32_t kName = 2;
inline constexpr uint32_t kInitializer = 5;
inline constexpr uint32_t kDocString = 10;
inline constexpr uint32_t kInput = 11;
inline constexpr uint32_t kOutput = 12;
inline constexpr uint32_t kValueInfo = 13;
inline constexpr uint32_t kQuantizationAnnotation = 14;
inline constexpr uint32_t kSparseInitializer = 15;
inline constexpr uint32_t kMetadataProps = 16;
}  // namespace graph
namespace node {
inline constexpr uint32_t kInput = 1;
inline constexpr uint32_t kOutput = 2;
inline constexpr uint32_t kName = 3;
inline constexpr uint32_t kOpType = 4;
inline constexpr uint32_t kAttribute = 5;
inline constexpr uint32_t kDocString = 6;
inline constexpr uint32_t kDomain = 7;
inline constexpr uint32_t kOverload = 8;
inline constexpr uint32_t kMetadataProps = 9;
inline constexpr uint32_t kDeviceConfigurations = 10;
}  // namespace node
namespace attribute {
inline constexpr uint32_t kName = 1;
inline constexpr uint32_t kF = 2;
inline constexpr uint32_t kI = 3;
inline constexpr uint32_t kS = 4;
inline constexpr uint32_t kT = 5;
inline constexpr uint32_t kG = 6;
inline constexpr uint32_t kFloats = 7;
inline constexpr uint32_t kInts = 8;
inline constexpr uint32_t kStrings = 9;
inline constexpr uint32_t kTensors = 10;
inline constexpr uint32_t kGraphs = 11;
inline constexpr uint32_t kDocString = 13;
inline constexpr uint32_t kTp = 14;
inline constexpr uint32_t kTypeProtos = 15;
inline constexpr uint32_t kType = 20;
inline constexpr uint32_t kRefAttrName = 21;
inline constexpr uint32_t kSparseTensor = 22;
inline constexpr uint32_t kSparseTensors = 23;
}  // namespace attribute
namespace value_info {
inline constexpr uint32_t kName = 1;
inline constexpr uint32_t kType = 2;
inline constexpr uint32_t kDocString = 3;
inline constexpr uint32_t kMetadataProps = 4;
}  // namespace value_info
namespace type {  // TypeProto and its members
inline constexpr uint32_t kTensorType = 1;
inline constexpr uint32_t kSequenceType = 4;
inline constexpr uint32_t kMapType = 5;
inline constexpr uint32_t kDenotation = 6;
inline constexpr uint32_t kOpaqueType = 7;
inline constexpr uint32_t kSparseTensorType = 8;
inline constexpr uint32_t kOptionalType = 9;
inline constexpr uint32_t kElemType =
    1;  // Tensor, SparseTensor (int32); Sequence, Optional (TypeProto)
inline constexpr uint32_t kShape = 2;      // Tensor, SparseTensor
inline constexpr uint32_t kKeyType = 1;    // Map
inline constexpr uint32_t kValueType = 2;  // Map
}  // namespace type
namespace shape {  // TensorShapeProto and Dimension
inline constexpr uint32_t kDim = 1;
inline constexpr uint32_t kDimValue = 1;
inline constexpr uint32_t kDimParam = 2;
inline constexpr uint32_t kDenotation = 3;
}  // namespace shape
namespace tensor {
inline constexpr uint32_t kDims = 1;
inline constexpr uint32_t kDataType = 2;
inline constexpr uint32_t kSegment = 3;
inline constexpr uint32_t kFloatData = 4;
inline constexpr uint32_t kInt32Data = 5;
inline constexpr uint32_t kStringData = 6;
inline constexpr uint32_t kInt64Data = 7;
inline constexpr uint32_t kName = 8;
inline constexpr uint32_t kRawData = 9;
inline constexpr uint32_t kDoubleData = 10;
inline constexpr uint32_t kUint64Data = 11;
inline constexpr uint32_t kDocString = 12;
inline constexpr uint32_t kExternalData = 13;
inline constexpr uint32_t kDataLocation = 14;
inline constexpr uint32_t kMetadataProps = 16;
}  // namespace tensor
namespace sparse {
inline constexpr uint32_t kValues = 1;
inline constexpr uint32_t kIndices = 2;
inline constexpr uint32_t kDims = 3;
}  // namespace sparse
namespace function {
inline constexpr uint32_t kName = 1;
inline constexpr uint32_t kInput = 4;
inline constexpr uint32_t kOutput = 5;
inline constexpr uint32_t kAttribute = 6;
inline constexpr uint32_t kNode = 7;
inline constexpr uint32_t kDocString = 8;
inline constexpr uint32_t kOpsetImport = 9;
inline constexpr uint32_t kDomain = 10;
inline constexpr uint32_t kAttributeProto = 11;
inline constexpr uint32_t kValueInfo = 12;
inline constexpr uint32_t kOverload = 13;
inline constexpr uint32_t kMetadataProps = 14;
}  // namespace function
}  // namespace field

/// TensorProto.DataType codes used by the helpers below.
namespace data_type {
inline constexpr int32_t kFloat = 1;
inline constexpr int32_t kInt32 = 6;
inline constexpr int32_t kInt64 = 7;
inline constexpr int32_t kDouble = 11;
}  // namespace data_type

/// AttributeProto.AttributeType codes.
namespace attribute_type {
inline constexpr int32_t kFloat = 1;
inline constexpr int32_t kInt = 2;
inline constexpr int32_t kString = 3;
inline constexpr int32_t kTensor = 4;
inline constexpr int32_t kGraph = 5;
inline constexpr int32_t kFloats = 6;
inline constexpr int32_t kInts = 7;
inline constexpr int32_t kStrings = 8;
inline constexpr int32_t kTensors = 9;
inline constexpr int32_t kGraphs = 10;
inline constexpr int32_t kTypeProto = 13;
}  // namespace attribute_type

/// TensorProto.DataLocation EXTERNAL.
inline constexpr int32_t kDataLocationExternal = 1;

// Building blocks. Each writes its fields in field-number order, as protobuf does, so a
// model built from them is written back by onyx byte for byte.

/// OperatorSetIdProto {domain, version}.
ProtoBuilder opsetImport(std::string_view domain, int64_t version);
/// StringStringEntryProto {key, value}.
ProtoBuilder stringEntry(std::string_view key, std::string_view value);
/// TypeProto {tensor_type {elem_type, shape {dim {dim_value}...}}}.
ProtoBuilder tensorType(int32_t elem_type, std::initializer_list<int64_t> dims);
/// ValueInfoProto {name, tensorType(elem_type, dims)}.
ProtoBuilder valueInfo(std::string_view name, int32_t elem_type,
                       std::initializer_list<int64_t> dims);
/// TensorProto {dims, data_type FLOAT, name, raw_data (little-endian floats)}.
ProtoBuilder floatTensor(std::string_view name, std::initializer_list<int64_t> dims,
                         std::initializer_list<float> values);
/// AttributeProto {name, f, type FLOAT}.
ProtoBuilder floatAttribute(std::string_view name, float value);
/// NodeProto {input..., output..., name, op_type} (no name field when `name` is empty).
ProtoBuilder nodeProto(std::initializer_list<std::string_view> inputs,
                       std::initializer_list<std::string_view> outputs, std::string_view name,
                       std::string_view op_type);
/// ModelProto {ir_version, graph, opset_import {"" opset}}.
ProtoBuilder modelWithGraph(const ProtoBuilder& graph, int64_t ir_version = 8, int64_t opset = 13);

// The small valid model and its parts. The model is
//   ir_version 8, opset_import {"" 13},
//   graph "g" { node "add0": Gemm(x, w) -> y, attribute alpha (FLOAT 1.0);
//               initializer w float[2] = raw_data {1.5, -2.0};
//               input x float[2]; output y float[2] }.

/// The tensor `w`: float[2] {1.5, -2.0} in raw_data.
ProtoBuilder validTensor();
/// The node `add0`: Gemm(x, w) -> y with attribute alpha = 1.0.
ProtoBuilder validNode();
/// The graph `g` around validNode() and validTensor().
ProtoBuilder validGraph();
/// The whole model.
ProtoBuilder validModel();
std::string validModelBytes();

}  // namespace onyx::testing
