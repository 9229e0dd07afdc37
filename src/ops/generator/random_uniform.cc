// RandomUniform (ai.onnx), versions 1, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
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

// The `shape` attribute; the element type `dtype` (float by default).
void inferRandom(InferenceContext& ctx) {
  int64_t dtype = ctx.intAttribute("dtype").value_or(1);
  if (dtype > 0 && dtype < INT32_MAX) ctx.setOutputElemType(0, static_cast<int32_t>(dtype));
  std::optional<std::vector<int64_t>> shape = ctx.intsAttribute("shape");
  if (!shape) return;
  Dims out;
  out.reserve(shape->size());
  for (int64_t dim : *shape) {
    if (dim < 0) {
      ctx.fail("the shape has a negative dimension (" + std::to_string(dim) + ")");
      return;
    }
    out.push_back(DimValue::known(dim));
  }
  ctx.setOutputShape(0, std::move(out));
}

Status runRandomUniform(KernelContext& ctx) {
  std::vector<int64_t> shape = ctx.intsAttribute("shape").value_or(std::vector<int64_t>{});
  for (int64_t dim : shape) {
    if (dim < 0)
      return ctx.fail("the shape has a negative dimension (" + std::to_string(dim) + ")");
  }
  Result<ElementType> type = generator::randomType(ctx, ElementType::kFloat);
  if (!type) return type.status();
  double low = ctx.floatAttribute("low").value_or(0.0f);
  double high = ctx.floatAttribute("high").value_or(1.0f);
  Result<Array> made = Array::allocate(*type, shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  generator::Random random = generator::Random::forNode(ctx);
  for (size_t i = 0; i < out.size(); ++i)
    storeDouble(out, i, low + (high - low) * random.uniform());
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {attr("dtype", 1), attr("high", 1.0f), attr("low", 0.0f),
                                     attr("seed", kFloat), required("shape", kInts)};

extern const Operator kRandomUniform;
constexpr Operator kRandomUniform{
    .domain = kOnnxDomain,
    .name = "RandomUniform",
    .versions = {
        {.since_version = 1,
         .traits = kNondeterministic,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferRandom,
         .kernel = runRandomUniform},
        {.since_version = 22,
         .traits = kNondeterministic,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferRandom,
         .kernel = runRandomUniform,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kRandomUniform));

}  // namespace onyx::ops::ai_onnx
