// ArrayFeatureExtractor (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/kernels.h"
#include "ops/ml/ml_shapes.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// The last axis becomes as long as there are indices. A 1-D X is left unknown: runtimes
// differ on whether the result is [k] or [1, k].
void inferArrayFeatureExtractor(InferenceContext& ctx) {
  const Dims* x = ctx.inputShape(0);
  const Dims* indices = ctx.inputShape(1);
  if (x == nullptr || x->size() < 2) return;
  Dims dims = *x;
  dims.back() = indices != nullptr ? productOf(ctx, *indices) : ctx.dims().fresh();
  ctx.setOutputShape(0, std::move(dims));
}

Status runArrayFeatureExtractor(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* indices = ctx.inputArray(1);
  if (x == nullptr || indices == nullptr || indices->type() != ElementType::kInt64) {
    return ctx.fail("needs a tensor X and int64 indices Y");
  }
  if (x->rank() == 0) return ctx.fail("X must have at least one axis");
  int64_t last = x->dim(x->rank() - 1);
  const int64_t* picks = indices->data<int64_t>();
  for (size_t k = 0; k < indices->size(); ++k) {
    if (picks[k] < 0 || picks[k] >= last) {
      return ctx.fail("index " + std::to_string(picks[k]) + " is outside [0, " +
                      std::to_string(last) + ")");
    }
  }
  std::vector<int64_t> shape = x->shape();
  if (shape.size() == 1) shape.insert(shape.begin(), 1);
  shape.back() = static_cast<int64_t>(indices->size());
  Result<Array> made = Array::allocate(x->type(), shape);
  if (!made) return made.status();
  Array z = std::move(*made);
  size_t rows = last == 0 ? 0 : x->size() / static_cast<size_t>(last);
  size_t width = indices->size();
  for (size_t row = 0; row < rows; ++row) {
    for (size_t k = 0; k < width; ++k) {
      copyElements(*x, row * static_cast<size_t>(last) + static_cast<size_t>(picks[k]), z,
                   row * width + k, 1);
    }
  }
  ctx.setOutput(0, std::move(z));
  return Status::ok();
}

}  // namespace

extern const Operator kArrayFeatureExtractor;
constexpr Operator kArrayFeatureExtractor{
    .domain = kMlDomain,
    .name = "ArrayFeatureExtractor",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T"}, {"Y", "tensor(int64)"}},
         .outputs = {{"Z", "T"}},
         .constraints = {{"T", tensor("float double int64 int32 string")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferArrayFeatureExtractor,
         .kernel = runArrayFeatureExtractor},
    }};
static_assert(isWellFormed(kArrayFeatureExtractor));

}  // namespace onyx::ops::ai_onnx_ml
