// Imputer (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

void inferImputer(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

extern const Operator kImputer;
constexpr Operator kImputer{
    .domain = kMlDomain,
    .name = "Imputer",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "T"}},
         .attributes = {attr("imputed_value_floats", kFloats), attr("imputed_value_int64s", kInts),
                        attr("replaced_value_float", 0.0f), attr("replaced_value_int64", 0)},
         .constraints = {{"T", tensor("float double int64 int32")}},
         .infer = inferImputer},
    }};
static_assert(isWellFormed(kImputer));

}  // namespace onyx::ops::ai_onnx_ml
