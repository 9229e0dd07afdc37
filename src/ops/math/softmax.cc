// Softmax (ai.onnx), versions 1, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstdint>
#include <optional>

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

// Softmax 13 as the spec defines it: exp(x - max) / sum(exp(x - max)) along `axis`. From opset
// 18 ReduceMax takes its axes as an input, so the body depends on the opset as well.
Result<std::string> buildSoftmax13(const FunctionBodyContext& context) {
  int64_t axis = context.intAttr("axis").value_or(-1);
  body::BodyText out(context, "Softmax");
  out.ints("axes", {axis});
  if (context.opset >= 18) {
    out.add("peak = ReduceMax <keepdims = 1> (input, axes)");
  } else {
    out.addf("peak = ReduceMax <keepdims = 1, axes = [{}]> (input)", axis);
  }
  out.add("shifted = Sub (input, peak)")
      .add("exp_shifted = Exp (shifted)")
      .add("total = ReduceSum <keepdims = 1> (exp_shifted, axes)")
      .add("output = Div (exp_shifted, total)");
  return out.finish();
}

}  // namespace

namespace {

Status runSoftmaxOld(KernelContext& ctx) {
  return runSoftmaxFamily<SoftmaxKind::kSoftmax>(ctx, true);
}
Status runSoftmax(KernelContext& ctx) {
  return runSoftmaxFamily<SoftmaxKind::kSoftmax>(ctx, false);
}

}  // namespace

extern const Operator kSoftmax;
constexpr Operator kSoftmax{
    .domain = kOnnxDomain,
    .name = "Softmax",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferSoftmaxFamily,
         .kernel = runSoftmaxOld},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferSoftmaxFamily,
         .kernel = runSoftmaxOld,
         .step = {.reviewed = true,
                  .change = "negative axis allowed",
                  .down = axisFromFront,
                  .down_refuses = "a negative axis on an input of unknown rank"}},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", -1)},
         .constraints = {{"T", tensor("float16 float double bfloat16")}},
         .build_function_body = buildSoftmax13,
         .infer = inferSoftmaxFamily,
         .kernel = runSoftmax,
         .step = {.reviewed = true,
                  .change = "softmax along axis alone, not the 2-D coercion; axis default 1 -> -1",
                  .up = alongOneAxis,
                  .down = alongOneAxis,
                  .up_refuses = "axis not -1, a dimension after it not 1, the shape not static",
                  .down_refuses = "axis not -1 on an input of unknown rank"}},
    }};
static_assert(isWellFormed(kSoftmax));

}  // namespace onyx::ops::ai_onnx
