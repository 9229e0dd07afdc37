// Scaler (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

void inferScaler(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

extern const Operator kScaler;
constexpr Operator kScaler{.domain = kMlDomain,
                           .name = "Scaler",
                           .versions = {
                               {.since_version = 1,
                                .inputs = {{"X", "T"}},
                                .outputs = {{"Y", "tensor(float)"}},
                                .attributes = {attr("offset", kFloats), attr("scale", kFloats)},
                                .constraints = {{"T", tensor("float double int64 int32")},
                                                {"tensor(float)", tensor("float")}},
                                .infer = inferScaler},
                           }};
static_assert(isWellFormed(kScaler));

}  // namespace onyx::ops::ai_onnx_ml
