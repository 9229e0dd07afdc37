// Split (ai.onnx), versions 1, 2, 11, 13, 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/tensor/tensor_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The sizes of the parts come from `split` (an input in versions 1 and 13+, an attribute
// in 1, 2 and 11); without it the axis divides equally, or from version 18 with
// num_outputs into parts of ceil(size / n) and a smaller last one.
void inferSplit(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr || in->empty()) {
    if (in != nullptr) ctx.fail("Split needs an input of rank 1 or more");
    return;
  }
  std::optional<size_t> axis = normalizeAxis(ctx, ctx.intAttribute("axis").value_or(0), in->size());
  if (!axis) return;
  int since = ctx.schema().since_version;
  IntList split = intList(ctx, since == 1 || since >= 13 ? std::optional<size_t>(1) : std::nullopt,
                          since < 13 ? "split" : "");
  size_t parts = ctx.outputCount();
  DimValue size = (*in)[*axis];
  SymbolicDims& dims = ctx.dims();
  Dims sizes;
  sizes.reserve(parts);
  if (split.given) {
    if (!split.known) {
      for (size_t i = 0; i < parts; ++i) sizes.push_back(dims.fresh());
    } else {
      if (split.values.size() != parts) {
        ctx.fail("Split has " + std::to_string(split.values.size()) + " sizes for " +
                 std::to_string(parts) + " outputs");
        return;
      }
      int64_t total = 0;
      for (int64_t part : split.values) {
        if (part < 0 || part > INT64_MAX - total) {
          ctx.fail("Split's size " + std::to_string(part) + " is negative or too large");
          return;
        }
        total += part;
        sizes.push_back(DimValue::known(part));
      }
      if (size.isKnown() && size.value() != total) {
        ctx.fail("Split's sizes add up to " + std::to_string(total) + " but the axis has " +
                 std::to_string(size.value()));
        return;
      }
    }
  } else {
    std::optional<int64_t> num_outputs =
        since >= 18 ? ctx.intAttribute("num_outputs") : std::nullopt;
    if (num_outputs && *num_outputs != static_cast<int64_t>(parts)) {
      ctx.fail("Split's num_outputs is " + std::to_string(*num_outputs) + " but it has " +
               std::to_string(parts) + " outputs");
      return;
    }
    DimValue count = DimValue::known(static_cast<int64_t>(parts));
    if (std::optional<DimValue> equal = dims.divideExact(size, count)) {
      sizes.assign(parts, *equal);
    } else if (size.isKnown() && num_outputs) {
      DimValue chunk = dims.divideCeil(size, count);
      int64_t rest = size.value() - chunk.value() * static_cast<int64_t>(parts - 1);
      if (rest <= 0) {
        ctx.fail("Split cannot cut " + std::to_string(size.value()) + " into " +
                 std::to_string(parts) + " non-empty parts");
        return;
      }
      sizes.assign(parts - 1, chunk);
      sizes.push_back(DimValue::known(rest));
    } else if (size.isKnown()) {
      ctx.fail("Split cannot cut " + std::to_string(size.value()) + " into " +
               std::to_string(parts) + " equal parts");
      return;
    } else {
      for (size_t i = 0; i < parts; ++i) sizes.push_back(dims.fresh());
    }
  }
  for (size_t i = 0; i < parts; ++i) {
    if (!ctx.hasOutput(i)) continue;
    Dims out = *in;
    out[*axis] = sizes[i];
    ctx.setOutputShape(i, std::move(out));
  }
}

}  // namespace

constexpr Formals kInputs2 = {{"input", "T"}};
constexpr Formals kInputs13 = {{"input", "T"}, optional("split", "tensor(int64)")};
constexpr Formals kOutputs2 = {variadic("outputs", "T", 1)};
constexpr Attributes kAttributes2 = {attr("axis", 0), attr("split", kInts)};
constexpr Constraints kConstraints2 = {{"T", tensor(kIr3Types)}};
constexpr Constraints kConstraints13 = {{"T", tensor(kIr4Types)},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kSplit;
constexpr Operator kSplit{.domain = kOnnxDomain,
                          .name = "Split",
                          .versions = {
                              {.since_version = 1,
                               .inputs = {{"input", "T"}, optional("split", "T")},
                               .outputs = {variadic("outputs...", "T", 1)},
                               .attributes = {attr("axis", kInt), attr("split", kInts)},
                               .constraints = {{"T", tensor("float16 float double")}},
                               .infer = inferSplit},
                              {.since_version = 2,
                               .inputs = kInputs2,
                               .outputs = kOutputs2,
                               .attributes = kAttributes2,
                               .constraints = kConstraints2,
                               .infer = inferSplit},
                              {.since_version = 11,
                               .inputs = kInputs2,
                               .outputs = kOutputs2,
                               .attributes = kAttributes2,
                               .constraints = kConstraints2,
                               .infer = inferSplit},
                              {.since_version = 13,
                               .inputs = kInputs13,
                               .outputs = kOutputs2,
                               .attributes = {attr("axis", 0)},
                               .constraints = kConstraints13,
                               .infer = inferSplit},
                              {.since_version = 18,
                               .inputs = kInputs13,
                               .outputs = kOutputs2,
                               .attributes = {attr("axis", 0), attr("num_outputs", kInt)},
                               .constraints = kConstraints13,
                               .infer = inferSplit},
                          }};
static_assert(isWellFormed(kSplit));

}  // namespace onyx::ops::ai_onnx
