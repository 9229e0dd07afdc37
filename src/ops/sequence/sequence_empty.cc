// SequenceEmpty (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstdint>

#include "onyx/core/element_type.h"
#include "onyx/ops/inference_context.h"
#include "ops/lib/sequence_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

constexpr int32_t kFloatElement = 1;

void inferSequenceEmpty(InferenceContext& ctx) {
  int64_t dtype = ctx.intAttribute("dtype").value_or(kFloatElement);
  if (dtype < 0 || dtype > INT32_MAX || elementTypeInfo(static_cast<int32_t>(dtype)) == nullptr) {
    ctx.fail("dtype " + std::to_string(dtype) + " is not an element type");
    return;
  }
  ctx.setOutputType(0, InferredType::sequence(InferredType::tensor(static_cast<int32_t>(dtype))));
}

Status runSequenceEmpty(KernelContext& ctx) {
  ctx.setOutput(0, EvalValue::sequence({}));
  return Status::ok();
}

}  // namespace

extern const Operator kSequenceEmpty;
constexpr Operator kSequenceEmpty{.domain = kOnnxDomain,
                                  .name = "SequenceEmpty",
                                  .versions = {
                                      {.since_version = 11,
                                       .outputs = {{"output", "S"}},
                                       .attributes = {attr("dtype", kInt)},
                                       .constraints = {{"S", sequence(kIr3Types)}},
                                       .infer = inferSequenceEmpty,
                                       .kernel = runSequenceEmpty},
                                  }};
static_assert(isWellFormed(kSequenceEmpty));

}  // namespace onyx::ops::ai_onnx
