// QLinearMatMul (ai.onnx), versions 10, 21.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <vector>
#include "ops/kernels.h"
#include "ops/lib/quantization_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The product of `a` (input 0) and `b` (input 3); the rest are scales and zero points.
void inferQLinearMatMul(InferenceContext& ctx) { inferMatMulShape(ctx, 0, 3); }

// As the reference computes: the integer product times (a_scale * b_scale / y_scale) (in the
// scales' type), plus y_zero_point, rounded to nearest even and saturated.
Status runQLinearMatMul(KernelContext& ctx) {
  const Array* a = ctx.inputArray(0);
  const Array* a_scale = ctx.inputArray(1);
  const Array* a_zero = ctx.inputArray(2);
  const Array* b = ctx.inputArray(3);
  const Array* b_scale = ctx.inputArray(4);
  const Array* b_zero = ctx.inputArray(5);
  const Array* y_scale = ctx.inputArray(6);
  const Array* y_zero = ctx.inputArray(7);
  if (a == nullptr || a_scale == nullptr || b == nullptr || b_scale == nullptr ||
      y_scale == nullptr) {
    return ctx.fail("needs a, a_scale, b, b_scale and y_scale");
  }
  ElementType out_type = y_zero != nullptr ? y_zero->type() : a->type();
  std::optional<std::pair<double, double>> range = quant::integerRange(out_type);
  if (!range) return ctx.fail(std::string(elementTypeName(out_type)) + " is not a quantized type");
  Result<quant::MatrixProduct> product = quant::matrixProduct(ctx, *a, *b);
  if (!product) return product.status();
  // Each scale goes with its zero point: per tensor, per row of a, per column of b; y's per
  // tensor (or per column of the result).
  using quant::MatrixParameter;
  using Side = MatrixParameter::Side;
  struct Input {
    const char* name;
    const Array* value;
    Side side;
  };
  const Input inputs[] = {
      {"a_scale", a_scale, Side::kRows},    {"a_zero_point", a_zero, Side::kRows},
      {"b_scale", b_scale, Side::kColumns}, {"b_zero_point", b_zero, Side::kColumns},
      {"y_scale", y_scale, Side::kResult},  {"y_zero_point", y_zero, Side::kResult}};
  std::vector<MatrixParameter> parameters;
  for (const Input& input : inputs) {
    Result<MatrixParameter> made =
        MatrixParameter::of(ctx, input.name, input.value, input.side, *product);
    if (!made) return made.status();
    parameters.push_back(std::move(*made));
  }
  const MatrixParameter &as = parameters[0], &az = parameters[1], &bs = parameters[2],
                        &bz = parameters[3], &ys = parameters[4], &yz = parameters[5];
  ElementType scale_type = a_scale->type();
  auto then = [&](size_t batch, size_t row, size_t column, int32_t sum) {
    double scales =
        quant::roundTo(as.at(batch, row, column) * bs.at(batch, row, column), scale_type);
    double multiplier = quant::roundTo(scales / ys.at(batch, row, column), scale_type);
    double value = static_cast<double>(sum) * multiplier + yz.at(batch, row, column);
    return std::clamp(std::nearbyint(value), range->first, range->second);
  };
  Result<Array> out = quant::integerMatMul(ctx, *a, *b, *product, az, bz, out_type, then);
  if (!out) return out.status();
  ctx.setOutput(0, std::move(*out));
  return Status::ok();
}

}  // namespace

constexpr TypeSet kT1Types21 =
    tensor("int8 uint8 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz");
constexpr Formals kOutputs10 = {{"y", "T3"}};

extern const Operator kQLinearMatMul;
constexpr Operator kQLinearMatMul{
    .domain = kOnnxDomain,
    .name = "QLinearMatMul",
    .versions = {
        {.since_version = 10,
         .inputs = {{"a", "T1"},
                    {"a_scale", "tensor(float)"},
                    {"a_zero_point", "T1"},
                    {"b", "T2"},
                    {"b_scale", "tensor(float)"},
                    {"b_zero_point", "T2"},
                    {"y_scale", "tensor(float)"},
                    {"y_zero_point", "T3"}},
         .outputs = kOutputs10,
         .constraints = {{"T1", tensor("int8 uint8")},
                         {"T2", tensor("int8 uint8")},
                         {"T3", tensor("int8 uint8")},
                         {"tensor(float)", tensor("float")}},
         .infer = inferQLinearMatMul,
         .kernel = runQLinearMatMul},
        {.since_version = 21,
         .inputs = {{"a", "T1"},
                    {"a_scale", "TS"},
                    {"a_zero_point", "T1"},
                    {"b", "T2"},
                    {"b_scale", "TS"},
                    {"b_zero_point", "T2"},
                    {"y_scale", "TS"},
                    {"y_zero_point", "T3"}},
         .outputs = kOutputs10,
         .constraints = {{"TS", tensor("float float16 bfloat16")},
                         {"T1", kT1Types21},
                         {"T2", kT1Types21},
                         {"T3", kT1Types21}},
         .infer = inferQLinearMatMul,
         .kernel = runQLinearMatMul,
         .step = typesOnly("float16 and bfloat16 scales, float8 types added")},
    }};
static_assert(isWellFormed(kQLinearMatMul));

}  // namespace onyx::ops::ai_onnx
