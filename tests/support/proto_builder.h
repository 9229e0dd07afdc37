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

#include "serde/field_numbers.h"

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

/// Field numbers of the ONNX messages, for readable builders.
namespace field = ::onyx::field;

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
