// Slice (ai.onnx), versions 1, 10, 11, 13.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs10 = {{"data", "T"},
                               {"starts", "Tind"},
                               {"ends", "Tind"},
                               optional("axes", "Tind"),
                               optional("steps", "Tind")};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Constraints kConstraints10 = {{"T", tensor(kIr3Types)}, {"Tind", tensor("int32 int64")}};

extern const Operator kSlice;
constexpr Operator kSlice{
    .domain = kOnnxDomain,
    .name = "Slice",
    .versions = {
        {.since_version = 1,
         .inputs = {{"data", "T"}},
         .outputs = kOutputs1,
         .attributes = {attr("axes", kInts), required("ends", kInts), required("starts", kInts)},
         .constraints = {{"T", tensor(kIr3Types)}}},
        {.since_version = 10,
         .inputs = kInputs10,
         .outputs = kOutputs1,
         .constraints = kConstraints10},
        {.since_version = 11,
         .inputs = kInputs10,
         .outputs = kOutputs1,
         .constraints = kConstraints10},
        {.since_version = 13,
         .inputs = kInputs10,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}}},
    }};
static_assert(isWellFormed(kSlice));

}  // namespace onyx::ops::ai_onnx
