// DFT (ai.onnx), versions 17, 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kOutputs17 = {{"output", "T1"}};

extern const Operator kDFT;
constexpr Operator kDFT{
    .domain = kOnnxDomain,
    .name = "DFT",
    .versions = {
        {.since_version = 17,
         .inputs = {{"input", "T1"}, optional("dft_length", "T2")},
         .outputs = kOutputs17,
         .attributes = {attr("axis", 1), attr("inverse", 0), attr("onesided", 0)},
         .constraints = {{"T1", tensor("float16 float double bfloat16")},
                         {"T2", tensor("int32 int64")}}},
        {.since_version = 20,
         .inputs = {{"input", "T1"},
                    optional("dft_length", "T2"),
                    optional("axis", "tensor(int64)")},
         .outputs = kOutputs17,
         .attributes = {attr("inverse", 0), attr("onesided", 0)},
         .constraints = {{"T1", tensor("bfloat16 float16 float double")},
                         {"T2", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}}},
    }};
static_assert(isWellFormed(kDFT));

}  // namespace onyx::ops::ai_onnx
