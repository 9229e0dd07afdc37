// Col2Im (ai.onnx), versions 18.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ops/kernels.h"
#include "ops/nn/conv_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

namespace {

// Whether image_shape and block_shape (vectors of one entry per spatial axis) and the
// window attributes (pads two per axis, dilations and strides one) agree on the number of
// spatial axes; fails the node where they do not, as onnx's col2imShapeInference does
// (onnx/defs/nn/defs.cc).
bool checkCol2ImAxes(InferenceContext& ctx) {
  if (!inputRankIs(ctx, 1, 1) || !inputRankIs(ctx, 2, 1)) return false;
  std::optional<int64_t> axes;
  const char* told_by = "";
  for (size_t i : {size_t{1}, size_t{2}}) {
    const Dims* shape = ctx.inputShape(i);
    if (shape == nullptr || !(*shape)[0].isKnown()) continue;
    const char* name = ctx.schema().inputAt(i)->name;
    int64_t count = (*shape)[0].value();
    if (axes && *axes != count) {
      ctx.fail(std::string(told_by) + " has " + std::to_string(*axes) + " entries, " + name + " " +
               std::to_string(count) + "; both have one per spatial axis");
      return false;
    }
    axes = count;
    told_by = name;
  }
  using PerAxis = std::pair<const char*, int64_t>;
  for (auto [name, per_axis] :
       {PerAxis{"pads", 2}, PerAxis{"dilations", 1}, PerAxis{"strides", 1}}) {
    std::optional<std::vector<int64_t>> values = ctx.intsAttribute(name);
    if (!values || values->empty()) continue;
    auto count = static_cast<int64_t>(values->size());
    if (count % per_axis != 0) {
      ctx.fail(std::string(name) + " has " + std::to_string(count) +
               " values; it needs a begin and an end per spatial axis");
      return false;
    }
    if (axes && count != *axes * per_axis) {
      ctx.fail(std::string(name) + " has " + std::to_string(count) + " values for the " +
               std::to_string(*axes) + " spatial axes of " + told_by + "; it needs " +
               std::to_string(*axes * per_axis));
      return false;
    }
  }
  return true;
}

// input (N, C * prod(block_shape), L) → (N, C, image_shape...).
void inferCol2Im(InferenceContext& ctx) {
  if (!checkCol2ImAxes(ctx)) return;
  const Dims* input = ctx.inputShape(0);
  if (input == nullptr) return;
  if (input->size() != 3) {
    ctx.fail("the input has rank " + std::to_string(input->size()) + "; Col2Im needs 3");
    return;
  }
  const Dims* image = ctx.inputData(1);
  size_t spatial = 0;
  if (image != nullptr) {
    spatial = image->size();
    for (DimValue size : *image) {
      if (size.isKnown() && size.value() < 0) {
        ctx.fail("image_shape has the negative value " + std::to_string(size.value()));
        return;
      }
    }
  } else if (const Dims* image_shape = ctx.inputShape(1);
             image_shape != nullptr && image_shape->size() == 1 && (*image_shape)[0].isKnown() &&
             (*image_shape)[0].value() >= 0 &&
             static_cast<size_t>((*image_shape)[0].value()) <= kMaxPropagatedElements) {
    spatial = static_cast<size_t>((*image_shape)[0].value());
  } else {
    return;
  }
  Dims out{(*input)[0], ctx.dims().fresh()};
  if (const Dims* block = ctx.inputData(2)) {
    if (block->size() != spatial) {
      ctx.fail("block_shape has " + std::to_string(block->size()) + " values, image_shape " +
               std::to_string(spatial));
      return;
    }
    DimValue block_size = productOf(ctx, *block);
    if (std::optional<DimValue> channels = ctx.dims().divideExact((*input)[1], block_size)) {
      out[1] = *channels;
    } else if ((*input)[1].isKnown() && block_size.isKnown() && block_size.value() > 0) {
      ctx.fail("the input's " + std::to_string((*input)[1].value()) +
               " rows are not a multiple of the block size " + std::to_string(block_size.value()));
      return;
    }
  }
  for (size_t i = 0; i < spatial; ++i)
    out.push_back(image != nullptr ? (*image)[i] : ctx.dims().fresh());
  ctx.setOutputShape(0, std::move(out));
}

// Adds each column block back into the image (conv_kernels.h's col2imAdd): input (N, C * kvol,
// L) with L the number of block positions that image_shape, pads, dilations and strides give.
Status runCol2Im(KernelContext& ctx) {
  const Array* x = ctx.inputArray(0);
  const Array* image_shape = ctx.inputArray(1);
  const Array* block_shape = ctx.inputArray(2);
  if (x == nullptr || image_shape == nullptr || block_shape == nullptr) {
    return ctx.fail("needs the tensors input, image_shape and block_shape");
  }
  if (x->rank() != 3) {
    return ctx.fail("the input has rank " + std::to_string(x->rank()) + "; Col2Im needs 3");
  }
  std::optional<std::vector<int64_t>> image = integersOf(*image_shape);
  std::optional<std::vector<int64_t>> block = integersOf(*block_shape);
  if (!image || !block || image_shape->rank() != 1 || block_shape->rank() != 1) {
    return ctx.fail("image_shape and block_shape must be 1-D integer tensors");
  }
  size_t rank = image->size();
  if (rank == 0 || block->size() != rank) {
    return ctx.fail("image_shape and block_shape must have the same, non-zero length");
  }
  for (size_t a = 0; a < rank; ++a) {
    if ((*image)[a] < 0 || (*image)[a] > nn::kMaxWindowValue || (*block)[a] < 1 ||
        (*block)[a] > nn::kMaxWindowValue) {
      return ctx.fail("image_shape or block_shape has an out-of-range value");
    }
  }
  nn::Window w;
  w.image = *image;
  w.kernel = *block;
  Result<std::vector<int64_t>> strides = nn::axisInts(ctx, "strides", rank, 1, 1);
  if (!strides) return strides.status();
  Result<std::vector<int64_t>> dilations = nn::axisInts(ctx, "dilations", rank, 1, 1);
  if (!dilations) return dilations.status();
  Result<std::vector<int64_t>> pads = nn::axisInts(ctx, "pads", 2 * rank, 0, 0);
  if (!pads) return pads.status();
  w.strides = std::move(*strides);
  w.dilations = std::move(*dilations);
  w.pad_begin.assign(pads->begin(), pads->begin() + static_cast<std::ptrdiff_t>(rank));
  w.pad_end.assign(pads->begin() + static_cast<std::ptrdiff_t>(rank), pads->end());
  w.columns.resize(rank);
  size_t kvol = 1;
  for (size_t a = 0; a < rank; ++a) {
    int64_t span = w.image[a] + w.pad_begin[a] + w.pad_end[a] - w.extent(a);
    if (span < 0) return ctx.fail("the block is larger than the padded image");
    w.columns[a] = span / w.strides[a] + 1;
    kvol *= static_cast<size_t>(w.kernel[a]);
    if (kvol > static_cast<size_t>(x->dim(1))) break;
  }
  // A block larger than the input's dimension 1 cannot divide it (even when that is 0: the
  // block's tap table would be as large as the block).
  if (kvol > static_cast<size_t>(x->dim(1)) || x->dim(1) % static_cast<int64_t>(kvol) != 0) {
    return ctx.fail("the input's dimension 1 (" + std::to_string(x->dim(1)) +
                    ") is not a multiple of the block size");
  }
  size_t positions = w.columnVolume();
  if (static_cast<size_t>(x->dim(2)) != positions) {
    return ctx.fail("the input has " + std::to_string(x->dim(2)) + " blocks; the image has " +
                    std::to_string(positions) + " block positions");
  }
  int64_t channels = x->dim(1) / static_cast<int64_t>(kvol);
  std::vector<int64_t> dims = {x->dim(0), channels};
  dims.insert(dims.end(), w.image.begin(), w.image.end());
  Array xs = widenToFloat(*x);
  Result<Array> made = Array::allocate(xs.type(), dims);
  if (!made) return made.status();
  Array y = std::move(*made);
  nn::TapTable table = nn::tapTable(w);
  size_t batch = static_cast<size_t>(x->dim(0));
  size_t in_step = static_cast<size_t>(x->dim(1)) * positions;
  size_t out_step = static_cast<size_t>(channels) * w.imageVolume();
  auto run = [&]<class T>() {
    const T* in = xs.data<T>();
    T* out = y.data<T>();
    std::fill(out, out + y.size(), T(0));
    parallelFor(ctx, batch, 1, [&](size_t begin, size_t end) {
      for (size_t n = begin; n < end; ++n) {
        nn::col2imAdd(w, table, in + n * in_step, static_cast<size_t>(channels), 0, positions,
                      out + n * out_step);
      }
    });
  };
  bool ok = xs.type() != ElementType::kBool && dispatchNative(xs.type(), run);
  if (!ok) return ctx.fail("no kernel for " + std::string(elementTypeName(x->type())));
  ctx.setOutput(0, narrowFromFloat(y, x->type()));
  return Status::ok();
}

}  // namespace

extern const Operator kCol2Im;
constexpr Operator kCol2Im{
    .domain = kOnnxDomain,
    .name = "Col2Im",
    .versions = {
        {.since_version = 18,
         .inputs = {{"input", "T"},
                    {"image_shape", "tensor(int64)"},
                    {"block_shape", "tensor(int64)"}},
         .outputs = {{"output", "T"}},
         .attributes = {attr("dilations", kInts), attr("pads", kInts), attr("strides", kInts)},
         .constraints = {{"T", tensor(kIr4Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferCol2Im,
         .kernel = runCol2Im},
    }};
static_assert(isWellFormed(kCol2Im));

}  // namespace onyx::ops::ai_onnx
