// EyeLike (ai.onnx), versions 9, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>

#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"
#include "ops/kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The input's 2-D shape; the element type `dtype`, else the input's.
void inferEyeLike(InferenceContext& ctx) {
  std::optional<int64_t> dtype = ctx.intAttribute("dtype");
  int32_t elem_type = dtype && *dtype > 0 && *dtype < INT32_MAX ? static_cast<int32_t>(*dtype)
                                                                : ctx.inputElemType(0);
  if (elem_type != 0) ctx.setOutputElemType(0, elem_type);
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  if (in->size() != 2) {
    ctx.fail("EyeLike needs an input of rank 2, not " + std::to_string(in->size()));
    return;
  }
  ctx.setOutputShape(0, *in);
}

Status runEyeLike(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  if (x->rank() != 2) return ctx.fail("needs an input of rank 2, not " + std::to_string(x->rank()));
  ElementType type = x->type();
  if (std::optional<int64_t> dtype = ctx.intAttribute("dtype")) {
    const ElementTypeInfo* info =
        *dtype > 0 && *dtype <= INT32_MAX ? elementTypeInfo(static_cast<int32_t>(*dtype)) : nullptr;
    if (info == nullptr || info->type == ElementType::kString || info->isComplex()) {
      return ctx.fail("dtype " + std::to_string(*dtype) + " is not a numeric element type");
    }
    type = info->type;
  }
  int64_t k = ctx.intAttribute("k").value_or(0);
  Array out(type, x->shape());
  std::span<std::byte> bytes = out.bytes();
  std::fill(bytes.begin(), bytes.end(), std::byte{0});
  int64_t rows = x->dim(0), columns = x->dim(1);
  // Clamped, k keeps the same diagonal (or none) and row + k cannot overflow.
  k = std::clamp<int64_t>(k, -rows, columns);
  for (int64_t row = 0; row < rows; ++row) {
    int64_t column = row + k;
    if (column >= 0 && column < columns) {
      storeDouble(out, static_cast<size_t>(row * columns + column), 1.0);
    }
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr TypeSet kT1Types9 =
    tensor("float16 float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool");
constexpr TypeSet kT1Types22 =
    tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 bfloat16 float16 float double bool");
constexpr Formals kInputs9 = {{"input", "T1"}};
constexpr Formals kOutputs9 = {{"output", "T2"}};
constexpr Attributes kAttributes9 = {attr("dtype", kInt), attr("k", 0)};

extern const Operator kEyeLike;
constexpr Operator kEyeLike{.domain = kOnnxDomain,
                            .name = "EyeLike",
                            .versions = {
                                {.since_version = 9,
                                 .inputs = kInputs9,
                                 .outputs = kOutputs9,
                                 .attributes = kAttributes9,
                                 .constraints = {{"T1", kT1Types9}, {"T2", kT1Types9}},
                                 .infer = inferEyeLike,
                                 .kernel = runEyeLike},
                                {.since_version = 22,
                                 .inputs = kInputs9,
                                 .outputs = kOutputs9,
                                 .attributes = kAttributes9,
                                 .constraints = {{"T1", kT1Types22}, {"T2", kT1Types22}},
                                 .infer = inferEyeLike,
                                 .kernel = runEyeLike,
                                 .step = typesOnly("bfloat16 added")},
                            }};
static_assert(isWellFormed(kEyeLike));

}  // namespace onyx::ops::ai_onnx
