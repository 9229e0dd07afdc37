// QLinearMatMul (ai.onnx), versions 10, 21.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The product of `a` (input 0) and `b` (input 3); the rest are scales and zero points.
void inferQLinearMatMul(InferenceContext& ctx) { inferMatMulShape(ctx, 0, 3); }

}  // namespace

constexpr TypeSet kT1Types21 =
    tensor("int8 uint8 float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz");
constexpr Formals kOutputs10 = {{"y", "T3"}};

extern const Operator kQLinearMatMul;
constexpr Operator kQLinearMatMul{.domain = kOnnxDomain,
                                  .name = "QLinearMatMul",
                                  .versions = {
                                      {.since_version = 10,
                                       .inputs = {{"a", "T1"},
                                                  {"a_scale", "tensor(float)"},
                                                  {"a_zero_point", "T1"},
                                                  {"b", "T2"},
                                                  {"b_scale", "tensor(float)"},
                                                  {"b_zero_point", "T2"},
                                                  {"y_scale", "tensor(float)"},
                                                  {"y_zero_point", "T3"}},
                                       .outputs = kOutputs10,
                                       .constraints = {{"T1", tensor("int8 uint8")},
                                                       {"T2", tensor("int8 uint8")},
                                                       {"T3", tensor("int8 uint8")},
                                                       {"tensor(float)", tensor("float")}},
                                       .infer = inferQLinearMatMul},
                                      {.since_version = 21,
                                       .inputs = {{"a", "T1"},
                                                  {"a_scale", "TS"},
                                                  {"a_zero_point", "T1"},
                                                  {"b", "T2"},
                                                  {"b_scale", "TS"},
                                                  {"b_zero_point", "T2"},
                                                  {"y_scale", "TS"},
                                                  {"y_zero_point", "T3"}},
                                       .outputs = kOutputs10,
                                       .constraints = {{"TS", tensor("float float16 bfloat16")},
                                                       {"T1", kT1Types21},
                                                       {"T2", kT1Types21},
                                                       {"T3", kT1Types21}},
                                       .infer = inferQLinearMatMul},
                                  }};
static_assert(isWellFormed(kQLinearMatMul));

}  // namespace onyx::ops::ai_onnx
