// Split (ai.onnx), versions 1, 2, 11, 13, 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/type.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"
#include "ops/version_adapters.h"

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
  // From version 18 the sizes come from exactly one of the split input and num_outputs, as
  // onnx's Split-18 inference requires (onnx/defs/tensor/defs.cc).
  if (since >= 18 && ctx.hasInput(1) == ctx.intAttribute("num_outputs").has_value()) {
    ctx.fail(ctx.hasInput(1) ? "both the split input and num_outputs are given; Split takes one"
                             : "neither the split input nor num_outputs is given; Split needs one");
    return;
  }
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

Status runSplit(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  size_t rank = data->rank();
  if (rank == 0) return ctx.fail("cannot split a scalar");
  std::optional<size_t> axis = kernelAxis(ctx.intAttribute("axis").value_or(0), rank);
  if (!axis) return ctx.fail("axis is out of range for rank " + std::to_string(rank));
  int64_t size = data->dim(*axis);
  bool attribute = ctx.schema().since_version < 13;
  Result<std::optional<std::vector<int64_t>>> given =
      intListOf(ctx, attribute ? std::nullopt : std::optional<size_t>(1), attribute ? "split" : "");
  if (!given) return given.status();
  if (const Array* numbers = ctx.inputArray(1); numbers != nullptr && attribute) {
    // Split-1's split input has the data's (floating-point) type.
    std::vector<int64_t> values;
    for (size_t i = 0; i < numbers->size(); ++i) {
      double value = elementAsDouble(*numbers, i);
      if (!(value >= 0 && value <= static_cast<double>(size))) {
        return ctx.fail("split has an entry outside [0, " + std::to_string(size) + "]");
      }
      values.push_back(static_cast<int64_t>(value));
    }
    *given = std::move(values);
  }
  size_t outputs = ctx.outputCount();
  std::vector<int64_t> parts;
  if (*given) {
    parts = **given;
    if (parts.size() != outputs) {
      return ctx.fail("split has " + std::to_string(parts.size()) + " entries for " +
                      std::to_string(outputs) + " outputs");
    }
    int64_t total = 0;
    for (int64_t part : parts) {
      if (part < 0) return ctx.fail("split has a negative entry");
      if (part > size - total) {
        return ctx.fail("split adds up to more than " + std::to_string(size));
      }
      total += part;
    }
    if (total != size) {
      return ctx.fail("split does not add up to the dimension " + std::to_string(size));
    }
  } else {
    int64_t count = static_cast<int64_t>(outputs);
    if (std::optional<int64_t> num = ctx.intAttribute("num_outputs");
        num && ctx.schema().since_version >= 18) {
      if (*num != count) {
        return ctx.fail("num_outputs is " + std::to_string(*num) + " but the node has " +
                        std::to_string(count) + " outputs");
      }
    }
    if (count <= 0) return ctx.fail("needs outputs");
    int64_t chunk = size % count == 0 ? size / count : size / count + 1;
    parts.assign(outputs, chunk);
    parts.back() = size - chunk * (count - 1);
    if (parts.back() < 0) {
      return ctx.fail("cannot split a dimension of " + std::to_string(size) + " into " +
                      std::to_string(count) + " parts");
    }
  }
  int64_t outer = elementProduct(data->shape(), 0, *axis);
  int64_t inner = elementProduct(data->shape(), *axis + 1);
  int64_t row = size * inner;
  int64_t offset = 0;
  for (size_t i = 0; i < outputs; ++i) {
    std::vector<int64_t> shape = data->shape();
    shape[*axis] = parts[i];
    if (ctx.hasOutput(i)) {
      Array out(data->type(), shape);
      int64_t width = parts[i] * inner;
      copyOut(ctx, {outer, width}, *data, StridedView{offset, {row, 1}}, out);
      ctx.setOutput(i, std::move(out));
    }
    offset += parts[i] * inner;
  }
  return Status::ok();
}

// The dimensions of input `i` (each nullopt when unknown), from its type or its constant;
// nullopt when not even its rank is known.
std::optional<std::vector<std::optional<int64_t>>> inputDims(const NodeDraft& draft, size_t i) {
  std::vector<std::optional<int64_t>> dims;
  if (const Type* type = draft.inputType(i); type != nullptr && type->shape != nullptr) {
    for (const Dimension& dim : type->shape->dims) dims.push_back(dim.dim_value);
    return dims;
  }
  if (const Tensor* constant = draft.constantInput(i); constant != nullptr) {
    for (int64_t dim : constant->dims.values) dims.push_back(dim);
    return dims;
  }
  return std::nullopt;
}

// Up to version 2, where the lengths are the attribute split alone (version 1 also took
// them as input 1, in the data's type) and axis has the default 0, which version 1 lacks.
Status splitInputToAttribute(NodeDraft& draft) {
  if (draft.attribute("axis") == nullptr) {
    return draft.refuse("axis is absent, and version 1 gives it no default");
  }
  if (draft.hasInput(1)) {
    const Tensor* constant = draft.constantInput(1);
    if (constant == nullptr) return draft.refuse("split is not a constant");
    Result<Array> values = arrayFromTensor(*constant);
    if (!values) return draft.refuse("split's constant cannot be read");
    std::vector<int64_t> lengths;
    for (size_t k = 0; k < values->size(); ++k) {
      double length = elementAsDouble(*values, k);
      if (!(length >= 0 && length < 9.0e15) || length != std::floor(length)) {
        return draft.refuse("split holds a value that is not a length");
      }
      lengths.push_back(static_cast<int64_t>(length));
    }
    if (draft.attribute("split") != nullptr && draft.intsAttr("split") != lengths) {
      return draft.refuse("the split input and attribute differ");
    }
    draft.setIntsAttr("split", lengths);
  }
  draft.resizeInputs(1);
  return Status::ok();
}

// Down to version 1, whose axis has no default: version 2's, 0, is written out.
Status writeDefaultAxis(NodeDraft& draft) {
  if (draft.attribute("axis") == nullptr) draft.setIntAttr("axis", 0);
  return Status::ok();
}

// Up to version 13, where split is an input.
Status splitToInput(NodeDraft& draft) {
  if (draft.attribute("split") == nullptr) return Status::ok();
  std::optional<std::vector<int64_t>> split = draft.intsAttr("split");
  if (!split) return draft.refuse("split is not a list of ints");
  draft.removeAttribute("split");
  draft.setIntegersInput(1, *split);
  return Status::ok();
}

// Down to version 11, where split is an attribute: the input must be a constant.
Status splitToAttribute(NodeDraft& draft) {
  if (draft.hasInput(1)) {
    std::optional<std::vector<int64_t>> split = draft.constantIntegers(1);
    if (!split) return draft.refuse("split is not a constant");
    draft.setIntsAttr("split", *split);
  }
  draft.resizeInputs(1);
  return Status::ok();
}

// Up to version 18, which wants the number of parts written when split is not given.
Status writeNumOutputs(NodeDraft& draft) {
  if (!draft.hasInput(1)) {
    draft.setIntAttr("num_outputs", static_cast<int64_t>(draft.node().outputCount()));
  }
  return Status::ok();
}

// Down to version 13, which splits into equal parts when split is not given; version 18
// makes the last part smaller when the dimension does not divide, which takes the lengths
// written out, and so the dimension. (When it is unknown, an uneven split is an error in
// version 13, not a different result.)
Status dropNumOutputs(NodeDraft& draft) {
  if (draft.attribute("num_outputs") == nullptr) return Status::ok();
  draft.removeAttribute("num_outputs");
  if (draft.hasInput(1)) return Status::ok();
  std::optional<std::vector<std::optional<int64_t>>> dims = inputDims(draft, 0);
  std::optional<int64_t> axis = draft.attribute("axis") != nullptr ? draft.intAttr("axis") : 0;
  if (!axis || !dims) return Status::ok();
  const auto rank = static_cast<int64_t>(dims->size());
  const int64_t at = *axis < 0 ? *axis + rank : *axis;
  if (at < 0 || at >= rank) return Status::ok();
  std::optional<int64_t> size = (*dims)[static_cast<size_t>(at)];
  const auto count = static_cast<int64_t>(draft.node().outputCount());
  if (!size || count == 0 || *size % count == 0) return Status::ok();
  const int64_t chunk = *size / count + 1;
  std::vector<int64_t> lengths(static_cast<size_t>(count), chunk);
  lengths.back() = *size - chunk * (count - 1);
  if (lengths.back() < 0) return draft.refuse("the dimension is too short for num_outputs parts");
  draft.setIntegersInput(1, lengths);
  return Status::ok();
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
constexpr Operator kSplit{
    .domain = kOnnxDomain,
    .name = "Split",
    .versions = {
        {.since_version = 1,
         .inputs = {{"input", "T"}, optional("split", "T")},
         .outputs = {variadic("outputs...", "T", 1)},
         .attributes = {attr("axis", kInt), attr("split", kInts)},
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferSplit,
         .kernel = runSplit},
        {.since_version = 2,
         .inputs = kInputs2,
         .outputs = kOutputs2,
         .attributes = kAttributes2,
         .constraints = kConstraints2,
         .infer = inferSplit,
         .kernel = runSplit,
         .step = {.reviewed = true,
                  .change = "split input removed (the attribute stays); axis defaults to 0; all "
                            "tensor types added",
                  .up = splitInputToAttribute,
                  .down = writeDefaultAxis,
                  .up_refuses = "axis absent; split input not a constant"}},
        {.since_version = 11,
         .inputs = kInputs2,
         .outputs = kOutputs2,
         .attributes = kAttributes2,
         .constraints = kConstraints2,
         .infer = inferSplit,
         .kernel = runSplit,
         .step = {.reviewed = true,
                  .change = "negative axis allowed",
                  .down = axisFromFront,
                  .down_refuses = "negative axis, input rank unknown"}},
        {.since_version = 13,
         .inputs = kInputs13,
         .outputs = kOutputs2,
         .attributes = {attr("axis", 0)},
         .constraints = kConstraints13,
         .infer = inferSplit,
         .kernel = runSplit,
         .step = {.reviewed = true,
                  .change = "split became an input; bfloat16 added",
                  .up = splitToInput,
                  .down = splitToAttribute,
                  .down_refuses = "split not a constant"}},
        {.since_version = 18,
         .inputs = kInputs13,
         .outputs = kOutputs2,
         .attributes = {attr("axis", 0), attr("num_outputs", kInt)},
         .constraints = kConstraints13,
         .infer = inferSplit,
         .kernel = runSplit,
         .step = {.reviewed = true,
                  .change = "num_outputs added, which allows a smaller last part",
                  .up = writeNumOutputs,
                  .down = dropNumOutputs,
                  .down_refuses = "a dimension too short for num_outputs parts"}},
    }};
static_assert(isWellFormed(kSplit));

}  // namespace onyx::ops::ai_onnx
