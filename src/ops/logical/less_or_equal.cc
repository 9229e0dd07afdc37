// LessOrEqual (ai.onnx), versions 12, 16.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runLessOrEqual(KernelContext& ctx) {
  return elementwise::compareKernel(ctx, [](auto a, auto b) { return a <= b; });
}

}  // namespace

constexpr Formals kInputs12 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs12 = {{"C", "T1"}};

// LessOrEqual as the spec defines it: Less or Equal.
constexpr const char* kBody12 = R"ONNX(
<domain: "", opset_import: ["" : 12]>
LessOrEqual (A, B) => (C) {
  strict = Less (A, B)
  same = Equal (A, B)
  C = Or (strict, same)
}
)ONNX";

extern const Operator kLessOrEqual;
constexpr Operator kLessOrEqual{
    .domain = kOnnxDomain,
    .name = "LessOrEqual",
    .versions = {
        {.since_version = 12,
         .traits = kElementwise,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")},
              {"T1", tensor("bool")}},
         .function_bodies = {{12, kBody12}},
         .infer = inferBroadcast,
         .kernel = runLessOrEqual},
        {.since_version = 16,
         .traits = kElementwise,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")},
                         {"T1", tensor("bool")}},
         .function_bodies = {{16, kBody12}},
         .infer = inferBroadcast,
         .kernel = runLessOrEqual,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kLessOrEqual));

}  // namespace onyx::ops::ai_onnx
