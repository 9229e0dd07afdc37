// StringSplit (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Y adds an axis as long as the most substrings any input string splits into; Z, the
// count per string, has the input's shape.
void inferStringSplit(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  Dims dims = *in;
  if (ctx.hasOutput(1)) ctx.setOutputShape(1, dims);
  dims.push_back(ctx.dims().fresh());
  ctx.setOutputShape(0, std::move(dims));
}

}  // namespace

extern const Operator kStringSplit;
constexpr Operator kStringSplit{
    .domain = kOnnxDomain,
    .name = "StringSplit",
    .versions = {
        {.since_version = 20,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}, {"Z", "T3"}},
         .attributes = {attr("delimiter", kString), attr("maxsplit", kInt)},
         .constraints = {{"T1", tensor("string")},
                         {"T2", tensor("string")},
                         {"T3", tensor("int64")}},
         .infer = inferStringSplit},
    }};
static_assert(isWellFormed(kStringSplit));

}  // namespace onyx::ops::ai_onnx
