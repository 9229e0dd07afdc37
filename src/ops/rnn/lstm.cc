// LSTM (ai.onnx), versions 1, 7, 14, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/node_draft.h"
#include "ops/rnn/recurrent_shape.h"
#include "ops/rnn/rnn_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferRecurrentOp(InferenceContext& ctx) { inferRecurrent(ctx); }

Status runLSTM(KernelContext& ctx) { return runRecurrent(ctx, RecurrentKind::kLstm); }

// Version 7 drops output_sequence: a Y the node names is produced, as output_sequence 1 said.
Status dropOutputSequence(NodeDraft& draft) {
  draft.removeAttribute("output_sequence");
  return Status::ok();
}

// Back before version 7, a node that names Y says output_sequence 1: with 0, Y is optional.
Status keepOutputSequence(NodeDraft& draft) {
  const Node& node = draft.node();
  if (node.outputCount() > 0 && node.output(0) != nullptr) {
    draft.setIntAttr("output_sequence", 1);
  }
  return Status::ok();
}

// Down from version 14: only layout 0 (sequence first), the one the older versions have.
Status dropLayout(NodeDraft& draft) {
  if (draft.attribute("layout") == nullptr) return Status::ok();
  if (draft.intAttr("layout") != 0) {
    return draft.refuse("layout other than 0 has no form in version 7");
  }
  draft.removeAttribute("layout");
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"},
                              {"W", "T"},
                              {"R", "T"},
                              optional("B", "T"),
                              optional("sequence_lens", "T1"),
                              optional("initial_h", "T"),
                              optional("initial_c", "T"),
                              optional("P", "T")};
constexpr Formals kOutputs1 = {optional("Y", "T"), optional("Y_h", "T"), optional("Y_c", "T")};
constexpr Attributes kAttributes14 = {
    attr("activation_alpha", kFloats), attr("activation_beta", kFloats),
    attr("activations", kStrings),     attr("clip", kFloat),
    attr("direction", "forward"),      attr("hidden_size", kInt),
    attr("input_forget", 0),           attr("layout", 0)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")},
                                       {"T1", tensor("int32")}};

extern const Operator kLSTM;
constexpr Operator kLSTM{
    .domain = kOnnxDomain,
    .name = "LSTM",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("activation_alpha", kFloats), attr("activation_beta", kFloats),
                        attr("activations", kStrings), attr("clip", kFloat),
                        attr("direction", "forward"), attr("hidden_size", kInt),
                        attr("input_forget", 0), attr("output_sequence", 0)},
         .constraints = kConstraints1,
         .infer = inferRecurrentOp,
         .kernel = runLSTM},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("activation_alpha", kFloats), attr("activation_beta", kFloats),
                        attr("activations", kStrings), attr("clip", kFloat),
                        attr("direction", "forward"), attr("hidden_size", kInt),
                        attr("input_forget", 0)},
         .constraints = kConstraints1,
         .infer = inferRecurrentOp,
         .kernel = runLSTM,
         .step = {.reviewed = true,
                  .change = "output_sequence removed (Y is there when named)",
                  .up = dropOutputSequence,
                  .down = keepOutputSequence}},
        {.since_version = 14,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = kConstraints1,
         .infer = inferRecurrentOp,
         .kernel = runLSTM,
         .step = {.reviewed = true,
                  .change = "layout added (0: sequence first, as before)",
                  .down = dropLayout,
                  .down_refuses = "layout other than 0"}},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}, {"T1", tensor("int32")}},
         .infer = inferRecurrentOp,
         .kernel = runLSTM,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kLSTM));

}  // namespace onyx::ops::ai_onnx
