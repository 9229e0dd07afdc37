// onyx/ir/tensor.h — TensorProto, SparseTensorProto and the key/value entries they use.
//
// A tensor's data is never copied at load: raw_data and the typed data fields are views
// into the mapped model file, and external data is a view into the mapped data file.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "onyx/ir/fields.h"

namespace onyx {

struct TensorSegment {
  std::optional<int64_t> begin;
  std::optional<int64_t> end;
  UnknownFields unknown;
};

struct Tensor {
  Repeated<int64_t> dims;
  std::optional<int32_t> data_type;
  TensorSegment* segment = nullptr;
  PackedData float_data;  // field 4, fixed32
  PackedData int32_data;  // field 5, varint
  ArenaList<std::string_view> string_data;
  PackedData int64_data;  // field 7, varint
  OptString name;
  OptString doc_string;
  OptString raw_data;
  ArenaList<StringStringEntry> external_data;
  std::optional<int32_t> data_location;
  PackedData double_data;  // field 10, fixed64
  PackedData uint64_data;  // field 11, varint
  ArenaList<StringStringEntry> metadata_props;
  UnknownFields unknown;

  /// For a tensor stored externally: its bytes in the mapped data file, once resolved.
  /// Not part of the message; never written as such.
  std::optional<std::string_view> external_bytes;

  static constexpr int32_t kExternal = 1;
  bool isExternal() const { return data_location.value_or(0) == kExternal; }
  std::string_view nameOrEmpty() const { return name.value_or(std::string_view()); }
  /// The value of external_data key `key`, if present (the last one wins).
  std::optional<std::string_view> externalValue(std::string_view key) const;
};

struct SparseTensor {
  Tensor* values = nullptr;
  Tensor* indices = nullptr;
  Repeated<int64_t> dims;
  UnknownFields unknown;
};

}  // namespace onyx
