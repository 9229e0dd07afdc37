// Tile (ai.onnx), versions 1, 6, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs6 = {{"input", "T"}, {"repeats", "T1"}};
constexpr Formals kOutputs1 = {{"output", "T"}};

extern const Operator kTile;
constexpr Operator kTile{
    .domain = kOnnxDomain,
    .name = "Tile",
    .versions = {
        {.since_version = 1,
         .inputs = {{"input", "T"}, {"tiles", "T"}, {"axis", "T"}},
         .outputs = kOutputs1,
         .constraints = {{"T", tensor("float16 float double")}, {"T1", tensor("int64")}}},
        {.since_version = 6,
         .inputs = kInputs6,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr3Types)}, {"T1", tensor("int64")}}},
        {.since_version = 13,
         .inputs = kInputs6,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr4Types)}, {"T1", tensor("int64")}}},
    }};
static_assert(isWellFormed(kTile));

}  // namespace onyx::ops::ai_onnx
