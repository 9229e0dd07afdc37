// ReduceMax (ai.onnx), versions 1, 11, 12, 13, 18, 20.
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

Status runReduceMax(KernelContext& ctx) { return runReduction<ReduceKind::kMax>(ctx); }

}  // namespace

constexpr TypeSet kTTypes1 = tensor("uint32 uint64 int32 int64 float16 float double");
constexpr TypeSet kTTypes13 =
    tensor("uint32 uint64 int32 int64 float16 float double bfloat16 uint8 int8");
constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kInputs18 = {{"data", "T"}, optional("axes", "tensor(int64)")};
constexpr Formals kOutputs1 = {{"reduced", "T"}};
constexpr Attributes kAttributes1 = {attr("axes", kInts), attr("keepdims", 1)};
constexpr Attributes kAttributes18 = {attr("keepdims", 1), attr("noop_with_empty_axes", 0)};
constexpr Constraints kConstraints1 = {{"T", kTTypes1}};

extern const Operator kReduceMax;
constexpr Operator kReduceMax{
    .domain = kOnnxDomain,
    .name = "ReduceMax",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferReduceAttribute,
         .kernel = runReduceMax},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferReduceAttribute,
         .kernel = runReduceMax,
         .step = {.reviewed = true,
                  .change = "negative axes allowed",
                  .down = axesFromFront,
                  .down_refuses = "negative axes, input rank unknown"}},
        {.since_version = 12,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T",
                          tensor("uint32 uint64 int32 int64 float16 float double uint8 int8")}},
         .infer = inferReduceAttribute,
         .kernel = runReduceMax,
         .step = typesOnly("int8 and uint8 added")},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", kTTypes13}},
         .infer = inferReduceAttribute,
         .kernel = runReduceMax,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 18,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes18,
         .constraints = {{"T", kTTypes13}, {"tensor(int64)", tensor("int64")}},
         .infer = inferReduceInput,
         .kernel = runReduceMax,
         .step = {.reviewed = true,
                  .change = "axes became an input; noop_with_empty_axes added",
                  .up = axesAttributeToInput,
                  .down = axesInputToAttribute,
                  .down_refuses = "axes not a constant; noop_with_empty_axes with no axes"}},
        {.since_version = 20,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes18,
         .constraints =
             {{"T",
               tensor("uint32 uint64 int32 int64 float16 float double bfloat16 uint8 int8 bool")},
              {"tensor(int64)", tensor("int64")}},
         .infer = inferReduceInput,
         .kernel = runReduceMax,
         .step = typesOnly("bool added (false < true)")},
    }};
static_assert(isWellFormed(kReduceMax));

}  // namespace onyx::ops::ai_onnx
