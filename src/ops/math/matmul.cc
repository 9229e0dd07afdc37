// MatMul (ai.onnx), versions 1, 9, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/kernels.h"
#include "ops/matrix_multiply.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferMatMul(InferenceContext& ctx) { inferMatMulShape(ctx); }

// Batched matrix products: float through sgemm, the other types in the natural loop order
// (i, k, j).
Status runMatMul(KernelContext& ctx) {
  const Array* a = ctx.inputArray(0);
  const Array* b = ctx.inputArray(1);
  if (a == nullptr || b == nullptr || a->rank() == 0 || b->rank() == 0) {
    return ctx.fail("needs two tensors of rank 1 or more");
  }
  if (a->type() != b->type()) return ctx.fail("inputs of different element types");
  std::vector<int64_t> as = a->shape();
  std::vector<int64_t> bs = b->shape();
  bool drop_rows = as.size() == 1;
  bool drop_columns = bs.size() == 1;
  if (drop_rows) as.insert(as.begin(), 1);
  if (drop_columns) bs.push_back(1);
  int64_t n = as[as.size() - 2];
  int64_t k = as.back();
  int64_t m = bs.back();
  if (bs[bs.size() - 2] != k) return ctx.fail("inner dimensions differ");
  std::vector<int64_t> a_batch(as.begin(), as.end() - 2);
  std::vector<int64_t> b_batch(bs.begin(), bs.end() - 2);
  std::optional<std::vector<int64_t>> batch = broadcastShape(a_batch, b_batch);
  if (!batch) return ctx.fail("batch dimensions do not broadcast");
  std::vector<size_t> ia = broadcastIndices(a_batch, *batch);
  std::vector<size_t> ib = broadcastIndices(b_batch, *batch);
  std::vector<int64_t> shape = *batch;
  if (!drop_rows) shape.push_back(n);
  if (!drop_columns) shape.push_back(m);
  Result<Array> made = Array::allocate(a->type(), shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  auto multiply = [&]<class T>() {
    const T* x = a->data<T>();
    const T* y = b->data<T>();
    T* z = out.data<T>();
    size_t nk = static_cast<size_t>(n * k), km = static_cast<size_t>(k * m),
           nm = static_cast<size_t>(n * m);
    for (size_t batch_index = 0; batch_index < ia.size(); ++batch_index) {
      const T* xa = x + ia[batch_index] * nk;
      const T* yb = y + ib[batch_index] * km;
      T* zc = z + batch_index * nm;
      std::fill(zc, zc + nm, T(0));
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t p = 0; p < k; ++p) {
          T scale = xa[i * k + p];
          for (int64_t j = 0; j < m; ++j) zc[i * m + j] += scale * yb[p * m + j];
        }
      }
    }
  };
  if (a->type() == ElementType::kFloat) {
    size_t nk = static_cast<size_t>(n * k), km = static_cast<size_t>(k * m),
           nm = static_cast<size_t>(n * m);
    for (size_t batch_index = 0; batch_index < ia.size(); ++batch_index) {
      multiplyFloat(ctx, false, false, static_cast<size_t>(n), static_cast<size_t>(m),
                    static_cast<size_t>(k), 1.0f, a->data<float>() + ia[batch_index] * nk,
                    static_cast<size_t>(k), b->data<float>() + ib[batch_index] * km,
                    static_cast<size_t>(m), 0.0f, out.data<float>() + batch_index * nm,
                    static_cast<size_t>(m));
    }
  } else if (a->type() == ElementType::kDouble) {
    multiply.template operator()<double>();
  } else if (a->type() == ElementType::kInt32) {
    multiply.template operator()<int32_t>();
  } else if (a->type() == ElementType::kInt64) {
    multiply.template operator()<int64_t>();
  } else {
    return ctx.fail("no kernel for this element type yet");
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};

extern const Operator kMatMul;
constexpr Operator kMatMul{
    .domain = kOnnxDomain,
    .name = "MatMul",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferMatMul,
         .kernel = runMatMul},
        {.since_version = 9,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double uint32 uint64 int32 int64")}},
         .infer = inferMatMul,
         .kernel = runMatMul},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double uint32 uint64 int32 int64 bfloat16")}},
         .infer = inferMatMul,
         .kernel = runMatMul},
    }};
static_assert(isWellFormed(kMatMul));

}  // namespace onyx::ops::ai_onnx
