// onyx/ir/type.h — TypeProto and TensorShapeProto in the IR.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "onyx/ir/fields.h"

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// One dimension: a number, a symbol, or neither (unknown).
struct Dimension {
  // The proto's oneof: at most one of the two is set.
  std::optional<int64_t> dim_value;
  OptString dim_param;
  OptString denotation;
  UnknownFields unknown;

  bool isKnown() const { return dim_value.has_value(); }
  bool isSymbolic() const { return dim_param.has_value(); }
  bool isUnknown() const { return !isKnown() && !isSymbolic(); }
};

/// A dimension as the type builders take it: `Dim(3)`, `Dim("N")`, or `Dim()` (unknown).
struct Dim {
  Dim() = default;
  Dim(int number) : value(number) {}            // NOLINT: reads like the number
  Dim(int64_t number) : value(number) {}        // NOLINT
  Dim(const char* text) : symbol(text) {}       // NOLINT: reads like the symbol
  Dim(std::string_view text) : symbol(text) {}  // NOLINT
  std::optional<int64_t> value;
  OptString symbol;
};

struct TensorShape {
  ArenaList<Dimension> dims;
  UnknownFields unknown;

  size_t rank() const { return dims.size(); }
};

/// TypeProto: which of the oneof members is set, with that member's fields flattened in.
struct Type {
  enum class Kind : uint8_t {
    kNone = 0,  // no member of the oneof set
    kTensor = 1,
    kSequence = 4,
    kMap = 5,
    kOpaque = 7,
    kSparseTensor = 8,
    kOptional = 9,
  };
  Kind kind = Kind::kNone;

  // kTensor and kSparseTensor: element type (a TensorProto::DataType code) and shape; a
  // null shape means the rank is unknown, an empty one a scalar.
  std::optional<int32_t> elem_type;
  TensorShape* shape = nullptr;
  // kSequence and kOptional: the element type. kMap: the value type.
  Type* elem = nullptr;
  // kMap: the key type.
  std::optional<int32_t> key_type;
  // kOpaque.
  OptString opaque_domain;
  OptString opaque_name;

  OptString denotation;
  UnknownFields unknown;         // unknown fields of TypeProto itself
  UnknownFields member_unknown;  // unknown fields of the oneof member's message

  bool isTensor() const { return kind == Kind::kTensor; }

  // Builders: GraphEditor::tensorType and the like.
};

/// A type in the ONNX text syntax's spelling: `float[N,3,224,224]`, `seq(int64[])`,
/// `map(string, float)`, `optional(float[?])`, `sparse_tensor(float[10])`. A tensor of
/// unknown rank prints without brackets; an unknown dimension prints as `?`.
std::string formatType(const Type& type);

/// The dimensions of `shape` as the type builders take them (GraphEditor::tensorType, which
/// copies their symbols).
std::vector<Dim> dimsOf(const TensorShape& shape);

}  // namespace onyx

#pragma GCC visibility pop
