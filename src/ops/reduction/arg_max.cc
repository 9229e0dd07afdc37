// ArgMax (ai.onnx), versions 1, 11, 12, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstdint>
#include <optional>

#include "ops/lib/reduce_kernels.h"
#include "ops/node_draft.h"
#include "ops/reduction/reduce_shape.h"
#include "ops/schema_dsl.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferArg(InferenceContext& ctx) { inferArgReduce(ctx); }

Status runArgMax(KernelContext& ctx) { return runArgReduction<true>(ctx); }

}  // namespace

constexpr TypeSet kTTypes1 =
    tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double");
constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kOutputs1 = {{"reduced", "tensor(int64)"}};
constexpr Attributes kAttributes1 = {attr("axis", 0), attr("keepdims", 1)};
constexpr Attributes kAttributes12 = {attr("axis", 0), attr("keepdims", 1),
                                      attr("select_last_index", 0)};
constexpr Constraints kConstraints1 = {{"T", kTTypes1}, {"tensor(int64)", tensor("int64")}};

extern const Operator kArgMax;
constexpr Operator kArgMax{
    .domain = kOnnxDomain,
    .name = "ArgMax",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferArg,
         .kernel = runArgMax},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1,
         .infer = inferArg,
         .kernel = runArgMax,
         .step = {.reviewed = true,
                  .change = "negative axis allowed",
                  .down = axisFromFront,
                  .down_refuses = "negative axis, input rank unknown"}},
        {.since_version = 12,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = kConstraints1,
         .infer = inferArg,
         .kernel = runArgMax,
         .step = {.reviewed = true,
                  .change = "select_last_index added (0: the first index)",
                  .down = dropSelectLastIndex,
                  .down_refuses = "select_last_index other than 0"}},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                      "float double bfloat16")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferArg,
         .kernel = runArgMax,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kArgMax));

}  // namespace onyx::ops::ai_onnx
