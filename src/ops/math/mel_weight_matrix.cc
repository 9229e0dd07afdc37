// MelWeightMatrix (ai.onnx), versions 17.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kMelWeightMatrix;
constexpr Operator kMelWeightMatrix{
    .domain = kOnnxDomain,
    .name = "MelWeightMatrix",
    .versions = {
        {.since_version = 17,
         .inputs = {{"num_mel_bins", "T1"},
                    {"dft_length", "T1"},
                    {"sample_rate", "T1"},
                    {"lower_edge_hertz", "T2"},
                    {"upper_edge_hertz", "T2"}},
         .outputs = {{"output", "T3"}},
         .attributes = {attr("output_datatype", 1)},
         .constraints = {{"T1", tensor("int32 int64")},
                         {"T2", tensor("float float16 double bfloat16")},
                         {"T3", tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 "
                                       "float double bfloat16")}}},
    }};
static_assert(isWellFormed(kMelWeightMatrix));

}  // namespace onyx::ops::ai_onnx
