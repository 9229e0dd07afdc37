// Multinomial (ai.onnx), versions 7, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <limits>
#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"
#include "ops/kernels.h"
#include "ops/lib/generator_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// [batch, classes] → [batch, sample_size] of `dtype` (int32 by default).
void inferMultinomial(InferenceContext& ctx) {
  int64_t dtype = ctx.intAttribute("dtype").value_or(6);
  if (dtype > 0 && dtype < INT32_MAX) ctx.setOutputElemType(0, static_cast<int32_t>(dtype));
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  if (in->size() != 2) {
    ctx.fail("Multinomial needs an input of rank 2, not " + std::to_string(in->size()));
    return;
  }
  int64_t samples = ctx.intAttribute("sample_size").value_or(1);
  if (samples < 0) {
    ctx.fail("Multinomial's sample_size is negative (" + std::to_string(samples) + ")");
    return;
  }
  ctx.setOutputShape(0, {(*in)[0], DimValue::known(samples)});
}

// For each row of unnormalized log-probabilities, sample_size class indices drawn from their
// softmax (by inverting the cumulative distribution).
Status runMultinomial(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  if (x->rank() != 2) return ctx.fail("needs an input of rank 2, not " + std::to_string(x->rank()));
  int64_t samples = ctx.intAttribute("sample_size").value_or(1);
  if (samples < 0) return ctx.fail("sample_size is negative");
  int64_t dtype = ctx.intAttribute("dtype").value_or(6);
  if (dtype != static_cast<int64_t>(ElementType::kInt32) &&
      dtype != static_cast<int64_t>(ElementType::kInt64)) {
    return ctx.fail("dtype must be INT32 or INT64");
  }
  auto type = static_cast<ElementType>(dtype);
  int64_t batch = x->dim(0), classes = x->dim(1);
  if (classes == 0 && samples > 0 && batch > 0) return ctx.fail("there are no classes to draw");
  Result<Array> made = Array::allocate(type, {batch, samples});
  if (!made) return made.status();
  Array out = std::move(*made);
  generator::Random random = generator::Random::forNode(ctx);
  auto cls = static_cast<size_t>(classes);
  std::vector<double> cumulative(cls);
  for (size_t row = 0; row < static_cast<size_t>(batch); ++row) {
    double highest = -std::numeric_limits<double>::infinity();
    for (size_t c = 0; c < cls; ++c)
      highest = std::max(highest, elementAsDouble(*x, row * cls + c));
    double total = 0;
    for (size_t c = 0; c < cls; ++c) {
      total += std::exp(elementAsDouble(*x, row * cls + c) - highest);
      cumulative[c] = total;
    }
    if (!(total > 0) || std::isinf(total)) {
      return ctx.fail("row " + std::to_string(row) + " has no finite distribution");
    }
    for (size_t s = 0; s < static_cast<size_t>(samples); ++s) {
      double target = random.uniform() * total;
      size_t chosen = static_cast<size_t>(
          std::upper_bound(cumulative.begin(), cumulative.end(), target) - cumulative.begin());
      if (chosen >= cls) chosen = cls - 1;
      storeDouble(out, row * static_cast<size_t>(samples) + s, static_cast<double>(chosen));
    }
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs7 = {{"input", "T1"}};
constexpr Formals kOutputs7 = {{"output", "T2"}};
constexpr Attributes kAttributes7 = {attr("dtype", 6), attr("sample_size", 1),
                                     attr("seed", kFloat)};

extern const Operator kMultinomial;
constexpr Operator kMultinomial{
    .domain = kOnnxDomain,
    .name = "Multinomial",
    .versions = {
        {.since_version = 7,
         .traits = kNondeterministic,
         .inputs = kInputs7,
         .outputs = kOutputs7,
         .attributes = kAttributes7,
         .constraints = {{"T1", tensor("float16 float double")}, {"T2", tensor("int32 int64")}},
         .infer = inferMultinomial,
         .kernel = runMultinomial},
        {.since_version = 22,
         .traits = kNondeterministic,
         .inputs = kInputs7,
         .outputs = kOutputs7,
         .attributes = kAttributes7,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")},
                         {"T2", tensor("int32 int64")}},
         .infer = inferMultinomial,
         .kernel = runMultinomial,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kMultinomial));

}  // namespace onyx::ops::ai_onnx
