// CastMap (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "onyx/core/quote.h"
#include "onyx/ops/inference_context.h"
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// The element type from cast_to. The shape is left unknown: the spec says 1-D, runtimes
// give [1, N].
void inferCastMap(InferenceContext& ctx) {
  std::string_view cast_to = ctx.stringAttribute("cast_to").value_or("TO_FLOAT");
  if (cast_to == "TO_FLOAT") {
    ctx.setOutputElemType(0, kMlFloat);
  } else if (cast_to == "TO_INT64") {
    ctx.setOutputElemType(0, kMlInt64);
  } else if (cast_to == "TO_STRING") {
    ctx.setOutputElemType(0, kMlString);
  } else {
    ctx.fail("cast_to is " + quoted(cast_to) + ", not TO_FLOAT, TO_INT64 or TO_STRING");
  }
}

}  // namespace

extern const Operator kCastMap;
constexpr Operator kCastMap{
    .domain = kMlDomain,
    .name = "CastMap",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}},
         .attributes = {attr("cast_to", "TO_FLOAT"), attr("map_form", "DENSE"), attr("max_map", 1)},
         .constraints = {{"T1", types("map(int64, string), map(int64, float)")},
                         {"T2", tensor("string float int64")}},
         .infer = inferCastMap},
    }};
static_assert(isWellFormed(kCastMap));

}  // namespace onyx::ops::ai_onnx_ml
