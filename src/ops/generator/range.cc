// Range (ai.onnx), versions 11, 27.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/body_text.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

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
         .function_bodies = {{11, kBody11}}},
        {.since_version = 27,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = {attr("stash_type", 1)},
         .constraints = {{"T", tensor("float double int16 int32 int64 float16 bfloat16")}},
         .build_function_body = buildRange27},
    }};
static_assert(isWellFormed(kRange));

}  // namespace onyx::ops::ai_onnx
