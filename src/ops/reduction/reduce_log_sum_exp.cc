// ReduceLogSumExp (ai.onnx), versions 1, 11, 13, 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstdint>

#include "onyx/ir/attribute.h"
#include "ops/lib/reduce_kernels.h"
#include "ops/reduction/reduce_shape.h"
#include "ops/schema_dsl.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferReduceAttribute(InferenceContext& ctx) { inferReduceAxesAttribute(ctx); }
void inferReduceInput(InferenceContext& ctx) { inferReduceAxesInput(ctx); }

Status runReduceLogSumExp(KernelContext& ctx) { return runReduction<ReduceKind::kLogSumExp>(ctx); }

}  // namespace

constexpr TypeSet kTTypes1 = tensor("uint32 uint64 int32 int64 float16 float double");
constexpr TypeSet kTTypes13 = tensor("uint32 uint64 int32 int64 float16 float double bfloat16");
constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kOutputs1 = {{"reduced", "T"}};
constexpr Attributes kAttributes1 = {attr("axes", kInts), attr("keepdims", 1)};
constexpr Constraints kConstraints1 = {{"T", kTTypes1}};

// ReduceLogSumExp 18 as the spec defines it: the log of the sum of exponentials, in double, through
// ReduceSum.
constexpr const char* kBody18 = R"ONNX(
<domain: "", opset_import: ["" : 18]>
ReduceLogSumExp <keepdims: int = 1, noop_with_empty_axes: int = 0> (data, axes) => (reduced) {
  wide = Cast <to = 11> (data)
  exp_wide = Exp (wide)
  total = ReduceSum <keepdims: int = @keepdims, noop_with_empty_axes: int = @noop_with_empty_axes> (exp_wide, axes)
  log_total = Log (total)
  reduced = CastLike (log_total, data)
}
)ONNX";

extern const Operator kReduceLogSumExp;
constexpr Operator kReduceLogSumExp{
    .domain = kOnnxDomain,
    .name = "ReduceLogSumExp",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferReduceAttribute,
         .kernel = runReduceLogSumExp},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferReduceAttribute,
         .kernel = runReduceLogSumExp,
         .step = {.reviewed = true,
                  .change = "negative axes allowed",
                  .down = axesFromFront,
                  .down_refuses = "negative axes, input rank unknown"}},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", kTTypes13}},
         .infer = inferReduceAttribute,
         .kernel = runReduceLogSumExp,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 18,
         .inputs = {{"data", "T"}, optional("axes", "tensor(int64)")},
         .outputs = kOutputs1,
         .attributes = {attr("keepdims", 1), attr("noop_with_empty_axes", 0)},
         .constraints = {{"T", kTTypes13}, {"tensor(int64)", tensor("int64")}},
         .function_bodies = {{18, kBody18}},
         .infer = inferReduceInput,
         .kernel = runReduceLogSumExp,
         .step = {.reviewed = true,
                  .change = "axes became an input; noop_with_empty_axes added",
                  .up = axesAttributeToInput,
                  .down = axesInputToAttribute,
                  .down_refuses = "axes not a constant; noop_with_empty_axes with no axes"}},
    }};
static_assert(isWellFormed(kReduceLogSumExp));

}  // namespace onyx::ops::ai_onnx
