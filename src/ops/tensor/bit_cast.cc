// BitCast (ai.onnx), versions 26.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

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
                                 .constraints = {{"T1", kT1Types26}, {"T2", kT1Types26}}},
                            }};
static_assert(isWellFormed(kBitCast));

}  // namespace onyx::ops::ai_onnx
