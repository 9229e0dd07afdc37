// RegexFullMatch (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferRegexFullMatch(InferenceContext& ctx) { inferSameShape(ctx); }

}  // namespace

extern const Operator kRegexFullMatch;
constexpr Operator kRegexFullMatch{
    .domain = kOnnxDomain,
    .name = "RegexFullMatch",
    .versions = {
        {.since_version = 20,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}},
         .attributes = {attr("pattern", kString)},
         .constraints = {{"T1", tensor("string")}, {"T2", tensor("bool")}},
         .infer = inferRegexFullMatch},
    }};
static_assert(isWellFormed(kRegexFullMatch));

}  // namespace onyx::ops::ai_onnx
