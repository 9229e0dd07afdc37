// Equal (ai.onnx), versions 1, 7, 11, 13, 19.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Equality, broadcast; NaN equals nothing. Strings compare by their bytes.
Status runEqual(KernelContext& ctx) {
  return elementwise::compareKernel(
      ctx, [](const auto& a, const auto& b) { return a == b; },
      /*strings=*/true);
}

// Functions branch on shapes (`Equal(Size(shape), 4)` picks a 2-D or 3-D body): the
// comparison of known integer data propagates, as 0 or 1, so If can take one branch.
void inferEqual(InferenceContext& ctx) {
  inferBroadcast(ctx);
  const Dims* left = ctx.inputData(0);
  const Dims* right = ctx.inputData(1);
  if (left == nullptr || right == nullptr || left->empty() || right->empty()) return;
  if (left->size() != right->size() && left->size() != 1 && right->size() != 1) return;
  size_t count = std::max(left->size(), right->size());
  Dims equal;
  equal.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    DimValue a = (*left)[left->size() == 1 ? 0 : i];
    DimValue b = (*right)[right->size() == 1 ? 0 : i];
    if (a == b) {
      equal.push_back(DimValue::known(1));
    } else if (a.isKnown() && b.isKnown()) {
      equal.push_back(DimValue::known(0));
    } else {
      return;  // two symbols may still be equal
    }
  }
  ctx.setOutputData(0, std::move(equal));
}

}  // namespace

constexpr Formals kInputs1 = {{"A", "T"}, {"B", "T"}};
constexpr Formals kOutputs1 = {{"C", "T1"}};
constexpr Constraints kConstraints1 = {{"T", tensor("bool int32 int64")}, {"T1", tensor("bool")}};

extern const Operator kEqual;
constexpr Operator kEqual{
    .domain = kOnnxDomain,
    .name = "Equal",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("axis", kInt), attr("broadcast", 0)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runEqual},
        {.since_version = 7,
         .traits = kElementwise | kCommutative,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferEqual,
         .kernel = runEqual,
         .step = kNumpyBroadcastStep},
        {.since_version = 11,
         .traits = kElementwise | kCommutative,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints =
             {{"T",
               tensor(
                   "bool uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")},
              {"T1", tensor("bool")}},
         .infer = inferEqual,
         .kernel = runEqual,
         .step = typesOnly(
             "uint8, uint16, uint32, uint64, int8, int16, float16, float and double added")},
        {.since_version = 13,
         .traits = kElementwise | kCommutative,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("bool uint8 uint16 uint32 uint64 int8 int16 int32 int64 "
                                      "float16 float double bfloat16")},
                         {"T1", tensor("bool")}},
         .infer = inferEqual,
         .kernel = runEqual,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 19,
         .traits = kElementwise | kCommutative,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("bool uint8 uint16 uint32 uint64 int8 int16 int32 int64 "
                                      "float16 float double bfloat16 string")},
                         {"T1", tensor("bool")}},
         .infer = inferEqual,
         .kernel = runEqual,
         .step = typesOnly("string added")},
    }};
static_assert(isWellFormed(kEqual));

}  // namespace onyx::ops::ai_onnx
