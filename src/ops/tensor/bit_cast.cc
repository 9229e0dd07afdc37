// BitCast (ai.onnx), versions 26.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstring>
#include "onyx/core/element_type.h"
#include "ops/kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

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

// The bits of a sub-byte element (stored one per byte, signed ones sign-extended).
uint8_t subByteCode(const Array& array, size_t index, unsigned bits) {
  return static_cast<uint8_t>(array.data<uint8_t>()[index] & ((1U << bits) - 1));
}

Status runBitCast(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("needs a tensor input");
  int64_t to = ctx.intAttribute("to").value_or(0);
  const ElementTypeInfo* target =
      to > 0 && to <= INT32_MAX ? elementTypeInfo(static_cast<int32_t>(to)) : nullptr;
  const ElementTypeInfo* source = elementTypeInfo(x->type());
  if (target == nullptr || target->type == ElementType::kString) {
    return ctx.fail("`to` = " + std::to_string(to) + " is not a non-string element type");
  }
  if (source == nullptr || x->isString()) return ctx.fail("cannot reinterpret STRING");
  if (source->bitWidth != target->bitWidth) {
    return ctx.fail("BitCast from " + std::string(source->name) + " to " +
                    std::string(target->name) + " changes the width");
  }
  Array out(target->type, x->shape());
  if (target->isSubByte()) {
    // Same width: reinterpret the code, sign-extending for the signed integer types.
    unsigned bits = target->bitWidth;
    bool extend = target->isInteger() && target->isSigned();
    for (size_t i = 0; i < x->size(); ++i) {
      uint8_t code = subByteCode(*x, i, bits);
      if (extend && (code & (1U << (bits - 1))) != 0)
        code = static_cast<uint8_t>(code | ~((1U << bits) - 1));
      out.data<uint8_t>()[i] = code;
    }
  } else if (target->type == ElementType::kBool) {
    // A bool is stored as 0 or 1: any other byte reads as true.
    const uint8_t* in = x->data<uint8_t>();
    for (size_t i = 0; i < x->size(); ++i) out.data<bool>()[i] = in[i] != 0;
  } else {
    std::span<const std::byte> in = x->bytes();
    if (!in.empty()) std::memcpy(out.bytes().data(), in.data(), in.size());
  }
  ctx.setOutput(0, std::move(out));
  return Status::ok();
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
                                 .infer = inferBitCast,
                                 .kernel = runBitCast},
                            }};
static_assert(isWellFormed(kBitCast));

}  // namespace onyx::ops::ai_onnx
