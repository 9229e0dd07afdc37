// Reshape (ai.onnx), versions 1, 5, 13, 14, 19, 21, 23, 24, 25.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "ops/kernels.h"
#include "ops/node_draft.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The output shape for `target` (Reshape's shape input, or Reshape-1's attribute): 0 copies
// the input's dimension (unless allowzero), one -1 takes what is left of the element count.
void reshapeTo(InferenceContext& ctx, const Dims& target, bool allow_zero) {
  const Dims* in = ctx.inputShape(0);
  SymbolicDims& dims = ctx.dims();
  Dims out;
  out.reserve(target.size());
  std::optional<size_t> inferred_axis;
  for (size_t i = 0; i < target.size(); ++i) {
    DimValue wanted = target[i];
    if (wanted.is(0) && !allow_zero) {
      if (in == nullptr) {
        out.push_back(dims.fresh());
      } else if (i < in->size()) {
        out.push_back((*in)[i]);
      } else {
        ctx.fail("shape[" + std::to_string(i) +
                 "] is 0 (copy the input's dimension) but the input has rank " +
                 std::to_string(in->size()));
        return;
      }
    } else if (wanted.is(-1)) {
      if (inferred_axis) {
        ctx.fail("shape has more than one -1");
        return;
      }
      inferred_axis = i;
      out.push_back(DimValue::known(-1));
    } else if (wanted.isKnown() && wanted.value() < 0) {
      ctx.fail("shape[" + std::to_string(i) + "] is " + std::to_string(wanted.value()) +
               "; only -1 may be negative");
      return;
    } else {
      out.push_back(wanted);
    }
  }
  if (in != nullptr) {
    DimValue total = productOf(ctx, *in);
    if (inferred_axis) {
      DimValue rest = DimValue::known(1);
      for (size_t i = 0; i < out.size(); ++i) {
        if (i != *inferred_axis) rest = dims.multiply(rest, out[i]);
      }
      if (std::optional<DimValue> quotient = dims.divideExact(total, rest)) {
        out[*inferred_axis] = *quotient;
      } else if (total.isKnown() && rest.isKnown() && rest.value() != 0) {
        ctx.fail("cannot reshape " + std::to_string(total.value()) + " elements into " +
                 std::to_string(rest.value()) + " times a whole number");
        return;
      } else {
        out[*inferred_axis] = dims.fresh();
      }
    } else {
      DimValue count = productOf(ctx, out);
      if (total.isKnown() && count.isKnown() && total.value() != count.value()) {
        ctx.fail("cannot reshape " + std::to_string(total.value()) + " elements into " +
                 std::to_string(count.value()));
        return;
      }
    }
  } else if (inferred_axis) {
    out[*inferred_axis] = dims.fresh();
  }
  // A scalar made a vector (or back) keeps its propagated elements.
  bool carry = out.size() <= 1;
  ctx.setOutputShape(0, std::move(out));
  if (const Dims* data = ctx.inputData(0); data != nullptr && carry) {
    ctx.setOutputData(0, *data);
  }
}

void inferReshape(InferenceContext& ctx) {
  bool allow_zero = ctx.intAttribute("allowzero").value_or(0) != 0;
  if (const Dims* target = ctx.inputData(1)) {
    reshapeTo(ctx, *target, allow_zero);
    return;
  }
  // Target unknown: its length, when known, is the output's rank.
  if (const Dims* target_shape = ctx.inputShape(1);
      target_shape != nullptr && target_shape->size() == 1 && (*target_shape)[0].isKnown()) {
    if ((*target_shape)[0].value() >= 0) {
      ctx.setOutputRank(0, static_cast<size_t>((*target_shape)[0].value()));
    }
  }
}

void inferReshape1(InferenceContext& ctx) {
  std::optional<std::vector<int64_t>> shape = ctx.intsAttribute("shape");
  if (!shape) return;
  Dims target;
  for (int64_t dim : *shape) target.push_back(DimValue::known(dim));
  reshapeTo(ctx, target, false);
}

Status runReshape(KernelContext& ctx) {
  const Array* data = ctx.inputArray(0);
  if (data == nullptr) return ctx.fail("needs a tensor input");
  std::vector<int64_t> out;
  if (ctx.schema().since_version < 5) {
    std::optional<std::vector<int64_t>> shape = ctx.intsAttribute("shape");
    if (!shape) return ctx.fail("needs the shape attribute");
    out = std::move(*shape);
  } else {
    const Array* shape = ctx.inputArray(1);
    if (shape == nullptr || shape->type() != ElementType::kInt64 || shape->rank() != 1) {
      return ctx.fail("needs a 1-D int64 shape");
    }
    out.assign(shape->data<int64_t>(), shape->data<int64_t>() + shape->size());
  }
  bool allow_zero = ctx.intAttribute("allowzero").value_or(0) != 0;
  int64_t count = static_cast<int64_t>(data->size());
  int64_t known = 1;  // the product of the dimensions other than -1
  bool has_zero = false;
  bool overflow = false;
  std::optional<size_t> inferred;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0 && !allow_zero) {
      if (i >= data->rank()) return ctx.fail("shape copies a dimension the input does not have");
      out[i] = data->dim(i);
    }
    if (out[i] == -1) {
      if (inferred) return ctx.fail("shape has more than one -1");
      inferred = i;
      continue;
    }
    if (out[i] < 0) return ctx.fail("shape has a negative dimension");
    if (out[i] == 0) has_zero = true;
    if (!overflow) overflow = __builtin_mul_overflow(known, out[i], &known);
  }
  if (has_zero) {
    known = 0;
  } else if (overflow) {
    return ctx.fail("shape holds more elements than the input's " + std::to_string(count));
  }
  if (inferred) {
    if (known == 0 || count % known != 0) return ctx.fail("the element count does not divide");
    out[*inferred] = count / known;
  } else if (known != count) {
    return ctx.fail("shape holds " + std::to_string(known) + " elements, the input " +
                    std::to_string(count));
  }
  ctx.setOutput(0, data->reshaped(std::move(out)));
  return Status::ok();
}

// Up to version 5, where the shape is an input; consumed_inputs goes.
Status shapeToInput(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> shape = draft.intsAttr("shape");
  if (!shape) return draft.refuse("shape is missing or not a list of ints");
  draft.removeAttribute("shape");
  draft.removeAttribute("consumed_inputs");
  draft.setIntegersInput(1, *shape);
  return Status::ok();
}

// Down to version 1, where the shape is an attribute: the input must be a constant.
Status shapeToAttribute(NodeDraft& draft) {
  std::optional<std::vector<int64_t>> shape = draft.constantIntegers(1);
  if (!shape) return draft.refuse("shape is not a constant");
  draft.setIntsAttr("shape", *shape);
  draft.resizeInputs(1);
  return Status::ok();
}

// Down to version 13, where a 0 in the shape copies the input's dimension: allowzero = 1
// means the same only when the shape is a constant without 0s.
Status dropAllowZero(NodeDraft& draft) {
  if (draft.attribute("allowzero") == nullptr) return Status::ok();
  if (draft.intAttr("allowzero") != 0) {
    std::optional<std::vector<int64_t>> shape = draft.constantIntegers(1);
    if (!shape || std::find(shape->begin(), shape->end(), 0) != shape->end()) {
      return draft.refuse("allowzero is set and the shape is not a constant without 0s");
    }
  }
  draft.removeAttribute("allowzero");
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs5 = {{"data", "T"}, {"shape", "tensor(int64)"}};
constexpr Formals kOutputs1 = {{"reshaped", "T"}};
constexpr Attributes kAttributes14 = {attr("allowzero", 0)};
constexpr Constraints kConstraints13 = {{"T", tensor(kIr4Types)},
                                        {"tensor(int64)", tensor("int64")}};

extern const Operator kReshape;
constexpr Operator kReshape{
    .domain = kOnnxDomain,
    .name = "Reshape",
    .versions = {
        {.since_version = 1,
         .traits = kShapeOnly,
         .inputs = {{"data", "T"}},
         .outputs = kOutputs1,
         .attributes = {attr("consumed_inputs", kInts), attr("shape", kInts)},
         .constraints = {{"T", tensor("float16 float double")}},
         .infer = inferReshape1,
         .kernel = runReshape},
        {.since_version = 5,
         .traits = kShapeOnly,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .constraints = {{"T", tensor(kIr3Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferReshape,
         .kernel = runReshape,
         .step = {.reviewed = true,
                  .change =
                      "shape became an input; consumed_inputs removed; all tensor types added",
                  .up = shapeToInput,
                  .down = shapeToAttribute,
                  .down_refuses = "shape not a constant"}},
        {.since_version = 13,
         .traits = kShapeOnly,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .constraints = kConstraints13,
         .infer = inferReshape,
         .kernel = runReshape,
         .step = typesOnly("bfloat16 added")},
        {.since_version = 14,
         .traits = kShapeOnly,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = kConstraints13,
         .infer = inferReshape,
         .kernel = runReshape,
         .step = {.reviewed = true,
                  .change = "allowzero added (0: as before)",
                  .down = dropAllowZero,
                  .down_refuses = "allowzero set, shape not a constant without 0s"}},
        {.since_version = 19,
         .traits = kShapeOnly,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = {{"T", tensor(kIr9Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferReshape,
         .kernel = runReshape,
         .step = typesOnly("float8 types added")},
        {.since_version = 21,
         .traits = kShapeOnly,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = {{"T", tensor(kIr10Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferReshape,
         .kernel = runReshape,
         .step = typesOnly("int4 and uint4 added")},
        {.since_version = 23,
         .traits = kShapeOnly,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = {{"T", tensor(kIr11Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferReshape,
         .kernel = runReshape,
         .step = typesOnly("float4e2m1 added")},
        {.since_version = 24,
         .traits = kShapeOnly,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = {{"T", tensor(kIr12Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferReshape,
         .kernel = runReshape,
         .step = typesOnly("float8e8m0 added")},
        {.since_version = 25,
         .traits = kShapeOnly,
         .inputs = kInputs5,
         .outputs = kOutputs1,
         .attributes = kAttributes14,
         .constraints = {{"T", tensor(kIr13Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferReshape,
         .kernel = runReshape,
         .step = typesOnly("int2 and uint2 added")},
    }};
static_assert(isWellFormed(kReshape));

}  // namespace onyx::ops::ai_onnx
