// BatchNormalization (ai.onnx), versions 1, 6, 7, 9, 14, 15.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it. output_counts added by hand.
#include <cmath>

#include "ops/lib/elementwise_kernels.h"
#include "ops/lib/real_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/wider_vectors.h"

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

// Inference on FLOAT X: y = x * factor[f] + shift[f] per feature f (each `inner` long), with
// factor = scale / sqrt(var + epsilon) and shift = B - mean * factor, all in double, rounded
// once. One pass, into X's storage when no one reads X after this node.
ONYX_WIDER_VECTORS void scaleShiftFloats(const float* from, float* to, size_t count, double factor,
                                         double shift) {
  for (size_t i = 0; i < count; ++i) {
    to[i] = static_cast<float>(static_cast<double>(from[i]) * factor + shift);
  }
}

Status normalizeFloat(KernelContext& ctx, const Array& x, size_t batch, size_t features,
                      size_t inner, const std::vector<double>& w, const std::vector<double>& b,
                      const std::vector<double>& mean, const std::vector<double>& var,
                      double epsilon) {
  Result<Array> made = elementwise::resultArray(ctx, {0}, ElementType::kFloat, x.shape());
  if (!made) return made.status();
  Array y = std::move(*made);
  std::vector<double> factor(features);
  std::vector<double> shift(features);
  for (size_t f = 0; f < features; ++f) {
    factor[f] = w[f] / std::sqrt(var[f] + epsilon);
    shift[f] = b[f] - mean[f] * factor[f];
  }
  const float* from = x.data<float>();
  float* to = y.data<float>();
  // By (n, f) plane, each the same affine map.
  parallelFor(
      ctx, batch * features, std::max<size_t>(1, elementwise::kGrain / std::max<size_t>(inner, 1)),
      [&](size_t begin, size_t end) {
        for (size_t plane = begin; plane < end; ++plane) {
          const size_t f = plane % features;
          scaleShiftFloats(from + plane * inner, to + plane * inner, inner, factor[f], shift[f]);
        }
      });
  ctx.setOutput(0, std::move(y));
  return Status::ok();
}

// Y = (x - mean) / sqrt(var + epsilon) * scale + B per channel, with the given statistics
// (inference) or the batch's own (training: training_mode from version 14, before it when
// is_test is 0 and a statistics output is asked for), the running statistics then updated as
// input * momentum + batch * (1 - momentum). Before version 9, spatial = 0 keeps statistics
// per channel and position.
Status runBatchNormalization(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* scale = ctx.inputArray(1);
  const Array* bias = ctx.inputArray(2);
  const Array* mean_in = ctx.inputArray(3);
  const Array* var_in = ctx.inputArray(4);
  if (x == nullptr || scale == nullptr || bias == nullptr || mean_in == nullptr ||
      var_in == nullptr) {
    return ctx.fail("needs X, scale, B, mean and var tensors");
  }
  if (!isRealType(x->type())) return ctx.fail("X must be a floating-point tensor");
  if (x->rank() < 2) return ctx.fail("X must have rank 2 or more");
  const int since = ctx.schema().since_version;
  bool training = false;
  if (since >= 14) {
    training = ctx.intAttribute("training_mode").value_or(0) != 0;
  } else {
    bool wanted = false;
    for (size_t i = 1; i < 5; ++i) wanted = wanted || ctx.hasOutput(i);
    training = wanted && (since >= 7 || ctx.intAttribute("is_test").value_or(0) == 0);
  }
  const bool spatial = since >= 9 || ctx.intAttribute("spatial").value_or(1) != 0;
  const size_t batch = static_cast<size_t>(x->dim(0));
  size_t features = static_cast<size_t>(x->dim(1));
  size_t inner = productOf(x->shape(), 2, x->rank());
  if (!spatial) {
    features *= inner;
    inner = 1;
  }
  for (const Array* parameter : {scale, bias, mean_in, var_in}) {
    if (parameter->size() != features) {
      return ctx.fail("scale, B, mean and var must hold " + std::to_string(features) + " values");
    }
  }
  const double epsilon = ctx.floatAttribute("epsilon").value_or(1e-5f);
  const double momentum = ctx.floatAttribute("momentum").value_or(0.9f);
  if (!training && x->type() == ElementType::kFloat) {
    return normalizeFloat(ctx, *x, batch, features, inner, realsOf(*scale), realsOf(*bias),
                          realsOf(*mean_in), realsOf(*var_in), epsilon);
  }
  const std::vector<double> in = realsOf(*x);
  const std::vector<double> w = realsOf(*scale);
  const std::vector<double> b = realsOf(*bias);
  std::vector<double> mean = realsOf(*mean_in);
  std::vector<double> var = realsOf(*var_in);
  std::vector<double> batch_mean(features, 0.0);
  std::vector<double> batch_var(features, 0.0);
  if (training) {
    const double count = static_cast<double>(batch * inner);
    for (size_t f = 0; f < features; ++f) {
      double sum = 0;
      for (size_t n = 0; n < batch; ++n) {
        const double* from = in.data() + (n * features + f) * inner;
        for (size_t i = 0; i < inner; ++i) sum += from[i];
      }
      const double m = sum / count;
      double squares = 0;
      for (size_t n = 0; n < batch; ++n) {
        const double* from = in.data() + (n * features + f) * inner;
        for (size_t i = 0; i < inner; ++i) squares += (from[i] - m) * (from[i] - m);
      }
      batch_mean[f] = m;
      batch_var[f] = squares / count;
    }
  }
  const std::vector<double>& use_mean = training ? batch_mean : mean;
  const std::vector<double>& use_var = training ? batch_var : var;
  std::vector<double> out(in.size());
  for (size_t n = 0; n < batch; ++n) {
    for (size_t f = 0; f < features; ++f) {
      const double factor = w[f] / std::sqrt(use_var[f] + epsilon);
      const size_t base = (n * features + f) * inner;
      for (size_t i = 0; i < inner; ++i) {
        out[base + i] = (in[base + i] - use_mean[f]) * factor + b[f];
      }
    }
  }
  ctx.setOutput(0, arrayOfReals(out, x->shape(), x->type()));
  if (!training) return Status::ok();
  std::vector<double> running_mean(features);
  std::vector<double> running_var(features);
  for (size_t f = 0; f < features; ++f) {
    running_mean[f] = mean[f] * momentum + batch_mean[f] * (1 - momentum);
    running_var[f] = var[f] * momentum + batch_var[f] * (1 - momentum);
  }
  const std::vector<int64_t>& shape = mean_in->shape();
  if (ctx.hasOutput(1)) ctx.setOutput(1, arrayOfReals(running_mean, shape, mean_in->type()));
  if (ctx.hasOutput(2)) ctx.setOutput(2, arrayOfReals(running_var, shape, var_in->type()));
  if (ctx.hasOutput(3)) ctx.setOutput(3, arrayOfReals(batch_mean, shape, x->type()));
  if (ctx.hasOutput(4)) ctx.setOutput(4, arrayOfReals(batch_var, shape, x->type()));
  return Status::ok();
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
         .infer = inferBatchNormalization,
         .kernel = runBatchNormalization},
        {.since_version = 6,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("epsilon", 1e-05f), attr("is_test", 0), attr("momentum", 0.9f),
                        attr("spatial", 1)},
         .constraints = kConstraints1,
         .output_counts = kOutputCounts1,
         .infer = inferBatchNormalization,
         .kernel = runBatchNormalization},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("epsilon", 1e-05f), attr("momentum", 0.9f), attr("spatial", 1)},
         .constraints = kConstraints1,
         .output_counts = kOutputCounts1,
         .infer = inferBatchNormalization,
         .kernel = runBatchNormalization},
        {.since_version = 9,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("epsilon", 1e-05f), attr("momentum", 0.9f)},
         .constraints = kConstraints1,
         .output_counts = kOutputCounts1,
         .infer = inferBatchNormalization,
         .kernel = runBatchNormalization},
        {.since_version = 14,
         .inputs =
             {{"X", "T"}, {"scale", "T"}, {"B", "T"}, {"input_mean", "U"}, {"input_var", "U"}},
         .outputs = {{"Y", "T"}, optional("running_mean", "U"), optional("running_var", "U")},
         .attributes = kAttributes14,
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"U", tensor("float16 float double bfloat16")}},
         .output_counts = kOutputCounts14,
         .infer = inferBatchNormalization,
         .kernel = runBatchNormalization},
        {.since_version = 15,
         .inputs =
             {{"X", "T"}, {"scale", "T1"}, {"B", "T1"}, {"input_mean", "T2"}, {"input_var", "T2"}},
         .outputs = {{"Y", "T"}, optional("running_mean", "T2"), optional("running_var", "T2")},
         .attributes = kAttributes14,
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"T1", tensor("float16 float double bfloat16")},
                         {"T2", tensor("float16 float double bfloat16")}},
         .output_counts = kOutputCounts14,
         .infer = inferBatchNormalization,
         .kernel = runBatchNormalization},
    }};
static_assert(isWellFormed(kBatchNormalization));

}  // namespace onyx::ops::ai_onnx
