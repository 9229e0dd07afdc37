// Trilu (ai.onnx), versions 14.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/tensor_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kTrilu;
namespace {
// Output has the input's shape; the input is a batch of matrices (rank 2 or more), as
// onnx's Trilu inference requires (onnx/defs/tensor/defs.cc).
void inferTrilu(InferenceContext& ctx) {
  if (!inputRankWithin(ctx, 0, 2, kAnyRank)) return;
  inferSameShape(ctx);
}

Status runTrilu(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  if (data->rank() < 2) return ctx.fail("input must have rank 2 or more");
  int64_t k = 0;
  if (const Array* given = ctx.inputArray(1)) {
    std::optional<std::vector<int64_t>> values = integersOf(*given);
    if (!values || values->size() != 1) return ctx.fail("k must be one int64");
    k = values->front();
  }
  bool upper = ctx.intAttribute("upper").value_or(1) != 0;
  int64_t rows = data->shape()[data->rank() - 2];
  int64_t cols = data->shape().back();
  size_t matrices = rows * cols == 0 ? 0 : data->size() / static_cast<size_t>(rows * cols);
  // k beyond these keeps or clears every row alike.
  int64_t shift = std::clamp<int64_t>(k, -rows - 1, cols + 1);
  Array out(data->type(), data->shape());
  dispatchStorage(data->type(), [&]<class T>() {
    const T* in = elementsOf<T>(*data);
    T* result = elementsOf<T>(out);
    for (size_t m = 0; m < matrices; ++m) {
      for (int64_t i = 0; i < rows; ++i) {
        size_t row =
            (m * static_cast<size_t>(rows) + static_cast<size_t>(i)) * static_cast<size_t>(cols);
        // Kept: columns j >= i + k (upper) or j <= i + k (lower); split at `bound`.
        int64_t bound = std::clamp<int64_t>(i + shift + (upper ? 0 : 1), 0, cols);
        for (int64_t j = 0; j < cols; ++j) {
          bool keep = upper ? j >= bound : j < bound;
          result[row + static_cast<size_t>(j)] = keep ? in[row + static_cast<size_t>(j)] : T{};
        }
      }
    }
  });
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Operator kTrilu{
    .domain = kOnnxDomain,
    .name = "Trilu",
    .versions = {
        {.since_version = 14,
         .inputs = {{"input", "T"}, optional("k", "tensor(int64)")},
         .outputs = {{"output", "T"}},
         .attributes = {attr("upper", 1)},
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferTrilu,
         .kernel = runTrilu},
    }};
static_assert(isWellFormed(kTrilu));

}  // namespace onyx::ops::ai_onnx
