// BatchNormalization (ai.onnx), versions 1, 6, 7, 9, 14, 15.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it. output_counts added by hand.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "onyx/ir/type.h"
#include "ops/lib/elementwise_kernels.h"
#include "ops/lib/real_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"
#include "ops/wider_vectors.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Y has X's shape; the statistics outputs (mean, var, saved_mean, saved_var before version
// 14, running_mean and running_var after) have the shape of the mean input: (C), or
// (C, D1, ...) for spatial = 0 in versions before 9.
void inferBatchNormalization(InferenceContext& ctx) {
  // scale, B, mean and var are rank 1, one entry per channel: the input's dimension 1
  // (onnx's BatchNormalization-15 inference, onnx/defs/nn/defs.cc: checkInputRank(ctx, 1..4,
  // 1), unifyInputDim(ctx, 1..4, 0, num_channels)). Not so with spatial 0 (versions before
  // 9), where they are C x D1 x ... x Dn.
  const Dims* input = ctx.inputShape(0);
  bool spatial = ctx.intAttribute("spatial").value_or(1) != 0;
  for (size_t i = 1; spatial && i < 5 && i < ctx.inputCount(); ++i) {
    const Dims* shape = ctx.inputShape(i);
    if (shape == nullptr) continue;
    if (shape->size() != 1) {
      ctx.fail("input " + std::to_string(i) + " has rank " + std::to_string(shape->size()) +
               "; scale, B, mean and var are rank 1");
      return;
    }
    if (input != nullptr && input->size() >= 2 && (*shape)[0].isKnown() && (*input)[1].isKnown() &&
        (*shape)[0].value() != (*input)[1].value()) {
      ctx.fail("input " + std::to_string(i) + " has " + std::to_string((*shape)[0].value()) +
               " entries; the input has " + std::to_string((*input)[1].value()) + " channels");
      return;
    }
  }
  inferSameShape(ctx);
  Dims statistics;
  if (const Dims* mean = ctx.inputShape(3)) {
    statistics = *mean;
  } else if (input != nullptr && input->size() >= 2 && spatial) {
    statistics.push_back((*input)[1]);
  } else {
    return;
  }
  for (size_t i = 1; i < ctx.outputCount(); ++i) {
    if (ctx.hasOutput(i)) ctx.setOutputShape(i, statistics);
  }
}

// Inference on FLOAT X: y = x * factor[f] + shift[f] per feature f (each `inner` long), in
// float, in onnxruntime's order (within the spec's rounding; a quantized model that
// re-quantizes after it then matches onnxruntime bit for bit): with FLOAT statistics,
// factor = (1 / sqrt(var + epsilon)) * scale and shift = B - mean * factor, each operation
// rounded to float, and no fused multiply-add (the clones are avx2, which has none). One pass, into
// X's storage when no one reads X after this node.
ONYX_WIDER_VECTORS void scaleShiftFloats(const float* from, float* to, size_t count, float factor,
                                         float shift) {
  for (size_t i = 0; i < count; ++i) to[i] = from[i] * factor + shift;
}

Status normalizeFloat(KernelContext& ctx, const Array& x, size_t batch, size_t features,
                      size_t inner, const std::vector<double>& w, const std::vector<double>& b,
                      const std::vector<double>& mean, const std::vector<double>& var,
                      float epsilon, bool float_statistics) {
  Result<Array> made = elementwise::resultArray(ctx, {0}, ElementType::kFloat, x.shape());
  if (!made) return made.status();
  Array y = std::move(*made);
  std::vector<float> factor(features);
  std::vector<float> shift(features);
  for (size_t f = 0; f < features; ++f) {
    if (float_statistics) {  // then each static_cast is exact
      const float inverse = 1.0f / std::sqrt(static_cast<float>(var[f]) + epsilon);
      factor[f] = inverse * static_cast<float>(w[f]);
      shift[f] = static_cast<float>(b[f]) - static_cast<float>(mean[f]) * factor[f];
    } else {  // statistics of another type (version 15 on): in double, rounded once
      const double wide = w[f] / std::sqrt(var[f] + static_cast<double>(epsilon));
      factor[f] = static_cast<float>(wide);
      shift[f] = static_cast<float>(b[f] - mean[f] * wide);
    }
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
  const std::array<const Array*, 4> parameters = {scale, bias, mean_in, var_in};
  for (const Array* parameter : parameters) {
    if (parameter->size() != features) {
      return ctx.fail("scale, B, mean and var must hold " + std::to_string(features) + " values");
    }
  }
  const double epsilon = ctx.floatAttribute("epsilon").value_or(1e-5f);
  const double momentum = ctx.floatAttribute("momentum").value_or(0.9f);
  if (!training && x->type() == ElementType::kFloat) {
    return normalizeFloat(
        ctx, *x, batch, features, inner, realsOf(*scale), realsOf(*bias), realsOf(*mean_in),
        realsOf(*var_in), ctx.floatAttribute("epsilon").value_or(1e-5f),
        std::all_of(parameters.begin(), parameters.end(),
                    [](const Array* a) { return a->type() == ElementType::kFloat; }));
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

// ---- version steps ---------------------------------------------------------------------------

// Whether the node names an output after Y: the statistics, which only training gives.
bool givesStatistics(const NodeDraft& draft) {
  const Node& node = draft.node();
  for (size_t i = 1; i < node.outputCount(); ++i) {
    if (node.output(i) != nullptr) return true;
  }
  return false;
}

// X's rank, when known.
std::optional<size_t> rankOfX(const NodeDraft& draft) {
  const Type* x = draft.inputType(0);
  if (x == nullptr || x->shape == nullptr) return std::nullopt;
  return x->shape->rank();
}

// Inputs `first` and `first + 1` must have X's element type where the target version binds
// them to X's type variable (known types only, as the signature check does).
Status sameTypeAsX(NodeDraft& draft, size_t first) {
  const Type* x = draft.inputType(0);
  for (size_t i = first; i < first + 2; ++i) {
    const Type* other = draft.inputType(i);
    if (x != nullptr && other != nullptr && x->elem_type && other->elem_type &&
        *x->elem_type != *other->elem_type) {
      return draft.refuse("input " + std::to_string(i) + " and X differ in element type; version " +
                          std::to_string(draft.to().since_version) + " has them equal");
    }
  }
  return Status::ok();
}

// Version 1 requires consumed_inputs, an in-place hint: training updates mean and var (inputs 3
// and 4) in place. Its X is 4-D.
Status addConsumedInputs(NodeDraft& draft) {
  if (std::optional<size_t> rank = rankOfX(draft); rank && *rank != 4) {
    return draft.refuse("X is not 4-D, as version 1 requires");
  }
  const int64_t training = givesStatistics(draft) ? 1 : 0;
  const int64_t consumed[] = {0, 0, 0, training, training};
  draft.setIntsAttr("consumed_inputs", consumed);
  return Status::ok();
}

// Version 7 drops is_test: a node trains when it names the statistics. Version 6 here infers
// when is_test is set, whatever the outputs (see runBatchNormalization).
Status dropIsTest(NodeDraft& draft) {
  if (draft.attribute("is_test") != nullptr && draft.intAttr("is_test") != 0 &&
      givesStatistics(draft)) {
    return draft.refuse(
        "is_test with the statistics outputs, which version 7 computes by training");
  }
  draft.removeAttribute("is_test");
  return Status::ok();
}

// Back to version 6: a node giving Y alone says is_test 1, so it infers however it is read.
Status setIsTest(NodeDraft& draft) {
  if (!givesStatistics(draft)) draft.setIntAttr("is_test", 1);
  return Status::ok();
}

// Version 9 drops spatial, keeping spatial 1 (statistics per channel); it also takes a 1-D X,
// which version 7 does not.
Status dropSpatial(NodeDraft& draft) {
  if (draft.attribute("spatial") == nullptr) return Status::ok();
  if (draft.intAttr("spatial") != 1) {
    return draft.refuse("spatial other than 1 has no form in version 9");
  }
  draft.removeAttribute("spatial");
  return Status::ok();
}

Status refuseOneDimensionalX(NodeDraft& draft) {
  if (rankOfX(draft) == size_t{1}) return draft.refuse("X is 1-D, which version 7 does not take");
  return Status::ok();
}

// Version 14 trains when training_mode says so, giving Y, running_mean and running_var;
// version 9 trains when the node names the statistics, saved_mean and saved_var among them.
Status trainingModeFromOutputs(NodeDraft& draft) {
  if (draft.node().outputCount() > 3) {
    return draft.refuse("saved_mean and saved_var have no form in version 14");
  }
  if (givesStatistics(draft)) draft.setIntAttr("training_mode", 1);
  return Status::ok();
}

Status outputsFromTrainingMode(NodeDraft& draft) {
  if (draft.attribute("training_mode") != nullptr) {
    if (draft.intAttr("training_mode") != 0) {
      return draft.refuse("training_mode other than 0: version 9 trains only with all 5 outputs");
    }
    draft.removeAttribute("training_mode");
  }
  return sameTypeAsX(draft, 3);
}

// Version 15 lets scale and B have their own type.
Status scaleAndBiasOfXType(NodeDraft& draft) { return sameTypeAsX(draft, 1); }

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
         .kernel = runBatchNormalization,
         .step = {.reviewed = true,
                  .change = "consumed_inputs (required) removed; X of any rank",
                  .up = dropConsumedInputs,
                  .down = addConsumedInputs,
                  .down_refuses = "X known not to be 4-D"}},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("epsilon", 1e-05f), attr("momentum", 0.9f), attr("spatial", 1)},
         .constraints = kConstraints1,
         .output_counts = kOutputCounts1,
         .infer = inferBatchNormalization,
         .kernel = runBatchNormalization,
         .step = {.reviewed = true,
                  .change = "is_test removed: the outputs say the mode",
                  .up = dropIsTest,
                  .down = setIsTest,
                  .up_refuses = "is_test set on a node with the statistics outputs"}},
        {.since_version = 9,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("epsilon", 1e-05f), attr("momentum", 0.9f)},
         .constraints = kConstraints1,
         .output_counts = kOutputCounts1,
         .infer = inferBatchNormalization,
         .kernel = runBatchNormalization,
         .step = {.reviewed = true,
                  .change = "spatial removed (1: per channel); 1-D X allowed",
                  .up = dropSpatial,
                  .down = refuseOneDimensionalX,
                  .up_refuses = "spatial other than 1",
                  .down_refuses = "a 1-D X"}},
        {.since_version = 14,
         .inputs =
             {{"X", "T"}, {"scale", "T"}, {"B", "T"}, {"input_mean", "U"}, {"input_var", "U"}},
         .outputs = {{"Y", "T"}, optional("running_mean", "U"), optional("running_var", "U")},
         .attributes = kAttributes14,
         .constraints = {{"T", tensor("float16 float double bfloat16")},
                         {"U", tensor("float16 float double bfloat16")}},
         .output_counts = kOutputCounts14,
         .infer = inferBatchNormalization,
         .kernel = runBatchNormalization,
         .step = {.reviewed = true,
                  .change = "training_mode added; saved_mean and saved_var removed; mean and var "
                            "may differ from X in type; bfloat16 added",
                  .up = trainingModeFromOutputs,
                  .down = outputsFromTrainingMode,
                  .up_refuses = "nodes with saved_mean or saved_var",
                  .down_refuses = "training_mode other than 0; mean or var typed unlike X"}},
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
         .kernel = runBatchNormalization,
         .step = {.reviewed = true,
                  .change = "scale and B may differ from X in type",
                  .down = scaleAndBiasOfXType,
                  .down_refuses = "scale or B typed unlike X"}},
    }};
static_assert(isWellFormed(kBatchNormalization));

}  // namespace onyx::ops::ai_onnx
