// MaxUnpool (ai.onnx), versions 9, 11, 22.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <cstring>
#include <string>

#include "ops/kernels.h"
#include "ops/nn/conv_kernels.h"
#include "ops/nn/window_shape.h"
#include "ops/schema_dsl.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// The output_shape input when its elements are known; otherwise each spatial axis is
// (in - 1) * stride + kernel - pads. As onnx's maxUnpoolShapeInference (onnx/defs/nn/defs.cc)
// does, the window attributes are checked whether or not output_shape is given, and
// output_shape is a vector with one entry per axis of X.
void inferMaxUnpool(InferenceContext& ctx) {
  const Dims* input = ctx.inputShape(0);
  std::optional<std::vector<int64_t>> kernel;
  std::optional<std::vector<int64_t>> strides;
  std::optional<std::vector<int64_t>> pads;
  if (input != nullptr) {
    if (input->size() < 3) {
      ctx.fail("the input has rank " + std::to_string(input->size()) +
               "; MaxUnpool needs (N, C, D1, ...)");
      return;
    }
    size_t spatial = input->size() - 2;
    if (std::optional<std::vector<int64_t>> present = ctx.intsAttribute("kernel_shape");
        present && !present->empty()) {
      kernel = spatialAttribute(ctx, "kernel_shape", spatial, 1, 1);
      if (!kernel) return;
    }  // else: required, the checker reports it
    strides = spatialAttribute(ctx, "strides", spatial, 1, 1);
    if (!strides) return;
    pads = spatialAttribute(ctx, "pads", 2 * spatial, 0, 0);
    if (!pads) return;
  }
  if (ctx.hasInput(2)) {
    if (!inputRankIs(ctx, 2, 1)) return;
    const Dims* target_shape = ctx.inputShape(2);
    if (input != nullptr && target_shape != nullptr && (*target_shape)[0].isKnown() &&
        (*target_shape)[0].value() != static_cast<int64_t>(input->size())) {
      ctx.fail("output_shape has " + std::to_string((*target_shape)[0].value()) +
               " entries for an input of rank " + std::to_string(input->size()));
      return;
    }
    if (const Dims* target = ctx.inputData(2)) {
      for (DimValue size : *target) {
        if (size.isKnown() && size.value() < 0) {
          ctx.fail("output_shape has the negative value " + std::to_string(size.value()));
          return;
        }
      }
      ctx.setOutputShape(0, *target);
      return;
    }
    if (target_shape != nullptr && (*target_shape)[0].isKnown() &&
        (*target_shape)[0].value() >= 0 &&
        static_cast<size_t>((*target_shape)[0].value()) <= kMaxPropagatedElements) {
      Dims out;
      for (int64_t i = 0; i < (*target_shape)[0].value(); ++i) out.push_back(ctx.dims().fresh());
      ctx.setOutputShape(0, std::move(out));
    }
    return;
  }
  if (input == nullptr || !kernel) return;
  size_t spatial = input->size() - 2;
  SymbolicDims& dims = ctx.dims();
  Dims out{(*input)[0], (*input)[1]};
  for (size_t i = 0; i < spatial; ++i) {
    DimValue size = dims.multiply(dims.subtract((*input)[2 + i], DimValue::known(1)),
                                  DimValue::known((*strides)[i]));
    size = dims.add(size, DimValue::known((*kernel)[i]));
    size = dims.subtract(size, DimValue::known((*pads)[i]));
    size = dims.subtract(size, DimValue::known((*pads)[spatial + i]));
    if (size.isKnown() && size.value() < 0) {
      ctx.fail("spatial axis " + std::to_string(i) + " gets the negative size " +
               std::to_string(size.value()));
      return;
    }
    out.push_back(size);
  }
  ctx.setOutputShape(0, std::move(out));
}

// Each X element is written at its index (I) of the unpooled tensor (N, C, (in - 1) * stride
// + kernel - pads ...), zeros elsewhere; with output_shape, that tensor is placed at the
// origin of a zero tensor of output_shape (each dimension at least the unpooled one).
Status runMaxUnpool(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* indices = ctx.inputArray(1);
  const Array* output_shape = ctx.inputArray(2);
  if (x == nullptr || indices == nullptr) return ctx.fail("needs the tensors X and I");
  if (x->rank() < 3) {
    return ctx.fail("the input has rank " + std::to_string(x->rank()) +
                    "; MaxUnpool needs (N, C, D1, ...)");
  }
  if (indices->shape() != x->shape() || indices->type() != ElementType::kInt64) {
    return ctx.fail("I must be an int64 tensor of X's shape");
  }
  size_t rank = x->rank() - 2;
  std::optional<std::vector<int64_t>> given = ctx.intsAttribute("kernel_shape");
  if (!given || given->empty()) return ctx.fail("kernel_shape is required");
  Result<std::vector<int64_t>> kernel = nn::axisInts(ctx, "kernel_shape", rank, 1, 1);
  if (!kernel) return kernel.status();
  Result<std::vector<int64_t>> strides = nn::axisInts(ctx, "strides", rank, 1, 1);
  if (!strides) return strides.status();
  Result<std::vector<int64_t>> pads = nn::axisInts(ctx, "pads", 2 * rank, 0, 0);
  if (!pads) return pads.status();
  std::vector<int64_t> unpooled = {x->dim(0), x->dim(1)};
  for (size_t a = 0; a < rank; ++a) {
    int64_t in = x->dim(2 + a);
    int64_t scaled = 0;
    if (__builtin_mul_overflow(in, (*strides)[a], &scaled) || scaled > (int64_t{1} << 52)) {
      return ctx.fail("spatial axis " + std::to_string(a) + " would be too large");
    }
    int64_t size =
        in == 0 ? 0 : scaled - (*strides)[a] + (*kernel)[a] - (*pads)[a] - (*pads)[rank + a];
    if (size < 0) {
      return ctx.fail("spatial axis " + std::to_string(a) + " gets the negative size " +
                      std::to_string(size));
    }
    unpooled.push_back(size);
  }
  std::vector<int64_t> dims = unpooled;
  if (output_shape != nullptr) {
    std::optional<std::vector<int64_t>> target = integersOf(*output_shape);
    if (!target || output_shape->rank() != 1 || target->size() != x->rank()) {
      return ctx.fail("output_shape must be a 1-D integer tensor of " + std::to_string(x->rank()) +
                      " values");
    }
    for (size_t a = 0; a < target->size(); ++a) {
      if ((*target)[a] < unpooled[a]) {
        return ctx.fail("output_shape's dimension " + std::to_string(a) + " (" +
                        std::to_string((*target)[a]) + ") is smaller than the unpooled " +
                        std::to_string(unpooled[a]));
      }
    }
    dims = *target;
  }
  Result<Array> made = Array::allocate(x->type(), dims);
  if (!made) return made.status();
  Array y = std::move(*made);
  std::span<std::byte> out = y.bytes();
  std::fill(out.begin(), out.end(), std::byte{0});
  size_t width = arrayElementBytes(x->type());
  size_t total = nn::volumeOf(unpooled);
  std::vector<size_t> strides_in = stridesOf(unpooled);
  std::vector<size_t> strides_out = stridesOf(dims);
  const int64_t* where = indices->data<int64_t>();
  std::span<const std::byte> in = x->bytes();
  for (size_t i = 0; i < x->size(); ++i) {
    int64_t index = where[i];
    if (index < 0 || static_cast<size_t>(index) >= total) {
      return ctx.fail("the index " + std::to_string(index) + " is outside the unpooled tensor of " +
                      std::to_string(total) + " elements");
    }
    size_t rest = static_cast<size_t>(index);
    size_t at = 0;
    for (size_t a = 0; a < dims.size(); ++a) {
      at += rest / strides_in[a] * strides_out[a];
      rest %= strides_in[a];
    }
    std::memcpy(out.data() + at * width, in.data() + i * width, width);
  }
  ctx.setOutput(0, std::move(y));
  return Status::ok();
}

}  // namespace

constexpr Formals kInputs9 = {{"X", "T1"}, {"I", "T2"}, optional("output_shape", "T2")};
constexpr Formals kOutputs9 = {{"output", "T1"}};
constexpr Attributes kAttributes9 = {required("kernel_shape", kInts), attr("pads", kInts),
                                     attr("strides", kInts)};
constexpr Constraints kConstraints9 = {{"T1", tensor("float16 float double")},
                                       {"T2", tensor("int64")}};

extern const Operator kMaxUnpool;
constexpr Operator kMaxUnpool{
    .domain = kOnnxDomain,
    .name = "MaxUnpool",
    .versions = {
        {.since_version = 9,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = kConstraints9,
         .infer = inferMaxUnpool,
         .kernel = runMaxUnpool},
        {.since_version = 11,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = kConstraints9,
         .infer = inferMaxUnpool,
         .kernel = runMaxUnpool,
         .step = {.reviewed = true, .change = "strides default of 1 documented"}},
        {.since_version = 22,
         .inputs = kInputs9,
         .outputs = kOutputs9,
         .attributes = kAttributes9,
         .constraints = {{"T1", tensor("bfloat16 float16 float double")}, {"T2", tensor("int64")}},
         .infer = inferMaxUnpool,
         .kernel = runMaxUnpool,
         .step = typesOnly("bfloat16 added")},
    }};
static_assert(isWellFormed(kMaxUnpool));

}  // namespace onyx::ops::ai_onnx
