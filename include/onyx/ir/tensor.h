// onyx/ir/tensor.h — TensorProto, SparseTensorProto and the key/value entries they use.
//
// A tensor's data is never copied at load: raw_data and the typed data fields are views
// into the mapped model file, and external data is a view into the mapped data file.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "onyx/ir/fields.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

struct ComputedBytes;  // onyx/ir/tensor_data.h

struct TensorSegment {
  std::optional<int64_t> begin;
  std::optional<int64_t> end;
  UnknownFields unknown;
};

/// The TensorProto fields most tensors leave unset. A tensor read from an exporter holds its
/// data in raw_data; the typed data fields, segments, documentation and external data are
/// the exception, and a graph has tens of thousands of tensors whose bytes are written on
/// every load, so these sit behind one pointer, allocated on first use.
struct TensorRareFields {
  TensorSegment* segment = nullptr;
  PackedData float_data;  // field 4, fixed32
  PackedData int32_data;  // field 5, varint
  ArenaList<std::string_view> string_data;
  PackedData int64_data;  // field 7, varint
  OptString doc_string;
  ArenaList<StringStringEntry> external_data;
  PackedData double_data;  // field 10, fixed64
  PackedData uint64_data;  // field 11, varint
  ArenaList<StringStringEntry> metadata_props;
  UnknownFields unknown;

  /// For a tensor stored externally: its bytes in the mapped data file, once resolved.
  /// Not part of the message; never written as such.
  std::optional<std::string_view> external_bytes;
  /// For a tensor whose bytes a pass derived from another tensor's (weights with a
  /// normalization folded in): how to compute them, when they are read or written, so that
  /// they never sit in memory beside the bytes they come from. Not part of the message;
  /// written as raw_data.
  const ComputedBytes* computed = nullptr;
};

struct Tensor {
  Repeated<int64_t> dims;
  std::optional<int32_t> data_type;
  std::optional<int32_t> data_location;
  OptString name;
  OptString raw_data;
  TensorRareFields* rare_fields = nullptr;  // null: none of them set

  static constexpr int32_t kExternal = 1;
  bool isExternal() const { return data_location.value_or(0) == kExternal; }
  std::string_view nameOrEmpty() const { return name.value_or(std::string_view()); }
  /// The value of external_data key `key`, if present (the last one wins).
  std::optional<std::string_view> externalValue(std::string_view key) const;

  /// The typed data fields, segment, doc_string, external_data, metadata_props, unknown
  /// fields and resolved external bytes: all absent or empty when the tensor has none of
  /// them. O(1).
  const TensorRareFields& rare() const { return rare_fields != nullptr ? *rare_fields : kNone; }
  // For writing: GraphEditor::rare.

 private:
  static const TensorRareFields kNone;
};

struct SparseTensor {
  Tensor* values = nullptr;
  Tensor* indices = nullptr;
  Repeated<int64_t> dims;
  UnknownFields unknown;
};

}  // namespace onyx

#pragma GCC visibility pop
