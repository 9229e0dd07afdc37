// Where (ai.onnx), versions 9, 16.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// X where condition holds, else Y; the three broadcast together. Any element type: the
// elements are only moved.
Status runWhere(KernelContext& ctx) {
  const Array* condition = ctx.inputArray(0);
  const Array* x = ctx.inputArray(1);
  const Array* y = ctx.inputArray(2);
  if (condition == nullptr || x == nullptr || y == nullptr)
    return ctx.fail("needs three tensor inputs");
  if (condition->type() != ElementType::kBool) return ctx.fail("condition must be BOOL");
  if (x->type() != y->type()) return ctx.fail("X and Y have different element types");
  std::optional<elementwise::Broadcast> plan =
      elementwise::planBroadcast({&condition->shape(), &x->shape(), &y->shape()});
  if (!plan) return ctx.fail("the inputs' shapes do not broadcast");
  Result<Array> made = Array::allocate(x->type(), plan->shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  const bool* c = condition->data<bool>();
  if (x->isString()) {
    const std::vector<std::string>& a = x->strings();
    const std::vector<std::string>& b = y->strings();
    std::vector<std::string>& z = out.strings();
    const std::array<size_t, 3>& step = plan->inner_step;
    elementwise::walkBroadcast(
        *plan, 0, plan->count, [&](size_t o, size_t length, const std::array<size_t, 3>& off) {
          for (size_t i = 0; i < length; ++i) {
            z[o + i] = c[off[0] + i * step[0]] ? a[off[1] + i * step[1]] : b[off[2] + i * step[2]];
          }
        });
  } else {
    bool ok = elementwise::dispatchWidth(x->type(), [&]<class U>() {
      elementwise::ternaryLoop(ctx, *plan, c, x->data<U>(), y->data<U>(), out.data<U>(),
                               [](bool take, const U& a, const U& b) { return take ? a : b; });
    });
    if (!ok) return elementwise::unsupported(ctx, x->type());
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs9 = {{"condition", "B"}, {"X", "T"}, {"Y", "T"}};
constexpr Formals kOutputs9 = {{"output", "T"}};

extern const Operator kWhere;
constexpr Operator kWhere{.domain = kOnnxDomain,
                          .name = "Where",
                          .versions = {
                              {.since_version = 9,
                               .traits = kElementwise,
                               .inputs = kInputs9,
                               .outputs = kOutputs9,
                               .constraints = {{"B", tensor("bool")}, {"T", tensor(kIr3Types)}},
                               .infer = inferBroadcast,
                               .kernel = runWhere},
                              {.since_version = 16,
                               .traits = kElementwise,
                               .inputs = kInputs9,
                               .outputs = kOutputs9,
                               .constraints = {{"B", tensor("bool")}, {"T", tensor(kIr4Types)}},
                               .infer = inferBroadcast,
                               .kernel = runWhere,
                               .step = typesOnly("bfloat16 added")},
                          }};
static_assert(isWellFormed(kWhere));

}  // namespace onyx::ops::ai_onnx
