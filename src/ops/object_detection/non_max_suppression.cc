// NonMaxSuppression (ai.onnx), versions 10, 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>

#include "onyx/ops/inference_context.h"
#include "ops/lib/real_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// (number of selected boxes, 3): the count depends on the scores.
void inferNonMaxSuppression(InferenceContext& ctx) {
  ctx.setOutputShape(0, {ctx.dims().fresh(), DimValue::known(3)});
}

// Whether two boxes overlap by more than `threshold` (intersection over union); corners
// [y1, x1, y2, x2] in any order, or [x center, y center, width, height].
bool overlapsTooMuch(const float* a, const float* b, bool center, float threshold) {
  float ax0, ax1, ay0, ay1, bx0, bx1, by0, by1;
  if (!center) {
    ax0 = std::min(a[1], a[3]), ax1 = std::max(a[1], a[3]);
    ay0 = std::min(a[0], a[2]), ay1 = std::max(a[0], a[2]);
    bx0 = std::min(b[1], b[3]), bx1 = std::max(b[1], b[3]);
    by0 = std::min(b[0], b[2]), by1 = std::max(b[0], b[2]);
  } else {
    ax0 = a[0] - a[2] / 2, ax1 = a[0] + a[2] / 2, ay0 = a[1] - a[3] / 2, ay1 = a[1] + a[3] / 2;
    bx0 = b[0] - b[2] / 2, bx1 = b[0] + b[2] / 2, by0 = b[1] - b[3] / 2, by1 = b[1] + b[3] / 2;
  }
  float ix0 = std::max(ax0, bx0), ix1 = std::min(ax1, bx1);
  if (!(ix1 > ix0)) return false;
  float iy0 = std::max(ay0, by0), iy1 = std::min(ay1, by1);
  if (!(iy1 > iy0)) return false;
  float intersection = (ix1 - ix0) * (iy1 - iy0);
  if (!(intersection > 0)) return false;
  float area_a = (ax1 - ax0) * (ay1 - ay0);
  float area_b = (bx1 - bx0) * (by1 - by0);
  float union_area = area_a + area_b - intersection;
  if (!(area_a > 0) || !(area_b > 0) || !(union_area > 0)) return false;
  return intersection / union_area > threshold;
}

// Per batch and class: boxes by descending score (ties: lower index first), those above
// score_threshold, each kept unless it overlaps a kept one by more than iou_threshold, at
// most max_output_boxes_per_class of them. Output rows (batch, class, box).
Status runNonMaxSuppression(KernelContext& ctx) {
  const Array* boxes = ctx.inputArray(0);
  const Array* scores = ctx.inputArray(1);
  if (boxes == nullptr || scores == nullptr) return ctx.fail("needs boxes and scores");
  if (boxes->type() != ElementType::kFloat || scores->type() != ElementType::kFloat) {
    return ctx.fail("boxes and scores must be float tensors");
  }
  if (boxes->rank() != 3 || boxes->dim(2) != 4 || scores->rank() != 3 ||
      scores->dim(0) != boxes->dim(0) || scores->dim(2) != boxes->dim(1)) {
    return ctx.fail("boxes " + shapeText(boxes->shape()) + " and scores " +
                    shapeText(scores->shape()) +
                    " must be (batches, boxes, 4) and (batches, classes, boxes)");
  }
  int64_t max_boxes = 0;
  if (const Array* given = ctx.inputArray(2); given != nullptr && given->size() > 0) {
    std::optional<std::vector<int64_t>> values = integersOf(*given);
    if (!values) return ctx.fail("max_output_boxes_per_class must be an integer");
    max_boxes = std::max<int64_t>((*values)[0], 0);
  }
  float iou = 0;
  if (const Array* given = ctx.inputArray(3); given != nullptr && given->size() > 0) {
    iou = given->data<float>()[0];
  }
  std::optional<float> score_threshold;
  if (const Array* given = ctx.inputArray(4); given != nullptr && given->size() > 0) {
    score_threshold = given->data<float>()[0];
  }
  const int64_t center = ctx.intAttribute("center_point_box").value_or(0);
  if (center != 0 && center != 1) return ctx.fail("center_point_box must be 0 or 1");
  const size_t batches = static_cast<size_t>(boxes->dim(0));
  const size_t count = static_cast<size_t>(boxes->dim(1));
  const size_t classes = static_cast<size_t>(scores->dim(1));
  const float* box_data = boxes->data<float>();
  const float* score_data = scores->data<float>();
  std::vector<int64_t> selected;
  std::vector<size_t> candidates;
  std::vector<size_t> kept;
  for (size_t b = 0; b < batches; ++b) {
    const float* batch_boxes = box_data + b * count * 4;
    for (size_t c = 0; c < classes; ++c) {
      const float* s = score_data + (b * classes + c) * count;
      candidates.clear();
      for (size_t i = 0; i < count; ++i) {
        if (!score_threshold || s[i] > *score_threshold) candidates.push_back(i);
      }
      std::stable_sort(candidates.begin(), candidates.end(), [&](size_t l, size_t r) {
        // NaN scores order as the lowest, keeping the order strict.
        float left = std::isnan(s[l]) ? -INFINITY : s[l];
        float right = std::isnan(s[r]) ? -INFINITY : s[r];
        return left > right;
      });
      kept.clear();
      for (size_t i : candidates) {
        if (static_cast<int64_t>(kept.size()) >= max_boxes) break;
        bool keep = true;
        for (size_t j : kept) {
          if (overlapsTooMuch(batch_boxes + i * 4, batch_boxes + j * 4, center == 1, iou)) {
            keep = false;
            break;
          }
        }
        if (!keep) continue;
        kept.push_back(i);
        selected.insert(selected.end(), {static_cast<int64_t>(b), static_cast<int64_t>(c),
                                         static_cast<int64_t>(i)});
      }
    }
  }
  const int64_t rows = static_cast<int64_t>(selected.size() / 3);
  ctx.setOutput(0, int64Array(selected, {rows, 3}));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs10 = {{"boxes", "tensor(float)"},
                               {"scores", "tensor(float)"},
                               optional("max_output_boxes_per_class", "tensor(int64)"),
                               optional("iou_threshold", "tensor(float)"),
                               optional("score_threshold", "tensor(float)")};
constexpr Formals kOutputs10 = {{"selected_indices", "tensor(int64)"}};
constexpr Attributes kAttributes10 = {attr("center_point_box", 0)};
constexpr Constraints kConstraints10 = {{"tensor(float)", tensor("float")},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kNonMaxSuppression;
constexpr Operator kNonMaxSuppression{
    .domain = kOnnxDomain,
    .name = "NonMaxSuppression",
    .versions = {
        {.since_version = 10,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes10,
         .constraints = kConstraints10,
         .infer = inferNonMaxSuppression,
         .kernel = runNonMaxSuppression},
        {.since_version = 11,
         .inputs = kInputs10,
         .outputs = kOutputs10,
         .attributes = kAttributes10,
         .constraints = kConstraints10,
         .infer = inferNonMaxSuppression,
         .kernel = runNonMaxSuppression,
         .step = {.reviewed = true,
                  .change = "none a node shows (bumped for onnx's shape inference)"}},
    }};
static_assert(isWellFormed(kNonMaxSuppression));

}  // namespace onyx::ops::ai_onnx
