// Clip (ai.onnx), versions 1, 6, 11, 12, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <optional>
#include <string_view>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/type.h"
#include "ops/body_text.h"
#include "ops/lib/elementwise_kernels.h"
#include "ops/math/vector_math.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"
#include "ops/wider_vectors.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// One bound of Clip as a tensor of the computing type: input `index` (version 11 on) or the
// attribute `name` (before), else the type's extreme, which clips nothing.
Result<Array> clipBound(const KernelContext& ctx, size_t index, const char* name, ElementType type,
                        ElementType computing, bool lower) {
  if (ctx.hasInput(index)) {
    const Array* bound = ctx.inputArray(index);
    if (bound == nullptr) return ctx.fail(std::string(name) + " is not a tensor");
    if (bound->type() != type)
      return ctx.fail(std::string(name) + " has another element type than the input");
    return isNarrowFloat(type) ? widenToFloat(*bound) : *bound;
  }
  double infinity = std::numeric_limits<double>::infinity();
  Array value(computing, {});
  storeDouble(value, 0, ctx.floatAttribute(name).value_or(lower ? -infinity : infinity));
  return value;
}

// FLOAT between two bounds that are not NaN, as nanMin(nanMax(x, low), high) gives it (NaN
// stays NaN, low > high gives high), the choices by masks so that the loop vectorizes.
ONYX_WIDER_VECTORS void clipFloats(const float* from, float* to, size_t count, float low,
                                   float high) {
  for (size_t i = 0; i < count; ++i) {
    const float raised = vector_math::select(from[i] < low, low, from[i]);
    to[i] = vector_math::select(high < raised, high, raised);
  }
}

// min(max(input, min), max), numpy's clip: NaN stays NaN, and min > max gives max.
Status runClip(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  ElementType type = x->type();
  ElementType computing = isNarrowFloat(type) ? ElementType::kFloat : type;
  Result<Array> lo = clipBound(ctx, 1, "min", type, computing, true);
  if (!lo) return lo.status();
  Result<Array> hi = clipBound(ctx, 2, "max", type, computing, false);
  if (!hi) return hi.status();
  std::optional<elementwise::Broadcast> plan =
      elementwise::planBroadcast({&x->shape(), &lo->shape(), &hi->shape()});
  if (!plan) return ctx.fail("the bounds' shapes do not broadcast to the input's");
  // Before the copy of X's handle below, which would keep X from being given away.
  Result<Array> made = elementwise::resultArray(ctx, {0}, computing, plan->shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  Array in = isNarrowFloat(type) ? widenToFloat(*x) : *x;
  // Relu6 and the like: one bound each, the input's shape kept.
  if (in.type() == ElementType::kFloat && lo->size() == 1 && hi->size() == 1 &&
      plan->shape == in.shape() && !std::isnan(lo->data<float>()[0]) &&
      !std::isnan(hi->data<float>()[0])) {
    const float low = lo->data<float>()[0];
    const float high = hi->data<float>()[0];
    const float* from = in.data<float>();
    float* to = out.data<float>();
    parallelFor(ctx, in.size(), elementwise::kGrain, [&](size_t begin, size_t end) {
      clipFloats(from + begin, to + begin, end - begin, low, high);
    });
    ctx.setOutput(0, elementwise::narrowTo(std::move(out), type));
    return Status::ok();
  }
  bool ok = elementwise::dispatchArithmetic(in.type(), [&]<class T>() {
    elementwise::ternaryLoop(
        ctx, *plan, in.data<T>(), lo->data<T>(), hi->data<T>(), out.data<T>(),
        [](T v, T low, T high) { return elementwise::nanMin(elementwise::nanMax(v, low), high); });
  });
  if (!ok) return elementwise::unsupported(ctx, type);
  ctx.setOutput(0, elementwise::narrowTo(std::move(out), type));
  return Status::ok();
}

// Up to version 11, where the bounds are inputs of the input's type: each attribute becomes a
// scalar of that type. An absent bound stays absent, which clips nothing in either version.
Status boundsToInputs(NodeDraft& draft) {
  std::optional<float> low = draft.floatAttr("min");
  std::optional<float> high = draft.floatAttr("max");
  draft.removeAttribute("min");
  draft.removeAttribute("max");
  if (!low && !high) return Status::ok();
  const Type* type = draft.inputType(0);
  if (type == nullptr || !type->elem_type) {
    return draft.refuse("the input's element type, which the bounds take, is unknown");
  }
  auto element = static_cast<ElementType>(*type->elem_type);
  auto setBound = [&](size_t index, float value) {
    Array scalar(element, {});
    storeDouble(scalar, 0, value);
    draft.setConstantInput(index, draft.editor().tensorFromArray(scalar));
  };
  if (low) setBound(1, *low);
  if (high) setBound(2, *high);
  return Status::ok();
}

// Down to version 6, where the bounds are float attributes: each bound given must be a
// constant of one element that a float holds exactly.
Status boundsToAttributes(NodeDraft& draft) {
  for (size_t index : {size_t{1}, size_t{2}}) {
    if (!draft.hasInput(index)) continue;
    std::string_view name = index == 1 ? "min" : "max";
    const Tensor* constant = draft.constantInput(index);
    if (constant == nullptr) return draft.refuse(fmt::format("{} is not a constant", name));
    Result<Array> values = arrayFromTensor(*constant);
    if (!values || values->size() != 1) {
      return draft.refuse(fmt::format("{} is not a constant of one element", name));
    }
    double value = elementAsDouble(*values, 0);
    auto narrowed = static_cast<float>(value);
    if (static_cast<double>(narrowed) != value && !std::isnan(value)) {
      return draft.refuse(fmt::format("{} {} is not a float", name, value));
    }
    draft.setFloatAttr(name, narrowed);
  }
  draft.resizeInputs(1);
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kInputs11 = {{"input", "T"}, optional("min", "T"), optional("max", "T")};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

namespace {

// Clip 13 as the spec defines it: Where against whichever bounds the node gives.
Result<std::string> buildClip13(const FunctionBodyContext& context) {
  bool has_min = context.hasInput(1);
  bool has_max = context.hasInput(2);
  body::BodyText out(context, "Clip");
  if (!has_min && !has_max) {
    out.add("output = Identity (input)");
  } else if (has_min && !has_max) {
    out.add("below = Less (input, min)").add("output = Where (below, min, input)");
  } else if (!has_min && has_max) {
    out.add("above = Less (max, input)").add("output = Where (above, max, input)");
  } else {
    out.add("below = Less (input, min)")
        .add("raised = Where (below, min, input)")
        .add("above = Less (max, raised)")
        .add("output = Where (above, max, raised)");
  }
  return out.finish();
}

}  // namespace

extern const Operator kClip;
constexpr Operator kClip{
    .domain = kOnnxDomain,
    .name = "Clip",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts), attr("max", kFloat), attr("min", kFloat)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runClip},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("max", 3.40282347e+38f), attr("min", -3.40282347e+38f)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runClip,
         .step = {.reviewed = true, .change = "consumed_inputs removed", .up = dropConsumedInputs}},
        {.since_version = 11,
         .traits = kElementwise,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runClip,
         .step = {.reviewed = true,
                  .change = "min and max became inputs",
                  .up = boundsToInputs,
                  .down = boundsToAttributes,
                  .up_refuses = "a bound set, the input's element type unknown",
                  .down_refuses = "a bound not a one-element constant a float holds exactly"}},
        {.since_version = 12,
         .traits = kElementwise,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")}},
         .infer = inferSameShape,
         .kernel = runClip,
         .step = typesOnly("integer types added")},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")}},
         .build_function_body = buildClip13,
         .infer = inferSameShape,
         .kernel = runClip,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kClip));

}  // namespace onyx::ops::ai_onnx
