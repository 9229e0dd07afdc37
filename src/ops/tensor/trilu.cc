// Trilu (ai.onnx), versions 14.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kTrilu;
constexpr Operator kTrilu{
    .domain = kOnnxDomain,
    .name = "Trilu",
    .versions = {
        {.since_version = 14,
         .inputs = {{"input", "T"}, optional("k", "tensor(int64)")},
         .outputs = {{"output", "T"}},
         .attributes = {attr("upper", 1)},
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferSameShape},
    }};
static_assert(isWellFormed(kTrilu));

}  // namespace onyx::ops::ai_onnx
