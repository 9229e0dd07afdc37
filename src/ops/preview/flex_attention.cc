// FlexAttention (ai.onnx.preview), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>

#include "onyx/ir/graph.h"
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_preview {
using namespace dsl;

namespace {

constexpr int32_t kFloatElement = 1;
constexpr int32_t kDoubleElement = 11;

// Whether two dims that must be equal provably differ (then the node fails).
bool differ(InferenceContext& ctx, DimValue a, DimValue b, const char* what) {
  if (!a.isKnown() || !b.isKnown() || a.value() == b.value()) return false;
  ctx.fail(std::string(what) + " differs: " + std::to_string(a.value()) + " and " +
           std::to_string(b.value()));
  return true;
}

// Y is (batch, q heads, q length, v head size). score_mod and prob_mod see the scores,
// (batch, q heads, q length, kv length) in softmax_precision.
void inferFlexAttention(InferenceContext& ctx) {
  const Dims* q = ctx.inputShape(0);
  const Dims* k = ctx.inputShape(1);
  const Dims* v = ctx.inputShape(2);
  for (size_t i = 0; i < 3; ++i) {
    std::optional<size_t> rank = ctx.inputRank(i);
    if (rank && *rank != 4) {
      ctx.fail("input " + std::to_string(i) + " has rank " + std::to_string(*rank) + ", not 4");
      return;
    }
  }
  if (q != nullptr && k != nullptr) {
    if (differ(ctx, (*q)[0], (*k)[0], "the batch size of Q and K") ||
        differ(ctx, (*q)[3], (*k)[3], "the head size of Q and K")) {
      return;
    }
    if ((*q)[1].isKnown() && (*k)[1].isKnown() && (*k)[1].value() > 0 &&
        (*q)[1].value() % (*k)[1].value() != 0) {
      ctx.fail("Q's " + std::to_string((*q)[1].value()) + " heads are not a multiple of K's " +
               std::to_string((*k)[1].value()));
      return;
    }
  }
  if (k != nullptr && v != nullptr &&
      (differ(ctx, (*k)[0], (*v)[0], "the batch size of K and V") ||
       differ(ctx, (*k)[1], (*v)[1], "the number of heads of K and V") ||
       differ(ctx, (*k)[2], (*v)[2], "the sequence length of K and V"))) {
    return;
  }
  DimValue batch = q != nullptr ? (*q)[0] : v != nullptr ? (*v)[0] : ctx.dims().fresh();
  if (q != nullptr && (*q)[0].isSymbolic() && v != nullptr && (*v)[0].isKnown()) batch = (*v)[0];
  DimValue heads = q != nullptr ? (*q)[1] : ctx.dims().fresh();
  DimValue length = q != nullptr ? (*q)[2] : ctx.dims().fresh();
  if (q != nullptr || v != nullptr) {
    ctx.setOutputShape(0, {batch, heads, length, v != nullptr ? (*v)[3] : ctx.dims().fresh()});
  }
  int32_t elem_type = ctx.inputElemType(0);
  int64_t precision = ctx.intAttribute("softmax_precision")
                          .value_or(elem_type == kDoubleElement ? kDoubleElement : kFloatElement);
  DimValue kv_length = k != nullptr ? (*k)[2] : v != nullptr ? (*v)[2] : ctx.dims().fresh();
  InferredType scores =
      InferredType::tensor(static_cast<int32_t>(precision), {batch, heads, length, kv_length});
  for (const char* name : {"score_mod", "prob_mod"}) {
    const Graph* modifier = ctx.graphAttribute(name);
    if (modifier != nullptr) ctx.inferSubgraph(*modifier, std::span(&scores, 1));
  }
}

}  // namespace

extern const Operator kFlexAttention;
constexpr Operator kFlexAttention{
    .domain = kPreviewDomain,
    .name = "FlexAttention",
    .versions = {
        {.since_version = 1,
         .inputs = {{"Q", "T1"}, {"K", "T1"}, {"V", "T1"}},
         .outputs = {{"Y", "T1"}},
         .attributes = {attr("prob_mod", kGraph), attr("scale", kFloat), attr("score_mod", kGraph),
                        attr("softmax_precision", kInt)},
         .constraints = {{"T1", tensor("bfloat16 float16 float double")}},
         .infer = inferFlexAttention},
    }};
static_assert(isWellFormed(kFlexAttention));

}  // namespace onyx::ops::ai_onnx_preview
