// LogSoftmax (ai.onnx), versions 1, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstddef>
#include <cstdint>

#include "onyx/ir/type.h"
#include "ops/body_text.h"
#include "ops/math/math_shape.h"
#include "ops/math/softmax_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {attr("axis", 1)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

namespace {

// LogSoftmax 13 as the spec defines it: (x - max) - log(sum(exp(x - max))) along `axis`, with
// ReduceMax's axes an attribute before opset 18 and an input from it.
Result<std::string> buildLogSoftmax13(const FunctionBodyContext& context) {
  int64_t axis = context.intAttr("axis").value_or(-1);
  body::BodyText out(context, "LogSoftmax");
  out.ints("axes", {axis});
  if (context.opset >= 18) {
    out.add("peak = ReduceMax <keepdims = 1> (input, axes)");
  } else {
    out.addf("peak = ReduceMax <keepdims = 1, axes = [{}]> (input)", axis);
  }
  out.add("shifted = Sub (input, peak)")
      .add("exp_shifted = Exp (shifted)")
      .add("total = ReduceSum <keepdims = 1> (exp_shifted, axes)")
      .add("log_total = Log (total)")
      .add("output = Sub (shifted, log_total)");
  return out.finish();
}

}  // namespace

namespace {

Status runLogSoftmaxOld(KernelContext& ctx) {
  return runSoftmaxFamily<SoftmaxKind::kLogSoftmax>(ctx, true);
}
Status runLogSoftmax(KernelContext& ctx) {
  return runSoftmaxFamily<SoftmaxKind::kLogSoftmax>(ctx, false);
}

}  // namespace

extern const Operator kLogSoftmax;
constexpr Operator kLogSoftmax{
    .domain = kOnnxDomain,
    .name = "LogSoftmax",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferSoftmaxFamily,
         .kernel = runLogSoftmaxOld},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferSoftmaxFamily,
         .kernel = runLogSoftmaxOld,
         .step = {.reviewed = true,
                  .change = "negative axis allowed",
                  .down = axisFromFront,
                  .down_refuses = "a negative axis, the input's rank unknown"}},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", -1)},
         .constraints = {{"T", tensor("float16 float double bfloat16")}},
         .build_function_body = buildLogSoftmax13,
         .infer = inferSoftmaxFamily,
         .kernel = runLogSoftmax,
         .step = {.reviewed = true,
                  .change = "along axis alone, not the 2-D coercion; axis default 1 became -1; "
                            "bfloat16 added",
                  .up = alongOneAxis,
                  .down = alongOneAxis,
                  .up_refuses = "axis not -1, a dimension after it not 1, the shape not static",
                  .down_refuses = "axis not -1 on an input of unknown rank"}},
    }};
static_assert(isWellFormed(kLogSoftmax));

}  // namespace onyx::ops::ai_onnx
