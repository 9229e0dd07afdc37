// onyx/ir/attribute_kind.h — the kinds an attribute can have. Its own header so that the
// operator schemas (onyx/ops), which name kinds but no attribute values, stay light to include.
#pragma once

#include <cstdint>

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

}  // namespace onyx

#pragma GCC visibility pop
