// GroupNormalization (ai.onnx), versions 18, 21.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Y has X's shape; the channels must split into num_groups groups.
void inferGroupNormalization(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  int64_t groups = ctx.intAttribute("num_groups").value_or(0);
  if (input->size() >= 2 && (*input)[1].isKnown() && groups > 0 &&
      (*input)[1].value() % groups != 0) {
    ctx.fail(std::to_string((*input)[1].value()) + " channels do not split into " +
             std::to_string(groups) + " groups");
    return;
  }
  ctx.setOutputShape(0, *input);
}

}  // namespace

constexpr Formals kInputs18 = {{"X", "T"}, {"scale", "T"}, {"bias", "T"}};
constexpr Formals kOutputs18 = {{"Y", "T"}};

extern const Operator kGroupNormalization;
constexpr Operator kGroupNormalization{
    .domain = kOnnxDomain,
    .name = "GroupNormalization",
    .versions = {
        {.since_version = 18,
         .deprecated = true,
         .inputs = kInputs18,
         .outputs = kOutputs18,
         .attributes = {attr("epsilon", 1e-05f), required("num_groups", kInt)},
         .constraints = {{"T", tensor("float16 float double bfloat16")}},
         .infer = inferGroupNormalization},
        {.since_version = 21,
         .inputs = kInputs18,
         .outputs = kOutputs18,
         .attributes = {attr("epsilon", 1e-05f), required("num_groups", kInt),
                        attr("stash_type", 1)},
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferGroupNormalization},
    }};
static_assert(isWellFormed(kGroupNormalization));

}  // namespace onyx::ops::ai_onnx
