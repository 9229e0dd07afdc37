// RandomNormalLike (ai.onnx), versions 1, 22.
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

// The input's shape; the element type `dtype`, else the input's.
void inferRandomLike(InferenceContext& ctx) {
  std::optional<int64_t> dtype = ctx.intAttribute("dtype");
  int32_t elem_type = dtype && *dtype > 0 && *dtype < INT32_MAX ? static_cast<int32_t>(*dtype)
                                                                : ctx.inputElemType(0);
  if (elem_type != 0) ctx.setOutputElemType(0, elem_type);
  if (const Dims* in = ctx.inputShape(0)) ctx.setOutputShape(0, *in);
}

Status runRandomNormalLike(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  std::vector<int64_t> shape = x->shape();
  Result<ElementType> type = generator::randomType(ctx, x->type());
  if (!type) return type.status();
  double mean = ctx.floatAttribute("mean").value_or(0.0f);
  double scale = ctx.floatAttribute("scale").value_or(1.0f);
  Result<Array> made = Array::allocate(*type, shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  generator::Random random = generator::Random::forNode(ctx);
  for (size_t i = 0; i < out.size(); ++i) storeDouble(out, i, mean + scale * random.normal());
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"input", "T1"}};
constexpr Formals kOutputs1 = {{"output", "T2"}};
constexpr Attributes kAttributes1 = {attr("dtype", kInt), attr("mean", 0.0f), attr("scale", 1.0f),
                                     attr("seed", kFloat)};

extern const Operator kRandomNormalLike;
constexpr Operator kRandomNormalLike{
    .domain = kOnnxDomain,
    .name = "RandomNormalLike",
    .versions = {
        {.since_version = 1,
         .traits = kNondeterministic,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T1", tensor(kIr3Types)}, {"T2", tensor("float16 float double")}},
         .infer = inferRandomLike,
         .kernel = runRandomNormalLike},
        {.since_version = 22,
         .traits = kNondeterministic,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T1", tensor(kIr4Types)},
                         {"T2", tensor("bfloat16 float16 float double")}},
         .infer = inferRandomLike,
         .kernel = runRandomNormalLike,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kRandomNormalLike));

}  // namespace onyx::ops::ai_onnx
