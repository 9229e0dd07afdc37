// IsInf (ai.onnx), versions 10, 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Whether each element is infinite, of the signs the attributes select.
Status runIsInf(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  bool negative = ctx.intAttribute("detect_negative").value_or(1) != 0;
  bool positive = ctx.intAttribute("detect_positive").value_or(1) != 0;
  Array in = isNarrowFloat(x->type()) ? widenToFloat(*x) : *x;
  Array out(ElementType::kBool, x->shape());
  bool ok = dispatchFloat(in.type(), [&]<class T>() {
    elementwise::unaryLoop(ctx, in.size(), in.data<T>(), out.data<bool>(),
                           [=](T v) { return std::isinf(v) && (v > T(0) ? positive : negative); });
  });
  if (!ok) return elementwise::unsupported(ctx, x->type());
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs10 = {{"X", "T1"}};
constexpr Formals kOutputs10 = {{"Y", "T2"}};
constexpr Attributes kAttributes10 = {attr("detect_negative", 1), attr("detect_positive", 1)};

extern const Operator kIsInf;
constexpr Operator kIsInf{
    .domain = kOnnxDomain,
    .name = "IsInf",
    .versions = {
        {.since_version = 10,
         .traits = kElementwise,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes10,
         .constraints = {{"T1", tensor("float double")}, {"T2", tensor("bool")}},
         .infer = inferSameShape,
         .kernel = runIsInf},
        {.since_version = 20,
         .traits = kElementwise,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes10,
         .constraints = {{"T1", tensor("bfloat16 float16 float double float8e4m3fn float8e4m3fnuz "
                                       "float8e5m2 float8e5m2fnuz")},
                         {"T2", tensor("bool")}},
         .infer = inferSameShape,
         .kernel = runIsInf,
         .step = typesOnly("bfloat16, float16 and the float8 types added")},
    }};
static_assert(isWellFormed(kIsInf));

}  // namespace onyx::ops::ai_onnx
