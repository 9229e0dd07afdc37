// MelWeightMatrix (ai.onnx), versions 17.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <string>
#include "ops/math/math_shape.h"
#include "ops/math/signal_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// A [floor(dft_length / 2) + 1, num_mel_bins] matrix of type output_datatype.
void inferMelWeightMatrix(InferenceContext& ctx) {
  int64_t output_type = ctx.intAttribute("output_datatype").value_or(1);
  if (!isTensorElemType(output_type)) {
    ctx.fail("output_datatype " + std::to_string(output_type) + " is not a tensor element type");
    return;
  }
  ctx.setOutputElemType(0, static_cast<int32_t>(output_type));
  SymbolicDims& dims = ctx.dims();
  auto nonNegative = [](const std::optional<DimValue>& v) {
    return v && (!v->isKnown() || v->value() >= 0);
  };
  if (!constantInputIsScalar(ctx, 0) || !constantInputIsScalar(ctx, 1)) return;
  std::optional<DimValue> mel_bins = scalarInputData(ctx, 0);
  std::optional<DimValue> dft_length = scalarInputData(ctx, 1);
  DimValue rows =
      nonNegative(dft_length)
          ? dims.add(dims.divideFloor(*dft_length, DimValue::known(2)), DimValue::known(1))
          : dims.fresh();
  DimValue columns = nonNegative(mel_bins) ? *mel_bins : dims.fresh();
  ctx.setOutputShape(0, {rows, columns});
}

}  // namespace

namespace {

Status runMelWeightMatrix(KernelContext& ctx) { return runMelWeightMatrixKernel(ctx); }

}  // namespace

extern const Operator kMelWeightMatrix;
constexpr Operator kMelWeightMatrix{
    .domain = kOnnxDomain,
    .name = "MelWeightMatrix",
    .versions = {
        {.since_version = 17,
         .inputs = {{"num_mel_bins", "T1"},
                    {"dft_length", "T1"},
                    {"sample_rate", "T1"},
                    {"lower_edge_hertz", "T2"},
                    {"upper_edge_hertz", "T2"}},
         .outputs = {{"output", "T3"}},
         .attributes = {attr("output_datatype", 1)},
         .constraints = {{"T1", tensor("int32 int64")},
                         {"T2", tensor("float float16 double bfloat16")},
                         {"T3", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                       "float double bfloat16")}},
         .infer = inferMelWeightMatrix,
         .kernel = runMelWeightMatrix},
    }};
static_assert(isWellFormed(kMelWeightMatrix));

}  // namespace onyx::ops::ai_onnx
