// BitwiseAnd (ai.onnx), versions 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runBitwiseAnd(KernelContext& ctx) {
  return elementwise::integerBinaryKernel(ctx, [](auto a, auto b) { return a & b; });
}

}  // namespace

extern const Operator kBitwiseAnd;
constexpr Operator kBitwiseAnd{
    .domain = kOnnxDomain,
    .name = "BitwiseAnd",
    .versions = {
        {.since_version = 18,
         .traits = kElementwise | kCommutative,
         .inputs = {{"A", "T"}, {"B", "T"}},
         .outputs = {{"C", "T"}},
         .constraints = {{"T", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64")}},
         .infer = inferBroadcast,
         .kernel = runBitwiseAnd},
    }};
static_assert(isWellFormed(kBitwiseAnd));

}  // namespace onyx::ops::ai_onnx
