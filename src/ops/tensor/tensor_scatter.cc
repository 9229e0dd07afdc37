// TensorScatter (ai.onnx), versions 24.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kTensorScatter;
constexpr Operator kTensorScatter{
    .domain = kOnnxDomain,
    .name = "TensorScatter",
    .versions = {
        {.since_version = 24,
         .inputs = {{"past_cache", "T"},
                    {"update", "T"},
                    optional("write_indices", "tensor(int64)")},
         .outputs = {{"present_cache", "T"}},
         .attributes = {attr("axis", -2), attr("mode", "linear")},
         .constraints = {{"T", tensor(kIr12Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferSameShape},
    }};
static_assert(isWellFormed(kTensorScatter));

}  // namespace onyx::ops::ai_onnx
