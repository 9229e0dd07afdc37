// ZipMap (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

extern const Operator kZipMap;
constexpr Operator kZipMap{
    .domain = kMlDomain,
    .name = "ZipMap",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "tensor(float)"}},
         .outputs = {{"Z", "T"}},
         .attributes = {attr("classlabels_int64s", kInts), attr("classlabels_strings", kStrings)},
         .constraints = {{"T", types("seq(map(string, float)), seq(map(int64, float))")},
                         {"tensor(float)", tensor("float")}}},
    }};
static_assert(isWellFormed(kZipMap));

}  // namespace onyx::ops::ai_onnx_ml
