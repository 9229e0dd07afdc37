// Resize (ai.onnx), versions 10, 11, 13, 18, 19.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cmath>

#include "ops/schema_dsl.h"
#include "ops/tensor/tensor_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Resize-10 takes scales as input 1; Resize-11 and later roi, scales, sizes as inputs 1-3,
// and from 18 an `axes` attribute that the scales and sizes refer to, and
// keep_aspect_ratio_policy for sizes.
void inferResize(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  int since = ctx.schema().since_version;
  size_t rank = in->size();
  std::vector<size_t> axes(rank);
  for (size_t i = 0; i < rank; ++i) axes[i] = i;
  if (since >= 18) {
    if (std::optional<std::vector<int64_t>> given = ctx.intsAttribute("axes")) {
      std::optional<std::vector<size_t>> normalized = normalizeAxes(ctx, *given, rank);
      if (!normalized) return;
      axes = std::move(*normalized);
    }
  }
  size_t scales_input = since == 10 ? 1 : 2;
  const Dims* sizes = since >= 11 ? ctx.inputData(3) : nullptr;
  std::optional<std::vector<double>> scales = inputNumbers(ctx, scales_input);
  // An empty scales tensor stands for "not given" in versions 11 and 13.
  if (scales && scales->empty()) scales.reset();
  bool scales_given = ctx.hasInput(scales_input) && !(scales && scales->empty());
  if (const Dims* shape = ctx.inputShape(scales_input);
      shape != nullptr && shape->size() == 1 && shape->front().is(0)) {
    scales_given = false;
  }
  Dims out = *in;
  if (sizes != nullptr) {
    if (sizes->size() != axes.size()) {
      ctx.fail("Resize has " + std::to_string(sizes->size()) + " sizes for " +
               std::to_string(axes.size()) + " axes");
      return;
    }
    std::string_view policy = since >= 18
                                  ? ctx.stringAttribute("keep_aspect_ratio_policy").value_or("")
                                  : std::string_view("stretch");
    if (policy == "not_larger" || policy == "not_smaller") {
      // A flag beside a plain double: g++ 12 misreads std::optional<double> here as
      // maybe-uninitialised at -O2.
      double scale = 0;
      bool have_scale = false;
      bool scale_known = true;
      for (size_t i = 0; i < axes.size(); ++i) {
        DimValue size = (*sizes)[i];
        DimValue from = (*in)[axes[i]];
        if (!size.isKnown() || !from.isKnown() || from.value() == 0) {
          scale_known = false;
          break;
        }
        double ratio = static_cast<double>(size.value()) / static_cast<double>(from.value());
        if (!have_scale) {
          scale = ratio;
          have_scale = true;
        } else {
          scale = policy == "not_larger" ? std::min(scale, ratio) : std::max(scale, ratio);
        }
      }
      scale_known = scale_known && have_scale;
      for (size_t i = 0; i < axes.size(); ++i) {
        DimValue from = (*in)[axes[i]];
        out[axes[i]] = scale_known && from.isKnown()
                           ? DimValue::known(static_cast<int64_t>(
                                 std::floor(scale * static_cast<double>(from.value()) + 0.5)))
                           : ctx.dims().fresh();
      }
    } else {
      for (size_t i = 0; i < axes.size(); ++i) out[axes[i]] = (*sizes)[i];
    }
    ctx.setOutputShape(0, std::move(out));
    return;
  }
  if (!scales) {
    // Scales or sizes unknown: the rank stays, the resized axes are unknown.
    if (scales_given || ctx.hasInput(3)) {
      for (size_t axis : axes) out[axis] = ctx.dims().fresh();
      ctx.setOutputShape(0, std::move(out));
    }
    return;
  }
  if (scales->size() != axes.size()) {
    ctx.fail("Resize has " + std::to_string(scales->size()) + " scales for " +
             std::to_string(axes.size()) + " axes");
    return;
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    double scale = (*scales)[i];
    if (!(scale > 0)) {
      ctx.fail("Resize's scale " + std::to_string(i) + " is " + std::to_string(scale) +
               "; scales must be positive");
      return;
    }
    out[axes[i]] = scaledDim(ctx, out[axes[i]], scale);
  }
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

constexpr Formals kInputs13 = {{"X", "T1"},
                               optional("roi", "T2"),
                               optional("scales", "tensor(float)"),
                               optional("sizes", "tensor(int64)")};
constexpr Formals kOutputs11 = {{"Y", "T1"}};
constexpr Attributes kAttributes11 = {attr("coordinate_transformation_mode", "half_pixel"),
                                      attr("cubic_coeff_a", -0.75f),
                                      attr("exclude_outside", 0),
                                      attr("extrapolation_value", 0.0f),
                                      attr("mode", "nearest"),
                                      attr("nearest_mode", "round_prefer_floor")};
constexpr Attributes kAttributes18 = {attr("antialias", 0),
                                      attr("axes", kInts),
                                      attr("coordinate_transformation_mode", "half_pixel"),
                                      attr("cubic_coeff_a", -0.75f),
                                      attr("exclude_outside", 0),
                                      attr("extrapolation_value", 0.0f),
                                      attr("keep_aspect_ratio_policy", "stretch"),
                                      attr("mode", "nearest"),
                                      attr("nearest_mode", "round_prefer_floor")};
constexpr Constraints kConstraints13 = {{"T1", tensor(kIr4Types)},
                                        {"T2", tensor("float16 float double")},
                                        {"tensor(float)", tensor("float")},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kResize;
constexpr Operator kResize{
    .domain = kOnnxDomain,
    .name = "Resize",
    .versions = {
        {.since_version = 10,
         .inputs = {{"X", "T"}, {"scales", "tensor(float)"}},
         .outputs = {{"Y", "T"}},
         .attributes = {attr("mode", "nearest")},
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(float)", tensor("float")}},
         .infer = inferResize},
        {.since_version = 11,
         .inputs = {{"X", "T1"},
                    {"roi", "T2"},
                    {"scales", "tensor(float)"},
                    optional("sizes", "tensor(int64)")},
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = {{"T1", tensor(kIr3Types)},
                         {"T2", tensor("float16 float double")},
                         {"tensor(float)", tensor("float")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferResize},
        {.since_version = 13,
         .inputs = kInputs13,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = kConstraints13,
         .infer = inferResize},
        {.since_version = 18,
         .inputs = kInputs13,
         .outputs = kOutputs11,
         .attributes = kAttributes18,
         .constraints = kConstraints13,
         .infer = inferResize},
        {.since_version = 19,
         .inputs = kInputs13,
         .outputs = kOutputs11,
         .attributes = kAttributes18,
         .constraints = kConstraints13,
         .infer = inferResize},
    }};
static_assert(isWellFormed(kResize));

}  // namespace onyx::ops::ai_onnx
