// ScatterElements (ai.onnx), versions 11, 13, 16, 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/tensor_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {
Status runScatterElements(KernelContext& ctx) { return scatterAlongAxis(ctx); }

}  // namespace

constexpr Formals kInputs11 = {{"data", "T"}, {"indices", "Tind"}, {"updates", "T"}};
constexpr Formals kOutputs11 = {{"output", "T"}};
constexpr Attributes kAttributes11 = {attr("axis", 0)};
constexpr Attributes kAttributes16 = {attr("axis", 0), attr("reduction", "none")};
constexpr Constraints kConstraints13 = {{"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}};

extern const Operator kScatterElements;
constexpr Operator kScatterElements{
    .domain = kOnnxDomain,
    .name = "ScatterElements",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr3Types)}, {"Tind", tensor("int32 int64")}},
         .infer = inferSameShape,
         .kernel = runScatterElements},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = kConstraints13,
         .infer = inferSameShape,
         .kernel = runScatterElements},
        {.since_version = 16,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes16,
         .constraints = kConstraints13,
         .infer = inferSameShape,
         .kernel = runScatterElements},
        {.since_version = 18,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes16,
         .constraints = kConstraints13,
         .infer = inferSameShape,
         .kernel = runScatterElements},
    }};
static_assert(isWellFormed(kScatterElements));

}  // namespace onyx::ops::ai_onnx
