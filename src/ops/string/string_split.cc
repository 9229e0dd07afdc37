// StringSplit (ai.onnx), versions 20.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <string>
#include <vector>

#include "onyx/ops/inference_context.h"
#include "ops/kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Y adds an axis as long as the most substrings any input string splits into; Z, the
// count per string, has the input's shape.
void inferStringSplit(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  Dims dims = *in;
  if (ctx.hasOutput(1)) ctx.setOutputShape(1, dims);
  dims.push_back(ctx.dims().fresh());
  ctx.setOutputShape(0, std::move(dims));
}

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' ||
         (c >= '\x1c' && c <= '\x1f');
}

// Python's str.split: with no delimiter, runs of whitespace separate and leading and
// trailing whitespace gives no empty pieces; `maxsplit` < 0 splits without limit.
std::vector<std::string> splitText(const std::string& text, const std::string& delimiter,
                                   int64_t maxsplit) {
  std::vector<std::string> pieces;
  if (delimiter.empty()) {
    size_t i = 0;
    while (true) {
      while (i < text.size() && isSpace(text[i])) ++i;
      if (i >= text.size()) break;
      if (maxsplit >= 0 && static_cast<int64_t>(pieces.size()) == maxsplit) {
        pieces.push_back(text.substr(i));
        break;
      }
      size_t end = i;
      while (end < text.size() && !isSpace(text[end])) ++end;
      pieces.push_back(text.substr(i, end - i));
      i = end;
    }
    return pieces;
  }
  size_t start = 0;
  while (true) {
    size_t found = text.find(delimiter, start);
    if (found == std::string::npos ||
        (maxsplit >= 0 && static_cast<int64_t>(pieces.size()) == maxsplit)) {
      pieces.push_back(text.substr(start));
      break;
    }
    pieces.push_back(text.substr(start, found - start));
    start = found + delimiter.size();
  }
  return pieces;
}

Status runStringSplit(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  if (x == nullptr || !x->isString()) return ctx.fail("X must be a string tensor");
  std::string delimiter(ctx.stringAttribute("delimiter").value_or(""));
  int64_t maxsplit = ctx.intAttribute("maxsplit").value_or(-1);
  std::vector<std::vector<std::string>> pieces;
  pieces.reserve(x->size());
  size_t widest = 0;
  for (const std::string& text : x->strings()) {
    pieces.push_back(splitText(text, delimiter, maxsplit));
    widest = std::max(widest, pieces.back().size());
  }
  if (widest != 0 && x->size() > (size_t{1} << 28) / widest) {
    return ctx.fail("the padded result would hold too many strings");
  }
  std::vector<int64_t> shape = x->shape();
  Array counts(ElementType::kInt64, shape);
  shape.push_back(static_cast<int64_t>(widest));
  Result<Array> made = Array::allocate(ElementType::kString, shape);
  if (!made) return made.status();
  Array y = std::move(*made);
  std::vector<std::string>& out = y.strings();
  for (size_t i = 0; i < pieces.size(); ++i) {
    counts.data<int64_t>()[i] = static_cast<int64_t>(pieces[i].size());
    for (size_t k = 0; k < pieces[i].size(); ++k) out[i * widest + k] = std::move(pieces[i][k]);
  }
  ctx.setOutput(0, std::move(y));
  ctx.setOutput(1, std::move(counts));
  return Status::ok();
}

}  // namespace

extern const Operator kStringSplit;
constexpr Operator kStringSplit{
    .domain = kOnnxDomain,
    .name = "StringSplit",
    .versions = {
        {.since_version = 20,
         .inputs = {{"X", "T1"}},
         .outputs = {{"Y", "T2"}, {"Z", "T3"}},
         .attributes = {attr("delimiter", kString), attr("maxsplit", kInt)},
         .constraints = {{"T1", tensor("string")},
                         {"T2", tensor("string")},
                         {"T3", tensor("int64")}},
         .infer = inferStringSplit,
         .kernel = runStringSplit},
    }};
static_assert(isWellFormed(kStringSplit));

}  // namespace onyx::ops::ai_onnx
