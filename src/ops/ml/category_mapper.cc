// CategoryMapper (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// Strings map to integers and integers to strings, shape kept.
// cats_int64s and cats_strings pair up one to one; onnx's CategoryMapper inference refuses
// lists of different lengths (onnx/defs/traditionalml/defs.cc).
void inferCategoryMapper(InferenceContext& ctx) {
  if (size_t ints = attributeLength(ctx, "cats_int64s"),
      strings = attributeLength(ctx, "cats_strings");
      ints != strings) {
    ctx.fail("cats_int64s has " + std::to_string(ints) + " entries, cats_strings " +
             std::to_string(strings) + "; they pair up one to one");
    return;
  }
  int32_t in = ctx.inputElemType(0);
  if (in == kMlString) ctx.setOutputElemType(0, kMlInt64);
  if (in == kMlInt64) ctx.setOutputElemType(0, kMlString);
  if (const Dims* shape = ctx.inputShape(0)) ctx.setOutputShape(0, *shape);
}

}  // namespace

extern const Operator kCategoryMapper;
constexpr Operator kCategoryMapper{
    .domain = kMlDomain,
    .name = "CategoryMapper",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}},
         .attributes = {attr("cats_int64s", kInts), attr("cats_strings", kStrings),
                        attr("default_int64", -1), attr("default_string", "_Unused")},
         .constraints = {{"T1", tensor("string int64")}, {"T2", tensor("string int64")}},
         .infer = inferCategoryMapper},
    }};
static_assert(isWellFormed(kCategoryMapper));

}  // namespace onyx::ops::ai_onnx_ml
