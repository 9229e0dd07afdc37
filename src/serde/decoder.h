// Internal: the protobuf decoder that builds the IR directly from wire bytes.
//
// One Decoder per input. Every decode function reads one message from `bytes` into an
// IR object (merging into it when the message occurs twice, as protobuf does) and returns
// false on failure, leaving the error in status(); callers add their own path segment as
// the failure travels out, so the final Status names the place from the top.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/status.h"
#include "onyx/ir/model.h"
#include "onyx/serde/model_io.h"
#include "onyx/wire/reader.h"

namespace onyx::serde {

class Decoder {
 public:
  enum class Role { kNodeOutput, kGraphInput, kInitializer, kSparseInitializer, kFunctionInput };

  Decoder(Arena& arena, const LoadOptions& options, const char* origin)
      : arena_(arena), options_(options), origin_(origin) {}

  bool decodeModel(std::string_view bytes, Model& model);
  bool decodeTensor(std::string_view bytes, Tensor& tensor);
  bool decodeSparseTensor(std::string_view bytes, SparseTensor& sparse);
  bool decodeType(std::string_view bytes, Type& type);
  bool decodeGraph(std::string_view bytes, Graph& graph);

  /// Links what a whole decode left pending: subgraph reads of outer-scope names, and
  /// value_info entries to their values. Call once after the outermost decode.
  void linkScopes(Graph& root);

  /// Every tensor the decode met whose data_location says EXTERNAL.
  const std::vector<Tensor*>& externalTensors() const { return external_tensors_; }

  Status takeStatus() { return std::move(status_); }
  const Status& status() const { return status_; }

  // Used by the test-data decoder (SequenceProto, MapProto, OptionalProto).
  Arena& arena() { return arena_; }
  wire::Reader reader(std::string_view bytes) const {
    return wire::Reader(bytes.data(), bytes.data() + bytes.size(), origin_);
  }
  bool wireError(const wire::Reader& reader);
  /// wireError() with `field` as the last path segment.
  bool fieldWireError(const wire::Reader& reader, const char* field);
  bool failField(const char* field, ErrorCode code, std::string message, uint64_t offset);
  bool fail(ErrorCode code, std::string message, uint64_t offset);
  /// Adds a path segment to the current error; returns false for tail calls.
  bool within(std::string_view segment);
  bool within(std::string_view list, size_t index, OptString name = {});
  bool expectType(wire::Reader& r, wire::WireType actual, wire::WireType expected,
                  const char* field);
  bool readString(wire::Reader& r, wire::WireType wt, OptString& out, const char* field,
                  bool is_name);
  bool readBytesList(wire::Reader& r, wire::WireType wt, ArenaList<std::string_view>& out,
                     const char* field, bool is_name);
  bool readInt64(wire::Reader& r, wire::WireType wt, std::optional<int64_t>& out,
                 const char* field);
  bool readInt32(wire::Reader& r, wire::WireType wt, std::optional<int32_t>& out,
                 const char* field);
  bool readRepeatedInt64(wire::Reader& r, wire::WireType wt, Repeated<int64_t>& out,
                         const char* field);
  bool keepUnknown(wire::Reader& r, uint32_t field, wire::WireType wt, const char* key_start,
                   UnknownFields& unknown);
  bool enter(const wire::Reader& r);
  void leave() { --depth_; }

 private:
  bool decodeOpsetId(std::string_view bytes, OperatorSetId& opset);
  bool decodeEntry(std::string_view bytes, StringStringEntry& entry);
  bool decodeEntries(wire::Reader& r, wire::WireType wt, ArenaList<StringStringEntry>& out,
                     const char* field);
  bool decodeNode(std::string_view bytes, Node& node);
  bool decodeAttribute(std::string_view bytes, Attribute& attribute);
  bool decodeValueInfo(std::string_view bytes, ValueInfo& info);
  bool decodeShape(std::string_view bytes, TensorShape& shape);
  bool decodeDimension(std::string_view bytes, Dimension& dim);
  bool decodeTypeMember(std::string_view bytes, Type& type);
  bool decodeSegment(std::string_view bytes, TensorSegment& segment);
  bool decodeFunction(std::string_view bytes, Function& function);
  bool decodeTrainingInfo(std::string_view bytes, TrainingInfo& info);
  bool decodeAnnotation(std::string_view bytes, TensorAnnotation& annotation);
  bool decodeDeviceConfiguration(std::string_view bytes, DeviceConfiguration& config);
  bool decodeNodeDeviceConfiguration(std::string_view bytes, NodeDeviceConfiguration& config);
  bool decodeShardingSpec(std::string_view bytes, ShardingSpec& spec);
  bool decodeIntIntListEntry(std::string_view bytes, IntIntListEntry& entry);
  bool decodeShardedDim(std::string_view bytes, ShardedDim& dim);
  bool decodeSimpleShardedDim(std::string_view bytes, SimpleShardedDim& dim);

  bool readFloat(wire::Reader& r, wire::WireType wt, std::optional<float>& out, const char* field);
  bool readRepeatedFloat(wire::Reader& r, wire::WireType wt, Repeated<float>& out,
                         const char* field);
  enum class PackedKind { kVarint, kFixed32, kFixed64 };
  bool readPacked(wire::Reader& r, wire::WireType wt, PackedData& out, PackedKind kind,
                  const char* field);
  bool checkTensor(const Tensor& tensor, const wire::Reader& r);

  Graph* newGraph(Graph* parent, Node* owner);
  /// The value `name` reads in `graph`: defined there, or a placeholder to be linked.
  Value* valueForRead(Graph& graph, std::string_view name);
  /// Defines `name` in `graph` in `role`, taking over a placeholder made by an earlier read.
  Value* defineAs(Graph& graph, std::string_view name, Role role);

  Arena& arena_;
  const LoadOptions& options_;
  const char* origin_;
  Status status_;
  int depth_ = 0;
  Graph* current_graph_ = nullptr;  // the graph whose nodes are being read
  Node* current_node_ = nullptr;    // the node whose attributes are being read
  std::vector<Tensor*> external_tensors_;
};

}  // namespace onyx::serde
