// TfIdfVectorizer (ai.onnx), versions 9.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <string>
#include "onyx/ops/inference_context.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// (C) → (max(ngram_indexes) + 1), (N, C) → (N, max(ngram_indexes) + 1).
void inferTfIdfVectorizer(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (input->empty() || input->size() > 2) {
    ctx.fail("the input has rank " + std::to_string(input->size()) +
             "; TfIdfVectorizer takes rank 1 or 2");
    return;
  }
  std::optional<std::vector<int64_t>> indexes = ctx.intsAttribute("ngram_indexes");
  DimValue width = ctx.dims().fresh();
  if (indexes && !indexes->empty()) {
    int64_t largest = *std::max_element(indexes->begin(), indexes->end());
    if (largest < 0 || largest == INT64_MAX) {
      ctx.fail("ngram_indexes has the largest value " + std::to_string(largest));
      return;
    }
    width = DimValue::known(largest + 1);
  }
  if (input->size() == 1) {
    ctx.setOutputShape(0, {width});
  } else {
    ctx.setOutputShape(0, {(*input)[0], width});
  }
}

}  // namespace

extern const Operator kTfIdfVectorizer;
constexpr Operator kTfIdfVectorizer{
    .domain = kOnnxDomain,
    .name = "TfIdfVectorizer",
    .versions = {
        {.since_version = 9,
         .inputs = {{"X", "T"}},
         .outputs = {{"Y", "T1"}},
         .attributes = {required("max_gram_length", kInt), required("max_skip_count", kInt),
                        required("min_gram_length", kInt), required("mode", kString),
                        required("ngram_counts", kInts), required("ngram_indexes", kInts),
                        attr("pool_int64s", kInts), attr("pool_strings", kStrings),
                        attr("weights", kFloats)},
         .constraints = {{"T", tensor("string int32 int64")}, {"T1", tensor("float")}},
         .infer = inferTfIdfVectorizer},
    }};
static_assert(isWellFormed(kTfIdfVectorizer));

}  // namespace onyx::ops::ai_onnx
