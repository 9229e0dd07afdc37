// ZipMap (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// A sequence of maps from the class labels to the scores.
// The input is [N, C] or [C], as onnx's ZipMap inference requires
// (onnx/defs/traditionalml/defs.cc).
void inferZipMap(InferenceContext& ctx) {
  if (!inputRankWithin(ctx, 0, 1, 2)) return;
  int32_t key = attributeLength(ctx, "classlabels_int64s") > 0 ? kMlInt64 : kMlString;
  ctx.setOutputType(0,
                    InferredType::sequence(InferredType::map(key, InferredType::tensor(kMlFloat))));
}

}  // namespace

extern const Operator kZipMap;
constexpr Operator kZipMap{
    .domain = kMlDomain,
    .name = "ZipMap",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "tensor(float)"}},
         .outputs = {{"Z", "T"}},
         .attributes = {attr("classlabels_int64s", kInts), attr("classlabels_strings", kStrings)},
         .constraints = {{"T", types("seq(map(string, float)), seq(map(int64, float))")},
                         {"tensor(float)", tensor("float")}},
         .infer = inferZipMap},
    }};
static_assert(isWellFormed(kZipMap));

}  // namespace onyx::ops::ai_onnx_ml
