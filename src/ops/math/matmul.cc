// MatMul (ai.onnx), versions 1, 9, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>

#include "ops/kernels.h"
#include "ops/math/matmul_kernels.h"
#include "ops/matrix_multiply.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferMatMul(InferenceContext& ctx) { inferMatMulShape(ctx); }

// Batched matrix products with numpy's broadcasting of the batch dimensions: FLOAT (and the
// narrow float types, computed in FLOAT) through sgemm, the other types in the plain loop
// order (i, k, j). Rows are split across threads.
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
  if (bs[bs.size() - 2] != k) {
    return ctx.fail("inner dimensions differ (" + std::to_string(k) + " and " +
                    std::to_string(bs[bs.size() - 2]) + ")");
  }
  std::vector<int64_t> a_batch(as.begin(), as.end() - 2);
  std::vector<int64_t> b_batch(bs.begin(), bs.end() - 2);
  std::optional<std::vector<int64_t>> batch = broadcastShape(a_batch, b_batch);
  if (!batch) return ctx.fail("batch dimensions do not broadcast");
  std::vector<int64_t> shape = *batch;
  if (!drop_rows) shape.push_back(n);
  if (!drop_columns) shape.push_back(m);
  Array wa = widenToFloat(*a);
  Array wb = widenToFloat(*b);
  Result<Array> made = Array::allocate(wa.type(), shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  std::vector<size_t> ia = broadcastIndices(a_batch, *batch);
  std::vector<size_t> ib = broadcastIndices(b_batch, *batch);
  size_t rows = static_cast<size_t>(n), inner = static_cast<size_t>(k),
         cols = static_cast<size_t>(m);
  if (wa.type() == ElementType::kFloat) {
    for (size_t& offset : ia) offset *= rows * inner;
    for (size_t& offset : ib) offset *= inner * cols;
    multiplyFloatBatches(ctx, ia.size(), ia.data(), ib.data(), rows * cols, false, false, rows,
                         cols, inner, 1.0f, wa.data<float>(), inner, wb.data<float>(), cols, 0.0f,
                         out.data<float>(), cols);
    ctx.setOutput(0, narrowFromFloat(out, a->type()));
    return Status::ok();
  }
  bool ok = dispatchMatmul(wa.type(), [&]<class T>() {
    const T* x = wa.data<T>();
    const T* y = wb.data<T>();
    T* z = out.data<T>();
    size_t grain = std::max<size_t>(1, 32768 / std::max<size_t>(1, inner * cols));
    parallelFor(ctx, ia.size() * rows, grain, [&](size_t begin, size_t end) {
      while (begin < end) {
        size_t batch_index = begin / rows;
        size_t row = begin % rows;
        size_t stop = std::min(end - begin, rows - row) + row;
        matmulRows(x + ia[batch_index] * rows * inner, inner, 1, y + ib[batch_index] * inner * cols,
                   cols, 1, z + batch_index * rows * cols, inner, cols, row, stop);
        begin += stop - row;
      }
    });
  });
  if (!ok) return ctx.fail(std::string("no kernel for ") + std::string(elementTypeName(a->type())));
  ctx.setOutput(0, narrowFromFloat(out, a->type()));
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
         .kernel = runMatMul,
         .step = typesOnly("uint32, uint64, int32 and int64 added")},
        {.since_version = 13,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double uint32 uint64 int32 int64 bfloat16")}},
         .infer = inferMatMul,
         .kernel = runMatMul,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kMatMul));

}  // namespace onyx::ops::ai_onnx
