// Not (ai.onnx), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runNot(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  if (x->type() != ElementType::kBool) return elementwise::unsupported(ctx, x->type());
  Array out(ElementType::kBool, x->shape());
  elementwise::unaryLoop(ctx, x->size(), x->data<bool>(), out.data<bool>(),
                         [](bool v) { return !v; });
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

extern const Operator kNot;
constexpr Operator kNot{.domain = kOnnxDomain,
                        .name = "Not",
                        .versions = {
                            {.since_version = 1,
                             .traits = kElementwise,
                             .inputs = {{"X", "T"}},
                             .outputs = {{"Y", "T"}},
                             .constraints = {{"T", tensor("bool")}},
                             .infer = inferSameShape,
                             .kernel = runNot},
                        }};
static_assert(isWellFormed(kNot));

}  // namespace onyx::ops::ai_onnx
