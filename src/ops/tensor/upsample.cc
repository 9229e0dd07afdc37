// Upsample (ai.onnx), versions 1, 7, 9, 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/element_type.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/tensor_array.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/tensor/resample_kernels.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// floor(dim * scale) per axis. The scales are height_scale and width_scale on the last two
// axes in version 1, the `scales` attribute in 7, and input 1 from 9.
void inferUpsample(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  int since = ctx.schema().since_version;
  size_t rank = in->size();
  std::optional<std::vector<double>> scales;
  if (since == 1) {
    std::optional<float> height = ctx.floatAttribute("height_scale");
    std::optional<float> width = ctx.floatAttribute("width_scale");
    if (rank < 2) {
      ctx.fail("Upsample-1 needs an input of rank 2 or more");
      return;
    }
    if (height && width) {
      scales.emplace(rank, 1.0);
      (*scales)[rank - 2] = *height;
      (*scales)[rank - 1] = *width;
    }
  } else if (since == 7) {
    if (std::optional<std::vector<float>> given = ctx.floatsAttribute("scales")) {
      scales.emplace(given->begin(), given->end());
    }
  } else {
    scales = inputNumbers(ctx, 1);
  }
  if (!scales) {
    ctx.setOutputRank(0, rank);
    return;
  }
  if (scales->size() != rank) {
    ctx.fail("Upsample has " + std::to_string(scales->size()) + " scales for an input of rank " +
             std::to_string(rank));
    return;
  }
  Dims out = *in;
  for (size_t i = 0; i < rank; ++i) {
    if (!((*scales)[i] > 0)) {
      ctx.fail("Upsample's scale " + std::to_string(i) + " is " + std::to_string((*scales)[i]) +
               "; scales must be positive");
      return;
    }
    out[i] = scaledDim(ctx, out[i], (*scales)[i]);
  }
  ctx.setOutputShape(0, std::move(out));
}

// Nearest (repeating each element) or linear interpolation with asymmetric coordinates; the
// output is floor(input * scale) along each axis.
Status runUpsample(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor X");
  if (x->isString() || x->type() == ElementType::kComplex64 ||
      x->type() == ElementType::kComplex128) {
    return ctx.fail("no kernel for " + std::string(elementTypeName(x->type())));
  }
  const int since = ctx.schema().since_version;
  std::vector<double> scales;
  if (since >= 9) {
    const Array* given = ctx.inputArray(1);
    if (given == nullptr) return ctx.fail("needs scales");
    scales = realsOf(*given);
  } else if (since >= 7) {
    std::optional<std::vector<float>> given = ctx.floatsAttribute("scales");
    if (given) scales.assign(given->begin(), given->end());
  } else {
    if (x->rank() != 4) return ctx.fail("Upsample-1 takes a 4-D input");
    scales = {1.0, 1.0, ctx.floatAttribute("height_scale").value_or(1.0f),
              ctx.floatAttribute("width_scale").value_or(1.0f)};
  }
  if (scales.size() != x->rank()) {
    return ctx.fail("scales has " + std::to_string(scales.size()) + " values for rank " +
                    std::to_string(x->rank()));
  }
  std::vector<int64_t> sizes(x->rank());
  for (size_t i = 0; i < scales.size(); ++i) {
    if (!(scales[i] >= 1) || !std::isfinite(scales[i])) {
      return ctx.fail("Upsample's scales must be at least 1");
    }
    double size = std::floor(scales[i] * static_cast<double>(x->dim(i)));
    if (size > 9.0e15) return ctx.fail("the output is too large");
    sizes[i] = static_cast<int64_t>(size);
  }
  ResampleOptions options;
  std::string_view mode = ctx.stringAttribute("mode").value_or("nearest");
  if (mode == "nearest") {
    options.mode = "nearest";
  } else if (mode == "linear" || mode == "bilinear") {
    options.mode = "linear";
  } else {
    return ctx.fail("unknown mode \"" + std::string(mode) + "\"");
  }
  options.coordinates = "asymmetric";
  options.nearest_mode = "floor";
  Result<Array> out = resample(ctx, *x, sizes, scales, {}, options);
  if (!out) return ctx.fail(out.status().message());
  ctx.setOutput(0, std::move(*out));
  return Status::ok();
}

// Renames the mode attribute by `names` (from, to); other modes stay.
Status renameMode(NodeDraft& draft,
                  std::initializer_list<std::pair<std::string_view, std::string_view>> names) {
  const Attribute* mode = draft.attribute("mode");
  if (mode == nullptr) return Status::ok();
  if (mode->kind() != AttributeKind::kString || !mode->s) {
    return draft.refuse("mode is not a string");
  }
  for (const auto& [from, to] : names) {
    if (*mode->s == from) {
      draft.setStringAttr("mode", to);
      break;
    }
  }
  return Status::ok();
}

// Up to version 7, whose scales give every axis of the (4-D) input its factor.
Status toScalesAttribute(NodeDraft& draft) {
  std::optional<float> height = draft.floatAttr("height_scale");
  std::optional<float> width = draft.floatAttr("width_scale");
  if (!height || !width) return draft.refuse("height_scale or width_scale has no value of its own");
  const float scales[] = {1.0f, 1.0f, *height, *width};
  draft.removeAttribute("height_scale");
  draft.removeAttribute("width_scale");
  draft.setFloatsAttr("scales", scales);
  return renameMode(draft, {{"bilinear", "linear"}});
}

// Down to version 7 or 8, which hold the scales in an attribute: the input must be a
// constant.
Status scalesToAttribute(NodeDraft& draft) {
  const Tensor* constant = draft.constantInput(1);
  if (constant == nullptr) return draft.refuse("scales is not a constant");
  Result<Array> scales = arrayFromTensor(*constant);
  if (!scales || scales->type() != ElementType::kFloat || scales->rank() != 1) {
    return draft.refuse("scales is not a constant 1-D float tensor");
  }
  draft.setFloatsAttr("scales", std::span<const float>(scales->data<float>(), scales->size()));
  draft.resizeInputs(1);
  return Status::ok();
}

// Down to version 1, which scales the last two axes of a 4-D input by height_scale and
// width_scale, and names linear interpolation bilinear.
Status toHeightWidthScales(NodeDraft& draft) {
  std::optional<std::vector<float>> scales = draft.floatsAttr("scales");
  if (!scales) return draft.refuse("scales is missing or not a list of floats");
  if (scales->size() != 4 || (*scales)[0] != 1.0f || (*scales)[1] != 1.0f) {
    return draft.refuse("scales is not 4 values that leave the first two axes");
  }
  draft.removeAttribute("scales");
  draft.setFloatAttr("height_scale", (*scales)[2]);
  draft.setFloatAttr("width_scale", (*scales)[3]);
  return renameMode(draft, {{"linear", "bilinear"}});
}

// Up to version 9, where the scales are an input.
Status scalesToInput(NodeDraft& draft) {
  std::optional<std::vector<float>> scales = draft.floatsAttr("scales");
  if (!scales) return draft.refuse("scales is missing or not a list of floats");
  Array values(ElementType::kFloat, {static_cast<int64_t>(scales->size())});
  std::copy(scales->begin(), scales->end(), values.data<float>());
  draft.removeAttribute("scales");
  draft.setConstantInput(1, draft.editor().tensorFromArray(values));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"X", "T"}};
constexpr Formals kInputs9 = {{"X", "T"}, {"scales", "tensor(float)"}};
constexpr Formals kOutputs1 = {{"Y", "T"}};
constexpr Attributes kAttributes9 = {attr("mode", "nearest")};
constexpr Constraints kConstraints9 = {{"T", tensor(kIr3Types)},
                                       {"tensor(float)", tensor("float")}};

extern const Operator kUpsample;
constexpr Operator kUpsample{
    .domain = kOnnxDomain,
    .name = "Upsample",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {required("height_scale", kFloat), attr("mode", "nearest"),
                        required("width_scale", kFloat)},
         .constraints = {{"T", tensor("bool int32 int64 float16 float double")}},
         .infer = inferUpsample,
         .kernel = runUpsample},
        {.since_version = 7,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("mode", "nearest"), required("scales", kFloats)},
         .constraints = {{"T", tensor(kIr3Types)}},
         .infer = inferUpsample,
         .kernel = runUpsample,
         .step = {.reviewed = true,
                  .change = "height_scale and width_scale became scales (one per axis); bilinear "
                            "renamed linear; types added",
                  .up = toScalesAttribute,
                  .down = toHeightWidthScales,
                  .up_refuses = "height_scale or width_scale a reference",
                  .down_refuses = "scales not 4 values with the first two 1"}},
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs1,
         .attributes = kAttributes9,
         .constraints = kConstraints9,
         .infer = inferUpsample,
         .kernel = runUpsample,
         .step = {.reviewed = true,
                  .change = "scales became an input",
                  .up = scalesToInput,
                  .down = scalesToAttribute,
                  .down_refuses = "scales not a constant"}},
        {.since_version = 10,
         .deprecated = true,
         .inputs = kInputs9,
         .outputs = kOutputs1,
         .attributes = kAttributes9,
         .constraints = kConstraints9,
         .infer = inferUpsample,
         .kernel = runUpsample,
         .step = {.reviewed = true, .change = "deprecated: Resize replaces it"}},
    }};
static_assert(isWellFormed(kUpsample));

}  // namespace onyx::ops::ai_onnx
