// Normalizer (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

void inferNormalizer(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

extern const Operator kNormalizer;
constexpr Operator kNormalizer{.domain = kMlDomain,
                               .name = "Normalizer",
                               .versions = {
                                   {.since_version = 1,
                                    .inputs = {{"X", "T"}},
                                    .outputs = {{"Y", "tensor(float)"}},
                                    .attributes = {attr("norm", "MAX")},
                                    .constraints = {{"T", tensor("float double int64 int32")},
                                                    {"tensor(float)", tensor("float")}},
                                    .infer = inferNormalizer},
                               }};
static_assert(isWellFormed(kNormalizer));

}  // namespace onyx::ops::ai_onnx_ml
