#include "onyx/ir/attribute.h"

namespace onyx {

AttributeKind Attribute::kind() const {
  if (type.has_value()) return static_cast<AttributeKind>(*type);
  // Before IR 2 the type was not written; the one field that is set says it.
  if (f) return AttributeKind::kFloat;
  if (i) return AttributeKind::kInt;
  if (s) return AttributeKind::kString;
  if (t != nullptr) return AttributeKind::kTensor;
  if (g != nullptr) return AttributeKind::kGraph;
  if (sparse_tensor != nullptr) return AttributeKind::kSparseTensor;
  if (tp != nullptr) return AttributeKind::kTypeProto;
  if (!floats.empty()) return AttributeKind::kFloats;
  if (!ints.empty()) return AttributeKind::kInts;
  if (lists != nullptr) {
    if (!lists->strings.empty()) return AttributeKind::kStrings;
    if (!lists->tensors.empty()) return AttributeKind::kTensors;
    if (!lists->graphs.empty()) return AttributeKind::kGraphs;
    if (!lists->sparse_tensors.empty()) return AttributeKind::kSparseTensors;
    if (!lists->type_protos.empty()) return AttributeKind::kTypeProtos;
  }
  return AttributeKind::kUndefined;
}

}  // namespace onyx
