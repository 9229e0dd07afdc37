// TensorScatter (ai.onnx), versions 24.
//
// Signatures drafted by scripts/draft_op_schemas.py from the ONNX operator changelog;
// see docs/ops.md for the format and how to change it.
#include <optional>

#include "onyx/core/quote.h"
#include "ops/lib/tensor_kernels.h"
#include "ops/schema_dsl.h"
#include "ops/shape_rules.h"

namespace onyx::ops::ai_onnx {
using namespace dsl;

extern const Operator kTensorScatter;
namespace {
// present_cache has past_cache's shape. update is past_cache with a shorter `axis` (which
// is not the batch axis), and write_indices holds one start per batch entry; onnx's
// TensorScatter inference refuses other shapes (onnx/defs/tensor/defs.cc).
void inferTensorScatter(InferenceContext& ctx) {
  const Dims* cache = ctx.inputShape(0);
  const Dims* update = ctx.inputShape(1);
  if (cache != nullptr && update != nullptr) {
    if (update->size() != cache->size()) {
      ctx.fail("update has rank " + std::to_string(update->size()) + ", past_cache rank " +
               std::to_string(cache->size()) + "; they must be equal");
      return;
    }
    int64_t rank = static_cast<int64_t>(cache->size());
    int64_t given_axis = ctx.intAttribute("axis").value_or(-2);
    int64_t axis = given_axis < 0 ? given_axis + rank : given_axis;
    if (axis <= 0 || axis >= rank) {
      ctx.fail("axis " + std::to_string(given_axis) +
               " does not name an axis after the batch axis of a past_cache of rank " +
               std::to_string(rank));
      return;
    }
    for (size_t d = 0; d < cache->size(); ++d) {
      DimValue have = (*update)[d];
      DimValue want = (*cache)[d];
      if (static_cast<int64_t>(d) != axis && have.isKnown() && want.isKnown() &&
          have.value() != want.value()) {
        ctx.fail("update has " + std::to_string(have.value()) + " in dimension " +
                 std::to_string(d) + ", past_cache " + std::to_string(want.value()) +
                 "; only dimension " + std::to_string(axis) + " (axis) may differ");
        return;
      }
    }
  }
  if (!inputRankIs(ctx, 2, 1)) return;
  if (const Dims* indices = ctx.hasInput(2) ? ctx.inputShape(2) : nullptr;
      indices != nullptr && cache != nullptr && !cache->empty() && (*indices)[0].isKnown() &&
      (*cache)[0].isKnown() && (*indices)[0].value() != (*cache)[0].value()) {
    ctx.fail("write_indices has " + std::to_string((*indices)[0].value()) +
             " entries for a batch of " + std::to_string((*cache)[0].value()));
    return;
  }
  inferSameShape(ctx);
}

Status runTensorScatter(KernelContext& ctx) {
  const Array* cache = ctx.inputArray(0);
  const Array* update = ctx.inputArray(1);
  if (cache == nullptr || update == nullptr) return ctx.fail("needs past_cache and update tensors");
  if (update->type() != cache->type()) return ctx.fail("update's type is not past_cache's");
  size_t rank = cache->rank();
  if (update->rank() != rank) return ctx.fail("update's rank is not past_cache's");
  std::optional<size_t> axis = kernelAxis(ctx.intAttribute("axis").value_or(-2), rank);
  if (!axis || *axis == 0) {
    return ctx.fail("axis must name a dimension after the batch dimension");
  }
  std::string mode(ctx.stringAttribute("mode").value_or("linear"));
  if (mode != "linear" && mode != "circular") return ctx.fail("unknown mode " + quoted(mode));
  bool circular = mode == "circular";
  for (size_t d = 0; d < rank; ++d) {
    if (d != *axis && update->dim(d) != cache->dim(d)) {
      return ctx.fail("update differs from past_cache in dimension " + std::to_string(d));
    }
  }
  int64_t capacity = cache->dim(*axis);
  int64_t length = update->dim(*axis);
  if (length > capacity) return ctx.fail("update is longer than past_cache along axis");
  int64_t batch = cache->dim(0);
  std::vector<int64_t> starts(static_cast<size_t>(batch), 0);
  if (const Array* given = ctx.inputArray(2)) {
    std::optional<std::vector<int64_t>> values = integersOf(*given);
    if (!values || values->size() != static_cast<size_t>(batch)) {
      return ctx.fail("write_indices must hold one int64 per batch entry");
    }
    starts = std::move(*values);
  }
  for (int64_t start : starts) {
    if (start < 0 || (!circular && start > capacity - length)) {
      return ctx.fail("write index " + std::to_string(start) + " does not fit past_cache");
    }
  }
  size_t prefixes = static_cast<size_t>(elementProduct(cache->shape(), 0, *axis));
  size_t per_batch = static_cast<size_t>(elementProduct(cache->shape(), 1, *axis));
  size_t inner = static_cast<size_t>(elementProduct(cache->shape(), *axis + 1));
  // In place where it can be: the cache's own storage when no one reads it after this node,
  // or a destination the caller bound where the cache lies (a decoder's cache carried from
  // run to run, onyx/eval/evaluator.h's BoundOutput): only the update's rows are written.
  Array out;
  if (std::optional<Array> reused = ctx.reusableInput(0, cache->type(), cache->shape())) {
    out = std::move(*reused);
  } else {
    Result<Array> made = Array::allocate(cache->type(), cache->shape());
    if (!made) return made.status();
    out = std::move(*made);
    if (cache->isString() || out.bytes().data() != cache->bytes().data()) {
      copyElements(*cache, 0, out, 0, cache->size());
    }
  }
  std::vector<size_t> targets;
  targets.reserve(prefixes * static_cast<size_t>(length));
  for (size_t p = 0; p < prefixes; ++p) {
    int64_t start = starts[p / std::max<size_t>(per_batch, 1)];
    for (int64_t s = 0; s < length; ++s) {
      int64_t at = circular ? (start % capacity + s) % capacity : start + s;
      targets.push_back((p * static_cast<size_t>(capacity) + static_cast<size_t>(at)) * inner);
    }
  }
  ONYX_RETURN_IF_ERROR(scatterBlocks(ctx, out, *update, targets, inner, Reduction::kNone));
  ctx.setOutput(0, std::move(out));
  return Status::ok();
}

}  // namespace

constexpr Operator kTensorScatter{
    .domain = kOnnxDomain,
    .name = "TensorScatter",
    .versions = {
        {.since_version = 24,
         .traits = kUpdatesInPlace,
         .inputs = {{"past_cache", "T"},
                    {"update", "T"},
                    optional("write_indices", "tensor(int64)")},
         .outputs = {{"present_cache", "T"}},
         .attributes = {attr("axis", -2), attr("mode", "linear")},
         .constraints = {{"T", tensor(kIr12Types)}, {"tensor(int64)", tensor("int64")}},
         .infer = inferTensorScatter,
         .kernel = runTensorScatter},
    }};
static_assert(isWellFormed(kTensorScatter));

}  // namespace onyx::ops::ai_onnx
