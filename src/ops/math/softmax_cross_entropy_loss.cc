// SoftmaxCrossEntropyLoss (ai.onnx), versions 12, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include <string_view>
#include "onyx/ops/inference_context.h"
#include "ops/body_text.h"
#include "ops/math/loss_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// scores is [N, C, d1, ..., dk], labels [N, d1, ..., dk]. The loss is labels' shape with
// reduction "none", else a scalar; log_prob has scores' shape.
void inferSoftmaxCrossEntropyLoss(InferenceContext& ctx) {
  const Dims* scores = ctx.inputShape(0);
  const Dims* labels = ctx.inputShape(1);
  if (scores != nullptr && scores->size() < 2) {
    ctx.fail("scores has rank " + std::to_string(scores->size()) + "; it needs [N, C, ...]");
    return;
  }
  if (scores != nullptr && labels != nullptr && labels->size() + 1 != scores->size()) {
    ctx.fail("labels has rank " + std::to_string(labels->size()) + " for scores of rank " +
             std::to_string(scores->size()) + "; it needs rank " +
             std::to_string(scores->size() - 1));
    return;
  }
  std::string_view reduction = ctx.stringAttribute("reduction").value_or("mean");
  if (reduction == "none") {
    if (labels != nullptr) {
      ctx.setOutputShape(0, *labels);
    } else if (scores != nullptr) {
      Dims out;
      out.push_back((*scores)[0]);
      out.insert(out.end(), scores->begin() + 2, scores->end());
      ctx.setOutputShape(0, std::move(out));
    }
  } else if (reduction == "mean" || reduction == "sum") {
    ctx.setOutputShape(0, {});
  }
  if (ctx.hasOutput(1) && scores != nullptr) ctx.setOutputShape(1, *scores);
}

}  // namespace

constexpr Formals kInputs12 = {{"scores", "T"}, {"labels", "Tind"}, optional("weights", "T")};
constexpr Formals kOutputs12 = {{"output", "T"}, optional("log_prob", "T")};
constexpr Attributes kAttributes12 = {attr("ignore_index", kInt), attr("reduction", "mean")};

namespace {

// SoftmaxCrossEntropyLoss as the spec defines it: a LogSoftmax over the class axis (moved
// last and back), then NegativeLogLikelihoodLoss with the node's reduction and ignore_index.
Result<std::string> buildSoftmaxCrossEntropyLoss(const FunctionBodyContext& context) {
  body::BodyText out(context, "SoftmaxCrossEntropyLoss");
  out.ints("shape_3d", {0, 0, -1})
      .add("scores_ncd = Reshape (scores, shape_3d)")
      .add("scores_ndc = Transpose <perm = [0, 2, 1]> (scores_ncd)")
      .add("log_ndc = LogSoftmax <axis = 2> (scores_ndc)")
      .add("log_ncd = Transpose <perm = [0, 2, 1]> (log_ndc)")
      .add("scores_shape = Shape (scores)")
      .add("log_scores = Reshape (log_ncd, scores_shape)");
  if (context.hasOutput(1)) out.add("log_prob = Identity (log_scores)");
  out.addf(
      "output = NegativeLogLikelihoodLoss <reduction: string = @reduction, ignore_index: "
      "int = @ignore_index> (log_scores, labels{})",
      context.hasInput(2) ? ", weights" : "");
  return out.finish();
}

}  // namespace

namespace {

Status runSoftmaxCrossEntropyLoss(KernelContext& ctx) { return runLossKernel(ctx, true); }

}  // namespace

extern const Operator kSoftmaxCrossEntropyLoss;
constexpr Operator kSoftmaxCrossEntropyLoss{
    .domain = kOnnxDomain,
    .name = "SoftmaxCrossEntropyLoss",
    .versions = {
        {.since_version = 12,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor("float16 float double")}, {"Tind", tensor("int32 int64")}},
         .build_function_body = buildSoftmaxCrossEntropyLoss,
         .infer = inferSoftmaxCrossEntropyLoss,
         .kernel = runSoftmaxCrossEntropyLoss},
        {.since_version = 13,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"Tind", tensor("int32 int64")}},
         .build_function_body = buildSoftmaxCrossEntropyLoss,
         .infer = inferSoftmaxCrossEntropyLoss,
         .kernel = runSoftmaxCrossEntropyLoss,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kSoftmaxCrossEntropyLoss));

}  // namespace onyx::ops::ai_onnx
