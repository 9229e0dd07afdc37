// Range (ai.onnx), versions 11, 27.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cmath>
#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"
#include "ops/body_text.h"
#include "ops/kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// max(0, ceil((limit - start) / delta)) elements; symbolic when the bounds are, and the
// elements themselves as data for integers.
void inferRange(InferenceContext& ctx) {
  for (size_t i = 0; i < 3; ++i) {
    if (const Dims* shape = ctx.inputShape(i); shape != nullptr && !shape->empty()) {
      bool single = shape->size() == 1 && shape->front().is(1);
      if (!single) {
        ctx.fail("Range's input " + std::to_string(i) + " must be a scalar, not of rank " +
                 std::to_string(shape->size()));
        return;
      }
    }
  }
  const Dims* start = ctx.inputData(0);
  const Dims* limit = ctx.inputData(1);
  const Dims* delta = ctx.inputData(2);
  SymbolicDims& dims = ctx.dims();
  if (start != nullptr && limit != nullptr && delta != nullptr && start->size() == 1 &&
      limit->size() == 1 && delta->size() == 1) {
    DimValue first = start->front();
    DimValue step = delta->front();
    if (step.is(0)) {
      ctx.fail("Range's delta is 0");
      return;
    }
    if (first.isKnown() && limit->front().isKnown() && step.isKnown()) {
      int64_t a = first.value(), b = limit->front().value(), d = step.value();
      // Computed in double: the difference of two int64 may not fit in one.
      double count =
          std::ceil((static_cast<double>(b) - static_cast<double>(a)) / static_cast<double>(d));
      if (count < 0) count = 0;
      if (count > 9.0e18) return;
      auto n = static_cast<int64_t>(count);
      ctx.setOutputShape(0, {DimValue::known(n)});
      if (n <= static_cast<int64_t>(kMaxPropagatedElements)) {
        Dims data;
        data.reserve(static_cast<size_t>(n));
        for (int64_t k = 0; k < n; ++k) data.push_back(DimValue::known(a + k * d));
        ctx.setOutputData(0, std::move(data));
      }
      return;
    }
    // A positive delta over a symbolic span: the count is the span divided, rounded up
    // (and the span is taken to be non-negative, as a length computed from shapes is).
    if (step.isKnown() && step.value() > 0) {
      DimValue span = dims.subtract(limit->front(), first);
      ctx.setOutputShape(0, {step.is(1) ? span : dims.divideCeil(span, step)});
      return;
    }
    ctx.setOutputShape(0, {dims.fresh()});
    return;
  }
  std::optional<std::vector<double>> a = inputNumbers(ctx, 0);
  std::optional<std::vector<double>> b = inputNumbers(ctx, 1);
  std::optional<std::vector<double>> d = inputNumbers(ctx, 2);
  if (a && b && d && a->size() == 1 && b->size() == 1 && d->size() == 1) {
    if ((*d)[0] == 0) {
      ctx.fail("Range's delta is 0");
      return;
    }
    double count = std::ceil(((*b)[0] - (*a)[0]) / (*d)[0]);
    if (!(count >= 0)) count = 0;
    if (count <= 9.0e18) {
      ctx.setOutputShape(0, {DimValue::known(static_cast<int64_t>(count))});
      return;
    }
  }
  ctx.setOutputShape(0, {dims.fresh()});
}

Status runRange(KernelContext& ctx) {
  const Array* start = ctx.inputArray(0);
  const Array* limit = ctx.inputArray(1);
  const Array* delta = ctx.inputArray(2);
  if (start == nullptr || limit == nullptr || delta == nullptr) {
    return ctx.fail("needs three tensor inputs");
  }
  for (const Array* scalar : {start, limit, delta}) {
    if (scalar->size() != 1 || scalar->rank() > 1) {
      return ctx.fail("start, limit and delta must be scalars");
    }
    if (scalar->type() != start->type()) return ctx.fail("start, limit and delta differ in type");
  }
  const ElementType type = start->type();
  const bool integral =
      type == ElementType::kInt16 || type == ElementType::kInt32 || type == ElementType::kInt64;
  double first = elementAsDouble(*start, 0);
  double step = elementAsDouble(*delta, 0);
  double count = std::ceil((elementAsDouble(*limit, 0) - first) / step);
  if (step == 0) return ctx.fail("delta is 0");
  if (std::isnan(count)) return ctx.fail("start, limit or delta is NaN");
  if (count < 0) count = 0;
  if (count > 1e15) return ctx.fail("the range has too many elements");
  Result<Array> made = Array::allocate(type, {static_cast<int64_t>(count)});
  if (!made) return made.status();
  Array out = std::move(*made);
  if (integral) {
    // Exact, in 64-bit two's complement (the values lie between start and limit).
    int64_t a = static_cast<int64_t>(first);
    int64_t d = static_cast<int64_t>(step);
    if (type == ElementType::kInt64) {
      a = start->data<int64_t>()[0];
      d = delta->data<int64_t>()[0];
    }
    for (size_t i = 0; i < out.size(); ++i) {
      auto value = static_cast<int64_t>(static_cast<uint64_t>(a) +
                                        static_cast<uint64_t>(i) * static_cast<uint64_t>(d));
      if (type == ElementType::kInt64) {
        out.data<int64_t>()[i] = value;
      } else {
        storeDouble(out, i, static_cast<double>(value));
      }
    }
  } else {
    for (size_t i = 0; i < out.size(); ++i) {
      storeDouble(out, i, first + static_cast<double>(i) * step);
    }
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs11 = {{"start", "T"}, {"limit", "T"}, {"delta", "T"}};
constexpr Formals kOutputs11 = {{"output", "T"}};

// Range 11 as the spec defines it: a Loop that runs max(ceil((limit - start) / delta), 0)
// times, emitting the running value.
constexpr const char* kBody11 = R"ONNX(
<domain: "", opset_import: ["" : 11]>
Range (start, limit, delta) => (output) {
  span = Sub (limit, start)
  span_f = Cast <to = 1> (span)
  step_f = Cast <to = 1> (delta)
  steps_f = Div (span_f, step_f)
  steps_up = Ceil (steps_f)
  count_f = Relu (steps_up)
  count = Cast <to = 7> (count_f)
  nonempty = Cast <to = 9> (count_f)
  last, output = Loop (count, nonempty, start) <body = range_step (int64 iteration, bool keep_going, current) => (keep_going_out, next, emitted) {
    keep_going_out = Identity (keep_going)
    next = Add (current, delta)
    emitted = Identity (current)
  }>
}
)ONNX";

namespace {

// Range 27 as the spec defines it: Range 11's Loop, run in `stash_type` (float or double) for
// float16 and bfloat16 inputs and cast back.
Result<std::string> buildRange27(const FunctionBodyContext& context) {
  Result<int32_t> type = body::requireElementType(context, 0);
  if (!type) return type.status();
  bool narrow = *type == body::kFloat16 || *type == body::kBfloat16;
  int64_t stash = *type;
  if (narrow) {
    stash = context.intAttr("stash_type").value_or(body::kFloat);
    if (stash != body::kFloat && stash != body::kDouble) {
      return body::refuse("stash_type must be float (1) or double (11)");
    }
  }
  body::BodyText out(context, "Range");
  if (narrow && stash != *type) {
    out.addf("start_s = Cast <to = {}> (start)", stash)
        .addf("limit_s = Cast <to = {}> (limit)", stash)
        .addf("delta_s = Cast <to = {}> (delta)", stash)
        .add("span = Sub (limit_s, start_s)")
        .add("steps = Div (span, delta_s)")
        .add("steps_up = Ceil (steps)")
        .add("count_f = Relu (steps_up)")
        .add("count = Cast <to = 7> (count_f)")
        .add("nonempty = Cast <to = 9> (count_f)")
        .add(
            "last, output_s = Loop (count, nonempty, start_s) <body = range_step (int64 "
            "iteration, bool keep_going, current) => (keep_going_out, next, emitted) {\n"
            "    keep_going_out = Identity (keep_going)\n"
            "    next = Add (current, delta_s)\n"
            "    emitted = Identity (current)\n"
            "  }>")
        .addf("output = Cast <to = {}> (output_s)", *type);
  } else {
    out.add("span = Sub (limit, start)")
        .add("span_f = Cast <to = 1> (span)")
        .add("step_f = Cast <to = 1> (delta)")
        .add("steps_f = Div (span_f, step_f)")
        .add("steps_up = Ceil (steps_f)")
        .add("count_f = Relu (steps_up)")
        .add("count = Cast <to = 7> (count_f)")
        .add("nonempty = Cast <to = 9> (count_f)")
        .add(
            "last, output = Loop (count, nonempty, start) <body = range_step (int64 iteration, "
            "bool keep_going, current) => (keep_going_out, next, emitted) {\n"
            "    keep_going_out = Identity (keep_going)\n"
            "    next = Add (current, delta)\n"
            "    emitted = Identity (current)\n"
            "  }>");
  }
  return out.finish();
}

// Down to version 11, which has no float16 or bfloat16 (the signature check refuses them):
// for the types it has, stash_type changes nothing.
Status dropStashType(NodeDraft& draft) {
  draft.removeAttribute("stash_type");
  return Status::ok();
}

}  // namespace

extern const Operator kRange;
constexpr Operator kRange{
    .domain = kOnnxDomain,
    .name = "Range",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .constraints = {{"T", tensor("float double int16 int32 int64")}},
         .function_bodies = {{11, kBody11}},
         .infer = inferRange,
         .kernel = runRange},
        {.since_version = 27,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = {attr("stash_type", 1)},
         .constraints = {{"T", tensor("float double int16 int32 int64 float16 bfloat16")}},
         .build_function_body = buildRange27,
         .infer = inferRange,
         .kernel = runRange,
         .step = {.reviewed = true,
                  .change =
                      "float16 and bfloat16 added, with stash_type (no effect on the other types)",
                  .down = dropStashType}},
    }};
static_assert(isWellFormed(kRange));

}  // namespace onyx::ops::ai_onnx
