// LRN (ai.onnx), versions 1, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/real_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferLRN(InferenceContext& ctx) { inferSameShape(ctx); }

// y = x / (bias + alpha / size * (sum of x^2 over the channels c - floor((size - 1) / 2) ..
// c + ceil((size - 1) / 2)))^beta.
Status runLRN(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor X");
  if (!isRealType(x->type())) return ctx.fail("X must be a floating-point tensor");
  if (x->rank() < 2) return ctx.fail("X must have rank 2 or more");
  const int64_t size = ctx.intAttribute("size").value_or(0);
  if (size <= 0) return ctx.fail("size must be positive");
  const double alpha = ctx.floatAttribute("alpha").value_or(0.0001f);
  const double beta = ctx.floatAttribute("beta").value_or(0.75f);
  const double bias = ctx.floatAttribute("bias").value_or(1.0f);
  const int64_t batch = x->dim(0);
  const int64_t channels = x->dim(1);
  const size_t spatial = productOf(x->shape(), 2, x->rank());
  const int64_t before = (size - 1) / 2;
  const int64_t after = size - 1 - before;
  const std::vector<double> in = realsOf(*x);
  std::vector<double> out(in.size());
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      const int64_t first = std::max<int64_t>(0, c - before);
      const int64_t last = std::min<int64_t>(channels - 1, c + after);
      for (size_t i = 0; i < spatial; ++i) {
        double sum = 0;
        for (int64_t k = first; k <= last; ++k) {
          double v = in[static_cast<size_t>(n * channels + k) * spatial + i];
          sum += v * v;
        }
        size_t at = static_cast<size_t>(n * channels + c) * spatial + i;
        out[at] = in[at] / std::pow(bias + alpha / static_cast<double>(size) * sum, beta);
      }
    }
  }
  ctx.setOutput(0, arrayOfReals(out, x->shape(), x->type()));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes1 = {attr("alpha", 0.0001f), attr("beta", 0.75f),
                                     attr("bias", 1.0f), required("size", kInt)};

extern const Operator kLRN;
constexpr Operator kLRN{.domain = kOnnxDomain,
                        .name = "LRN",
                        .versions = {
                            {.since_version = 1,
                             .inputs = kInputs1,
                             .outputs = kOutputs1,
                             .attributes = kAttributes1,
                             .constraints = {{"T", tensor("float16 float double")}},
                             .infer = inferLRN,
                             .kernel = runLRN},
                            {.since_version = 13,
                             .inputs = kInputs1,
                             .outputs = kOutputs1,
                             .attributes = kAttributes1,
                             .constraints = {{"T", tensor("float16 float double bfloat16")}},
                             .infer = inferLRN,
                             .kernel = runLRN,
                             .step = typesOnly("bfloat16 added")},
                        }};
static_assert(isWellFormed(kLRN));

}  // namespace onyx::ops::ai_onnx
