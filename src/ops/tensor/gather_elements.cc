// GatherElements (ai.onnx), versions 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The output has the indices' shape; data and indices have one rank.
void inferGatherElements(InferenceContext& ctx) {
  const Dims* data = ctx.inputShape(0);
  const Dims* indices = ctx.inputShape(1);
  if (indices == nullptr) return;
  if (data != nullptr) {
    if (data->size() != indices->size()) {
      ctx.fail("GatherElements' data has rank " + std::to_string(data->size()) +
               " and indices rank " + std::to_string(indices->size()));
      return;
    }
    if (!data->empty() && !normalizeAxis(ctx, ctx.intAttribute("axis").value_or(0), data->size())) {
      return;
    }
  }
  ctx.setOutputShape(0, *indices);
}

}  // namespace

constexpr Formals kInputs11 = {{"data", "T"}, {"indices", "Tind"}};
constexpr Formals kOutputs11 = {{"output", "T"}};
constexpr Attributes kAttributes11 = {attr("axis", 0)};

extern const Operator kGatherElements;
constexpr Operator kGatherElements{
    .domain = kOnnxDomain,
    .name = "GatherElements",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr3Types)}, {"Tind", tensor("int32 int64")}},
         .infer = inferGatherElements},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}},
         .infer = inferGatherElements},
    }};
static_assert(isWellFormed(kGatherElements));

}  // namespace onyx::ops::ai_onnx
