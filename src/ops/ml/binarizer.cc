// Binarizer (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

void inferBinarizer(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

extern const Operator kBinarizer;
constexpr Operator kBinarizer{.domain = kMlDomain,
                              .name = "Binarizer",
                              .versions = {
                                  {.since_version = 1,
                                   .inputs = {{"X", "T"}},
                                   .outputs = {{"Y", "T"}},
                                   .attributes = {attr("threshold", 0.0f)},
                                   .constraints = {{"T", tensor("float double int64 int32")}},
                                   .infer = inferBinarizer},
                              }};
static_assert(isWellFormed(kBinarizer));

}  // namespace onyx::ops::ai_onnx_ml
