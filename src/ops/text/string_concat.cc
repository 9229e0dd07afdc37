// StringConcat (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferStringConcat(InferenceContext& ctx) { inferBroadcast(ctx); }

}  // namespace

extern const Operator kStringConcat;
constexpr Operator kStringConcat{.domain = kOnnxDomain,
                                 .name = "StringConcat",
                                 .versions = {
                                     {.since_version = 20,
                                      .inputs = {{"X", "T"}, {"Y", "T"}},
                                      .outputs = {{"Z", "T"}},
                                      .constraints = {{"T", tensor("string")}},
                                      .infer = inferStringConcat},
                                 }};
static_assert(isWellFormed(kStringConcat));

}  // namespace onyx::ops::ai_onnx
