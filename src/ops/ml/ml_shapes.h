// Internal: what the ai.onnx.ml operators' shape rules share.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "onyx/ir/attribute.h"
#include "onyx/ir/tensor.h"
#include "onyx/ops/inference_context.h"

namespace onyx::ops {

inline constexpr int32_t kMlFloat = 1;
inline constexpr int32_t kMlInt64 = 7;
inline constexpr int32_t kMlString = 8;

/// The batch size N of a model input that is [N, C] or [C] (then 1); nullopt when the rank
/// is unknown, and (after failing) for another rank.
std::optional<DimValue> batchOf(InferenceContext& ctx, size_t input = 0);

/// The number of entries of an ints, floats or strings attribute; 0 when absent.
size_t attributeLength(const InferenceContext& ctx, std::string_view name);

/// A list attribute's entries or a tensor attribute's elements, with their element type, for
/// the first of `names` the node sets; nullopt when it sets none.
struct AttributeEntries {
  std::string_view name;
  int32_t elem_type = 0;
  size_t count = 0;
};
std::optional<AttributeEntries> firstSetAttribute(const InferenceContext& ctx,
                                                  std::initializer_list<std::string_view> names);

/// The label type of a classifier: string when `strings` has entries, else int64.
int32_t labelType(const InferenceContext& ctx, std::string_view strings);

/// A classifier's outputs: labels [N] of `label_type`, scores [N, classes].
void setClassifierOutputs(InferenceContext& ctx, int32_t label_type, DimValue classes);

// ---- definitions (header-only: every .cc under src/ops/<family>/ defines an operator) ----

inline std::optional<DimValue> batchOf(InferenceContext& ctx, size_t input) {
  const Dims* shape = ctx.inputShape(input);
  if (shape == nullptr) return std::nullopt;
  if (shape->size() == 1) return DimValue::known(1);
  if (shape->size() == 2) return (*shape)[0];
  ctx.fail("the input has rank " + std::to_string(shape->size()) + ", not [N, C] or [C]");
  return std::nullopt;
}

inline size_t attributeLength(const InferenceContext& ctx, std::string_view name) {
  const Attribute* attribute = ctx.attribute(name);
  if (attribute == nullptr) return 0;
  size_t length = attribute->ints.size() + attribute->floats.size();
  length += attribute->rare().strings.size();
  return length;
}

inline std::optional<AttributeEntries> firstSetAttribute(
    const InferenceContext& ctx, std::initializer_list<std::string_view> names) {
  for (std::string_view name : names) {
    const Attribute* attribute = ctx.attribute(name);
    if (attribute == nullptr) continue;
    switch (attribute->kind()) {
      case AttributeKind::kTensor: {
        const Tensor* tensor = attribute->t;
        if (tensor == nullptr) break;
        size_t count = 1;
        for (int64_t dim : tensor->dims) count *= dim > 0 ? static_cast<size_t>(dim) : 0;
        return AttributeEntries{name, tensor->data_type.value_or(0), count};
      }
      case AttributeKind::kInts: return AttributeEntries{name, kMlInt64, attribute->ints.size()};
      case AttributeKind::kFloats:
        return AttributeEntries{name, kMlFloat, attribute->floats.size()};
      case AttributeKind::kStrings:
        return AttributeEntries{name, kMlString, attribute->rare().strings.size()};
      default: break;
    }
  }
  return std::nullopt;
}

inline int32_t labelType(const InferenceContext& ctx, std::string_view strings) {
  return attributeLength(ctx, strings) > 0 ? kMlString : kMlInt64;
}

inline void setClassifierOutputs(InferenceContext& ctx, int32_t label_type, DimValue classes) {
  std::optional<DimValue> batch = batchOf(ctx);
  if (ctx.hasOutput(0)) {
    if (batch) {
      ctx.setOutputTensor(0, label_type, {*batch});
    } else {
      ctx.setOutputElemType(0, label_type);
    }
  }
  if (ctx.hasOutput(1) && batch) ctx.setOutputShape(1, {*batch, classes});
}

}  // namespace onyx::ops
