// MatMulInteger (ai.onnx), versions 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferMatMulInteger(InferenceContext& ctx) { inferMatMulShape(ctx, 0, 1); }

}  // namespace

extern const Operator kMatMulInteger;
constexpr Operator kMatMulInteger{.domain = kOnnxDomain,
                                  .name = "MatMulInteger",
                                  .versions = {
                                      {.since_version = 10,
                                       .inputs = {{"A", "T1"},
                                                  {"B", "T2"},
                                                  optional("a_zero_point", "T1"),
                                                  optional("b_zero_point", "T2")},
                                       .outputs = {{"Y", "T3"}},
                                       .constraints = {{"T1", tensor("int8 uint8")},
                                                       {"T2", tensor("int8 uint8")},
                                                       {"T3", tensor("int32")}},
                                       .infer = inferMatMulInteger},
                                  }};
static_assert(isWellFormed(kMatMulInteger));

}  // namespace onyx::ops::ai_onnx
