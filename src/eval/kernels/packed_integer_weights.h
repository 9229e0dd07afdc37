// Internal to the evaluator: a node's integer convolution weights packed for onyx's own exact
// kernel (ops::nn::integerConvolutionTiles: below VNNI, and for small weights), kept from run
// to run. Packing widens and reorders every weight: for a large net's constant weights that
// was a pass over all of them on every run.
#pragma once

#include <cstdint>
#include <vector>

#include "onyx/core/array.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

class PackedIntegerWeights {
 public:
  /// `w` and `w_zero` packed for `shape` and the product `tier` runs
  /// (packIntegerConvolutionWeights): the kept packing when `fixed` (the same elements on every
  /// run) and it was made from the same weights (the same elements' address and shape), group,
  /// zero points and form; else packed anew, and kept when `fixed`.
  const ops::nn::IntegerConvolutionWeights& get(const ops::nn::ConvShape& shape, const Array& w,
                                                const Array* w_zero, bool fixed, CpuTier tier) {
    std::vector<int32_t> zeros;
    if (w_zero != nullptr) {
      zeros.reserve(w_zero->size());
      for (size_t i = 0; i < w_zero->size(); ++i) zeros.push_back(ops::nn::byteAt(*w_zero, i));
    }
    const void* source = w.bytes().data();
    if (!fixed || source_ != source || group_ != shape.group || shape_ != w.shape() ||
        zeros_ != zeros || quads_ != ops::nn::byteQuadsRun(tier)) {
      packed_ = ops::nn::packIntegerConvolutionWeights(shape, w, w_zero, tier);
      quads_ = ops::nn::byteQuadsRun(tier);
      source_ = fixed ? source : nullptr;
      group_ = shape.group;
      shape_ = w.shape();
      zeros_ = std::move(zeros);
    }
    return packed_;
  }

 private:
  ops::nn::IntegerConvolutionWeights packed_;
  const void* source_ = nullptr;  // the fixed weights packed_ was made from; null: none
  int64_t group_ = 0;
  std::vector<int64_t> shape_;
  std::vector<int32_t> zeros_;
  bool quads_ = false;  // packed for byteQuadGemm
};

}  // namespace onyx::eval_internal
