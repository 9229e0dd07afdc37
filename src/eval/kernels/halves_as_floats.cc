#include "eval/kernels/halves_as_floats.h"

#include <functional>
#include <utility>
#include <vector>

#include "eval/kernels/shared_preparation.h"
#include "ops/kernels.h"
#include "ops/lib/float_casts.h"

namespace onyx::eval_internal {

namespace {

// Runs body over [0, count) in blocks on ctx's threads, or here alone.
void splitOver(const KernelContext* ctx, size_t count,
               const std::function<void(size_t, size_t)>& body) {
  constexpr size_t kGrain = size_t{1} << 16;
  if (ctx != nullptr && count > kGrain) {
    ops::parallelFor(*ctx, count, kGrain, body);
  } else {
    body(0, count);
  }
}

}  // namespace

Array widenedHalves(const Array& half, const KernelContext* ctx) {
  Array wide(ElementType::kFloat, half.shape());
  const uint16_t* from = half.data<uint16_t>();
  float* to = wide.data<float>();
  splitOver(ctx, half.size(), [&](size_t begin, size_t end) {
    ops::cast::halvesToFloats(from + begin, end - begin, to + begin);
  });
  return wide;
}

Array roundedToHalves(const Array& wide, const KernelContext* ctx) {
  Array half(ElementType::kFloat16, wide.shape());
  const float* from = wide.data<float>();
  uint16_t* to = half.data<uint16_t>();
  splitOver(ctx, wide.size(), [&](size_t begin, size_t end) {
    ops::cast::floatsToHalves(from + begin, end - begin, to + begin);
  });
  return half;
}

bool hasHalfInput(const KernelContext& ctx) {
  for (const EvalValue* input : ctx.inputs_) {
    if (input != nullptr && input->isTensor() && input->tensor.type() == ElementType::kFloat16) {
      return true;
    }
  }
  return false;
}

WidenedConstants::WidenedConstants(std::vector<bool> constant)
    : constant_(std::move(constant)),
      sources_(constant_.size(), nullptr),
      kept_(constant_.size()) {}

std::shared_ptr<const Array> sharedWidenedHalves(const Array& half, const KernelContext* ctx) {
  return sharedPreparation<Array>({&half}, "widened halves",
                                  [&] { return std::optional(widenedHalves(half, ctx)); });
}

std::shared_ptr<const Array> sharedWidenedTransposedHalves(const Array& half) {
  return sharedPreparation<Array>({&half}, "widened halves, transposed", [&] {
    const size_t rows = static_cast<size_t>(half.dim(0)),
                 columns = static_cast<size_t>(half.dim(1));
    Array wide(ElementType::kFloat, {half.dim(1), half.dim(0)});
    const uint16_t* from = half.data<uint16_t>();
    float* to = wide.data<float>();
    // A row of the source at a time: widened as a run, then written down a column.
    std::vector<float> row(columns);
    for (size_t r = 0; r < rows; ++r) {
      ops::cast::halvesToFloats(from + r * columns, columns, row.data());
      for (size_t c = 0; c < columns; ++c) to[c * rows + r] = row[c];
    }
    return std::optional(std::move(wide));
  });
}

const Array& WidenedConstants::widened(size_t i, const Array& half, const KernelContext* ctx,
                                       std::optional<Array>& made) {
  if (i >= constant_.size() || !constant_[i]) return made.emplace(widenedHalves(half, ctx));
  const void* source = half.bytes().data();
  if (sources_[i] != source || !kept_[i]) {
    kept_[i] = sharedWidenedHalves(half, ctx);
    sources_[i] = source;
  }
  return *kept_[i];
}

Status runOnFloats(KernelContext& ctx, WidenedConstants* constants) {
  std::vector<EvalValue> widened;
  widened.reserve(ctx.inputs_.size());  // the inputs point into it: no reallocation
  std::vector<const EvalValue*> given = ctx.inputs_;
  for (size_t i = 0; i < ctx.inputs_.size(); ++i) {
    const EvalValue*& input = ctx.inputs_[i];
    if (input == nullptr || !input->isTensor() || input->tensor.type() != ElementType::kFloat16) {
      continue;
    }
    std::optional<Array> made;
    if (constants != nullptr) {
      // A kept copy is shared, not copied: an Array's elements are reference-counted.
      widened.push_back(EvalValue::of(constants->widened(i, input->tensor, &ctx, made)));
    } else {
      widened.push_back(EvalValue::of(widenedHalves(input->tensor, &ctx)));
    }
    input = &widened.back();
  }
  Status status = ctx.schema().kernel(ctx);
  ctx.inputs_ = std::move(given);
  return status;
}

}  // namespace onyx::eval_internal
