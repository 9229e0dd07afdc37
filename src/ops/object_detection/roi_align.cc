// RoiAlign (ai.onnx), versions 10, 16, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <string>
#include "onyx/ops/inference_context.h"
#include "ops/lib/real_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// (num_rois, C, output_height, output_width): rois is (num_rois, 4), batch_indices
// (num_rois).
void inferRoiAlign(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (input->size() != 4) {
    ctx.fail("the input has rank " + std::to_string(input->size()) + "; RoiAlign needs 4");
    return;
  }
  int64_t height = ctx.intAttribute("output_height").value_or(1);
  int64_t width = ctx.intAttribute("output_width").value_or(1);
  if (height <= 0 || width <= 0) {
    ctx.fail("output_height " + std::to_string(height) + " and output_width " +
             std::to_string(width) + " must be positive");
    return;
  }
  DimValue count = ctx.dims().fresh();
  const Dims* rois = ctx.inputShape(1);
  const Dims* indices = ctx.inputShape(2);
  if (rois != nullptr && rois->size() == 2) {
    count = (*rois)[0];
    if (indices != nullptr && indices->size() == 1 && !count.isKnown()) count = (*indices)[0];
  } else if (indices != nullptr && indices->size() == 1) {
    count = (*indices)[0];
  }
  ctx.setOutputShape(0, {count, (*input)[1], DimValue::known(height), DimValue::known(width)});
}

// Each region (x1, y1, x2, y2, scaled by spatial_scale; shifted by half a pixel with
// half_pixel) split into output_height x output_width bins, each the average or the maximum
// of sampling_ratio^2 (or ceil(bin size)) bilinear samples; max takes the largest weighted
// corner of each sample.
Status runRoiAlign(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* rois = ctx.inputArray(1);
  const Array* indices_in = ctx.inputArray(2);
  if (x == nullptr || rois == nullptr || indices_in == nullptr) {
    return ctx.fail("needs X, rois and batch_indices tensors");
  }
  if (!isRealType(x->type())) return ctx.fail("X must be a floating-point tensor");
  if (x->rank() != 4) return ctx.fail("X must be 4-D (N, C, H, W)");
  std::optional<std::vector<int64_t>> indices = integersOf(*indices_in);
  if (rois->rank() != 2 || rois->dim(1) != 4 || !indices || indices_in->rank() != 1 ||
      indices_in->dim(0) != rois->dim(0)) {
    return ctx.fail("rois must be (R, 4) and batch_indices (R)");
  }
  for (int64_t index : *indices) {
    if (index < 0 || index >= x->dim(0)) return ctx.fail("a batch index is out of range");
  }
  const int64_t out_h = ctx.intAttribute("output_height").value_or(1);
  const int64_t out_w = ctx.intAttribute("output_width").value_or(1);
  const int64_t sampling = ctx.intAttribute("sampling_ratio").value_or(0);
  const double spatial_scale = ctx.floatAttribute("spatial_scale").value_or(1.0f);
  if (out_h <= 0 || out_w <= 0 || sampling < 0) {
    return ctx.fail("output_height and output_width must be positive, sampling_ratio not negative");
  }
  std::string_view mode = ctx.stringAttribute("mode").value_or("avg");
  if (mode != "avg" && mode != "max") return ctx.fail("mode must be avg or max");
  const bool use_max = mode == "max";
  const bool half_pixel =
      ctx.schema().since_version >= 16 &&
      ctx.stringAttribute("coordinate_transformation_mode").value_or("half_pixel") == "half_pixel";
  const int64_t regions = rois->dim(0);
  const int64_t channels = x->dim(1);
  const int64_t height = x->dim(2);
  const int64_t width = x->dim(3);
  std::vector<int64_t> out_shape = {regions, channels, out_h, out_w};
  Result<Array> made = Array::allocate(ElementType::kDouble, out_shape);
  if (!made) return made.status();
  const std::vector<double> in = realsOf(*x);
  const std::vector<double> boxes = realsOf(*rois);
  std::vector<double> out(static_cast<size_t>(regions * channels * out_h * out_w), 0.0);
  struct Sample {
    size_t pos[4];
    double w[4];
  };
  if (height == 0 || width == 0) return ctx.fail("X has an empty spatial axis");
  for (int64_t r = 0; r < regions; ++r) {
    const double offset = half_pixel ? 0.5 : 0.0;
    const double* box = boxes.data() + r * 4;
    const double start_w = box[0] * spatial_scale - offset;
    const double start_h = box[1] * spatial_scale - offset;
    double roi_w = box[2] * spatial_scale - offset - start_w;
    double roi_h = box[3] * spatial_scale - offset - start_h;
    if (!half_pixel) {
      roi_w = std::max(roi_w, 1.0);
      roi_h = std::max(roi_h, 1.0);
    }
    const double bin_h = roi_h / static_cast<double>(out_h);
    const double bin_w = roi_w / static_cast<double>(out_w);
    double grid_h_value = sampling > 0 ? static_cast<double>(sampling) : std::ceil(bin_h);
    double grid_w_value = sampling > 0 ? static_cast<double>(sampling) : std::ceil(bin_w);
    if (!std::isfinite(grid_h_value) || !std::isfinite(grid_w_value) || grid_h_value > 1e4 ||
        grid_w_value > 1e4) {
      return ctx.fail("a region is too large to sample");
    }
    const int64_t grid_h = std::max<int64_t>(static_cast<int64_t>(grid_h_value), 0);
    const int64_t grid_w = std::max<int64_t>(static_cast<int64_t>(grid_w_value), 0);
    const double count = static_cast<double>(std::max<int64_t>(grid_h * grid_w, 1));
    std::vector<Sample> samples;
    samples.reserve(static_cast<size_t>(out_h * out_w * grid_h * grid_w));
    for (int64_t ph = 0; ph < out_h; ++ph) {
      for (int64_t pw = 0; pw < out_w; ++pw) {
        for (int64_t iy = 0; iy < grid_h; ++iy) {
          const double yy = start_h + static_cast<double>(ph) * bin_h +
                            (static_cast<double>(iy) + 0.5) * bin_h / static_cast<double>(grid_h);
          for (int64_t ix = 0; ix < grid_w; ++ix) {
            double xx = start_w + static_cast<double>(pw) * bin_w +
                        (static_cast<double>(ix) + 0.5) * bin_w / static_cast<double>(grid_w);
            double y = yy;
            Sample s{{0, 0, 0, 0}, {0, 0, 0, 0}};
            if (!std::isfinite(y) || !std::isfinite(xx) || y < -1.0 ||
                y > static_cast<double>(height) || xx < -1.0 || xx > static_cast<double>(width) ||
                height == 0 || width == 0) {
              samples.push_back(s);
              continue;
            }
            y = std::max(y, 0.0);
            xx = std::max(xx, 0.0);
            int64_t y_low = static_cast<int64_t>(y);
            int64_t x_low = static_cast<int64_t>(xx);
            int64_t y_high, x_high;
            if (y_low >= height - 1) {
              y_high = y_low = height - 1;
              y = static_cast<double>(y_low);
            } else {
              y_high = y_low + 1;
            }
            if (x_low >= width - 1) {
              x_high = x_low = width - 1;
              xx = static_cast<double>(x_low);
            } else {
              x_high = x_low + 1;
            }
            const double ly = y - static_cast<double>(y_low);
            const double lx = xx - static_cast<double>(x_low);
            const double hy = 1 - ly, hx = 1 - lx;
            s.pos[0] = static_cast<size_t>(y_low * width + x_low);
            s.pos[1] = static_cast<size_t>(y_low * width + x_high);
            s.pos[2] = static_cast<size_t>(y_high * width + x_low);
            s.pos[3] = static_cast<size_t>(y_high * width + x_high);
            s.w[0] = hy * hx;
            s.w[1] = hy * lx;
            s.w[2] = ly * hx;
            s.w[3] = ly * lx;
            samples.push_back(s);
          }
        }
      }
    }
    const size_t per_bin = static_cast<size_t>(grid_h * grid_w);
    for (int64_t c = 0; c < channels; ++c) {
      const double* plane =
          in.data() +
          static_cast<size_t>(((*indices)[static_cast<size_t>(r)] * channels + c) * height * width);
      double* to = out.data() + static_cast<size_t>((r * channels + c) * out_h * out_w);
      for (int64_t bin = 0; bin < out_h * out_w; ++bin) {
        double value = 0;
        bool first = true;
        for (size_t i = 0; i < per_bin; ++i) {
          const Sample& s = samples[static_cast<size_t>(bin) * per_bin + i];
          if (use_max) {
            double v = std::max({s.w[0] * plane[s.pos[0]], s.w[1] * plane[s.pos[1]],
                                 s.w[2] * plane[s.pos[2]], s.w[3] * plane[s.pos[3]]});
            value = first ? v : std::max(value, v);
            first = false;
          } else {
            value += s.w[0] * plane[s.pos[0]] + s.w[1] * plane[s.pos[1]] +
                     s.w[2] * plane[s.pos[2]] + s.w[3] * plane[s.pos[3]];
          }
        }
        to[bin] = use_max ? value : value / count;
      }
    }
  }
  ctx.setOutput(0, arrayOfReals(out, out_shape, x->type()));
  return Status::ok();
}

// Version 10 samples without the half-pixel shift, which version 16 names output_half_pixel
// (its default, half_pixel, shifts).
Status keepOutputHalfPixel(NodeDraft& draft) {
  draft.setStringAttr("coordinate_transformation_mode", "output_half_pixel");
  return Status::ok();
}

Status dropOutputHalfPixel(NodeDraft& draft) {
  const Attribute* mode = draft.attribute("coordinate_transformation_mode");
  if (mode == nullptr || mode->kind() != AttributeKind::kString ||
      mode->s.value_or("") != "output_half_pixel") {
    return draft.refuse("version 10 has only output_half_pixel coordinates");
  }
  draft.removeAttribute("coordinate_transformation_mode");
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs10 = {{"X", "T1"}, {"rois", "T1"}, {"batch_indices", "T2"}};
constexpr Formals kOutputs10 = {{"Y", "T1"}};
constexpr Attributes kAttributes16 = {attr("coordinate_transformation_mode", "half_pixel"),
                                      attr("mode", "avg"),
                                      attr("output_height", 1),
                                      attr("output_width", 1),
                                      attr("sampling_ratio", 0),
                                      attr("spatial_scale", 1.0f)};
constexpr Constraints kConstraints10 = {{"T1", tensor("float16 float double")},
                                        {"T2", tensor("int64")}};

extern const Operator kRoiAlign;
constexpr Operator kRoiAlign{
    .domain = kOnnxDomain,
    .name = "RoiAlign",
    .versions = {
        {.since_version = 10,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = {attr("mode", "avg"), attr("output_height", 1), attr("output_width", 1),
                        attr("sampling_ratio", 0), attr("spatial_scale", 1.0f)},
         .constraints = kConstraints10,
         .infer = inferRoiAlign,
         .kernel = runRoiAlign},
        {.since_version = 16,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes16,
         .constraints = kConstraints10,
         .infer = inferRoiAlign,
         .kernel = runRoiAlign,
         .step = {.reviewed = true,
                  .change =
                      "coordinate_transformation_mode added (version 10 is output_half_pixel)",
                  .up = keepOutputHalfPixel,
                  .down = dropOutputHalfPixel,
                  .down_refuses = "half_pixel coordinates, the default"}},
        {.since_version = 22,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes16,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")}, {"T2", tensor("int64")}},
         .infer = inferRoiAlign,
         .kernel = runRoiAlign,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kRoiAlign));

}  // namespace onyx::ops::ai_onnx
