// SwiGLU (ai.onnx), versions 28.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

// SwiGLU as the spec defines it: Swish(A) * B.
constexpr const char* kBody28 = R"ONNX(
<domain: "", opset_import: ["" : 28]>
SwiGLU <alpha: float = 1.0> (A, B) => (Y) {
  gate = Swish <alpha: float = @alpha> (A)
  Y = Mul (gate, B)
}
)ONNX";

extern const Operator kSwiGLU;
constexpr Operator kSwiGLU{.domain = kOnnxDomain,
                           .name = "SwiGLU",
                           .versions = {
                               {.since_version = 28,
                                .inputs = {{"A", "T"}, {"B", "T"}},
                                .outputs = {{"Y", "T"}},
                                .attributes = {attr("alpha", 1.0f)},
                                .constraints = {{"T", tensor("bfloat16 float16 float double")}},
                                .function_bodies = {{28, kBody28}}},
                           }};
static_assert(isWellFormed(kSwiGLU));

}  // namespace onyx::ops::ai_onnx
