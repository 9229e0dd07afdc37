// Squeeze (ai.onnx), versions 1, 11, 13, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kInputs13 = {{"data", "T"}, optional("axes", "tensor(int64)")};
constexpr Formals kOutputs1 = {{"squeezed", "T"}};
constexpr Attributes kAttributes1 = {attr("axes", kInts)};
constexpr Constraints kConstraints1 = {{"T", tensor(kIr3Types)}};

extern const Operator kSqueeze;
constexpr Operator kSqueeze{
    .domain = kOnnxDomain,
    .name = "Squeeze",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1},
        {.since_version = 11,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = kAttributes1,
         .constraints = kConstraints1},
        {.since_version = 13,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}}},
        {.since_version = 21,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr10Types)}, {"tensor(int64)", tensor("int64")}}},
        {.since_version = 23,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr11Types)}, {"tensor(int64)", tensor("int64")}}},
        {.since_version = 24,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr12Types)}, {"tensor(int64)", tensor("int64")}}},
        {.since_version = 25,
         .inputs = kInputs13,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr13Types)}, {"tensor(int64)", tensor("int64")}}},
    }};
static_assert(isWellFormed(kSqueeze));

}  // namespace onyx::ops::ai_onnx
