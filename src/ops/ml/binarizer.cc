// Binarizer (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

void inferBinarizer(InferenceContext& ctx) { inferSameShape(ctx); }

Status runBinarizer(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("X must be a tensor");
  double threshold = ctx.floatAttribute("threshold").value_or(0.0f);
  Array y(x->type(), x->shape());
  bool ok = dispatchNative(x->type(), [&]<class T>() {
    const T* in = x->data<T>();
    T* out = y.data<T>();
    for (size_t i = 0; i < x->size(); ++i) {
      out[i] = static_cast<double>(in[i]) > threshold ? T(1) : T(0);
    }
  });
  if (!ok) return ctx.fail("X must be float, double, int64 or int32");
  ctx.setOutput(0, std::move(y));
  return Status::ok();
}

}  // namespace

extern const Operator kBinarizer;
constexpr Operator kBinarizer{.domain = kMlDomain,
                              .name = "Binarizer",
                              .versions = {
                                  {.since_version = 1,
                                   .inputs = {{"X", "T"}},
                                   .outputs = {{"Y", "T"}},
                                   .attributes = {attr("threshold", 0.0f)},
                                   .constraints = {{"T", tensor("float double int64 int32")}},
                                   .infer = inferBinarizer,
                                   .kernel = runBinarizer},
                              }};
static_assert(isWellFormed(kBinarizer));

}  // namespace onyx::ops::ai_onnx_ml
