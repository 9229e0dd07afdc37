// Softsign (ai.onnx), versions 1, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/lib/elementwise_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

Status runSoftsign(KernelContext& ctx) {
  return elementwise::unaryFloatingKernel(ctx, [](auto x) {
    using T = decltype(x);
    return x / (T(1) + std::abs(x));
  });
}

}  // namespace

constexpr Formals kInputs1 = {{"input", "T"}};
constexpr Formals kOutputs1 = {{"output", "T"}};

// Softsign as the spec defines it (version 1 from opset 18): input / (1 + |input|).
constexpr const char* kBody18 = R"ONNX(
<domain: "", opset_import: ["" : 18]>
Softsign (input) => (output) {
  one = Constant <value = float {1.0}> ()
  one_x = CastLike (one, input)
  magnitude = Abs (input)
  denominator = Add (one_x, magnitude)
  output = Div (input, denominator)
}
)ONNX";

extern const Operator kSoftsign;
constexpr Operator kSoftsign{.domain = kOnnxDomain,
                             .name = "Softsign",
                             .versions = {
                                 {.since_version = 1,
                                  .traits = kElementwise,
                                  .inputs = kInputs1,
                                  .outputs = kOutputs1,
                                  .constraints = {{"T", tensor("float16 float double")}},
                                  .function_bodies = {{18, kBody18}},
                                  .infer = inferSameShape,
                                  .kernel = runSoftsign},
                                 {.since_version = 22,
                                  .traits = kElementwise,
                                  .inputs = kInputs1,
                                  .outputs = kOutputs1,
                                  .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                                  .function_bodies = {{22, kBody18}},
                                  .infer = inferSameShape,
                                  .kernel = runSoftsign,
                                  .step = typesOnly("bfloat16 added")},
                             }};
static_assert(isWellFormed(kSoftsign));

}  // namespace onyx::ops::ai_onnx
