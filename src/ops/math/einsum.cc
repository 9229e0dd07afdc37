// Einsum (ai.onnx), versions 12.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <array>
#include <string>
#include <string_view>
#include "onyx/core/quote.h"
#include "onyx/ops/inference_context.h"
#include "ops/math/linalg_kernels.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

bool isLabel(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// What the equation's left side says about one label: its size, and how often it occurs.
struct Label {
  DimValue dim;
  bool has_dim = false;
  int count = 0;
};

// Two sizes of one label (or one ellipsis axis): 1 broadcasts, a number beats a symbol.
// False when both are numbers other than 1 that differ.
bool mergeDim(InferenceContext& ctx, DimValue& into, DimValue dim) {
  if (into == dim || dim.is(1)) return true;
  if (into.is(1)) {
    into = dim;
    return true;
  }
  if (into.isKnown() && dim.isKnown()) return false;
  if (dim.isKnown()) {
    into = dim;
  } else if (!into.isKnown()) {
    into = ctx.dims().fresh();
  }
  return true;
}

// The output of an equation such as "bij,bjk->bik" or "...ii" (implicit output: the ellipsis
// axes, then the labels that occur once, in ASCII order).
void inferEinsum(InferenceContext& ctx) {
  std::optional<std::string_view> equation = ctx.stringAttribute("equation");
  if (!equation) return;
  size_t arrow = equation->find("->");
  std::string_view left = equation->substr(0, arrow);
  std::string_view right =
      arrow == std::string_view::npos ? std::string_view{} : equation->substr(arrow + 2);
  std::array<Label, 128> labels{};
  Dims ellipsis;               // the broadcast of the operands' ellipsis axes
  bool ellipsis_known = true;  // false when an operand with an ellipsis has unknown rank
  size_t operand = 0;
  size_t begin = 0;
  while (true) {
    size_t comma = left.find(',', begin);
    std::string_view term = left.substr(
        begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin);
    if (operand >= ctx.inputCount()) {
      ctx.fail("the equation has more operands than the node's " +
               std::to_string(ctx.inputCount()) + " inputs");
      return;
    }
    size_t letters = 0;
    bool has_ellipsis = false;
    for (size_t i = 0; i < term.size(); ++i) {
      char c = term[i];
      if (isLabel(c)) {
        ++letters;
      } else if (c == '.' && !has_ellipsis && term.substr(i, 3) == "...") {
        has_ellipsis = true;
        i += 2;
      } else if (c != ' ') {
        ctx.fail("the equation's term " + quoted(term) + " has a character " +
                 quoted(std::string(1, c)) + " that is neither a letter nor one ellipsis");
        return;
      }
    }
    const Dims* shape = ctx.inputShape(operand);
    if (shape != nullptr && (has_ellipsis ? shape->size() < letters : shape->size() != letters)) {
      ctx.fail("operand " + std::to_string(operand) + " has rank " + std::to_string(shape->size()) +
               " but its term " + quoted(term) + " names " + std::to_string(letters) + " axes");
      return;
    }
    size_t ellipsis_rank = shape != nullptr ? shape->size() - letters : 0;
    if (has_ellipsis && shape == nullptr) ellipsis_known = false;
    if (has_ellipsis && shape != nullptr && ellipsis_rank > ellipsis.size()) {
      ellipsis.insert(ellipsis.begin(), ellipsis_rank - ellipsis.size(), DimValue::known(1));
    }
    size_t axis = 0;
    for (size_t i = 0; i < term.size(); ++i) {
      char c = term[i];
      if (c == '.') {
        for (size_t e = 0; shape != nullptr && e < ellipsis_rank; ++e) {
          DimValue& into = ellipsis[ellipsis.size() - ellipsis_rank + e];
          DimValue dim = (*shape)[axis + e];
          if (!mergeDim(ctx, into, dim)) {
            ctx.fail("the ellipsis axes do not broadcast: " + std::to_string(into.value()) +
                     " and " + std::to_string(dim.value()));
            return;
          }
        }
        axis += ellipsis_rank;
        i += 2;
        continue;
      }
      if (!isLabel(c)) continue;
      Label& label = labels[static_cast<unsigned char>(c)];
      ++label.count;
      if (shape != nullptr) {
        DimValue dim = (*shape)[axis];
        if (!label.has_dim) {
          label.dim = dim;
          label.has_dim = true;
        } else if (!mergeDim(ctx, label.dim, dim)) {
          ctx.fail("label " + quoted(std::string(1, c)) + " has sizes " +
                   std::to_string(label.dim.value()) + " and " + std::to_string(dim.value()));
          return;
        }
      }
      ++axis;
    }
    ++operand;
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  if (operand != ctx.inputCount()) {
    ctx.fail("the equation has " + std::to_string(operand) + " operands for " +
             std::to_string(ctx.inputCount()) + " inputs");
    return;
  }

  Dims out;
  auto labelDim = [&](char c) {
    const Label& label = labels[static_cast<unsigned char>(c)];
    return label.has_dim ? label.dim : ctx.dims().fresh();
  };
  if (arrow != std::string_view::npos) {
    bool has_ellipsis = false;
    for (size_t i = 0; i < right.size(); ++i) {
      char c = right[i];
      if (c == '.' && !has_ellipsis && right.substr(i, 3) == "...") {
        if (!ellipsis_known) return;
        has_ellipsis = true;
        out.insert(out.end(), ellipsis.begin(), ellipsis.end());
        i += 2;
      } else if (isLabel(c)) {
        if (labels[static_cast<unsigned char>(c)].count == 0) {
          ctx.fail("the equation's output names label " + quoted(std::string(1, c)) +
                   ", which no operand has");
          return;
        }
        out.push_back(labelDim(c));
      } else if (c != ' ') {
        ctx.fail("the equation's output " + quoted(right) + " has a character " +
                 quoted(std::string(1, c)) + " that is neither a letter nor one ellipsis");
        return;
      }
    }
  } else {
    if (!ellipsis_known) return;
    out = ellipsis;
    for (size_t c = 0; c < labels.size(); ++c) {
      if (labels[c].count == 1) out.push_back(labelDim(static_cast<char>(c)));
    }
  }
  ctx.setOutputShape(0, std::move(out));
}

}  // namespace

namespace {

Status runEinsum(KernelContext& ctx) { return runEinsumKernel(ctx); }

}  // namespace

extern const Operator kEinsum;
constexpr Operator kEinsum{
    .domain = kOnnxDomain,
    .name = "Einsum",
    .versions = {
        {.since_version = 12,
         .inputs = {variadic("Inputs", "T", 1)},
         .outputs = {{"Output", "T"}},
         .attributes = {required("equation", kString)},
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")}},
         .infer = inferEinsum,
         .kernel = runEinsum},
    }};
static_assert(isWellFormed(kEinsum));

}  // namespace onyx::ops::ai_onnx
