// BitCast (ai.onnx), versions 26.
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

// The same bits as another type of the same width: the shape stays.
void inferBitCast(InferenceContext& ctx) {
  std::optional<int64_t> to = ctx.intAttribute("to");
  const ElementTypeInfo* target =
      to && *to > 0 && *to < INT32_MAX ? elementTypeInfo(static_cast<int32_t>(*to)) : nullptr;
  if (target == nullptr) return;
  int32_t from = ctx.inputElemType(0);
  if (const ElementTypeInfo* source = elementTypeInfo(from);
      source != nullptr && source->bitWidth != target->bitWidth) {
    ctx.fail("BitCast from " + std::string(source->name) + " (" + std::to_string(source->bitWidth) +
             " bits) to " + std::string(target->name) + " (" + std::to_string(target->bitWidth) +
             " bits) changes the width");
    return;
  }
  ctx.setOutputElemType(0, static_cast<int32_t>(*to));
  if (const Dims* in = ctx.inputShape(0)) ctx.setOutputShape(0, *in);
}

}  // namespace

constexpr TypeSet kT1Types26 = tensor(
    "uint8 uint16 uint32 uint64 int8 int16 int32 int64 bfloat16 float16 float double bool "
    "complex64 complex128 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz uint4 int4 "
    "float4e2m1 float8e8m0 uint2 int2");

extern const Operator kBitCast;
constexpr Operator kBitCast{.domain = kOnnxDomain,
                            .name = "BitCast",
                            .versions = {
                                {.since_version = 26,
                                 .inputs = {{"input", "T1"}},
                                 .outputs = {{"output", "T2"}},
                                 .attributes = {required("to", kInt)},
                                 .constraints = {{"T1", kT1Types26}, {"T2", kT1Types26}},
                                 .infer = inferBitCast},
                            }};
static_assert(isWellFormed(kBitCast));

}  // namespace onyx::ops::ai_onnx
