// OneHot (ai.onnx), versions 9, 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/type.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The indices' shape with an axis of `depth` inserted at `axis` (of the output). indices
// has rank 1 or more, depth is one number (a scalar, or a vector of one) and values the
// pair [off_value, on_value]; onnx's OneHot inference refuses other shapes
// (onnx/defs/tensor/utils.cc).
void inferOneHot(InferenceContext& ctx) {
  if (!inputRankWithin(ctx, 0, 1, kAnyRank) || !inputRankWithin(ctx, 1, 0, 1) ||
      !inputRankIs(ctx, 2, 1)) {
    return;
  }
  if (const Dims* depth = ctx.inputShape(1);
      depth != nullptr && depth->size() == 1 && (*depth)[0].isKnown() && (*depth)[0].value() > 1) {
    ctx.fail("depth holds " + std::to_string((*depth)[0].value()) + " numbers; OneHot takes one");
    return;
  }
  if (const Dims* values = ctx.inputShape(2);
      values != nullptr && (*values)[0].isKnown() && (*values)[0].value() != 2) {
    ctx.fail("values holds " + std::to_string((*values)[0].value()) +
             " numbers; OneHot takes two, [off_value, on_value]");
    return;
  }
  const Dims* indices = ctx.inputShape(0);
  if (indices == nullptr) return;
  size_t rank = indices->size() + 1;
  std::optional<size_t> axis =
      normalizeAxis(ctx, ctx.intAttribute("axis").value_or(-1), rank, "axis");
  if (!axis) return;
  DimValue depth = ctx.dims().fresh();
  if (const Dims* data = ctx.inputData(1); data != nullptr && data->size() == 1) {
    depth = data->front();
  } else if (std::optional<std::vector<double>> numbers = constantNumbers(ctx.inputConstant(1));
             numbers && numbers->size() == 1) {
    double value = (*numbers)[0];
    // Depth may be a float; the spec takes its integer part.
    if (value >= 0 && value < 9.0e18) depth = DimValue::known(static_cast<int64_t>(value));
  }
  if (depth.isKnown() && depth.value() < 0) {
    ctx.fail("OneHot's depth is negative (" + std::to_string(depth.value()) + ")");
    return;
  }
  Dims out(indices->begin(), indices->end());
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(*axis), depth);
  ctx.setOutputShape(0, std::move(out));
}

Status runOneHot(KernelContext& ctx) {
  const Array* indices = ctx.inputArray(0);
  const Array* depth_input = ctx.inputArray(1);
  const Array* values = ctx.inputArray(2);
  if (indices == nullptr || depth_input == nullptr || values == nullptr) {
    return ctx.fail("needs indices, depth and values tensors");
  }
  if (depth_input->size() != 1) return ctx.fail("depth must hold one number");
  if (values->size() != 2) return ctx.fail("values must hold [off_value, on_value]");
  double depth_value = elementAsDouble(*depth_input, 0);
  if (!(depth_value >= 1) || depth_value > static_cast<double>(int64_t{1} << 40)) {
    return ctx.fail("depth must be at least 1");
  }
  int64_t depth = static_cast<int64_t>(depth_value);
  size_t rank = indices->rank();
  int64_t axis = ctx.intAttribute("axis").value_or(-1);
  int64_t out_rank = static_cast<int64_t>(rank) + 1;
  if (axis < -out_rank || axis >= out_rank) {
    return ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " +
                    std::to_string(out_rank));
  }
  size_t at = static_cast<size_t>(axis < 0 ? axis + out_rank : axis);
  std::vector<int64_t> shape = indices->shape();
  shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(at), depth);
  Result<Array> made = newArray(values->type(), shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  // Each index as a position along the depth axis; -1 when none.
  std::vector<int64_t> hot(indices->size());
  std::optional<std::vector<int64_t>> integers = integersOf(*indices);
  double bound = static_cast<double>(depth) + 1;
  for (size_t i = 0; i < hot.size(); ++i) {
    int64_t whole = depth;  // out of range unless shown otherwise
    if (integers) {
      whole = (*integers)[i];
    } else if (double index = elementAsDouble(*indices, i); index > -bound && index < bound) {
      whole = static_cast<int64_t>(index);  // non-integer indices truncate, as a cast to int64
    }
    if (whole < 0) whole += depth;
    hot[i] = whole >= 0 && whole < depth ? whole : -1;
  }
  size_t outer = static_cast<size_t>(elementProduct(indices->shape(), 0, at));
  size_t inner = static_cast<size_t>(elementProduct(indices->shape(), at));
  size_t d = static_cast<size_t>(depth);
  dispatchStorage(values->type(), [&]<class T>() {
    const T off = elementsOf<T>(*values)[0];
    const T on = elementsOf<T>(*values)[1];
    T* result = elementsOf<T>(out);
    std::fill_n(result, out.size(), off);
    for (size_t o = 0; o < outer; ++o) {
      for (size_t i = 0; i < inner; ++i) {
        int64_t h = hot[o * inner + i];
        if (h >= 0) result[(o * d + static_cast<size_t>(h)) * inner + i] = on;
      }
    }
  });
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

// The element type of input `i` (a TensorProto.DataType code), from its type or its
// constant; 0 when unknown.
int32_t inputElementType(const NodeDraft& draft, size_t i) {
  if (const Type* type = draft.inputType(i); type != nullptr && type->elem_type) {
    return *type->elem_type;
  }
  if (const Tensor* constant = draft.constantInput(i); constant != nullptr) {
    return constant->data_type.value_or(0);
  }
  return 0;
}

// Whether every index is known to be 0 or more: unsigned indices, or a constant.
bool indicesNotNegative(const NodeDraft& draft) {
  if (const ElementTypeInfo* info = elementTypeInfo(inputElementType(draft, 0));
      info != nullptr && info->isInteger() && !info->isSigned()) {
    return true;
  }
  const Tensor* constant = draft.constantInput(0);
  if (constant == nullptr) return false;
  Result<Array> values = arrayFromTensor(*constant);
  if (!values) return false;
  for (size_t k = 0; k < values->size(); ++k) {
    if (!(elementAsDouble(*values, k) >= 0)) return false;
  }
  return true;
}

// Down to version 9, which takes indices in [0, depth) only (version 11 counts negative ones
// from the back) and an axis from -1 up (version 11 also from -r-1 to -2).
Status toVersion9(NodeDraft& draft) {
  if (!indicesNotNegative(draft)) {
    return draft.refuse("indices are not known to be 0 or more");
  }
  if (draft.attribute("axis") == nullptr) return Status::ok();
  std::optional<int64_t> axis = draft.intAttr("axis");
  if (!axis) return draft.refuse("axis is not an int");
  if (*axis >= -1) return Status::ok();
  std::optional<int64_t> rank = draft.inputRank(0);
  if (!rank) return draft.refuse("axis is below -1 and the indices' rank is unknown");
  draft.setIntAttr("axis", *axis + *rank + 1);
  return Status::ok();
}

}  // namespace

constexpr TypeSet kT1Types9 =
    tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double");
constexpr Formals kInputs9 = {{"indices", "T1"}, {"depth", "T2"}, {"values", "T3"}};
constexpr Formals kOutputs9 = {{"output", "T3"}};
constexpr Attributes kAttributes9 = {attr("axis", -1)};
constexpr Constraints kConstraints9 = {
    {"T1", kT1Types9}, {"T2", kT1Types9}, {"T3", tensor(kIr3Types)}};

extern const Operator kOneHot;
constexpr Operator kOneHot{
    .domain = kOnnxDomain,
    .name = "OneHot",
    .versions = {
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = kConstraints9,
         .infer = inferOneHot,
         .kernel = runOneHot},
        {.since_version = 11,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = kConstraints9,
         .infer = inferOneHot,
         .kernel = runOneHot,
         .step = {.reviewed = true,
                  .change = "negative indices count from the back; axis below -1 allowed",
                  .down = toVersion9,
                  .down_refuses =
                      "indices not known to be 0 or more; axis below -1, rank unknown"}},
    }};
static_assert(isWellFormed(kOneHot));

}  // namespace onyx::ops::ai_onnx
