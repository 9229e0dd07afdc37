// Min (ai.onnx), versions 1, 6, 8, 12, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.

#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The elementwise minimum of one or more inputs, broadcast together; NaN wins.
Status runMin(KernelContext& ctx) {
  ElementType type = ctx.inputArray(0) != nullptr ? ctx.inputArray(0)->type() : ElementType::kFloat;
  Result<Array> folded =
      elementwise::foldInputs(ctx, [](auto a, auto b) { return elementwise::nanMin(a, b); });
  if (!folded) return folded.status();
  ctx.setOutput(0, elementwise::narrowTo(std::move(*folded), type));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {variadic("data_0", "T", 1)};
constexpr Formals kOutputs1 = {{"min", "T"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kMin;
constexpr Operator kMin{
    .domain = kOnnxDomain,
    .name = "Min",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runMin},
        {.since_version = 6,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runMin,
         .step = {.reviewed = true, .change = "consumed_inputs removed", .up = dropConsumedInputs}},
        {.since_version = 8,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferBroadcast,
         .kernel = runMin,
         .step = {.reviewed = true,
                  .change = "multidirectional broadcasting added",
                  .down = requireOneShape,
                  .down_refuses = "inputs not known to share one shape"}},
        {.since_version = 12,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")}},
         .infer = inferBroadcast,
         .kernel = runMin,
         .step = typesOnly("uint8, uint16, uint32, uint64, int8, int16, int32 and int64 added")},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")}},
         .infer = inferBroadcast,
         .kernel = runMin,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kMin));

}  // namespace onyx::ops::ai_onnx
