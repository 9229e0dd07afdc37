// Internal to the evaluator: a node's integer convolution weights packed for onyx's own exact
// kernel (ops::nn::integerConvolutionTiles: below VNNI, and for small weights), kept from run
// to run and shared by every executor. Packing widens and reorders every weight: for a large
// net's constant weights that was a pass over all of them on every run.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "eval/kernels/shared_preparation.h"

#include "onyx/core/array.h"
#include "ops/nn/conv_kernels.h"

namespace onyx::eval_internal {

class PackedIntegerWeights {
 public:
  /// `w` and `w_zero` packed for `shape` and the product `tier` runs
  /// (packIntegerConvolutionWeights). When `fixed` (the same elements on every run), the
  /// packing made once per process from the same arrays, group and form (shared_preparation.h),
  /// kept while the same arrays come; else packed anew.
  const ops::nn::IntegerConvolutionWeights& get(const ops::nn::ConvShape& shape, const Array& w,
                                                const Array* w_zero, bool fixed, CpuTier tier) {
    auto pack = [&] { return ops::nn::packIntegerConvolutionWeights(shape, w, w_zero, tier); };
    if (!fixed) {
      unshared_ = pack();
      return unshared_;
    }
    // Checked on every run: the recipe's text is made only when something changed.
    const bool quads = ops::nn::byteQuadsRun(tier);
    const void* zero_source = w_zero != nullptr ? w_zero->bytes().data() : nullptr;
    if (!shared_ || source_ != w.bytes().data() || zero_source_ != zero_source ||
        group_ != shape.group || quads_ != quads) {
      std::string recipe = "int8 conv packed, group " + std::to_string(shape.group) +
                           (quads ? ", quads, " : ", pairs, ");
      for (int64_t size : w.shape()) recipe += std::to_string(size) + ',';
      shared_ = sharedPreparation<ops::nn::IntegerConvolutionWeights>(
          {&w, w_zero}, std::move(recipe), [&] { return std::optional(pack()); });
      source_ = w.bytes().data();
      zero_source_ = zero_source;
      group_ = shape.group;
      quads_ = quads;
    }
    return *shared_;
  }

 private:
  std::shared_ptr<const ops::nn::IntegerConvolutionWeights> shared_;
  const void* source_ = nullptr;       // the fixed weights shared_ was made from
  const void* zero_source_ = nullptr;  // and their zero points (null: none)
  int64_t group_ = 0;
  bool quads_ = false;                           // packed for byteQuadGemm
  ops::nn::IntegerConvolutionWeights unshared_;  // for weights that change from run to run
};

}  // namespace onyx::eval_internal
