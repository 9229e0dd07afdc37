// ReduceSum (ai.onnx), versions 1, 11, 13.
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

Status runReduceSum(KernelContext& ctx) { return runReduction<ReduceKind::kSum>(ctx); }

}  // namespace

constexpr TypeSet kTTypes1 = tensor("uint32 uint64 int32 int64 float16 float double");
constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kOutputs1 = {{"reduced", "T"}};
constexpr Attributes kAttributes1 = {attr("axes", kInts), attr("keepdims", 1)};
constexpr Constraints kConstraints1 = {{"T", kTTypes1}};

extern const Operator kReduceSum;
constexpr Operator kReduceSum{
    .domain = kOnnxDomain,
    .name = "ReduceSum",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferReduceAttribute,
         .kernel = runReduceSum},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferReduceAttribute,
         .kernel = runReduceSum,
         .step = {.reviewed = true,
                  .change = "negative axes allowed",
                  .down = axesFromFront,
                  .down_refuses = "negative axes, input rank unknown"}},
        {.since_version = 13,
         .inputs = {{"data", "T"}, optional("axes", "tensor(int64)")},
         .outputs = kOutputs1,
         .attributes = {attr("keepdims", 1), attr("noop_with_empty_axes", 0)},
         .constraints = {{"T", tensor("uint32 uint64 int32 int64 float16 float double bfloat16")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferReduceInput,
         .kernel = runReduceSum,
         .step = {.reviewed = true,
                  .change = "axes became an input; noop_with_empty_axes added; bfloat16 added",
                  .up = axesAttributeToInput,
                  .down = axesInputToAttribute,
                  .down_refuses = "axes not a constant; noop_with_empty_axes with no axes"}},
    }};
static_assert(isWellFormed(kReduceSum));

}  // namespace onyx::ops::ai_onnx
