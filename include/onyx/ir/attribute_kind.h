// onyx/ir/attribute_kind.h — the kinds an attribute can have. Its own header so that the
// operator schemas (onyx/ops), which name kinds but no attribute values, stay light to include.
#pragma once

#include <cstdint>
#include <string_view>

// Exported from the shared libraries: the public API (see src/CMakeLists.txt).
#pragma GCC visibility push(default)

namespace onyx {

/// AttributeProto::AttributeType codes: the 14 kinds an attribute can have.
enum class AttributeKind : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kInt = 2,
  kString = 3,
  kTensor = 4,
  kGraph = 5,
  kFloats = 6,
  kInts = 7,
  kStrings = 8,
  kTensors = 9,
  kGraphs = 10,
  kSparseTensor = 11,
  kSparseTensors = 12,
  kTypeProto = 13,
  kTypeProtos = 14,
};

/// The kind as the text syntax and the schemas spell it: "float", "ints", "graph",
/// "sparse_tensor", "type_proto", ... ("undefined" for kUndefined or a code out of range).
std::string_view attributeKindName(AttributeKind kind);

/// The kind attributeKindName() spells `name`; kUndefined for any other word.
AttributeKind attributeKindNamed(std::string_view name);

/// The kind as AttributeProto.AttributeType spells it: "FLOAT", "INTS", "SPARSE_TENSOR", ...
/// ("UNDEFINED" for kUndefined, "UNKNOWN" for a code out of range).
std::string_view attributeTypeName(AttributeKind kind);

/// The AttributeProto field that holds a value of the kind: "f", "i", "s", "t", "g",
/// "sparse_tensor", "tp", "floats", ..., "type_protos" (empty for kUndefined or a code out of
/// range).
std::string_view attributeValueField(AttributeKind kind);

}  // namespace onyx

#pragma GCC visibility pop
