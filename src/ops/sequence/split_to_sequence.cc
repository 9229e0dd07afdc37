// SplitToSequence (ai.onnx), versions 11, 24.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstdint>

#include "ops/lib/sequence_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/type_conversion.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Each element is the input with the split axis resized to its chunk's length: the common
// length when all chunks have one, else a fresh dimension. Without `split` the chunks have
// length 1, and keepdims = 0 removes the axis.
void inferSplitToSequence(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  int32_t elem_type = ctx.inputElemType(0);
  if (in == nullptr) {
    if (elem_type != 0)
      ctx.setOutputType(0, InferredType::sequence(InferredType::tensor(elem_type)));
    return;
  }
  std::optional<size_t> axis = normalizeAxis(ctx, ctx.intAttribute("axis").value_or(0), in->size());
  if (!axis) return;
  DimValue total = (*in)[*axis];
  Dims dims = *in;
  if (!ctx.hasInput(1)) {
    if (ctx.intAttribute("keepdims").value_or(1) == 0) {
      dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(*axis));
    } else {
      dims[*axis] = DimValue::known(1);
    }
  } else {
    const Dims* split = ctx.inputData(1);
    // Constant's rule keeps a `value` tensor as a constant, not as data.
    std::optional<Dims> constant_split;
    if (split == nullptr && ctx.inputConstant(1) != nullptr) {
      constant_split = ops::integerElements(*ctx.inputConstant(1));
      if (constant_split) split = &*constant_split;
    }
    std::optional<size_t> split_rank = ctx.inputRank(1);
    DimValue chunk = ctx.dims().fresh();
    if (split != nullptr && split_rank && *split_rank == 0 && split->size() == 1) {
      DimValue size = (*split)[0];
      if (size.isKnown() && size.value() <= 0) {
        ctx.fail("split is " + std::to_string(size.value()) + ", not a positive chunk length");
        return;
      }
      if (size.isKnown() && total.isKnown() && total.value() % size.value() == 0) chunk = size;
      if (size.isKnown() && total.isKnown() && total.value() <= size.value()) chunk = total;
    } else if (split != nullptr && split_rank && *split_rank == 1) {
      bool all_known = true;
      int64_t sum = 0;
      for (DimValue length : *split) {
        if (!length.isKnown()) {
          all_known = false;
          continue;
        }
        if (length.value() < 0) {
          ctx.fail("split has the negative length " + std::to_string(length.value()));
          return;
        }
        if (sum <= INT64_MAX - length.value()) sum += length.value();
      }
      if (all_known && total.isKnown() && sum != total.value()) {
        ctx.fail("split's lengths add up to " + std::to_string(sum) + ", the axis has " +
                 std::to_string(total.value()));
        return;
      }
      if (!split->empty() && std::all_of(split->begin(), split->end(),
                                         [&](DimValue d) { return d == split->front(); })) {
        chunk = split->front();
      }
    }
    dims[*axis] = chunk;
  }
  ctx.setOutputType(0, InferredType::sequence(InferredType::tensor(elem_type, std::move(dims))));
}

Status runSplitToSequence(KernelContext& ctx) {
  const Array* input = ctx.inputArray(0);
  if (input == nullptr) return ctx.fail("input is not a tensor");
  int64_t axis_attribute = ctx.intAttribute("axis").value_or(0);
  std::optional<size_t> axis = kernelAxis(axis_attribute, input->rank());
  if (!axis) return ctx.fail("axis " + std::to_string(axis_attribute) + " is out of range");
  int64_t total = input->dim(*axis);
  std::vector<int64_t> lengths;
  bool squeeze = false;
  if (const Array* split = ctx.inputArray(1)) {
    std::optional<std::vector<int64_t>> values = integersOf(*split);
    if (!values || split->rank() > 1) return ctx.fail("split must be an int32/int64 scalar or 1-D");
    if (split->rank() == 0) {
      int64_t chunk = (*values)[0];
      if (chunk <= 0) return ctx.fail("split is " + std::to_string(chunk) + ", not positive");
      for (int64_t start = 0; start < total; start += chunk) {
        lengths.push_back(std::min(chunk, total - start));
      }
    } else {
      int64_t sum = 0;
      for (int64_t length : *values) {
        if (length < 0 || length > total - sum) {
          return ctx.fail("split's lengths do not add up to the axis's " + std::to_string(total));
        }
        sum += length;
      }
      if (sum != total) {
        return ctx.fail("split's lengths add up to " + std::to_string(sum) + ", the axis has " +
                        std::to_string(total));
      }
      lengths = *values;
    }
  } else {
    lengths.assign(static_cast<size_t>(total), 1);
    squeeze = ctx.intAttribute("keepdims").value_or(1) == 0;
  }
  std::vector<EvalValue> items;
  items.reserve(lengths.size());
  int64_t start = 0;
  for (int64_t length : lengths) {
    Array part = sliceAlongAxis(*input, *axis, start, length);
    if (squeeze) {
      std::vector<int64_t> shape = part.shape();
      shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(*axis));
      part = part.reshaped(std::move(shape));
    }
    items.push_back(EvalValue::of(std::move(part)));
    start += length;
  }
  ctx.setOutput(0, EvalValue::sequence(std::move(items)));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs11 = {{"input", "T"}, optional("split", "I")};
constexpr Formals kOutputs11 = {{"output_sequence", "S"}};
constexpr Attributes kAttributes11 = {attr("axis", 0), attr("keepdims", 1)};

extern const Operator kSplitToSequence;
constexpr Operator kSplitToSequence{.domain = kOnnxDomain,
                                    .name = "SplitToSequence",
                                    .versions = {
                                        {.since_version = 11,
                                         .inputs = kInputs11,
                                         .outputs = kOutputs11,
                                         .attributes = kAttributes11,
                                         .constraints = {{"T", tensor(kIr3Types)},
                                                         {"I", tensor("int32 int64")},
                                                         {"S", sequence(kIr3Types)}},
                                         .infer = inferSplitToSequence,
                                         .kernel = runSplitToSequence},
                                        {.since_version = 24,
                                         .inputs = kInputs11,
                                         .outputs = kOutputs11,
                                         .attributes = kAttributes11,
                                         .constraints = {{"T", tensor(kIr4Types)},
                                                         {"I", tensor("int32 int64")},
                                                         {"S", sequence(kIr4Types)}},
                                         .infer = inferSplitToSequence,
                                         .kernel = runSplitToSequence,
                                         .step = typesOnly("bfloat16 added")},
                                    }};
static_assert(isWellFormed(kSplitToSequence));

}  // namespace onyx::ops::ai_onnx
