// Internal: the IR version that introduced each element type and attribute kind, from the
// `Version` enum comments of onnx.proto (and IR.md for the type kinds, checked in
// type_rules.cc). An ir_version of 0 (absent, or a value not from a model) gates nothing:
// the missing version is the model rules' to report.
#pragma once

#include <cstdint>

#include "onyx/core/element_type.h"
#include "onyx/ir/attribute.h"

namespace onyx::check {

/// The first IR version whose tensors may have this element type. A newer type is an error
/// (R62), not a warning as a newer field is: onnx.proto says data_type and elem_type "MUST
/// have a valid TensorProto.DataType value", and the DataType of an older IR has no such
/// value, so the model's own version makes the tensor unreadable.
constexpr int64_t firstIrVersion(ElementType type) {
  switch (type) {
    case ElementType::kBfloat16: return 4;
    case ElementType::kFloat8E4M3FN:
    case ElementType::kFloat8E4M3FNUZ:
    case ElementType::kFloat8E5M2:
    case ElementType::kFloat8E5M2FNUZ: return 9;
    case ElementType::kUint4:
    case ElementType::kInt4: return 10;
    case ElementType::kFloat4E2M1: return 11;
    case ElementType::kFloat8E8M0: return 12;
    case ElementType::kUint2:
    case ElementType::kInt2: return 13;
    default: return 1;
  }
}

/// The first IR version whose attributes may have this kind: SparseTensorProto came with
/// IR 6, attributes holding TypeProtos with IR 8.
constexpr int64_t firstIrVersion(AttributeKind kind) {
  switch (kind) {
    case AttributeKind::kSparseTensor:
    case AttributeKind::kSparseTensors: return 6;
    case AttributeKind::kTypeProto:
    case AttributeKind::kTypeProtos: return 8;
    default: return 1;
  }
}

/// Whether a model of `ir_version` predates `first` (false when the version is unknown).
constexpr bool predates(int64_t ir_version, int64_t first) {
  return ir_version > 0 && ir_version < first;
}

}  // namespace onyx::check
