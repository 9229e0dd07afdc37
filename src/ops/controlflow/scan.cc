// Scan (ai.onnx), versions 8, 9, 11, 16, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

constexpr Formals kInputs9 = {heterogeneous("initial_state_and_scan_inputs", "V", 1)};
constexpr Formals kOutputs8 = {heterogeneous("final_state_and_scan_outputs", "V", 1)};
constexpr Attributes kAttributes9 = {
    required("body", kGraph),        required("num_scan_inputs", kInt),
    attr("scan_input_axes", kInts),  attr("scan_input_directions", kInts),
    attr("scan_output_axes", kInts), attr("scan_output_directions", kInts)};
constexpr Constraints kConstraints9 = {{"V", tensor(kIr3Types)}};

extern const Operator kScan;
constexpr Operator kScan{.domain = kOnnxDomain,
                         .name = "Scan",
                         .versions = {
                             {.since_version = 8,
                              .inputs = {optional("sequence_lens", "I"),
                                         heterogeneous("initial_state_and_scan_inputs", "V", 1)},
                              .outputs = kOutputs8,
                              .attributes = {required("body", kGraph), attr("directions", kInts),
                                             required("num_scan_inputs", kInt)},
                              .constraints = {{"I", tensor("int64")}, {"V", tensor(kIr3Types)}}},
                             {.since_version = 9,
                              .inputs = kInputs9,
                              .outputs = kOutputs8,
                              .attributes = kAttributes9,
                              .constraints = kConstraints9},
                             {.since_version = 11,
                              .inputs = kInputs9,
                              .outputs = kOutputs8,
                              .attributes = kAttributes9,
                              .constraints = kConstraints9},
                             {.since_version = 16,
                              .inputs = kInputs9,
                              .outputs = kOutputs8,
                              .attributes = kAttributes9,
                              .constraints = {{"V", tensor(kIr4Types)}}},
                             {.since_version = 19,
                              .inputs = kInputs9,
                              .outputs = kOutputs8,
                              .attributes = kAttributes9,
                              .constraints = {{"V", tensor(kIr9Types)}}},
                             {.since_version = 21,
                              .inputs = kInputs9,
                              .outputs = kOutputs8,
                              .attributes = kAttributes9,
                              .constraints = {{"V", tensor(kIr10Types)}}},
                             {.since_version = 23,
                              .inputs = kInputs9,
                              .outputs = kOutputs8,
                              .attributes = kAttributes9,
                              .constraints = {{"V", tensor(kIr11Types)}}},
                             {.since_version = 24,
                              .inputs = kInputs9,
                              .outputs = kOutputs8,
                              .attributes = kAttributes9,
                              .constraints = {{"V", tensor(kIr12Types)}}},
                             {.since_version = 25,
                              .inputs = kInputs9,
                              .outputs = kOutputs8,
                              .attributes = kAttributes9,
                              .constraints = {{"V", tensor(kIr13Types)}}},
                         }};
static_assert(isWellFormed(kScan));

}  // namespace onyx::ops::ai_onnx
