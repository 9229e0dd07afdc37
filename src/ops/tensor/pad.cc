// Pad (ai.onnx), versions 1, 2, 11, 13, 18, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kInputs11 = {
    {"data", "T"}, {"pads", "tensor(int64)"}, optional("constant_value", "T")};
constexpr Formals kInputs18 = {{"data", "T"},
                               {"pads", "tensor(int64)"},
                               optional("constant_value", "T"),
                               optional("axes", "Tind")};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes11 = {attr("mode", "constant")};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};
constexpr Constraints kConstraints18 = {
    {"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}, {"tensor(int64)", tensor("int64")}};

extern const Operator kPad;
constexpr Operator kPad{
    .domain = kOnnxDomain,
    .name = "Pad",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("mode", "constant"), required("paddings", kInts), attr("value", 0.0f)},
         .constraints = kConstraints1},
        {.since_version = 2,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("mode", "constant"), required("pads", kInts), attr("value", 0.0f)},
         .constraints = kConstraints1},
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")},
              {"tensor(int64)", tensor("int64")}}},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}}},
        {.since_version = 18,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = kConstraints18},
        {.since_version = 19,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = kConstraints18},
        {.since_version = 21,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr10Types)},
                         {"Tind", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}}},
        {.since_version = 23,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr11Types)},
                         {"Tind", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}}},
        {.since_version = 24,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr12Types)},
                         {"Tind", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}}},
        {.since_version = 25,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr13Types)},
                         {"Tind", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}}},
    }};
static_assert(isWellFormed(kPad));

}  // namespace onyx::ops::ai_onnx
