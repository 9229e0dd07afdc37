// BatchNormalization (ai.onnx), versions 1, 6, 7, 9, 14, 15.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it. output_counts added by hand.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Y has X's shape; the statistics outputs (mean, var, saved_mean, saved_var before version
// 14, running_mean and running_var after) have the shape of the mean input: (C), or
// (C, D1, ...) for spatial = 0 in versions before 9.
void inferBatchNormalization(InferenceContext& ctx) {
  inferSameShape(ctx);
  Dims statistics;
  if (const Dims* mean = ctx.inputShape(3)) {
    statistics = *mean;
  } else if (const Dims* input = ctx.inputShape(0); input != nullptr && input->size() >= 2 &&
                                                    ctx.intAttribute("spatial").value_or(1) != 0) {
    statistics.push_back((*input)[1]);
  } else {
    return;
  }
  for (size_t i = 1; i < ctx.outputCount(); ++i) {
    if (ctx.hasOutput(i)) ctx.setOutputShape(i, statistics);
  }
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}, {"scale", "T"}, {"B", "T"}, {"mean", "T"}, {"var", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"},
                               optional("mean", "T"),
                               optional("var", "T"),
                               optional("saved_mean", "T"),
                               optional("saved_var", "T")};
constexpr Attributes kAttributes14 = {attr("epsilon", 1e-05f), attr("momentum", 0.9f),
                                      attr("training_mode", 0)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};
// Not in the changelog, which prints the bounds only: onnx lets a node give Y alone (the
// inference mode) or every output, nothing in between.
constexpr Counts kOutputCounts1 = {1, 5};
constexpr Counts kOutputCounts14 = {1, 3};

extern const Operator kBatchNormalization;
constexpr Operator kBatchNormalization{
    .domain = kOnnxDomain,
    .name = "BatchNormalization",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {required("consumed_inputs", kInts), attr("epsilon", 1e-05f),
                        attr("is_test", 0), attr("momentum", 0.9f), attr("spatial", 1)},
         .constraints = kConstraints1,
         .output_counts = kOutputCounts1,
         .infer = inferBatchNormalization},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("epsilon", 1e-05f), attr("is_test", 0), attr("momentum", 0.9f),
                        attr("spatial", 1)},
         .constraints = kConstraints1,
         .output_counts = kOutputCounts1,
         .infer = inferBatchNormalization},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("epsilon", 1e-05f), attr("momentum", 0.9f), attr("spatial", 1)},
         .constraints = kConstraints1,
         .output_counts = kOutputCounts1,
         .infer = inferBatchNormalization},
        {.since_version = 9,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("epsilon", 1e-05f), attr("momentum", 0.9f)},
         .constraints = kConstraints1,
         .output_counts = kOutputCounts1,
         .infer = inferBatchNormalization},
        {.since_version = 14,
         .inputs =
             {{"X", "T"}, {"scale", "T"}, {"B", "T"}, {"input_mean", "U"}, {"input_var", "U"}},
         .outputs = {{"Y", "T"}, optional("running_mean", "U"), optional("running_var", "U")},
         .attributes = kAttributes14,
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"U", tensor("float16 float double bfloat16")}},
         .output_counts = kOutputCounts14,
         .infer = inferBatchNormalization},
        {.since_version = 15,
         .inputs =
             {{"X", "T"}, {"scale", "T1"}, {"B", "T1"}, {"input_mean", "T2"}, {"input_var", "T2"}},
         .outputs = {{"Y", "T"}, optional("running_mean", "T2"), optional("running_var", "T2")},
         .attributes = kAttributes14,
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"T1", tensor("float16 float double bfloat16")},
                         {"T2", tensor("float16 float double bfloat16")}},
         .output_counts = kOutputCounts14,
         .infer = inferBatchNormalization},
    }};
static_assert(isWellFormed(kBatchNormalization));

}  // namespace onyx::ops::ai_onnx
