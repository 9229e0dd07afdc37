// STFT (ai.onnx), versions 17.
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

// The output is [batch, frames, bins, 2] for a signal [batch, signal_length, 1 or 2]: frames =
// floor((signal_length - frame_length) / frame_step) + 1, bins = frame_length, or
// floor(frame_length / 2) + 1 when one-sided. The frame length is input 3's value or the
// window's length; the rank is 4 even when none of these is known.
void inferSTFT(InferenceContext& ctx) {
  SymbolicDims& dims = ctx.dims();
  const Dims* signal = ctx.inputShape(0);
  if (signal != nullptr && signal->size() < 2) {
    ctx.fail("signal has rank " + std::to_string(signal->size()) +
             "; STFT needs [batch, signal_length, 1 or 2]");
    return;
  }
  const Dims* window = ctx.inputShape(2);
  if (window != nullptr && window->size() != 1) {
    ctx.fail("window has rank " + std::to_string(window->size()) + "; it needs to be a vector");
    return;
  }
  if (!constantInputIsScalar(ctx, 3)) return;
  std::optional<DimValue> frame_length;
  if (ctx.hasInput(3)) frame_length = scalarInputData(ctx, 3);
  if (frame_length && window != nullptr && frame_length->isKnown() && (*window)[0].isKnown() &&
      frame_length->value() != (*window)[0].value()) {
    ctx.fail("frame_length is " + std::to_string(frame_length->value()) + " but the window has " +
             std::to_string((*window)[0].value()) + " elements");
    return;
  }
  if (!frame_length && window != nullptr) frame_length = (*window)[0];
  if (frame_length && frame_length->isKnown() && frame_length->value() < 0) frame_length.reset();

  DimValue batch = signal != nullptr ? (*signal)[0] : dims.fresh();
  DimValue frames = dims.fresh();
  std::optional<DimValue> step = scalarInputData(ctx, 1);
  if (signal != nullptr && frame_length && step && step->isKnown() && step->value() > 0) {
    DimValue span = dims.subtract((*signal)[1], *frame_length);
    if (!span.isKnown() || span.value() >= 0) {
      frames = dims.add(dims.divideFloor(span, *step), DimValue::known(1));
    }
  }
  DimValue bins = dims.fresh();
  if (frame_length) {
    bool onesided = ctx.intAttribute("onesided").value_or(1) != 0;
    bins = onesided
               ? dims.add(dims.divideFloor(*frame_length, DimValue::known(2)), DimValue::known(1))
               : *frame_length;
  }
  ctx.setOutputShape(0, {batch, frames, bins, DimValue::known(2)});
}

}  // namespace

namespace {

Status runSTFT(KernelContext& ctx) { return runStftKernel(ctx); }

}  // namespace

extern const Operator kSTFT;
constexpr Operator kSTFT{.domain = kOnnxDomain,
                         .name = "STFT",
                         .versions = {
                             {.since_version = 17,
                              .inputs = {{"signal", "T1"},
                                         {"frame_step", "T2"},
                                         optional("window", "T1"),
                                         optional("frame_length", "T2")},
                              .outputs = {{"output", "T1"}},
                              .attributes = {attr("onesided", 1)},
                              .constraints = {{"T1", tensor("float float16 double bfloat16")},
                                              {"T2", tensor("int32 int64")}},
                              .infer = inferSTFT,
                              .kernel = runSTFT},
                         }};
static_assert(isWellFormed(kSTFT));

}  // namespace onyx::ops::ai_onnx
