// Gemm (ai.onnx), versions 1, 6, 7, 9, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr TypeSet kTTypes9 = tensor("float16 float double uint32 uint64 int32 int64");
constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}, {"C", "T"}};
constexpr Formals kInputs11 = {{"A", "T"}, {"B", "T"}, optional("C", "T")};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes1 = {attr("alpha", 1.0f), attr("beta", 1.0f), attr("broadcast", 0),
                                     attr("transA", 0), attr("transB", 0)};
constexpr Attributes kAttributes7 = {attr("alpha", 1.0f), attr("beta", 1.0f), attr("transA", 0),
                                     attr("transB", 0)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};
constexpr Constraints kConstraints9 = {{"T", kTTypes9}};

extern const Operator kGemm;
constexpr Operator kGemm{
    .domain = kOnnxDomain,
    .name = "Gemm",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = kConstraints1},
        {.since_version = 9,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = kConstraints9},
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = kConstraints9},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes7,
         .constraints = {{"T", tensor("float16 float double uint32 uint64 int32 int64 bfloat16")}}},
    }};
static_assert(isWellFormed(kGemm));

}  // namespace onyx::ops::ai_onnx
