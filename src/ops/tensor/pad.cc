// Pad (ai.onnx), versions 1, 2, 11, 13, 18, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/array_elements.h"
#include "onyx/core/element_type.h"
#include "onyx/core/quote.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/type.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/lib/tensor_rules.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Each padded axis grows by its begin and end pads (negative pads crop). The pads are an
// attribute before version 11 (`paddings` in version 1) and an input from 11; from 18 an
// `axes` input says which axes they are for.
void inferPad(InferenceContext& ctx) {
  const Dims* in = ctx.inputShape(0);
  if (in == nullptr) return;
  int since = ctx.schema().since_version;
  size_t rank = in->size();
  const Dims* pads = nullptr;
  Dims attribute_pads;
  if (since < 11) {
    std::optional<std::vector<int64_t>> values =
        ctx.intsAttribute(since == 1 ? "paddings" : "pads");
    if (!values) return;
    for (int64_t v : *values) attribute_pads.push_back(DimValue::known(v));
    pads = &attribute_pads;
  } else {
    pads = ctx.inputData(1);
  }
  std::vector<size_t> axes(rank);
  for (size_t i = 0; i < rank; ++i) axes[i] = i;
  if (since >= 18 && ctx.hasInput(3)) {
    std::optional<std::vector<int64_t>> given = knownNumbers(ctx.inputData(3));
    if (!given) {
      ctx.setOutputRank(0, rank);
      return;
    }
    std::optional<std::vector<size_t>> normalized = normalizeAxes(ctx, *given, rank);
    if (!normalized) return;
    axes = std::move(*normalized);
  }
  if (pads == nullptr) {
    Dims out = *in;
    for (size_t axis : axes) out[axis] = ctx.dims().fresh();
    ctx.setOutputShape(0, std::move(out));
    return;
  }
  if (pads->size() != 2 * axes.size()) {
    ctx.fail("Pad has " + std::to_string(pads->size()) + " pads for " +
             std::to_string(axes.size()) + " axes (it needs two per axis)");
    return;
  }
  SymbolicDims& dims = ctx.dims();
  Dims out = *in;
  for (size_t i = 0; i < axes.size(); ++i) {
    DimValue grown = dims.add(dims.add(out[axes[i]], (*pads)[i]), (*pads)[i + axes.size()]);
    if (grown.isKnown() && grown.value() < 0) {
      ctx.fail("Pad's pads crop axis " + std::to_string(axes[i]) + " to " +
               std::to_string(grown.value()) + " elements");
      return;
    }
    out[axes[i]] = grown;
  }
  ctx.setOutputShape(0, std::move(out));
}

Status runPad(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  int64_t version = ctx.schema().since_version;
  size_t rank = data->rank();
  Result<std::optional<std::vector<int64_t>>> pads =
      version < 11 ? intListOf(ctx, std::nullopt, version < 2 ? "paddings" : "pads")
                   : intListOf(ctx, 1, "");
  if (!pads) return pads.status();
  if (!*pads) return ctx.fail("needs pads");
  Result<std::optional<std::vector<int64_t>>> axes_given =
      version < 18 ? Result<std::optional<std::vector<int64_t>>>(std::nullopt)
                   : intListOf(ctx, 3, "");
  if (!axes_given) return axes_given.status();
  std::vector<size_t> axes;
  if (*axes_given) {
    Result<std::vector<size_t>> normal = kernelAxes(ctx, **axes_given, rank);
    if (!normal) return normal.status();
    axes = std::move(*normal);
  } else {
    for (size_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  if ((*pads)->size() != 2 * axes.size()) {
    return ctx.fail("pads has " + std::to_string((*pads)->size()) + " entries for " +
                    std::to_string(axes.size()) + " axes");
  }
  std::string mode(ctx.stringAttribute("mode").value_or("constant"));
  enum class Mode { kConstant, kReflect, kEdge, kWrap } how;
  if (mode == "constant") {
    how = Mode::kConstant;
  } else if (mode == "reflect") {
    how = Mode::kReflect;
  } else if (mode == "edge") {
    how = Mode::kEdge;
  } else if (mode == "wrap" && version >= 19) {
    how = Mode::kWrap;
  } else {
    return ctx.fail("unknown mode " + quoted(mode));
  }
  std::vector<int64_t> before(rank, 0);
  std::vector<int64_t> after(rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    before[axes[i]] = (**pads)[i];
    after[axes[i]] = (**pads)[axes.size() + i];
  }
  constexpr int64_t kLimit = int64_t{1} << 40;
  std::vector<int64_t> shape(rank);
  for (size_t d = 0; d < rank; ++d) {
    int64_t n = data->dim(d);
    if (before[d] < -kLimit || before[d] > kLimit || after[d] < -kLimit || after[d] > kLimit) {
      return ctx.fail("pads are too large");
    }
    shape[d] = n + before[d] + after[d];
    if (shape[d] < 0) return ctx.fail("pads remove more than axis " + std::to_string(d) + " has");
    if (how != Mode::kConstant && n == 0 && shape[d] > 0) {
      return ctx.fail("mode " + quoted(mode) + " cannot pad an empty axis");
    }
  }
  Result<Array> made = newArray(data->type(), shape);
  if (!made) return made.status();
  Array out = std::move(*made);
  if (out.size() == 0) {
    ctx.setOutput(0, std::move(out));
    return Status::ok();
  }
  // The constant, as one element of the data's type.
  Array fill(data->type(), {});
  if (version < 11) {
    storeDouble(fill, 0, ctx.floatAttribute("value").value_or(0.0f));
  } else if (const Array* value = ctx.inputArray(2); value != nullptr && value->size() > 0) {
    if (value->type() != data->type()) return ctx.fail("constant_value's type is not the data's");
    copyElements(*value, 0, fill, 0, 1);
  } else if (!fill.isString()) {
    storeDouble(fill, 0, 0.0);
  }
  // For each axis, the input coordinate of each output coordinate (-1: the constant).
  std::vector<std::vector<int64_t>> source(rank);
  for (size_t d = 0; d < rank; ++d) {
    int64_t n = data->dim(d);
    source[d].resize(static_cast<size_t>(shape[d]));
    for (int64_t o = 0; o < shape[d]; ++o) {
      int64_t i = o - before[d];
      if (i < 0 || i >= n) {
        switch (how) {
          case Mode::kConstant: i = -1; break;
          case Mode::kEdge: i = std::clamp<int64_t>(i, 0, n - 1); break;
          case Mode::kWrap: i = ((i % n) + n) % n; break;
          case Mode::kReflect: {
            int64_t period = 2 * (n - 1);
            if (period == 0) {
              i = 0;
            } else {
              i = ((i % period) + period) % period;
              if (i >= n) i = period - i;
            }
            break;
          }
        }
      }
      source[d][static_cast<size_t>(o)] = i;
    }
  }
  std::vector<int64_t> strides = denseStrides(data->shape());
  size_t inner = rank == 0 ? 1 : static_cast<size_t>(shape.back());
  size_t rows = out.size() / inner;
  size_t outer_rank = rank == 0 ? 0 : rank - 1;
  dispatchStorage(data->type(), [&]<class T>() {
    const T* in = elementsOf<T>(*data);
    T* result = elementsOf<T>(out);
    const T value = elementsOf<T>(fill)[0];
    if (rank == 0) {
      result[0] = in[0];
      return;
    }
    const std::vector<int64_t>& last = source.back();
    parallelFor(ctx, rows, std::max<size_t>(1, 4096 / inner), [&](size_t begin, size_t end) {
      std::vector<int64_t> position(outer_rank, 0);
      size_t rest = begin;
      for (size_t d = outer_rank; d-- > 0;) {
        position[d] = static_cast<int64_t>(rest % static_cast<size_t>(shape[d]));
        rest /= static_cast<size_t>(shape[d]);
      }
      for (size_t row = begin; row < end; ++row) {
        T* to = result + row * inner;
        int64_t base = 0;
        bool outside = false;
        for (size_t d = 0; d < outer_rank; ++d) {
          int64_t i = source[d][static_cast<size_t>(position[d])];
          if (i < 0) {
            outside = true;
            break;
          }
          base += i * strides[d];
        }
        if (outside) {
          std::fill_n(to, inner, value);
        } else {
          const T* from = in + base;
          for (size_t j = 0; j < inner; ++j) to[j] = last[j] < 0 ? value : from[last[j]];
        }
        for (size_t d = outer_rank; d-- > 0;) {
          if (++position[d] < shape[d]) break;
          position[d] = 0;
        }
      }
    });
  });
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

// The element type of input `i` (a TensorProto.DataType code), from its type or its
// constant; 0 when unknown.
int32_t inputElementType(const NodeDraft& draft, size_t i) {
  if (const Type* type = draft.inputType(i); type != nullptr && type->elem_type) {
    return *type->elem_type;
  }
  if (const Tensor* constant = draft.constantInput(i); constant != nullptr) {
    return constant->data_type.value_or(0);
  }
  return 0;
}

// Up to version 2, which names the attribute `pads`.
Status renamePaddings(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> pads = draft.intsAttr("paddings");
  if (!pads) return draft.refuse("paddings is missing or not a list of ints");
  draft.removeAttribute("paddings");
  draft.setIntsAttr("pads", *pads);
  return Status::ok();
}

// Down to version 1, which names it `paddings` and only adds (version 2 removes elements
// where a pad is negative).
Status renamePads(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> pads = draft.intsAttr("pads");
  if (!pads) return draft.refuse("pads is missing or not a list of ints");
  if (std::any_of(pads->begin(), pads->end(), [](int64_t pad) { return pad < 0; })) {
    return draft.refuse("a pad is negative");
  }
  draft.removeAttribute("pads");
  draft.setIntsAttr("paddings", *pads);
  return Status::ok();
}

// Up to version 11, where pads and the constant are inputs. The constant takes the data's
// type, as version 2 fills with `value` converted to it; 0, the default, is left out.
Status padsToInputs(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> pads = draft.intsAttr("pads");
  if (!pads) return draft.refuse("pads is missing or not a list of ints");
  std::optional<float> value = 0.0f;
  if (draft.attribute("value") != nullptr) value = draft.floatAttr("value");
  if (!value) return draft.refuse("value is not a float");
  std::optional<std::string_view> mode = draft.stringAttr("mode", "constant");
  if (!mode) return draft.refuse("mode is not a string");
  draft.removeAttribute("pads");
  draft.removeAttribute("value");
  draft.setIntegersInput(1, *pads);
  if (*mode != "constant" || (*value == 0.0f && !std::signbit(*value))) return Status::ok();
  const int32_t type = inputElementType(draft, 0);
  if (elementTypeInfo(type) == nullptr) {
    return draft.refuse("value is not 0 and the data's type is unknown");
  }
  Array fill(static_cast<ElementType>(type), {});
  storeDouble(fill, 0, static_cast<double>(*value));
  draft.setConstantInput(2, draft.editor().tensorFromArray(fill));
  return Status::ok();
}

// Down to version 2, where pads and the constant are attributes: the inputs must be constants,
// and the constant a float exactly.
Status padsToAttributes(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> pads = draft.constantIntegers(1);
  if (!pads) return draft.refuse("pads is not a constant");
  if (draft.hasInput(2)) {
    const Tensor* constant = draft.constantInput(2);
    if (constant == nullptr) return draft.refuse("constant_value is not a constant");
    Result<Array> value = arrayFromTensor(*constant);
    if (!value || value->size() > 1) return draft.refuse("constant_value is not one number");
    if (value->size() == 1) {
      double wanted = elementAsDouble(*value, 0);
      auto narrowed = static_cast<float>(wanted);
      if (static_cast<double>(narrowed) != wanted && !std::isnan(wanted)) {
        return draft.refuse("constant_value is not exactly a float");
      }
      draft.setFloatAttr("value", narrowed);
    }
  }
  draft.setIntsAttr("pads", *pads);
  draft.resizeInputs(1);
  return Status::ok();
}

// Down to version 13, which pads every axis: pads written out for all of them, so axes and
// pads must be constants and the data's rank known.
Status padsForAllAxes(NodeDraft& draft) {
  if (draft.hasInput(3)) {
    std::optional<std::vector<int64_t>> axes = draft.constantIntegers(3);
    std::optional<std::vector<int64_t>> pads = draft.constantIntegers(1);
    if (!axes || !pads) return draft.refuse("axes or pads is not a constant");
    std::optional<int64_t> data_rank = draft.inputRank(0);
    if (!data_rank) return draft.refuse("axes is given and the data's rank is unknown");
    const auto rank = static_cast<size_t>(*data_rank);
    const size_t count = axes->size();
    if (pads->size() != 2 * count) return draft.refuse("pads does not hold 2 values per axis");
    std::vector<int64_t> all(2 * rank, 0);
    std::vector<bool> seen(rank, false);
    for (size_t i = 0; i < count; ++i) {
      int64_t axis = (*axes)[i] < 0 ? (*axes)[i] + static_cast<int64_t>(rank) : (*axes)[i];
      if (axis < 0 || axis >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(axis)]) {
        return draft.refuse("axes is out of range or repeats an axis");
      }
      seen[static_cast<size_t>(axis)] = true;
      all[static_cast<size_t>(axis)] = (*pads)[i];
      all[static_cast<size_t>(axis) + rank] = (*pads)[count + i];
    }
    draft.setIntegersInput(1, all);
  }
  draft.resizeInputs(std::min<size_t>(draft.inputCount(), draft.hasInput(2) ? 3 : 2));
  return Status::ok();
}

// Down to version 18, which has no wrap mode.
Status refuseWrap(NodeDraft& draft) {
  std::optional<std::string_view> mode = draft.stringAttr("mode", "constant");
  if (!mode || *mode == "wrap") return draft.refuse("mode wrap has no form in version 18");
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs1 = {{"data", "T"}};
constexpr Formals kInputs11 = {
    {"data", "T"}, {"pads", "tensor(int64)"}, optional("constant_value", "T")};
constexpr Formals kInputs18 = {{"data", "T"},
                               {"pads", "tensor(int64)"},
                               optional("constant_value", "T"),
                               optional("axes", "Tind")};
constexpr Formals kOutputs1 = {{"output", "T"}};
constexpr Attributes kAttributes11 = {attr("mode", "constant")};
constexpr Constraints kConstraints1 = {{"T", tensor("float16 float double")}};
constexpr Constraints kConstraints18 = {
    {"T", tensor(kIr4Types)}, {"Tind", tensor("int32 int64")}, {"tensor(int64)", tensor("int64")}};

extern const Operator kPad;
constexpr Operator kPad{
    .domain = kOnnxDomain,
    .name = "Pad",
    .versions = {
        {.since_version = 1,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("mode", "constant"), required("paddings", kInts), attr("value", 0.0f)},
         .constraints = kConstraints1,
         .infer = inferPad,
         .kernel = runPad},
        {.since_version = 2,
         .inputs = kInputs1,
         .outputs = kOutputs1,
         .attributes = {attr("mode", "constant"), required("pads", kInts), attr("value", 0.0f)},
         .constraints = kConstraints1,
         .infer = inferPad,
         .kernel = runPad,
         .step = {.reviewed = true,
                  .change = "paddings renamed pads; negative pads remove elements",
                  .up = renamePaddings,
                  .down = renamePads,
                  .down_refuses = "negative pads"}},
        {.since_version = 11,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints =
             {{"T",
               tensor("uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float double")},
              {"tensor(int64)", tensor("int64")}},
         .infer = inferPad,
         .kernel = runPad,
         .step = {.reviewed = true,
                  .change = "pads and value became inputs; integer types added",
                  .up = padsToInputs,
                  .down = padsToAttributes,
                  .up_refuses = "value not 0, data type unknown",
                  .down_refuses =
                      "pads or constant_value not a constant; a constant not exactly a float"}},
        {.since_version = 13,
         .inputs = kInputs11,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferPad,
         .kernel = runPad,
         .step = typesOnly("bfloat16, bool, complex and string added")},
        {.since_version = 18,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = kConstraints18,
         .infer = inferPad,
         .kernel = runPad,
         .step = {.reviewed = true,
                  .change = "axes input added",
                  .down = padsForAllAxes,
                  .down_refuses = "axes or pads not a constant; data rank unknown"}},
        {.since_version = 19,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = kConstraints18,
         .infer = inferPad,
         .kernel = runPad,
         .step = {.reviewed = true,
                  .change = "wrap mode added",
                  .down = refuseWrap,
                  .down_refuses = "mode wrap"}},
        {.since_version = 21,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr10Types)},
                         {"Tind", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferPad,
         .kernel = runPad,
         .step = typesOnly("float8 types, int4 and uint4 added")},
        {.since_version = 23,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr11Types)},
                         {"Tind", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferPad,
         .kernel = runPad,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr12Types)},
                         {"Tind", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferPad,
         .kernel = runPad,
         .step = typesOnly("float8e8m0 added")},
        {.since_version = 25,
         .inputs = kInputs18,
         .outputs = kOutputs1,
         .attributes = kAttributes11,
         .constraints = {{"T", tensor(kIr13Types)},
                         {"Tind", tensor("int32 int64")},
                         {"tensor(int64)", tensor("int64")}},
         .infer = inferPad,
         .kernel = runPad,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kPad));

}  // namespace onyx::ops::ai_onnx
