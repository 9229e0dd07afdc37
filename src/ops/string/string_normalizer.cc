// StringNormalizer (ai.onnx), versions 10.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <set>
#include <string>
#include <vector>

#include "onyx/ir/attribute.h"
#include "onyx/ops/inference_context.h"
#include "ops/kernels.h"
#include "ops/lib/string_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The input is [C] or [1, C]; stopwords may remove strings, so C is then unknown (and
// when all go, one empty string is left).
void inferStringNormalizer(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  if (in->size() != 1 && in->size() != 2) {
    ctx.fail("the input has rank " + std::to_string(in->size()) + ", not 1 ([C]) or 2 ([1, C])");
    return;
  }
  if (in->size() == 2 && (*in)[0].isKnown() && (*in)[0].value() != 1) {
    ctx.fail("a 2-D input must be [1, C], its first dimension is " +
             std::to_string((*in)[0].value()));
    return;
  }
  const Attribute* stopwords = ctx.attribute("stopwords");
  bool may_remove = stopwords != nullptr && !stopwords->rare().strings.empty();
  Dims dims = *in;
  if (may_remove) dims.back() = ctx.dims().fresh();
  ctx.setOutputShape(0, std::move(dims));
}

// The words of `text` (split at single spaces) that are not stopwords, joined again.
std::string withoutStopwords(const std::string& text, const std::set<std::string>& stops,
                             bool case_sensitive) {
  std::string out;
  bool first = true;
  size_t start = 0;
  while (true) {
    size_t end = text.find(' ', start);
    std::string word =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (stops.count(case_sensitive ? word : withCase(word, false)) == 0) {
      if (!first) out.push_back(' ');
      out += word;
      first = false;
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

Status runStringNormalizer(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr || !x->isString()) return ctx.fail("X must be a string tensor");
  if (x->rank() != 1 && !(x->rank() == 2 && x->dim(0) == 1)) {
    return ctx.fail("X must be [C] or [1, C]");
  }
  std::string action(ctx.stringAttribute("case_change_action").value_or("NONE"));
  if (action != "NONE" && action != "LOWER" && action != "UPPER") {
    return ctx.fail("case_change_action " + action + " is not NONE, LOWER or UPPER");
  }
  bool case_sensitive = ctx.intAttribute("is_case_sensitive").value_or(0) != 0;
  std::set<std::string> stops;
  for (const std::string& word : stringsAttributeOf(ctx, "stopwords")) {
    stops.insert(case_sensitive ? word : withCase(word, false));
  }
  std::vector<std::string> kept;
  for (const std::string& text : x->strings()) {
    std::string value = stops.empty() ? text : withoutStopwords(text, stops, case_sensitive);
    if (action == "LOWER") value = withCase(value, false);
    if (action == "UPPER") value = withCase(value, true);
    if (!value.empty()) kept.push_back(std::move(value));
  }
  if (kept.empty()) kept.emplace_back();
  std::vector<int64_t> shape = {static_cast<int64_t>(kept.size())};
  if (x->rank() == 2) shape.insert(shape.begin(), 1);
  Array y(ElementType::kString, shape);
  y.strings() = std::move(kept);
  ctx.setOutput(0, std::move(y));
  return Status::ok();
}

}  // namespace

extern const Operator kStringNormalizer;
constexpr Operator kStringNormalizer{
    .domain = kOnnxDomain,
    .name = "StringNormalizer",
    .versions = {
        {.since_version = 10,
         .inputs = {{"X", "tensor(string)"}},
         .outputs = {{"Y", "tensor(string)"}},
         .attributes = {attr("case_change_action", "NONE"), attr("is_case_sensitive", 0),
                        attr("locale", kString), attr("stopwords", kStrings)},
         .constraints = {{"tensor(string)", tensor("string")}},
         .infer = inferStringNormalizer,
         .kernel = runStringNormalizer},
    }};
static_assert(isWellFormed(kStringNormalizer));

}  // namespace onyx::ops::ai_onnx
