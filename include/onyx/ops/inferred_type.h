// onyx/ops/inferred_type.h — a value's type as shape inference knows it.
//
// Like the IR's Type (onyx/ir/type.h) but made for computing: dimensions are DimValues
// (numbers or symbolic expressions of one SymbolicDims), what is unknown is explicit, and a
// type is a plain value that rules copy and build freely. The inference engine converts
// declared IR types into these and the results back.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "onyx/core/symbolic_dims.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

using Dims = std::vector<DimValue>;

struct InferredType {
  enum class Kind : uint8_t {
    kUnknown,
    kTensor,
    kSparseTensor,
    kSequence,
    kOptional,
    kMap,
    kOpaque,
  };
  Kind kind = Kind::kUnknown;
  /// Tensors: the TensorProto.DataType code; 0 when unknown. Maps: the key type.
  int32_t elem_type = 0;
  /// Tensors: whether the rank is known; then `dims` has one entry per axis.
  bool has_shape = false;
  Dims dims;
  /// Sequences and optionals: the element type; maps: the value type. Shared, since types
  /// are copied far more often than changed.
  std::shared_ptr<const InferredType> elem;

  static InferredType tensor(int32_t elem_type) {
    InferredType type;
    type.kind = Kind::kTensor;
    type.elem_type = elem_type;
    return type;
  }
  static InferredType tensor(int32_t elem_type, Dims dims) {
    InferredType type = tensor(elem_type);
    type.has_shape = true;
    type.dims = std::move(dims);
    return type;
  }
  static InferredType sequence(InferredType element) {
    InferredType type;
    type.kind = Kind::kSequence;
    type.elem = std::make_shared<const InferredType>(std::move(element));
    return type;
  }
  static InferredType optional(InferredType element) {
    InferredType type;
    type.kind = Kind::kOptional;
    type.elem = std::make_shared<const InferredType>(std::move(element));
    return type;
  }
  static InferredType map(int32_t key_type, InferredType value) {
    InferredType type;
    type.kind = Kind::kMap;
    type.elem_type = key_type;
    type.elem = std::make_shared<const InferredType>(std::move(value));
    return type;
  }

  bool isKnown() const { return kind != Kind::kUnknown; }
  bool isTensor() const { return kind == Kind::kTensor; }
  bool isTensorLike() const { return kind == Kind::kTensor || kind == Kind::kSparseTensor; }
  size_t rank() const { return dims.size(); }

  /// Equal kinds, element types, ranks, dims and nested types.
  bool operator==(const InferredType& other) const;
};

}  // namespace onyx

#pragma GCC visibility pop
