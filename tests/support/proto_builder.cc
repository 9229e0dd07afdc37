#include "support/proto_builder.h"

#include <cstring>

namespace onyx::testing {

std::string encodeVarint(uint64_t value) {
  std::string out;
  while (value >= 0x80) {
    out += static_cast<char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  out += static_cast<char>(value);
  return out;
}

ProtoBuilder& ProtoBuilder::tag(uint64_t field, uint32_t wire_type) {
  return rawVarint((field << 3) | wire_type);
}

ProtoBuilder& ProtoBuilder::varint(uint64_t field, uint64_t value) {
  tag(field, wire_type::kVarint);
  return rawVarint(value);
}

ProtoBuilder& ProtoBuilder::fixed32(uint64_t field, uint32_t bits) {
  tag(field, wire_type::kFixed32);
  for (int i = 0; i < 4; ++i) bytes_ += static_cast<char>((bits >> (8 * i)) & 0xff);
  return *this;
}

ProtoBuilder& ProtoBuilder::fixed64(uint64_t field, uint64_t bits) {
  tag(field, wire_type::kFixed64);
  for (int i = 0; i < 8; ++i) bytes_ += static_cast<char>((bits >> (8 * i)) & 0xff);
  return *this;
}

ProtoBuilder& ProtoBuilder::floatField(uint64_t field, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return fixed32(field, bits);
}

ProtoBuilder& ProtoBuilder::doubleField(uint64_t field, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return fixed64(field, bits);
}

ProtoBuilder& ProtoBuilder::bytes(uint64_t field, std::string_view data) {
  return bytesWithLength(field, data.size(), data);
}

ProtoBuilder& ProtoBuilder::bytesWithLength(uint64_t field, uint64_t claimed_length,
                                            std::string_view data) {
  tag(field, wire_type::kLengthDelimited);
  rawVarint(claimed_length);
  return raw(data);
}

ProtoBuilder& ProtoBuilder::message(uint64_t field, const ProtoBuilder& sub) {
  return bytes(field, sub.str());
}

ProtoBuilder& ProtoBuilder::packedVarints(uint64_t field, std::initializer_list<uint64_t> values) {
  std::string payload;
  for (uint64_t value : values) payload += encodeVarint(value);
  return bytes(field, payload);
}

ProtoBuilder& ProtoBuilder::packedFloats(uint64_t field, std::initializer_list<float> values) {
  ProtoBuilder payload;
  for (float value : values) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < 4; ++i) payload.bytes_ += static_cast<char>((bits >> (8 * i)) & 0xff);
  }
  return bytes(field, payload.str());
}

ProtoBuilder& ProtoBuilder::rawVarint(uint64_t value) {
  bytes_ += encodeVarint(value);
  return *this;
}

ProtoBuilder& ProtoBuilder::raw(std::string_view data) {
  bytes_.append(data);
  return *this;
}

// ---------------------------------------------------------------------------------------
// Building blocks

ProtoBuilder opsetImport(std::string_view domain, int64_t version) {
  return ProtoBuilder()
      .bytes(field::opset::kDomain, domain)
      .varint(field::opset::kVersion, static_cast<uint64_t>(version));
}

ProtoBuilder stringEntry(std::string_view key, std::string_view value) {
  return ProtoBuilder().bytes(field::entry::kKey, key).bytes(field::entry::kValue, value);
}

ProtoBuilder tensorType(int32_t elem_type, std::initializer_list<int64_t> dims) {
  ProtoBuilder shape;
  for (int64_t dim : dims) {
    shape.message(field::shape::kDim,
                  ProtoBuilder().varint(field::shape::kDimValue, static_cast<uint64_t>(dim)));
  }
  ProtoBuilder tensor;
  tensor.varint(field::type::kElemType, static_cast<uint64_t>(elem_type));
  tensor.message(field::type::kShape, shape);
  return ProtoBuilder().message(field::type::kTensorType, tensor);
}

ProtoBuilder valueInfo(std::string_view name, int32_t elem_type,
                       std::initializer_list<int64_t> dims) {
  return ProtoBuilder()
      .bytes(field::value_info::kName, name)
      .message(field::value_info::kType, tensorType(elem_type, dims));
}

ProtoBuilder floatTensor(std::string_view name, std::initializer_list<int64_t> dims,
                         std::initializer_list<float> values) {
  ProtoBuilder tensor;
  for (int64_t dim : dims) tensor.varint(field::tensor::kDims, static_cast<uint64_t>(dim));
  tensor.varint(field::tensor::kDataType, static_cast<uint64_t>(data_type::kFloat));
  tensor.bytes(field::tensor::kName, name);
  std::string raw;
  for (float value : values) {
    char bits[sizeof value];
    std::memcpy(bits, &value, sizeof value);  // little-endian hosts only, as onyx
    raw.append(bits, sizeof bits);
  }
  tensor.bytes(field::tensor::kRawData, raw);
  return tensor;
}

ProtoBuilder floatAttribute(std::string_view name, float value) {
  return ProtoBuilder()
      .bytes(field::attribute::kName, name)
      .floatField(field::attribute::kF, value)
      .varint(field::attribute::kType, static_cast<uint64_t>(attribute_type::kFloat));
}

ProtoBuilder nodeProto(std::initializer_list<std::string_view> inputs,
                       std::initializer_list<std::string_view> outputs, std::string_view name,
                       std::string_view op_type) {
  ProtoBuilder node;
  for (std::string_view input : inputs) node.bytes(field::node::kInput, input);
  for (std::string_view output : outputs) node.bytes(field::node::kOutput, output);
  if (!name.empty()) node.bytes(field::node::kName, name);
  node.bytes(field::node::kOpType, op_type);
  return node;
}

ProtoBuilder modelWithGraph(const ProtoBuilder& graph, int64_t ir_version, int64_t opset) {
  return ProtoBuilder()
      .varint(field::model::kIrVersion, static_cast<uint64_t>(ir_version))
      .message(field::model::kGraph, graph)
      .message(field::model::kOpsetImport, opsetImport("", opset));
}

// ---------------------------------------------------------------------------------------
// The valid model

ProtoBuilder validTensor() { return floatTensor("w", {2}, {1.5f, -2.0f}); }

ProtoBuilder validNode() {
  return nodeProto({"x", "w"}, {"y"}, "add0", "Gemm")
      .message(field::node::kAttribute, floatAttribute("alpha", 1.0f));
}

ProtoBuilder validGraph() {
  return ProtoBuilder()
      .message(field::graph::kNode, validNode())
      .bytes(field::graph::kName, "g")
      .message(field::graph::kInitializer, validTensor())
      .message(field::graph::kInput, valueInfo("x", data_type::kFloat, {2}))
      .message(field::graph::kOutput, valueInfo("y", data_type::kFloat, {2}));
}

ProtoBuilder validModel() { return modelWithGraph(validGraph()); }

std::string validModelBytes() { return validModel().str(); }

}  // namespace onyx::testing
