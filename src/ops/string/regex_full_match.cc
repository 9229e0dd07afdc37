// RegexFullMatch (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <regex>
#include <string>
#include <vector>
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

#include "ops/kernels.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

void inferRegexFullMatch(InferenceContext& ctx) { inferSameShape(ctx); }

Status runRegexFullMatch(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr || !x->isString()) return ctx.fail("X must be a string tensor");
  std::string pattern(ctx.stringAttribute("pattern").value_or(""));
  std::regex regex;
  try {
    regex.assign(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& error) {
    return ctx.fail("pattern " + pattern + " is not a valid regular expression: " + error.what());
  }
  Array y(ElementType::kBool, x->shape());
  const std::vector<std::string>& in = x->strings();
  bool* out = y.data<bool>();
  try {
    for (size_t i = 0; i < in.size(); ++i) out[i] = std::regex_match(in[i], regex);
  } catch (const std::regex_error& error) {
    return ctx.fail(std::string("matching failed: ") + error.what());
  }
  ctx.setOutput(0, std::move(y));
  return Status::ok();
}

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
         .infer = inferRegexFullMatch,
         .kernel = runRegexFullMatch},
    }};
static_assert(isWellFormed(kRegexFullMatch));

}  // namespace onyx::ops::ai_onnx
