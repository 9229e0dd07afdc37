// LpNormalization (ai.onnx), versions 1, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/reduce_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferLpNormalization(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes1 = {attr("axis", -1), attr("p", 2)};

namespace {

// x / ||x||_p along `axis` (p 1 or 2), 0 where the norm is 0.
Status runLpNormalization(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  if (x->rank() == 0) return ctx.fail("needs an input of rank 1 or more");
  std::optional<size_t> axis = kernelAxis(ctx.intAttribute("axis").value_or(-1), x->rank());
  if (!axis) return ctx.fail("axis is out of range");
  int64_t p = ctx.intAttribute("p").value_or(2);
  if (p != 1 && p != 2) return ctx.fail("p must be 1 or 2");
  std::vector<bool> reduced(x->rank(), false);
  reduced[*axis] = true;
  ReducePlan plan = planReduce(x->shape(), reduced, true);
  Array wide = widenToFloat(*x);
  Array out(wide.type(), wide.shape());
  bool ok = dispatchFloat(wide.type(), [&]<class T>() {
    const T* in = wide.data<T>();
    T* result = out.data<T>();
    parallelFor(ctx, plan.bases.size(), 256, [&](size_t begin, size_t end) {
      for (size_t o = begin; o < end; ++o) {
        size_t base = plan.bases[o];
        double norm = 0;
        for (size_t off : plan.offsets) {
          double v = static_cast<double>(in[base + off]);
          norm += p == 1 ? std::fabs(v) : v * v;
        }
        if (p == 2) norm = std::sqrt(norm);
        for (size_t off : plan.offsets) {
          double v = static_cast<double>(in[base + off]);
          result[base + off] = static_cast<T>(norm == 0 ? 0.0 : v / norm);
        }
      }
    });
  });
  if (!ok) return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(out, x->type()));
  return Status::ok();
}

}  // namespace

extern const Operator kLpNormalization;
constexpr Operator kLpNormalization{
    .domain = kOnnxDomain,
    .name = "LpNormalization",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferLpNormalization,
         .kernel = runLpNormalization},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferLpNormalization,
         .kernel = runLpNormalization,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kLpNormalization));

}  // namespace onyx::ops::ai_onnx
