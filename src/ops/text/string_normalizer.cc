// StringNormalizer (ai.onnx), versions 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>

#include "onyx/ir/attribute.h"
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The input is [C] or [1, C]; stopwords may remove strings, so C is then unknown (and
// when all go, one empty string is left).
void inferStringNormalizer(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  if (in->size() != 1 && in->size() != 2) {
    ctx.fail("the input has rank " + std::to_string(in->size()) + ", not 1 ([C]) or 2 ([1, C])");
    return;
  }
  if (in->size() == 2 && (*in)[0].isKnown() && (*in)[0].value() != 1) {
    ctx.fail("a 2-D input must be [1, C], its first dimension is " +
             std::to_string((*in)[0].value()));
    return;
  }
  const Attribute* stopwords = ctx.attribute("stopwords");
  bool may_remove =
      stopwords != nullptr && stopwords->lists != nullptr && !stopwords->lists->strings.empty();
  Dims dims = *in;
  if (may_remove) dims.back() = ctx.dims().fresh();
  ctx.setOutputShape(0, std::move(dims));
}

}  // namespace

extern const Operator kStringNormalizer;
constexpr Operator kStringNormalizer{
    .domain = kOnnxDomain,
    .name = "StringNormalizer",
    .versions = {
        {.since_version = 10,
         .inputs = {{"X", "tensor(string)"}},
         .outputs = {{"Y", "tensor(string)"}},
         .attributes = {attr("case_change_action", "NONE"), attr("is_case_sensitive", 0),
                        attr("locale", kString), attr("stopwords", kStrings)},
         .constraints = {{"tensor(string)", tensor("string")}},
         .infer = inferStringNormalizer},
    }};
static_assert(isWellFormed(kStringNormalizer));

}  // namespace onyx::ops::ai_onnx
