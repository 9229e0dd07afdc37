// DictVectorizer (ai.onnx.ml), versions 1.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx_ml {
using namespace dsl;

namespace {

// The map's value type. The shape is left unknown: the spec says 1-D, runtimes give
// [1, vocabulary].
void inferDictVectorizer(InferenceContext& ctx) {
  const InferredType* map = ctx.inputType(0);
  if (map == nullptr || map->kind != InferredType::Kind::kMap || map->elem == nullptr) return;
  if (map->elem->isTensor() && map->elem->elem_type != 0) {
    ctx.setOutputElemType(0, map->elem->elem_type);
  }
}

}  // namespace

extern const Operator kDictVectorizer;
constexpr Operator kDictVectorizer{
    .domain = kMlDomain,
    .name = "DictVectorizer",
    .versions = {
        {.since_version = 1,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}},
         .attributes = {attr("int64_vocabulary", kInts), attr("string_vocabulary", kStrings)},
         .constraints = {{"T1",
                          types("map(string, int64), map(int64, string), map(int64, float), "
                                "map(int64, double), map(string, float), map(string, double)")},
                         {"T2", tensor("int64 float double string")}},
         .infer = inferDictVectorizer},
    }};
static_assert(isWellFormed(kDictVectorizer));

}  // namespace onyx::ops::ai_onnx_ml
