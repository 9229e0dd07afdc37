// BitwiseNot (ai.onnx), versions 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runBitwiseNot(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  Array out(x->type(), x->shape());
  bool ok = dispatchInteger(x->type(), [&]<class T>() {
    elementwise::unaryLoop(ctx, x->size(), x->data<T>(), out.data<T>(),
                           [](T v) { return static_cast<T>(~v); });
  });
  if (!ok) return elementwise::unsupported(ctx, x->type());
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

extern const Operator kBitwiseNot;
constexpr Operator kBitwiseNot{
    .domain = kOnnxDomain,
    .name = "BitwiseNot",
    .versions = {
        {.since_version = 18,
         .traits = kElementwise,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "T"}},
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64")}},
         .infer = inferSameShape,
         .kernel = runBitwiseNot},
    }};
static_assert(isWellFormed(kBitwiseNot));

}  // namespace onyx::ops::ai_onnx
