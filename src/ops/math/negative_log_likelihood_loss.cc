// NegativeLogLikelihoodLoss (ai.onnx), versions 12, 13, 22.
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

namespace {

// NegativeLogLikelihoodLoss as the spec defines it: gather -input at each target class, weigh
// by weight[target] when given, zero where target == ignore_index, then reduce ("none",
// "sum", or "mean": the sum over the sum of the weights, or a plain mean without weights and
// ignore_index). Version 12 gives Unsqueeze and Squeeze their axes as attributes, later ones
// as inputs. The body needs the input's element type where it casts constants to it.
Result<std::string> buildLoss(const FunctionBodyContext& context, bool axes_as_input) {
  Result<int32_t> input_type = body::requireElementType(context, 0);
  if (!input_type) return input_type.status();
  bool float_input = *input_type == body::kFloat;
  std::string reduction(context.stringAttr("reduction").value_or("mean"));
  bool weighted = context.hasInput(2);
  std::optional<int64_t> ignore_index = context.intAttr("ignore_index");
  // Unsqueeze / Squeeze along axis 1.
  auto along1 = [&](std::string_view op, std::string_view output, std::string_view input) {
    std::string statement = std::string(output) + " = " + std::string(op);
    return axes_as_input ? statement + " (" + std::string(input) + ", axes)"
                         : statement + " <axes = [1]> (" + std::string(input) + ")";
  };

  body::BodyText out(context, "NegativeLogLikelihoodLoss");
  out.ints("const_zero", {0}).ints("const_one", {1});
  if (axes_as_input) out.ints("axes", {1});
  out.add(along1("Unsqueeze", "expanded_target", "target"));
  if (!ignore_index) {
    out.add("picked = GatherElements <axis = 1> (input, expanded_target)")
        .add("loss_NCdd = Neg (picked)")
        .add("loss_N1dd = Slice (loss_NCdd, const_zero, const_one, const_one)");
    if (!weighted) {
      if (reduction == "none") {
        out.add(along1("Squeeze", "loss", "loss_N1dd"));
      } else {
        out.add(along1("Squeeze", "loss_Ndd", "loss_N1dd"));
        out.add(reduction == "mean" ? "loss = ReduceMean <keepdims = 0> (loss_Ndd)"
                                    : "loss = ReduceSum <keepdims = 0> (loss_Ndd)");
      }
      return out.finish();
    }
    out.add("weight_gather = Gather (weight, target)")
        .add(along1("Squeeze", "loss_unweighted", "loss_N1dd"));
  } else {
    out.ints("const_ignore_index", {*ignore_index})
        .add("zero_target = Sub (expanded_target, expanded_target)")
        .add("expanded_target_int64 = Cast <to = 7> (expanded_target)")
        .add("mask = Equal (expanded_target_int64, const_ignore_index)")
        .add("safe_target = Where (mask, zero_target, expanded_target)")
        .add("picked = GatherElements <axis = 1> (input, safe_target)")
        .floats("const_zero_float", {0.0f});
    std::string_view zero = "const_zero_float";
    if (!float_input) {
      out.addf("const_zero_casted = Cast <to = {}> (const_zero_float)", *input_type);
      zero = "const_zero_casted";
    }
    out.addf("picked_kept = Where (mask, {}, picked)", zero)
        .add("loss_NCdd = Neg (picked_kept)")
        .add("loss_N1dd = Slice (loss_NCdd, const_zero, const_one, const_one)");
    if (!weighted) {
      out.add(along1("Squeeze", "squeeze_mask", "mask")).floats("const_one_float", {1.0f});
      if (!float_input) {
        out.addf("const_one_casted = Cast <to = {}> (const_one_float)", *input_type)
            .add("weight_gather = Where (squeeze_mask, const_zero_casted, const_one_casted)");
      } else {
        out.add("weight_gather = Where (squeeze_mask, const_zero_float, const_one_float)");
      }
    } else {
      out.add("weight_picked = Gather (weight, safe_target)")
          .addf("weight_kept = Where (mask, {}, weight_picked)", zero)
          .add(along1("Squeeze", "weight_gather", "weight_kept"));
    }
    out.add(along1("Squeeze", "loss_unweighted", "loss_N1dd"));
  }
  if (reduction == "none") {
    out.add("loss = Mul (loss_unweighted, weight_gather)");
  } else {
    out.add("loss_Ndd = Mul (loss_unweighted, weight_gather)");
    if (reduction == "mean") {
      out.add("loss_sum = ReduceSum <keepdims = 0> (loss_Ndd)")
          .add("weight_sum = ReduceSum <keepdims = 0> (weight_gather)")
          .add("loss = Div (loss_sum, weight_sum)");
    } else {
      out.add("loss = ReduceSum <keepdims = 0> (loss_Ndd)");
    }
  }
  return out.finish();
}

Result<std::string> buildLoss12(const FunctionBodyContext& context) {
  return buildLoss(context, false);
}
Result<std::string> buildLoss13(const FunctionBodyContext& context) {
  return buildLoss(context, true);
}

}  // namespace

namespace {

Status runNegativeLogLikelihoodLoss(KernelContext& ctx) { return runLossKernel(ctx, false); }

}  // namespace

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
         .build_function_body = buildLoss12,
         .infer = inferNegativeLogLikelihoodLoss,
         .kernel = runNegativeLogLikelihoodLoss},
        {.since_version = 13,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = kConstraints12,
         .build_function_body = buildLoss13,
         .infer = inferNegativeLogLikelihoodLoss,
         .kernel = runNegativeLogLikelihoodLoss,
         .step = typesOnly("nothing a node shows: differentiability marked, body in opset-13 ops")},
        {.since_version = 22,
         .inputs = kInputs12,
         .outputs = kOutputs12,
         .attributes = kAttributes12,
         .constraints = {{"T", tensor("bfloat16 float16 float double")},
                         {"Tind", tensor("int32 int64")}},
         .build_function_body = buildLoss13,
         .infer = inferNegativeLogLikelihoodLoss,
         .kernel = runNegativeLogLikelihoodLoss,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kNegativeLogLikelihoodLoss));

}  // namespace onyx::ops::ai_onnx
