// Mean (ai.onnx), versions 1, 6, 8, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.

#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The sum of one or more inputs, broadcast together and added in input order, divided by
// their count.
Status runMean(KernelContext& ctx) {
  ElementType type = ctx.inputArray(0) != nullptr ? ctx.inputArray(0)->type() : ElementType::kFloat;
  Result<Array> folded = elementwise::foldInputs(ctx, [](auto a, auto b) { return a + b; });
  if (!folded) return folded.status();
  Array sum = std::move(*folded);
  double count = static_cast<double>(ctx.inputCount());
  bool ok = dispatchFloat(sum.type(), [&]<class T>() {
    T* data = sum.data<T>();
    elementwise::unaryLoop(ctx, sum.size(), data, data,
                           [count](T v) { return static_cast<T>(v / static_cast<T>(count)); });
  });
  if (!ok) return elementwise::unsupported(ctx, type);
  ctx.setOutput(0, elementwise::narrowTo(std::move(sum), type));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {variadic("data_0", "T", 1)};
constexpr Formals kOutputs1 = {{"mean", "T"}};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};

extern const Operator kMean;
constexpr Operator kMean{
    .domain = kOnnxDomain,
    .name = "Mean",
    .versions = {
        {.since_version = 1,
         .traits = kElementwise | kCommutative,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts)},
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runMean},
        {.since_version = 6,
         .traits = kElementwise | kCommutative,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferSameShape,
         .kernel = runMean,
         .step = {.reviewed = true, .change = "consumed_inputs removed", .up = dropConsumedInputs}},
        {.since_version = 8,
         .traits = kElementwise | kCommutative,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = kConstraints1,
         .infer = inferBroadcast,
         .kernel = runMean,
         .step = {.reviewed = true,
                  .change = "multidirectional broadcasting added",
                  .down = requireOneShape,
                  .down_refuses = "inputs not known to share one shape"}},
        {.since_version = 13,
         .traits = kElementwise | kCommutative,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double bfloat16")}},
         .infer = inferBroadcast,
         .kernel = runMean,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kMean));

}  // namespace onyx::ops::ai_onnx
