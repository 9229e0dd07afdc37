// Col2Im (ai.onnx), versions 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kCol2Im;
constexpr Operator kCol2Im{
    .domain = kOnnxDomain,
    .name = "Col2Im",
    .versions = {
        {.since_version = 18,
         .inputs = {{"input", "T"},
                    {"image_shape", "tensor(int64)"},
                    {"block_shape", "tensor(int64)"}},
         .outputs = {{"output", "T"}},
         .attributes = {attr("dilations", kInts), attr("pads", kInts), attr("strides", kInts)},
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}}},
    }};
static_assert(isWellFormed(kCol2Im));

}  // namespace onyx::ops::ai_onnx
