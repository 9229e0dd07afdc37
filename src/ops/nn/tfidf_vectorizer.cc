// TfIdfVectorizer (ai.onnx), versions 9.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <map>
#include <string>
#include <vector>
#include "onyx/ops/inference_context.h"
#include "ops/kernels.h"
#include "ops/lib/string_kernels.h"
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

Status runTfIdfVectorizer(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr) return ctx.fail("X must be a tensor");
  if (x->rank() != 1 && x->rank() != 2) return ctx.fail("X must be [C] or [N, C]");
  std::string mode(ctx.stringAttribute("mode").value_or(""));
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF") {
    return ctx.fail("mode " + mode + " is not TF, IDF or TFIDF");
  }
  int64_t min_gram = ctx.intAttribute("min_gram_length").value_or(1);
  int64_t max_gram = ctx.intAttribute("max_gram_length").value_or(1);
  int64_t max_skip = ctx.intAttribute("max_skip_count").value_or(0);
  if (min_gram < 1 || max_gram < min_gram || max_skip < 0) {
    return ctx.fail("needs 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0");
  }
  std::vector<int64_t> counts = ctx.intsAttribute("ngram_counts").value_or(std::vector<int64_t>{});
  std::vector<int64_t> indexes =
      ctx.intsAttribute("ngram_indexes").value_or(std::vector<int64_t>{});
  std::vector<float> weights = ctx.floatsAttribute("weights").value_or(std::vector<float>{});
  std::vector<int64_t> pool = ctx.intsAttribute("pool_int64s").value_or(std::vector<int64_t>{});
  std::vector<std::string> pool_strings = stringsAttributeOf(ctx, "pool_strings");
  bool strings = !pool_strings.empty();
  if (strings != x->isString())
    return ctx.fail("the pool and X differ in kind (strings or integers)");
  // Strings are matched through their position in the pool (-1 for strings not in it).
  std::map<std::string, int64_t> string_ids;
  if (strings) {
    pool.clear();
    for (const std::string& text : pool_strings) {
      auto [it, added] = string_ids.emplace(text, static_cast<int64_t>(string_ids.size()));
      pool.push_back(it->second);
    }
  }
  int64_t width = 0;
  for (int64_t index : indexes) {
    if (index < 0 || index > (int64_t{1} << 40)) return ctx.fail("ngram_indexes holds a bad index");
    width = std::max(width, index + 1);
  }
  // Each n-gram of the pool (in order: all 1-grams, then 2-grams, ...) to its output column.
  std::map<std::vector<int64_t>, int64_t> columns;
  size_t ordinal = 0;
  for (size_t g = 0; g < counts.size(); ++g) {
    int64_t n = static_cast<int64_t>(g) + 1;
    int64_t begin = counts[g];
    int64_t end = g + 1 < counts.size() ? counts[g + 1] : static_cast<int64_t>(pool.size());
    if (begin < 0 || end < begin || end > static_cast<int64_t>(pool.size())) {
      return ctx.fail("ngram_counts does not fit the pool");
    }
    for (int64_t at = begin; at + n <= end; at += n, ++ordinal) {
      if (ordinal >= indexes.size())
        return ctx.fail("ngram_indexes has fewer entries than the pool has n-grams");
      if (n < min_gram || n > max_gram) continue;
      columns.emplace(std::vector<int64_t>(pool.begin() + at, pool.begin() + at + n),
                      indexes[ordinal]);
    }
  }
  // No n-gram of the pool is longer than its number of groups.
  max_gram = std::min(max_gram, static_cast<int64_t>(counts.size()));
  int64_t rows = x->rank() == 2 ? x->dim(0) : 1;
  int64_t row_size = x->rank() == 2 ? x->dim(1) : x->dim(0);
  std::vector<int64_t> tokens(x->size());
  for (size_t i = 0; i < x->size(); ++i) {
    if (strings) {
      auto found = string_ids.find(x->strings()[i]);
      tokens[i] = found == string_ids.end() ? -1 : found->second;
    } else if (x->type() == ElementType::kInt32) {
      tokens[i] = x->data<int32_t>()[i];
    } else if (x->type() == ElementType::kInt64) {
      tokens[i] = x->data<int64_t>()[i];
    } else {
      return ctx.fail("X must be string, int32 or int64");
    }
  }
  std::vector<int64_t> shape = {width};
  if (x->rank() == 2) shape.insert(shape.begin(), rows);
  Result<Array> made = Array::allocate(ElementType::kFloat, shape);
  if (!made) return made.status();
  Array y = std::move(*made);
  float* out = y.data<float>();
  std::fill(out, out + y.size(), 0.0f);
  std::vector<int64_t> frequency(static_cast<size_t>(width));
  std::vector<int64_t> gram;
  for (int64_t r = 0; r < rows; ++r) {
    std::fill(frequency.begin(), frequency.end(), 0);
    const int64_t* row = tokens.data() + r * row_size;
    for (int64_t n = min_gram; n <= max_gram; ++n) {
      // 1-grams are counted once; longer ones once per skip distance.
      int64_t skips = n == 1 ? 0 : max_skip;
      for (int64_t skip = 0; skip <= skips; ++skip) {
        int64_t step = skip + 1;
        if (n > 1 && step > row_size) break;
        for (int64_t start = 0; start + step * (n - 1) < row_size; ++start) {
          gram.clear();
          for (int64_t k = 0; k < n; ++k) gram.push_back(row[start + k * step]);
          auto found = columns.find(gram);
          if (found != columns.end()) ++frequency[static_cast<size_t>(found->second)];
        }
      }
    }
    float* line = out + r * width;
    for (int64_t c = 0; c < width; ++c) {
      int64_t f = frequency[static_cast<size_t>(c)];
      float w = static_cast<size_t>(c) < weights.size() ? weights[static_cast<size_t>(c)] : 1.0f;
      if (mode == "TF") {
        line[c] = static_cast<float>(f);
      } else if (mode == "IDF") {
        line[c] = f > 0 ? (weights.empty() ? 1.0f : w) : 0.0f;
      } else {
        line[c] = weights.empty() ? static_cast<float>(f) : w * static_cast<float>(f);
      }
    }
  }
  ctx.setOutput(0, std::move(y));
  return Status::ok();
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
         .infer = inferTfIdfVectorizer,
         .kernel = runTfIdfVectorizer},
    }};
static_assert(isWellFormed(kTfIdfVectorizer));

}  // namespace onyx::ops::ai_onnx
