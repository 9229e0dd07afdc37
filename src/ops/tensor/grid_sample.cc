// GridSample (ai.onnx), versions 16, 20, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/core/element_type.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/tensor/tensor_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// X [N, C, D1..Dk] sampled at grid [N, O1..Ok, k] gives [N, C, O1..Ok]; version 16 is 2-D
// only.
void inferGridSample(InferenceContext& ctx) {
  const Dims* x = ctx.inputShape(0);
  const Dims* grid = ctx.inputShape(1);
  if (x == nullptr || grid == nullptr) return;
  if (x->size() < 3 || grid->size() != x->size()) {
    ctx.fail("GridSample's input has rank " + std::to_string(x->size()) + " and its grid rank " +
             std::to_string(grid->size()) + "; they must be equal and at least 3");
    return;
  }
  DimValue coordinates = grid->back();
  auto spatial = static_cast<int64_t>(x->size() - 2);
  if (coordinates.isKnown() && coordinates.value() != spatial) {
    ctx.fail("GridSample's grid has " + std::to_string(coordinates.value()) +
             " coordinates per point for " + std::to_string(spatial) + " spatial axes");
    return;
  }
  DimValue batch = (*x)[0];
  DimValue grid_batch = (*grid)[0];
  if (batch.isKnown() && grid_batch.isKnown() && batch.value() != grid_batch.value()) {
    ctx.fail("GridSample's input has batch " + std::to_string(batch.value()) + " and grid " +
             std::to_string(grid_batch.value()));
    return;
  }
  Dims out = {batch.isKnown() ? batch : grid_batch, (*x)[1]};
  out.insert(out.end(), grid->begin() + 1, grid->end() - 1);
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

constexpr Formals kInputs16 = {{"X", "T1"}, {"grid", "T2"}};
constexpr Formals kOutputs16 = {{"Y", "T1"}};
constexpr Attributes kAttributes20 = {attr("align_corners", 0), attr("mode", "linear"),
                                      attr("padding_mode", "zeros")};
constexpr Constraints kConstraints16 = {{"T1", tensor(kIr3Types)},
                                        {"T2", tensor("float16 float double")}};

extern const Operator kGridSample;
constexpr Operator kGridSample{
    .domain = kOnnxDomain,
    .name = "GridSample",
    .versions = {
        {.since_version = 16,
         .inputs = kInputs16,
         .outputs = kOutputs16,
         .attributes = {attr("align_corners", 0), attr("mode", "bilinear"),
                        attr("padding_mode", "zeros")},
         .constraints = kConstraints16,
         .infer = inferGridSample},
        {.since_version = 20,
         .inputs = kInputs16,
         .outputs = kOutputs16,
         .attributes = kAttributes20,
         .constraints = kConstraints16,
         .infer = inferGridSample},
        {.since_version = 22,
         .inputs = kInputs16,
         .outputs = kOutputs16,
         .attributes = kAttributes20,
         .constraints = {{"T1", tensor(kIr4Types)},
                         {"T2", tensor("bfloat16 float16 float double")}},
         .infer = inferGridSample},
    }};
static_assert(isWellFormed(kGridSample));

}  // namespace onyx::ops::ai_onnx
