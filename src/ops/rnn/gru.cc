// GRU (ai.onnx), versions 1, 3, 7, 14, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/node_draft.h"
#include "ops/rnn/recurrent_shape.h"
#include "ops/rnn/rnn_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferRecurrentOp(InferenceContext& ctx) { inferRecurrent(ctx); }

Status runGRU(KernelContext& ctx) { return runRecurrent(ctx, RecurrentKind::kGru); }

// Down to version 1: linear_before_reset 0, the one behaviour it has.
Status dropLinearBeforeReset(NodeDraft& draft) {
  // Version 1 spells its default direction "foward", a typo runtimes read differently: the
  // converted node says what it means.
  if (draft.attribute("direction") == nullptr) draft.setStringAttr("direction", "forward");
  if (draft.attribute("linear_before_reset") == nullptr) return Status::ok();
  if (draft.intAttr("linear_before_reset") != 0) {
    return draft.refuse("linear_before_reset other than 0 has no form in version 1");
  }
  draft.removeAttribute("linear_before_reset");
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"},
                              {"W", "T"},
                              {"R", "T"},
                              optional("B", "T"),
                              optional("sequence_lens", "T1"),
                              optional("initial_h", "T")};
constexpr Formals kOutputs3 = {optional("Y", "T"), optional("Y_h", "T")};
constexpr Attributes kAttributes14 = {attr("activation_alpha", kFloats),
                                      attr("activation_beta", kFloats),
                                      attr("activations", kStrings),
                                      attr("clip", kFloat),
                                      attr("direction", "forward"),
                                      attr("hidden_size", kInt),
                                      attr("layout", 0),
                                      attr("linear_before_reset", 0)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")},
                                       {"T1", tensor("int32")}};

extern const Operator kGRU;
constexpr Operator kGRU{
    .domain = kOnnxDomain,
    .name = "GRU",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = {optional("Y", "T"), {"Y_h", "T"}},
         .attributes = {attr("activation_alpha", kFloats), attr("activation_beta", kFloats),
                        attr("activations", kStrings), attr("clip", kFloat),
                        attr("direction", "foward"), attr("hidden_size", kInt),
                        attr("output_sequence", 0)},
         .constraints = kConstraints1,
         .infer = inferRecurrentOp,
         .kernel = runGRU},
        {.since_version = 3,
         .inputs = kInputs1,
         .outputs = kOutputs3,
         .attributes = {attr("activation_alpha", kFloats), attr("activation_beta", kFloats),
                        attr("activations", kStrings), attr("clip", kFloat),
                        attr("direction", "forward"), attr("hidden_size", kInt),
                        attr("linear_before_reset", 0), attr("output_sequence", 0)},
         .constraints = kConstraints1,
         .infer = inferRecurrentOp,
         .kernel = runGRU,
         .step = {.reviewed = true,
                  .change = "linear_before_reset added (0: as before); Y_h optional",
                  .down = dropLinearBeforeReset,
                  .down_refuses = "linear_before_reset other than 0"}},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs3,
         .attributes = {attr("activation_alpha", kFloats), attr("activation_beta", kFloats),
                        attr("activations", kStrings), attr("clip", kFloat),
                        attr("direction", "forward"), attr("hidden_size", kInt),
                        attr("linear_before_reset", 0)},
         .constraints = kConstraints1,
         .infer = inferRecurrentOp,
         .kernel = runGRU,
         .step = {.reviewed = true,
                  .change = "output_sequence removed (Y is there when named)",
                  .up = dropOutputSequence,
                  .down = keepOutputSequence}},
        {.since_version = 14,
         .inputs = kInputs1,
         .outputs = kOutputs3,
         .attributes = kAttributes14,
         .constraints = kConstraints1,
         .infer = inferRecurrentOp,
         .kernel = runGRU,
         .step = {.reviewed = true,
                  .change = "layout added (0: sequence first, as before)",
                  .down = dropLayout,
                  .down_refuses = "layout other than 0"}},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs3,
         .attributes = kAttributes14,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}, {"T1", tensor("int32")}},
         .infer = inferRecurrentOp,
         .kernel = runGRU,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kGRU));

}  // namespace onyx::ops::ai_onnx
