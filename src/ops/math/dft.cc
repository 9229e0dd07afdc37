// DFT (ai.onnx), versions 17, 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onyx/core/array.h"
#include "ops/math/math_shape.h"
#include "ops/math/signal_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The output has the input's shape [batch, signal dims..., 1 or 2] except along `axis`, which
// becomes dft_length (or floor(dft_length / 2) + 1 for a one-sided forward transform, or
// 2 * (n - 1) for a one-sided inverse one without dft_length), and the last axis: 1 for a
// one-sided inverse transform (a real signal), else 2 (complex).
void inferDFT(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  size_t rank = in->size();
  if (rank < 2) {
    ctx.fail("input has rank " + std::to_string(rank) +
             "; DFT needs a batch axis and the complex axis");
    return;
  }
  if (!constantInputIsScalar(ctx, 1) ||
      (ctx.schema().since_version >= 20 && !constantInputIsScalar(ctx, 2))) {
    return;
  }
  bool onesided = ctx.intAttribute("onesided").value_or(0) != 0;
  bool inverse = ctx.intAttribute("inverse").value_or(0) != 0;
  DimValue last = in->back();
  if (onesided && last.isKnown()) {
    int64_t wanted = inverse ? 2 : 1;
    if (last.value() != wanted) {
      ctx.fail(std::string("a one-sided ") + (inverse ? "inverse" : "forward") +
               " DFT needs a last axis of " + std::to_string(wanted) + ", not " +
               std::to_string(last.value()));
      return;
    }
  }
  SymbolicDims& dims = ctx.dims();
  Dims out = *in;
  out.back() = DimValue::known(onesided && inverse ? 1 : 2);
  std::optional<int64_t> axis;
  if (ctx.schema().since_version < 20) {
    axis = ctx.intAttribute("axis").value_or(1);
  } else if (!ctx.hasInput(2)) {
    axis = -2;
  } else if (std::optional<DimValue> data = scalarInputData(ctx, 2); data && data->isKnown()) {
    axis = data->value();
  }
  bool axis_changes = onesided || ctx.hasInput(1);
  if (!axis) {
    // Which axis changes is unknown: every signal axis might.
    if (axis_changes) {
      for (size_t i = 0; i + 1 < rank; ++i) out[i] = dims.fresh();
    }
    ctx.setOutputShape(0, std::move(out));
    return;
  }
  int64_t signed_rank = static_cast<int64_t>(rank);
  if (*axis < -signed_rank || *axis >= signed_rank - 1 || *axis == -1) {
    ctx.fail("axis " + std::to_string(*axis) + " is not a signal axis of an input of rank " +
             std::to_string(rank) + " (valid: [" + std::to_string(-signed_rank) + ", -2] and [0, " +
             std::to_string(signed_rank - 2) + "])");
    return;
  }
  size_t index = static_cast<size_t>(*axis < 0 ? *axis + signed_rank : *axis);
  auto halfPlusOne = [&](DimValue n) {
    return dims.add(dims.divideFloor(n, DimValue::known(2)), DimValue::known(1));
  };
  if (ctx.hasInput(1)) {
    std::optional<DimValue> length = scalarInputData(ctx, 1);
    if (!length || (length->isKnown() && length->value() < 0)) {
      out[index] = dims.fresh();
    } else {
      out[index] = onesided && !inverse ? halfPlusOne(*length) : *length;
    }
  } else if (onesided) {
    DimValue n = out[index];
    out[index] = inverse ? dims.multiply(DimValue::known(2), dims.subtract(n, DimValue::known(1)))
                         : halfPlusOne(n);
  }
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

constexpr Formals kOutputs17 = {{"output", "T1"}};

namespace {

Status runDft17(KernelContext& ctx) { return runDftKernel(ctx, false); }
Status runDft20(KernelContext& ctx) { return runDftKernel(ctx, true); }

// Up to version 20, where axis is an optional scalar input (default -2) in place of the
// attribute (default 1): the attribute's value, written out or default, becomes that input.
Status axisToInput(NodeDraft& draft) {
  int64_t axis = draft.intAttr("axis").value_or(1);
  draft.removeAttribute("axis");
  if (axis == -2) return Status::ok();
  Array scalar = Array::scalar<int64_t>(ElementType::kInt64, axis);
  draft.setConstantInput(2, draft.editor().tensorFromArray(scalar));
  return Status::ok();
}

// Down to version 17: the axis input, or its default -2, becomes the attribute.
Status axisToAttribute(NodeDraft& draft) {
  int64_t axis = -2;
  if (draft.hasInput(2)) {
    std::optional<std::vector<int64_t>> values = draft.constantIntegers(2);
    if (!values || values->size() != 1) return draft.refuse("axis is not a constant scalar");
    axis = (*values)[0];
  }
  draft.setIntAttr("axis", axis);
  draft.resizeInputs(draft.hasInput(1) ? 2 : 1);
  return Status::ok();
}

}  // namespace

extern const Operator kDFT;
constexpr Operator kDFT{
    .domain = kOnnxDomain,
    .name = "DFT",
    .versions = {
        {.since_version = 17,
         .inputs = {{"input", "T1"}, optional("dft_length", "T2")},
         .outputs = kOutputs17,
         .attributes = {attr("axis", 1), attr("inverse", 0), attr("onesided", 0)},
         .constraints = {{"T1", tensor("float16 float double bfloat16")},
                         {"T2", tensor("int32 int64")}},
         .infer = inferDFT,
         .kernel = runDft17},
        {.since_version = 20,
         .inputs = {{"input", "T1"},
                    optional("dft_length", "T2"),
                    optional("axis", "tensor(int64)")},
         .outputs = kOutputs17,
         .attributes = {attr("inverse", 0), attr("onesided", 0)},
         .constraints = {{"T1", tensor("bfloat16 float16 float double")},
                         {"T2", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferDFT,
         .kernel = runDft20,
         .step = {.reviewed = true,
                  .change = "axis became an input, its default 1 became -2",
                  .up = axisToInput,
                  .down = axisToAttribute,
                  .down_refuses = "axis not a constant"}},
    }};
static_assert(isWellFormed(kDFT));

}  // namespace onyx::ops::ai_onnx
