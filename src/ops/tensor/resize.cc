// Resize (ai.onnx), versions 10, 11, 13, 18, 19.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/core/element_type.h"
#include "onyx/core/quote.h"
#include "onyx/core/status.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/type.h"
#include "ops/channels_last.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/tensor/resample_kernels.h"

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
  // What onnx's Resize inference refuses (onnx/defs/tensor/utils.cc): from version 13 the
  // output is given by exactly one of scales and sizes (an empty one is not given), and a
  // keep_aspect_ratio_policy (version 18) is one of the three and applies to sizes alone.
  const Dims* sizes_shape = ctx.inputShape(3);
  bool sizes_given =
      ctx.hasInput(3) && !(sizes != nullptr && sizes->empty()) &&
      !(sizes_shape != nullptr && sizes_shape->size() == 1 && sizes_shape->front().is(0));
  if (since >= 13 && scales_given == sizes_given) {
    ctx.fail(scales_given ? "both scales and sizes are given; Resize takes one of them"
                          : "neither scales nor sizes is given; Resize needs one of them");
    return;
  }
  std::string_view policy =
      since >= 18 ? ctx.stringAttribute("keep_aspect_ratio_policy").value_or("stretch")
                  : std::string_view("stretch");
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller") {
    ctx.fail("keep_aspect_ratio_policy " + quoted(policy) +
             " is not one of stretch, not_larger, not_smaller");
    return;
  }
  if (scales_given && policy != "stretch") {
    ctx.fail("keep_aspect_ratio_policy " + quoted(policy) +
             " applies to sizes; with scales it must be stretch");
    return;
  }
  Dims out = *in;
  if (sizes != nullptr) {
    if (sizes->size() != axes.size()) {
      ctx.fail("Resize has " + std::to_string(sizes->size()) + " sizes for " +
               std::to_string(axes.size()) + " axes");
      return;
    }
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

Status runResize(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor X");
  if (x->isString() || x->type() == ElementType::kComplex64 ||
      x->type() == ElementType::kComplex128) {
    return ctx.fail("no kernel for " + std::string(elementTypeName(x->type())));
  }
  Result<ResizeRequest> request = resizeRequest(ctx, x->shape());
  if (!request) return request.status();
  Result<Array> out =
      resample(ctx, *x, request->sizes, request->scales, request->roi, request->options);
  if (!out) return ctx.fail(out.status().message());
  ctx.setOutput(0, std::move(*out));
  return Status::ok();
}

// The dimensions of input `i` (each nullopt when unknown), from its type or its constant;
// nullopt when not even its rank is known.
std::optional<std::vector<std::optional<int64_t>>> inputDims(const NodeDraft& draft, size_t i) {
  std::vector<std::optional<int64_t>> dims;
  if (const Type* type = draft.inputType(i); type != nullptr && type->shape != nullptr) {
    for (const Dimension& dim : type->shape->dims) dims.push_back(dim.dim_value);
    return dims;
  }
  if (const Tensor* constant = draft.constantInput(i); constant != nullptr) {
    for (int64_t dim : constant->dims.values) dims.push_back(dim);
    return dims;
  }
  return std::nullopt;
}

// A new empty FLOAT tensor, for a roi or scales input that is required but unused.
Tensor* emptyFloats(const NodeDraft& draft) {
  return draft.editor().tensorFromArray(Array(ElementType::kFloat, {0}));
}

// Whether input `i` is given with at least one element (an empty scales tensor stands for
// "not given" before version 13).
bool holdsValues(const NodeDraft& draft, size_t i) {
  if (!draft.hasInput(i)) return false;
  const Tensor* constant = draft.constantInput(i);
  if (constant == nullptr) return true;
  for (int64_t dim : constant->dims.values) {
    if (dim == 0) return false;
  }
  return true;
}

// Input `to` reads what input `from` reads: a value, or a copy of a constant the draft made.
Status moveInput(NodeDraft& draft, size_t from, size_t to) {
  if (Value* value = draft.input(from); value != nullptr) {
    draft.setInput(to, value);
    return Status::ok();
  }
  const Tensor* constant = draft.constantInput(from);
  if (constant == nullptr) return draft.refuse("scales is missing");
  Result<Array> values = arrayFromTensor(*constant);
  if (!values) return draft.refuse("scales cannot be read");
  draft.setConstantInput(to, draft.editor().tensorFromArray(*values));
  return Status::ok();
}

// Up to version 11. Version 10 samples with asymmetric coordinates and, for nearest, rounds
// down, which version 11 writes out; scales moves to input 2, behind an empty roi (roi only
// counts for tf_crop_and_resize).
Status toRoiScales(NodeDraft& draft) {
  std::optional<std::string_view> mode = draft.stringAttr("mode", "nearest");
  if (!mode) return draft.refuse("mode is not a string");
  ONYX_RETURN_IF_ERROR(moveInput(draft, 1, 2));
  draft.setConstantInput(1, emptyFloats(draft));
  draft.setStringAttr("coordinate_transformation_mode", "asymmetric");
  if (*mode == "nearest") draft.setStringAttr("nearest_mode", "floor");
  return Status::ok();
}

// Down to version 10, which has only what toRoiScales writes: asymmetric coordinates, nearest
// rounding down, scales (not sizes), nearest or linear.
Status toScalesOnly(NodeDraft& draft) {
  std::optional<std::string_view> mode = draft.stringAttr("mode", "nearest");
  std::optional<std::string_view> coordinates =
      draft.stringAttr("coordinate_transformation_mode", "half_pixel");
  std::optional<std::string_view> nearest = draft.stringAttr("nearest_mode", "round_prefer_floor");
  if (mode != "nearest" && mode != "linear") {
    return draft.refuse("mode is not nearest or linear");
  }
  if (coordinates != "asymmetric") {
    return draft.refuse("coordinate_transformation_mode is not asymmetric");
  }
  if (mode == "nearest" && nearest != "floor") return draft.refuse("nearest_mode is not floor");
  if (draft.attribute("exclude_outside") != nullptr && draft.intAttr("exclude_outside") != 0) {
    return draft.refuse("exclude_outside is set");
  }
  if (holdsValues(draft, 3)) return draft.refuse("sizes is given");
  ONYX_RETURN_IF_ERROR(moveInput(draft, 2, 1));
  for (const char* name : {"coordinate_transformation_mode", "cubic_coeff_a", "exclude_outside",
                           "extrapolation_value", "nearest_mode"}) {
    draft.removeAttribute(name);
  }
  draft.resizeInputs(2);
  return Status::ok();
}

// Up to version 13, which drops tf_half_pixel_for_nn and takes a scales left out, rather than
// empty, when sizes is given.
Status dropTfHalfPixelForNn(NodeDraft& draft) {
  std::optional<std::string_view> coordinates =
      draft.stringAttr("coordinate_transformation_mode", "half_pixel");
  if (!coordinates || *coordinates == "tf_half_pixel_for_nn") {
    return draft.refuse("tf_half_pixel_for_nn coordinates have no form in version 13");
  }
  if (holdsValues(draft, 3) && draft.hasInput(2) && !holdsValues(draft, 2)) {
    draft.setInput(2, nullptr);
  }
  return Status::ok();
}

// Down to version 11, where roi and scales are required: empty tensors stand in for them.
Status fillRoiScales(NodeDraft& draft) {
  if (!draft.hasInput(1)) draft.setConstantInput(1, emptyFloats(draft));
  if (!draft.hasInput(2)) draft.setConstantInput(2, emptyFloats(draft));
  return Status::ok();
}

// Input `i` (roi, scales or sizes) for every axis, from its values for `axes`: the other axes
// keep their values in `whole` (one per axis, or for roi the starts then the ends). It stays in
// its element type.
Status widenToAllAxes(NodeDraft& draft, size_t i, size_t rank, const std::vector<size_t>& axes,
                      std::vector<double> whole) {
  if (!holdsValues(draft, i)) return Status::ok();
  const Tensor* constant = draft.constantInput(i);
  if (constant == nullptr) {
    return draft.refuse("axes is given and roi, scales or sizes is not a constant");
  }
  Result<Array> values = arrayFromTensor(*constant);
  const size_t blocks = whole.size() / rank;
  if (!values || values->size() != blocks * axes.size()) {
    return draft.refuse("roi, scales or sizes does not fit axes");
  }
  for (size_t block = 0; block < blocks; ++block) {
    for (size_t k = 0; k < axes.size(); ++k) {
      whole[block * rank + axes[k]] = elementAsDouble(*values, block * axes.size() + k);
    }
  }
  Array written(values->type(), {static_cast<int64_t>(whole.size())});
  for (size_t k = 0; k < whole.size(); ++k) storeDouble(written, k, whole[k]);
  draft.setConstantInput(i, draft.editor().tensorFromArray(written));
  return Status::ok();
}

// Down to version 13, which resizes every axis, with neither antialias nor an aspect ratio
// policy. Axes other than all of them in order are written into roi, scales and sizes, the
// axes left out keeping their size (scale 1, the whole roi): that takes constants and, for
// sizes, X's dimensions.
Status toAllAxes(NodeDraft& draft) {
  if (draft.attribute("antialias") != nullptr && draft.intAttr("antialias") != 0) {
    return draft.refuse("antialias is set");
  }
  if (draft.stringAttr("keep_aspect_ratio_policy", "stretch") != "stretch" &&
      holdsValues(draft, 3)) {
    return draft.refuse("keep_aspect_ratio_policy is not stretch");
  }
  draft.removeAttribute("antialias");
  draft.removeAttribute("keep_aspect_ratio_policy");
  if (draft.attribute("axes") == nullptr) return Status::ok();
  std::optional<std::vector<int64_t>> listed = draft.intsAttr("axes");
  if (!listed) return draft.refuse("axes is not a list of ints");
  std::optional<std::vector<std::optional<int64_t>>> dims = inputDims(draft, 0);
  if (!dims) return draft.refuse("axes is given and X's rank is unknown");
  const size_t rank = dims->size();
  std::vector<size_t> axes;
  std::vector<bool> listed_axis(rank, false);
  for (int64_t axis : *listed) {
    int64_t at = axis < 0 ? axis + static_cast<int64_t>(rank) : axis;
    if (at < 0 || at >= static_cast<int64_t>(rank) || listed_axis[static_cast<size_t>(at)]) {
      return draft.refuse("axes is out of range or repeats an axis");
    }
    listed_axis[static_cast<size_t>(at)] = true;
    axes.push_back(static_cast<size_t>(at));
  }
  draft.removeAttribute("axes");
  bool in_order = axes.size() == rank;
  for (size_t k = 0; in_order && k < rank; ++k) in_order = axes[k] == k;
  if (in_order) return Status::ok();
  std::optional<std::string_view> coordinates =
      draft.stringAttr("coordinate_transformation_mode", "half_pixel");
  if (!coordinates) return draft.refuse("coordinate_transformation_mode is not a string");
  if (*coordinates == "tf_crop_and_resize") {
    std::vector<double> roi(2 * rank, 0.0);
    std::fill(roi.begin() + static_cast<std::ptrdiff_t>(rank), roi.end(), 1.0);
    ONYX_RETURN_IF_ERROR(widenToAllAxes(draft, 1, rank, axes, std::move(roi)));
  } else if (draft.hasInput(1)) {
    draft.setInput(1, nullptr);  // roi counts for tf_crop_and_resize only
  }
  ONYX_RETURN_IF_ERROR(widenToAllAxes(draft, 2, rank, axes, std::vector<double>(rank, 1.0)));
  std::vector<double> sizes(rank, 0.0);
  for (size_t d = 0; d < rank; ++d) {
    if (listed_axis[d]) continue;
    std::optional<int64_t> dim = (*dims)[d];
    if (!dim && holdsValues(draft, 3)) {
      return draft.refuse("sizes is given and X's dimensions are unknown");
    }
    sizes[d] = static_cast<double>(dim.value_or(0));
  }
  return widenToAllAxes(draft, 3, rank, axes, std::move(sizes));
}

// Down to version 18, which has no half_pixel_symmetric coordinates.
Status refuseHalfPixelSymmetric(NodeDraft& draft) {
  std::optional<std::string_view> coordinates =
      draft.stringAttr("coordinate_transformation_mode", "half_pixel");
  if (!coordinates || *coordinates == "half_pixel_symmetric") {
    return draft.refuse("half_pixel_symmetric coordinates have no form in version 18");
  }
  return Status::ok();
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
         .infer = inferResize,
         .kernel = runResize},
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
         .infer = inferResize,
         .kernel = runResize,
         .step =
             {.reviewed = true,
              .change = "roi, sizes and the sampling attributes added (version 10 samples "
                        "asymmetric, floor)",
              .up = toRoiScales,
              .down = toScalesOnly,
              .down_refuses =
                  "anything but nearest (floor) or linear with asymmetric coordinates and scales"}},
        {.since_version = 13,
         .inputs = kInputs13,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = kConstraints13,
         .infer = inferResize,
         .kernel = runResize,
         .step = {.reviewed = true,
                  .change = "roi and scales optional; tf_half_pixel_for_nn removed; bfloat16 added",
                  .up = dropTfHalfPixelForNn,
                  .down = fillRoiScales,
                  .up_refuses = "tf_half_pixel_for_nn coordinates"}},
        {.since_version = 18,
         .inputs = kInputs13,
         .outputs = kOutputs11,
         .attributes = kAttributes18,
         .constraints = kConstraints13,
         .infer = inferResize,
         .kernel = runResize,
         .step = {.reviewed = true,
                  .change = "antialias, axes and keep_aspect_ratio_policy added",
                  .down = toAllAxes,
                  .down_refuses = "antialias; a policy other than stretch with sizes; axes with "
                                  "roi, scales or sizes not constants or X not known well enough"}},
        {.since_version = 19,
         .inputs = kInputs13,
         .outputs = kOutputs11,
         .attributes = kAttributes18,
         .constraints = kConstraints13,
         .infer = inferResize,
         .kernel = runResize,
         .step = {.reviewed = true,
                  .change = "half_pixel_symmetric coordinates added",
                  .down = refuseHalfPixelSymmetric,
                  .down_refuses = "half_pixel_symmetric coordinates"}},
    }};
static_assert(isWellFormed(kResize));

}  // namespace onyx::ops::ai_onnx

namespace onyx::ops {

// Resize-10 resizes like Upsample (asymmetric coordinates, nearest rounding down); later
// versions read roi, scales or sizes (from 18 for the `axes` only) and the attributes.
Result<ResizeRequest> resizeRequest(const KernelContext& ctx, std::span<const int64_t> shape) {
  const int since = ctx.schema().since_version;
  const size_t rank = shape.size();
  ResizeRequest request;
  ResampleOptions& options = request.options;
  options.mode = ctx.stringAttribute("mode").value_or("nearest");
  if (options.mode != "nearest" && options.mode != "linear" && options.mode != "cubic") {
    return ctx.fail("unknown mode \"" + std::string(options.mode) + "\"");
  }
  const Array* scales_in = nullptr;
  const Array* sizes_in = nullptr;
  const Array* roi_in = nullptr;
  if (since == 10) {
    options.coordinates = "asymmetric";
    options.nearest_mode = "floor";
    scales_in = ctx.inputArray(1);
  } else {
    options.coordinates =
        ctx.stringAttribute("coordinate_transformation_mode").value_or("half_pixel");
    options.nearest_mode = ctx.stringAttribute("nearest_mode").value_or("round_prefer_floor");
    options.cubic_a = ctx.floatAttribute("cubic_coeff_a").value_or(-0.75f);
    options.exclude_outside = ctx.intAttribute("exclude_outside").value_or(0) != 0;
    options.extrapolation = ctx.floatAttribute("extrapolation_value").value_or(0.0f);
    options.antialias = since >= 18 && ctx.intAttribute("antialias").value_or(0) != 0;
    roi_in = ctx.inputArray(1);
    scales_in = ctx.inputArray(2);
    sizes_in = ctx.inputArray(3);
  }
  if (options.mode == "nearest" && options.antialias) {
    return ctx.fail("antialias does not apply to mode \"nearest\"");
  }
  std::string_view nearest = options.nearest_mode;
  if (nearest != "round_prefer_floor" && nearest != "round_prefer_ceil" && nearest != "floor" &&
      nearest != "ceil") {
    return ctx.fail("unknown nearest_mode \"" + std::string(nearest) + "\"");
  }
  if (scales_in != nullptr && scales_in->size() == 0) scales_in = nullptr;
  if (sizes_in != nullptr && sizes_in->size() == 0) sizes_in = nullptr;
  if ((scales_in == nullptr) == (sizes_in == nullptr)) {
    return ctx.fail("exactly one of scales and sizes must be given");
  }

  std::vector<size_t> axes;
  std::optional<std::vector<int64_t>> axes_given =
      since >= 18 ? ctx.intsAttribute("axes") : std::nullopt;
  if (axes_given) {
    for (int64_t axis : *axes_given) {
      std::optional<size_t> normalized = kernelAxis(axis, rank);
      if (!normalized) return ctx.fail("an axis is out of range");
      if (std::find(axes.begin(), axes.end(), *normalized) != axes.end()) {
        return ctx.fail("axes repeats an axis");
      }
      axes.push_back(*normalized);
    }
  } else {
    for (size_t i = 0; i < rank; ++i) axes.push_back(i);
  }

  std::vector<double>& scales = request.scales;
  std::vector<int64_t>& sizes = request.sizes;
  scales.assign(rank, 1.0);
  sizes.assign(shape.begin(), shape.end());
  if (scales_in != nullptr) {
    std::vector<double> given = realsOf(*scales_in);
    if (given.size() != axes.size()) {
      return ctx.fail("scales has " + std::to_string(given.size()) + " values for " +
                      std::to_string(axes.size()) + " axes");
    }
    for (size_t i = 0; i < axes.size(); ++i) {
      if (!(given[i] > 0) || !std::isfinite(given[i])) {
        return ctx.fail("scales must be positive");
      }
      scales[axes[i]] = given[i];
      double size = std::floor(given[i] * static_cast<double>(shape[axes[i]]));
      if (size > 9.0e15) return ctx.fail("the output is too large");
      sizes[axes[i]] = static_cast<int64_t>(size);
    }
  } else {
    std::optional<std::vector<int64_t>> given = integersOf(*sizes_in);
    if (!given || given->size() != axes.size()) {
      return ctx.fail("sizes must hold one value per resized axis");
    }
    for (size_t i = 0; i < axes.size(); ++i) {
      if ((*given)[i] < 0) return ctx.fail("sizes must not be negative");
      if (shape[axes[i]] == 0) return ctx.fail("cannot resize an axis of size 0");
      sizes[axes[i]] = (*given)[i];
      scales[axes[i]] = static_cast<double>((*given)[i]) / static_cast<double>(shape[axes[i]]);
    }
    std::string_view policy =
        since >= 18 ? ctx.stringAttribute("keep_aspect_ratio_policy").value_or("stretch")
                    : "stretch";
    if (policy != "stretch") {
      if (policy != "not_larger" && policy != "not_smaller") {
        return ctx.fail("unknown keep_aspect_ratio_policy \"" + std::string(policy) + "\"");
      }
      double scale = scales[axes[0]];
      for (size_t axis : axes) {
        scale =
            policy == "not_larger" ? std::min(scale, scales[axis]) : std::max(scale, scales[axis]);
      }
      for (size_t axis : axes) {
        if (!(scale * static_cast<double>(shape[axis]) < 9.0e15)) {
          return ctx.fail("the output is too large");
        }
        scales[axis] = scale;
        sizes[axis] = static_cast<int64_t>(scale * static_cast<double>(shape[axis]) + 0.5);
      }
    }
  }

  std::vector<double>& roi = request.roi;
  if (options.coordinates == "tf_crop_and_resize") {
    if (roi_in == nullptr || roi_in->size() == 0) {
      return ctx.fail("tf_crop_and_resize needs roi");
    }
    std::vector<double> given = realsOf(*roi_in);
    if (given.size() != 2 * axes.size()) {
      return ctx.fail("roi must hold 2 values per resized axis");
    }
    roi.assign(2 * rank, 0.0);
    for (size_t i = 0; i < rank; ++i) roi[rank + i] = 1.0;
    for (size_t i = 0; i < axes.size(); ++i) {
      roi[axes[i]] = given[i];
      roi[rank + axes[i]] = given[axes.size() + i];
    }
  }
  return request;
}

namespace {

// Bilinear on channels-last (N, H, W, C) values, where resample() takes its bilinear path
// (resampleBilinearFloat): the same taps and weights, each element the same sum of the same
// four products in the same order, so the same bits as channels-first.
Result<std::optional<Array>> bilinearChannelsLast(const KernelContext& ctx, const Array& x,
                                                  const ResizeRequest& r) {
  if (r.options.antialias || r.options.exclude_outside) return std::optional<Array>();
  const size_t height = static_cast<size_t>(x.dim(1)), width = static_cast<size_t>(x.dim(2));
  const size_t channels = static_cast<size_t>(x.dim(3));
  const size_t out_height = static_cast<size_t>(r.sizes[2]);
  const size_t out_width = static_cast<size_t>(r.sizes[3]);
  std::optional<BilinearTaps> rows =
      bilinearTaps(r.options.coordinates, height, out_height, r.scales[2]);
  std::optional<BilinearTaps> columns =
      bilinearTaps(r.options.coordinates, width, out_width, r.scales[3]);
  if (!rows || !columns) return std::optional<Array>();
  Result<Array> made = Array::allocate(
      ElementType::kFloat,
      {x.dim(0), static_cast<int64_t>(out_height), static_cast<int64_t>(out_width), x.dim(3)});
  if (!made) return made.status();
  const float* in = x.data<float>();
  float* out = made->data<float>();
  const size_t row_size = out_width * channels;
  parallelFor(ctx, static_cast<size_t>(x.dim(0)) * out_height,
              std::max<size_t>(1, (size_t{1} << 14) / row_size), [&](size_t begin, size_t end) {
                for (size_t item = begin; item < end; ++item) {
                  const size_t b = item / out_height, oy = item % out_height;
                  const float* image = in + b * height * width * channels;
                  const float* line1 = image + rows->first[oy] * width * channels;
                  const float* line2 = image + rows->second[oy] * width * channels;
                  const float dy2 = rows->near_weight[oy], dy1 = rows->far_weight[oy];
                  float* target = out + item * row_size;
                  for (size_t ox = 0; ox < out_width; ++ox, target += channels) {
                    const float* a1 = line1 + columns->first[ox] * channels;
                    const float* a2 = line1 + columns->second[ox] * channels;
                    const float* b1 = line2 + columns->first[ox] * channels;
                    const float* b2 = line2 + columns->second[ox] * channels;
                    const float dx2 = columns->near_weight[ox], dx1 = columns->far_weight[ox];
                    for (size_t c = 0; c < channels; ++c) {
                      target[c] = dx2 * dy2 * a1[c] + dx1 * dy2 * a2[c] + dx2 * dy1 * b1[c] +
                                  dx1 * dy1 * b2[c];
                    }
                  }
                }
              });
  return std::optional<Array>(std::move(*made));
}

}  // namespace

Result<std::optional<Array>> resizeChannelsLast(const KernelContext& ctx, const Array& x) {
  if (x.type() != ElementType::kFloat || x.rank() != 4 || x.size() == 0) {
    return std::optional<Array>();
  }
  std::vector<int64_t> shape = {x.dim(0), x.dim(3), x.dim(1), x.dim(2)};
  Result<ResizeRequest> request = resizeRequest(ctx, shape);
  if (!request) return request.status();
  const ResizeRequest& r = *request;
  if (!axisKept(shape, r.sizes, r.scales, r.roi, 0) ||
      !axisKept(shape, r.sizes, r.scales, r.roi, 1) || r.sizes[2] == 0 || r.sizes[3] == 0) {
    return std::optional<Array>();
  }
  if (r.options.mode == "linear") return bilinearChannelsLast(ctx, x, r);
  if (r.options.mode != "nearest") return std::optional<Array>();
  // Per output row and column, the input's (or kOutsideCrop), as resample() chooses them.
  std::vector<size_t> sources[2];
  for (size_t axis = 2; axis < 4; ++axis) {
    std::vector<size_t>& chosen = sources[axis - 2];
    size_t size = static_cast<size_t>(shape[axis]);
    if (axisKept(shape, r.sizes, r.scales, r.roi, axis)) {
      for (size_t i = 0; i < size; ++i) chosen.push_back(i);
      continue;
    }
    Result<AxisResample> plan =
        planAxis(r.options, size, static_cast<size_t>(r.sizes[axis]), r.scales[axis],
                 roiStart(r.roi, axis), roiEnd(r.roi, axis));
    if (!plan) return ctx.fail(plan.status().message());
    std::optional<std::vector<size_t>> nearest = nearestSources(*plan);
    if (!nearest) return std::optional<Array>();
    chosen = std::move(*nearest);
  }
  const std::vector<size_t>& rows = sources[0];
  const std::vector<size_t>& columns = sources[1];
  Result<Array> made =
      Array::allocate(ElementType::kFloat, {x.dim(0), static_cast<int64_t>(rows.size()),
                                            static_cast<int64_t>(columns.size()), x.dim(3)});
  if (!made) return made.status();
  const size_t height = static_cast<size_t>(x.dim(1)), width = static_cast<size_t>(x.dim(2));
  const size_t channels = static_cast<size_t>(x.dim(3));
  const size_t out_width = columns.size() * channels;
  const float outside = static_cast<float>(r.options.extrapolation);
  const float* in = x.data<float>();
  float* out = made->data<float>();
  parallelFor(ctx, static_cast<size_t>(x.dim(0)) * rows.size(),
              std::max<size_t>(1, (size_t{1} << 14) / out_width), [&](size_t begin, size_t end) {
                for (size_t item = begin; item < end; ++item) {
                  size_t b = item / rows.size();
                  size_t y = rows[item % rows.size()];
                  float* target = out + item * out_width;
                  if (y == kOutsideCrop) {
                    std::fill_n(target, out_width, outside);
                    continue;
                  }
                  const float* line = in + (b * height + y) * width * channels;
                  for (size_t ox = 0; ox < columns.size(); ++ox, target += channels) {
                    if (columns[ox] == kOutsideCrop) {
                      std::fill_n(target, channels, outside);
                    } else {
                      std::copy_n(line + columns[ox] * channels, channels, target);
                    }
                  }
                }
              });
  return std::optional<Array>(std::move(*made));
}

}  // namespace onyx::ops
