// IsNaN (ai.onnx), versions 9, 13, 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runIsNaN(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  Array in = isNarrowFloat(x->type()) ? widenToFloat(*x) : *x;
  Array out(ElementType::kBool, x->shape());
  bool ok = dispatchFloat(in.type(), [&]<class T>() {
    elementwise::unaryLoop(ctx, in.size(), in.data<T>(), out.data<bool>(),
                           [](T v) { return std::isnan(v); });
  });
  if (!ok) return elementwise::unsupported(ctx, x->type());
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs9 = {{"X", "T1"}};
constexpr Formals kOutputs9 = {{"Y", "T2"}};

extern const Operator kIsNaN;
constexpr Operator kIsNaN{
    .domain = kOnnxDomain,
    .name = "IsNaN",
    .versions = {
        {.since_version = 9,
         .traits = kElementwise,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints = {{"T1", tensor("float16 float double")}, {"T2", tensor("bool")}},
         .infer = inferSameShape,
         .kernel = runIsNaN},
        {.since_version = 13,
         .traits = kElementwise,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints = {{"T1", tensor("float16 float double bfloat16")}, {"T2", tensor("bool")}},
         .infer = inferSameShape,
         .kernel = runIsNaN,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 20,
         .traits = kElementwise,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints = {{"T1", tensor("bfloat16 float16 float double float8e4m3fn float8e4m3fnuz "
                                       "float8e5m2 float8e5m2fnuz")},
                         {"T2", tensor("bool")}},
         .infer = inferSameShape,
         .kernel = runIsNaN,
         .step = typesOnly("float8 types added")},
    }};
static_assert(isWellFormed(kIsNaN));

}  // namespace onyx::ops::ai_onnx
