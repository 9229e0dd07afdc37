// Bernoulli (ai.onnx), versions 15, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "onyx/ir/tensor.h"
#include "ops/body_text.h"
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

// Each output element is 1 with the probability the input element gives, else 0, in `dtype`
// (by default the input's type), as the spec says. (onnx's function body, Cast(Greater(
// RandomUniformLike(input), input)), gives 1 with probability 1 - p; the kernel runs instead
// of it.) The conformance cases' values are numpy draws nothing reproduces: their test checks
// types and shapes only.
Status runBernoulli(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  ElementType type = x->type();
  if (std::optional<int64_t> dtype = ctx.intAttribute("dtype")) {
    const ElementTypeInfo* info =
        *dtype > 0 && *dtype <= INT32_MAX ? elementTypeInfo(static_cast<int32_t>(*dtype)) : nullptr;
    if (info == nullptr || info->type == ElementType::kString || info->isComplex()) {
      return ctx.fail("dtype " + std::to_string(*dtype) + " is not a numeric element type");
    }
    type = info->type;
  }
  Array out(type, x->shape());
  generator::Random random = generator::Random::forNode(ctx);
  for (size_t i = 0; i < x->size(); ++i) {
    double p = elementAsDouble(*x, i);
    if (!(p >= 0 && p <= 1)) return ctx.fail("a probability is outside [0, 1]");
    // numpy's binomial(1, p) by inversion, as the reference draws it: one uniform u, and 1
    // when u > 1 - p (p <= 0.5), else when u <= p.
    double u = random.uniform();
    bool one = p <= 0.5 ? u > 1.0 - p : u <= p;
    storeDouble(out, i, one ? 1.0 : 0.0);
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs15 = {{"input", "T1"}};
constexpr Formals kOutputs15 = {{"output", "T2"}};
constexpr Attributes kAttributes15 = {attr("dtype", kInt), attr("seed", kFloat)};

namespace {

// Bernoulli as the spec defines it: a uniform sample above the probability, cast to `dtype`
// (by default the input's type). The sample needs the input's element type.
Result<std::string> buildBernoulli(const FunctionBodyContext& context) {
  Result<int32_t> input_type = body::requireElementType(context, 0);
  if (!input_type) return input_type.status();
  int64_t dtype = context.intAttr("dtype").value_or(*input_type);
  body::BodyText out(context, "Bernoulli");
  out.addf(
         "sample = RandomUniformLike <low = 0.0, high = 1.0, seed: float = @seed, dtype = {}> "
         "(input)",
         *input_type)
      .add("hit = Greater (sample, input)")
      .addf("output = Cast <to = {}> (hit)", dtype);
  return out.finish();
}

}  // namespace

extern const Operator kBernoulli;
constexpr Operator kBernoulli{
    .domain = kOnnxDomain,
    .name = "Bernoulli",
    .versions = {
        {.since_version = 15,
         .traits = kNondeterministic,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .attributes = kAttributes15,
         .constraints = {{"T1", tensor("float16 float double")},
                         {"T2", tensor("float16 float double bfloat16 uint8 uint16 uint32 uint64 "
                                       "int8 int16 int32 int64 bool")}},
         .build_function_body = buildBernoulli,
         .infer = inferRandomLike,
         .kernel = runBernoulli},
        {.since_version = 22,
         .traits = kNondeterministic,
         .inputs = kInputs15,
         .outputs = kOutputs15,
         .attributes = kAttributes15,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")},
                         {"T2", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 bfloat16 "
                                       "float16 float double bool")}},
         .build_function_body = buildBernoulli,
         .infer = inferRandomLike,
         .kernel = runBernoulli,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kBernoulli));

}  // namespace onyx::ops::ai_onnx
