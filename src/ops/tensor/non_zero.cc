// NonZero (ai.onnx), versions 9, 13.
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

// One column per nonzero element: [rank, count], the count known only from the values.
void inferNonZero(InferenceContext& ctx) {
  std::optional<size_t> rank = ctx.inputRank(0);
  ctx.setOutputShape(0, {rank ? DimValue::known(static_cast<int64_t>(*rank)) : ctx.dims().fresh(),
                         ctx.dims().fresh()});
}

}  // namespace

constexpr Formals kInputs9 = {{"X", "T"}};
constexpr Formals kOutputs9 = {{"Y", "tensor(int64)"}};

extern const Operator kNonZero;
constexpr Operator kNonZero{
    .domain = kOnnxDomain,
    .name = "NonZero",
    .versions = {
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferNonZero},
        {.since_version = 13,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferNonZero},
    }};
static_assert(isWellFormed(kNonZero));

}  // namespace onyx::ops::ai_onnx
