// LpPool (ai.onnx), versions 1, 2, 11, 18, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/kernels.h"
#include "ops/nn/pool_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferLpPool(InferenceContext& ctx) { inferPooling(ctx, true); }

// (sum of |x|^p over the taps inside the input)^(1/p); the padding adds nothing.
Status runLpPool(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  Result<nn::Window> window = nn::poolWindow(ctx, *x, true);
  if (!window) return window.status();
  const nn::Window& w = *window;
  double p = nn::poolP(ctx);
  if (!(p > 0)) return ctx.fail("p must be positive");
  Array xs = widenToFloat(*x);
  Result<Array> made = Array::allocate(xs.type(), nn::poolOutputShape(*x, w));
  if (!made) return made.status();
  Array y = std::move(*made);
  size_t planes = static_cast<size_t>(x->dim(0) * x->dim(1));
  size_t volume = w.imageVolume();
  size_t outputs = w.columnVolume();
  bool ok = dispatchFloat(xs.type(), [&]<class T>() {
    const T* in = xs.data<T>();
    T* out = y.data<T>();
    nn::forEachPoolWindow(ctx, w, planes, [&](size_t plane, size_t q, const nn::PoolTaps& taps) {
      const T* image = in + plane * volume;
      double sum = 0;
      taps.each([&](int64_t offset) {
        sum += std::pow(std::abs(static_cast<double>(image[offset])), p);
      });
      out[plane * outputs + q] = static_cast<T>(std::pow(sum, 1.0 / p));
    });
  });
  if (!ok) return ctx.fail("no kernel for " + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(y, x->type()));
  return Status::ok();
}

// Down to version 11: ceil_mode 0 and dilations of 1, the one behaviour it has.
Status dropCeilModeAndDilations(NodeDraft& draft) {
  if (draft.attribute("ceil_mode") != nullptr) {
    if (draft.intAttr("ceil_mode") != 0) {
      return draft.refuse("ceil_mode other than 0 has no form in version 11");
    }
    draft.removeAttribute("ceil_mode");
  }
  if (draft.attribute("dilations") != nullptr) {
    std::optional<std::vector<int64_t>> dilations = draft.intsAttr("dilations");
    if (!dilations || std::any_of(dilations->begin(), dilations->end(),
                                  [](int64_t dilation) { return dilation != 1; })) {
      return draft.refuse("dilations other than 1 have no form in version 11");
    }
    draft.removeAttribute("dilations");
  }
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes2 = {attr("auto_pad", "NOTSET"), required("kernel_shape", kInts),
                                     attr("p", 2), attr("pads", kInts), attr("strides", kInts)};
constexpr Attributes kAttributes18 = {
    attr("auto_pad", "NOTSET"),      attr("ceil_mode", 0), attr("dilations", kInts),
    required("kernel_shape", kInts), attr("p", 2),         attr("pads", kInts),
    attr("strides", kInts)};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kLpPool;
constexpr Operator kLpPool{
    .domain = kOnnxDomain,
    .name = "LpPool",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("auto_pad", "NOTSET"), attr("kernel_shape", kInts), attr("p", 2.0f),
                        attr("pads", kInts), attr("strides", kInts)},
         .constraints = kConstraints1,
         .infer = inferLpPool,
         .kernel = runLpPool},
        {.since_version = 2,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes2,
         .constraints = kConstraints1,
         .infer = inferLpPool,
         .kernel = runLpPool,
         .step = {.reviewed = true,
                  .change = "p became an int; kernel_shape became required",
                  .up = pToInt,
                  .down = pToFloat,
                  .up_refuses = "p not a whole number",
                  .down_refuses = "p beyond 2^24"}},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes2,
         .constraints = kConstraints1,
         .infer = inferLpPool,
         .kernel = runLpPool,
         .step = {.reviewed = true, .change = "strides default of 1 documented"}},
        {.since_version = 18,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes18,
         .constraints = kConstraints1,
         .infer = inferLpPool,
         .kernel = runLpPool,
         .step = {.reviewed = true,
                  .change = "ceil_mode and dilations added (0 and 1: as before)",
                  .down = dropCeilModeAndDilations,
                  .down_refuses = "ceil_mode other than 0, dilations other than 1"}},
        {.since_version = 22,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes18,
         .constraints = {{"T", tensor("bfloat16 float16 float double")}},
         .infer = inferLpPool,
         .kernel = runLpPool,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kLpPool));

}  // namespace onyx::ops::ai_onnx
