// Internal: which of a TensorProto's data fields hold something. A field "holds something"
// when it is non-empty, as onnx's checker counts it: protobuf gives repeated fields no
// presence, and an empty raw_data carries no element either.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"

namespace onyx::check {

struct DataFieldUse {
  std::string_view name;  // "float_data", "raw_data", ...
  StorageField field;     // kNone for raw_data
  uint64_t entries;       // elements of the repeated field; bytes for raw_data
};

struct UsedDataFields {
  std::array<DataFieldUse, 7> fields;
  size_t size = 0;

  const DataFieldUse* begin() const { return fields.data(); }
  const DataFieldUse* end() const { return fields.data() + size; }
  bool empty() const { return size == 0; }
  /// "float_data", "float_data and raw_data", "a, b and c".
  std::string names() const;
};

/// The non-empty data fields of `tensor`, in field-number order.
UsedDataFields usedDataFields(const Tensor& tensor);

}  // namespace onyx::check
