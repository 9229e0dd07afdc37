// Scatter (ai.onnx), versions 9, 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/tensor_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {
Status runScatter(KernelContext& ctx) { return scatterAlongAxis(ctx); }

}  // namespace

constexpr Formals kInputs9 = {{"data", "T"}, {"indices", "Tind"}, {"updates", "T"}};
constexpr Formals kOutputs9 = {{"output", "T"}};
constexpr Attributes kAttributes9 = {attr("axis", 0)};
constexpr Constraints kConstraints9 = {{"T", tensor(kIr3Types)}, {"Tind", tensor("int32 int64")}};

extern const Operator kScatter;
constexpr Operator kScatter{
    .domain = kOnnxDomain,
    .name = "Scatter",
    .versions = {
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = kConstraints9,
         .infer = inferSameShape,
         .kernel = runScatter},
        {.since_version = 11,
         .deprecated = true,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = kConstraints9,
         .infer = inferSameShape,
         .kernel = runScatter,
         .step = {.reviewed = true, .change = "deprecated: ScatterElements replaces it"}},
    }};
static_assert(isWellFormed(kScatter));

}  // namespace onyx::ops::ai_onnx
