// ScatterElements (ai.onnx), versions 11, 13, 16, 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <optional>
#include <string_view>

#include "onyx/ir/attribute.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {
Status runScatterElements(KernelContext& ctx) { return scatterAlongAxis(ctx); }

// Down to version 13, which only overwrites: reduction must be none.
Status dropReduction(NodeDraft& draft) {
  if (draft.stringAttr("reduction", "none") != "none") {
    return draft.refuse("reduction other than none has no form in version 13");
  }
  draft.removeAttribute("reduction");
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs11 = {{"data", "T"}, {"indices", "Tind"}, {"updates", "T"}};
constexpr Formals kOutputs11 = {{"output", "T"}};
constexpr Attributes kAttributes11 = {attr("axis", 0)};
constexpr Attributes kAttributes16 = {attr("axis", 0), attr("reduction", "none")};
constexpr Constraints kConstraints13 = {{"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}};

extern const Operator kScatterElements;
constexpr Operator kScatterElements{
    .domain = kOnnxDomain,
    .name = "ScatterElements",
    .versions = {
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr3Types)}, {"Tind", tensor("int32 int64")}},
         .infer = inferSameShape,
         .kernel = runScatterElements},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes11,
         .constraints = kConstraints13,
         .infer = inferSameShape,
         .kernel = runScatterElements,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 16,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes16,
         .constraints = kConstraints13,
         .infer = inferSameShape,
         .kernel = runScatterElements,
         .step = {.reviewed = true,
                  .change = "reduction added (none: as before)",
                  .down = dropReduction,
                  .down_refuses = "reduction add or mul"}},
        {.since_version = 18,
         .inputs = kInputs11,
         .outputs = kOutputs11,
         .attributes = kAttributes16,
         .constraints = kConstraints13,
         .infer = inferSameShape,
         .kernel = runScatterElements,
         .step = {.reviewed = true,
                  .change = "reduction max and min added",
                  .down = refuseMaxMin,
                  .down_refuses = "reduction max or min"}},
    }};
static_assert(isWellFormed(kScatterElements));

}  // namespace onyx::ops::ai_onnx
