// MatMulInteger (ai.onnx), versions 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/kernels.h"
#include "ops/lib/quantization_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferMatMulInteger(InferenceContext& ctx) { inferMatMulShape(ctx, 0, 1); }

// (A - a_zero_point) @ (B - b_zero_point) in int32, the zero points per tensor, per row of A
// or per column of B (MatrixParameter).
Status runMatMulInteger(KernelContext& ctx) {
  const Array* a = ctx.inputArray(0);
  const Array* b = ctx.inputArray(1);
  if (a == nullptr || b == nullptr) return ctx.fail("needs A and B");
  Result<quant::MatrixProduct> product = quant::matrixProduct(ctx, *a, *b);
  if (!product) return product.status();
  using quant::MatrixParameter;
  Result<MatrixParameter> a_zero = MatrixParameter::of(ctx, "a_zero_point", ctx.inputArray(2),
                                                       MatrixParameter::Side::kRows, *product);
  if (!a_zero) return a_zero.status();
  Result<MatrixParameter> b_zero = MatrixParameter::of(ctx, "b_zero_point", ctx.inputArray(3),
                                                       MatrixParameter::Side::kColumns, *product);
  if (!b_zero) return b_zero.status();
  if (quant::isByteProduct(*a, *b, *a_zero, *b_zero)) {
    // The sums are the result: no conversion of each through `then`.
    Result<Array> made = Array::allocate(ElementType::kInt32, product->result);
    if (!made) return made.status();
    quant::byteMatMulSums(ctx, *a, *b, *product, *a_zero, *b_zero, made->data<int32_t>());
    ctx.setOutput(0, std::move(*made));
    return Status::ok();
  }
  Result<Array> out = quant::integerMatMul(
      ctx, *a, *b, *product, *a_zero, *b_zero, ElementType::kInt32,
      [](size_t, size_t, size_t, int32_t sum) { return static_cast<double>(sum); });
  if (!out) return out.status();
  ctx.setOutput(0, std::move(*out));
  return Status::ok();
}

}  // namespace

extern const Operator kMatMulInteger;
constexpr Operator kMatMulInteger{.domain = kOnnxDomain,
                                  .name = "MatMulInteger",
                                  .versions = {
                                      {.since_version = 10,
                                       .inputs = {{"A", "T1"},
                                                  {"B", "T2"},
                                                  optional("a_zero_point", "T1"),
                                                  optional("b_zero_point", "T2")},
                                       .outputs = {{"Y", "T3"}},
                                       .constraints = {{"T1", tensor("int8 uint8")},
                                                       {"T2", tensor("int8 uint8")},
                                                       {"T3", tensor("int32")}},
                                       .infer = inferMatMulInteger,
                                       .kernel = runMatMulInteger},
                                  }};
static_assert(isWellFormed(kMatMulInteger));

}  // namespace onyx::ops::ai_onnx
