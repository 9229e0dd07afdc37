#include "ops/nn/batch_norm_folding.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "onyx/ir/attribute.h"
#include "onyx/ir/opset_imports.h"
#include "ops/lib/real_kernels.h"

namespace onyx::ops::nn {

bool isFoldableBatchNorm(const Node& node, const std::function<bool(const Value*)>& constant) {
  if (node.opType() != "BatchNormalization" || !canonicalDomain(node.domainOrDefault()).empty() ||
      node.inputCount() != 5 || node.input(0) == nullptr || node.outputCount() == 0 ||
      node.output(0) == nullptr) {
    return false;
  }
  for (const Attribute* attribute : node.attributes) {
    if (attribute->isReference()) return false;
  }
  // A statistics output asked for means training before version 14 (the kernel's rule).
  for (size_t i = 1; i < node.outputCount(); ++i) {
    if (node.output(i) != nullptr) return false;
  }
  if (node.intAttr("training_mode").value_or(0) != 0 || node.intAttr("spatial").value_or(1) == 0) {
    return false;
  }
  for (size_t i = 1; i < 5; ++i) {
    if (node.input(i) == nullptr || !constant(node.input(i))) return false;
  }
  return true;
}

std::optional<ChannelAffine> batchNormAffine(const Array& gamma, const Array& beta,
                                             const Array& mean, const Array& variance,
                                             double epsilon, int64_t channels) {
  for (const Array* parameter : {&gamma, &beta, &mean, &variance}) {
    if ((parameter->type() != ElementType::kFloat && parameter->type() != ElementType::kDouble) ||
        parameter->size() != static_cast<size_t>(channels)) {
      return std::nullopt;
    }
  }
  std::vector<double> g = realsOf(gamma);
  std::vector<double> b = realsOf(beta);
  std::vector<double> m = realsOf(mean);
  std::vector<double> v = realsOf(variance);
  ChannelAffine affine;
  affine.scale.resize(g.size());
  affine.shift.resize(g.size());
  for (size_t c = 0; c < g.size(); ++c) {
    affine.scale[c] = g[c] / std::sqrt(v[c] + epsilon);
    affine.shift[c] = b[c] - m[c] * affine.scale[c];
  }
  return affine;
}

std::optional<ChannelLayout> convWeightsLayout(std::span<const int64_t> shape) {
  if (shape.size() < 2 || shape[0] <= 0) return std::nullopt;
  ChannelLayout layout;
  layout.channels = shape[0];
  for (size_t i = 1; i < shape.size(); ++i) layout.inner *= shape[i];
  return layout;
}

std::optional<ChannelLayout> convTransposeWeightsLayout(std::span<const int64_t> shape,
                                                        int64_t group) {
  if (shape.size() < 2 || group <= 0 || shape[0] % group != 0) return std::nullopt;
  ChannelLayout layout;
  layout.groups = group;
  layout.outer = shape[0] / group;
  layout.channels = shape[1];
  for (size_t i = 2; i < shape.size(); ++i) layout.inner *= shape[i];
  return layout;
}

std::optional<ChannelLayout> gemmWeightsLayout(std::span<const int64_t> shape, bool transposed) {
  if (shape.size() != 2) return std::nullopt;
  ChannelLayout layout;
  if (transposed) {
    layout.channels = shape[0];
    layout.inner = shape[1];
  } else {
    layout.outer = shape[0];
    layout.channels = shape[1];
  }
  return layout;
}

ChannelLayout biasLayout(int64_t rows, int64_t channels) {
  ChannelLayout layout;
  layout.outer = rows;
  layout.channels = channels;
  return layout;
}

namespace {

// y = x * factor + add for `count` elements, each with its own factor and add (a row of
// channels: kPerElement) or all with the first. Elements are read and written with memcpy: a
// view of a mapped file need not be aligned. Written to vectorize (this file is built -O3).
template <class T, bool kPerElement>
void mapRun(const std::byte* from, std::byte* to, size_t count, const double* factors,
            const double* adds) {
  constexpr size_t kStep = kPerElement ? 1 : 0;
  for (size_t k = 0; k < count; ++k) {
    T value;
    std::memcpy(&value, from + k * sizeof(T), sizeof(T));
    double add = adds != nullptr ? adds[k * kStep] : 0.0;
    value = static_cast<T>(static_cast<double>(value) * factors[k * kStep] + add);
    std::memcpy(to + k * sizeof(T), &value, sizeof(T));
  }
}

// Maps `count` elements starting at element `first` of the tensor. `from` may be `to`.
template <class T>
void mapElements(const std::byte* from, std::byte* to, size_t count, uint64_t first,
                 const ChannelLayout& layout, std::span<const double> scale,
                 std::span<const double> shift) {
  const auto inner = static_cast<uint64_t>(layout.inner);
  const auto channels = static_cast<uint64_t>(layout.channels);
  const uint64_t per_group = static_cast<uint64_t>(layout.outer) * channels * inner;
  size_t done = 0;
  while (done < count) {
    uint64_t element = first + done;
    uint64_t within = element % per_group;
    uint64_t channel = element / per_group * channels + within / inner % channels;
    // A run of elements whose channels are consecutive (inner 1: a Gemm's rows) or the same.
    uint64_t left = inner == 1 ? channels - within % channels : inner - within % inner;
    auto run = static_cast<size_t>(std::min<uint64_t>(left, count - done));
    size_t at = done * sizeof(T);
    const double* adds = shift.empty() ? nullptr : shift.data() + channel;
    if (inner == 1) {
      mapRun<T, true>(from + at, to + at, run, scale.data() + channel, adds);
    } else {
      mapRun<T, false>(from + at, to + at, run, scale.data() + channel, adds);
    }
    done += run;
  }
}

}  // namespace

bool mapChannelBytes(ElementType type, std::span<const std::byte> from, std::span<std::byte> to,
                     const ChannelLayout& layout, std::span<const double> scale,
                     std::span<const double> shift) {
  size_t element = type == ElementType::kFloat ? sizeof(float) : sizeof(double);
  size_t bytes = static_cast<size_t>(layout.size()) * element;
  return from.size() == bytes && mapChannelRange(type, from, to, layout, 0, scale, shift);
}

bool mapChannelRange(ElementType type, std::span<const std::byte> from, std::span<std::byte> to,
                     const ChannelLayout& layout, uint64_t first, std::span<const double> scale,
                     std::span<const double> shift) {
  size_t channels = static_cast<size_t>(layout.outputChannels());
  if ((type != ElementType::kFloat && type != ElementType::kDouble) || layout.channels <= 0 ||
      layout.inner <= 0 || layout.outer <= 0 || scale.size() != channels ||
      (!shift.empty() && shift.size() != channels)) {
    return false;
  }
  size_t element = type == ElementType::kFloat ? sizeof(float) : sizeof(double);
  size_t count = from.size() / element;
  if (from.size() % element != 0 || to.size() != from.size() ||
      first > static_cast<uint64_t>(layout.size()) ||
      count > static_cast<uint64_t>(layout.size()) - first) {
    return false;
  }
  if (type == ElementType::kFloat) {
    mapElements<float>(from.data(), to.data(), count, first, layout, scale, shift);
  } else {
    mapElements<double>(from.data(), to.data(), count, first, layout, scale, shift);
  }
  return true;
}

std::optional<Array> mapChannels(const Array& values, const ChannelLayout& layout,
                                 std::span<const double> scale, std::span<const double> shift) {
  if (values.isString()) return std::nullopt;
  Array mapped(values.type(), values.shape());
  if (!mapChannelBytes(values.type(), values.bytes(), mapped.bytes(), layout, scale, shift)) {
    return std::nullopt;
  }
  return mapped;
}

std::optional<std::vector<double>> perChannel(const Array& values, int64_t channels) {
  if (values.isString() || (values.size() != 1 && values.size() != static_cast<size_t>(channels))) {
    return std::nullopt;
  }
  std::vector<double> reals = realsOf(values);
  if (reals.size() == 1) reals.assign(static_cast<size_t>(channels), reals[0]);
  return reals;
}

}  // namespace onyx::ops::nn
