// BitShift (ai.onnx), versions 11.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// X shifted by Y bits; a shift by the width of the type or more gives 0, as numpy does.
Status runBitShift(KernelContext& ctx) {
  std::string_view direction = ctx.stringAttribute("direction").value_or("");
  if (direction != "LEFT" && direction != "RIGHT") {
    return ctx.fail("direction is \"" + std::string(direction) + "\"; it must be LEFT or RIGHT");
  }
  const Array* x = ctx.inputArray(0);
  if (x != nullptr && x->type() != ElementType::kUint8 && x->type() != ElementType::kUint16 &&
      x->type() != ElementType::kUint32 && x->type() != ElementType::kUint64) {
    return elementwise::unsupported(ctx, x->type());
  }
  bool left = direction == "LEFT";
  return elementwise::integerBinaryKernel(ctx, [left](auto a, auto b) {
    using T = decltype(a);
    if constexpr (std::is_signed_v<T>) {
      return T(0);  // not reached: the signed types are refused above
    } else {
      if (b >= T(sizeof(T) * 8)) return T(0);
      return static_cast<T>(left ? a << b : a >> b);
    }
  });
}

}  // namespace

extern const Operator kBitShift;
constexpr Operator kBitShift{.domain = kOnnxDomain,
                             .name = "BitShift",
                             .versions = {
                                 {.since_version = 11,
                                  .traits = kElementwise,
                                  .inputs = {{"X", "T"}, {"Y", "T"}},
                                  .outputs = {{"Z", "T"}},
                                  .attributes = {required("direction", kString)},
                                  .constraints = {{"T", tensor("uint8 uint16 uint32 uint64")}},
                                  .infer = inferBroadcast,
                                  .kernel = runBitShift},
                             }};
static_assert(isWellFormed(kBitShift));

}  // namespace onyx::ops::ai_onnx
