// NegativeLogLikelihoodLoss (ai.onnx), versions 12, 13, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include <string_view>
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// input is [N, C, d1, ..., dk], target [N, d1, ..., dk], weight [C]. The loss is target's
// shape with reduction "none", else a scalar.
void inferNegativeLogLikelihoodLoss(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  const Dims* target = ctx.inputShape(1);
  if (input != nullptr && input->size() < 2) {
    ctx.fail("input has rank " + std::to_string(input->size()) + "; it needs [N, C, ...]");
    return;
  }
  Dims per_element;  // [N, d1, ..., dk], the better known of input's and target's
  if (input != nullptr) {
    per_element.push_back((*input)[0]);
    per_element.insert(per_element.end(), input->begin() + 2, input->end());
  }
  if (target != nullptr) {
    if (input == nullptr) {
      per_element = *target;
    } else if (target->size() != per_element.size()) {
      ctx.fail("target has rank " + std::to_string(target->size()) + " for an input of rank " +
               std::to_string(input->size()) + "; it needs rank " +
               std::to_string(per_element.size()));
      return;
    } else {
      for (size_t i = 0; i < per_element.size(); ++i) {
        DimValue from_target = (*target)[i];
        DimValue& dim = per_element[i];
        if (dim.isKnown() && from_target.isKnown() && dim.value() != from_target.value()) {
          ctx.fail("target's axis " + std::to_string(i) + " is " +
                   std::to_string(from_target.value()) + " but input's is " +
                   std::to_string(dim.value()));
          return;
        }
        if (!dim.isKnown()) dim = from_target;
      }
    }
  }
  const Dims* weight = ctx.inputShape(2);
  if (weight != nullptr && weight->size() != 1) {
    ctx.fail("weight has rank " + std::to_string(weight->size()) + "; it needs [C]");
    return;
  }
  if (weight != nullptr && input != nullptr) {
    DimValue classes = (*input)[1];
    DimValue weights = (*weight)[0];
    if (classes.isKnown() && weights.isKnown() && classes.value() != weights.value()) {
      ctx.fail("weight has " + std::to_string(weights.value()) + " elements for " +
               std::to_string(classes.value()) + " classes");
      return;
    }
  }
  std::string_view reduction = ctx.stringAttribute("reduction").value_or("mean");
  if (reduction == "none") {
    if (input != nullptr || target != nullptr) ctx.setOutputShape(0, std::move(per_element));
  } else if (reduction == "mean" || reduction == "sum") {
    ctx.setOutputShape(0, {});
  }
}

}  // namespace

constexpr Formals kInputs12 = {{"input", "T"}, {"target", "Tind"}, optional("weight", "T")};
constexpr Formals kOutputs12 = {{"loss", "T"}};
constexpr Attributes kAttributes12 = {attr("ignore_index", kInt), attr("reduction", "mean")};
constexpr Constraints kConstraints12 = {{"T", tensor("float16 float double")},
                                        {"Tind", tensor("int32 int64")}};

extern const Operator kNegativeLogLikelihoodLoss;
constexpr Operator kNegativeLogLikelihoodLoss{
    .domain = kOnnxDomain,
    .name = "NegativeLogLikelihoodLoss",
    .versions = {
        {.since_version = 12,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = kConstraints12,
         .infer = inferNegativeLogLikelihoodLoss},
        {.since_version = 13,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = kConstraints12,
         .infer = inferNegativeLogLikelihoodLoss},
        {.since_version = 22,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor("bfloat16 float16 float double")},
                         {"Tind", tensor("int32 int64")}},
         .infer = inferNegativeLogLikelihoodLoss},
    }};
static_assert(isWellFormed(kNegativeLogLikelihoodLoss));

}  // namespace onyx::ops::ai_onnx
