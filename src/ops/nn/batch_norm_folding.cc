#include "ops/nn/batch_norm_folding.h"

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

// Elements are read and written with memcpy: a view of a mapped file need not be aligned.
template <class T>
void mapElements(const std::byte* from, std::byte* to, const ChannelLayout& layout,
                 std::span<const double> scale, std::span<const double> shift) {
  size_t at = 0;
  for (int64_t g = 0; g < layout.groups; ++g) {
    for (int64_t o = 0; o < layout.outer; ++o) {
      for (int64_t c = 0; c < layout.channels; ++c) {
        size_t channel = static_cast<size_t>(g * layout.channels + c);
        double factor = scale[channel];
        double add = shift.empty() ? 0.0 : shift[channel];
        for (int64_t i = 0; i < layout.inner; ++i, at += sizeof(T)) {
          T value;
          std::memcpy(&value, from + at, sizeof(T));
          value = static_cast<T>(static_cast<double>(value) * factor + add);
          std::memcpy(to + at, &value, sizeof(T));
        }
      }
    }
  }
}

}  // namespace

bool mapChannelBytes(ElementType type, std::span<const std::byte> from, std::span<std::byte> to,
                     const ChannelLayout& layout, std::span<const double> scale,
                     std::span<const double> shift) {
  size_t channels = static_cast<size_t>(layout.outputChannels());
  size_t element = type == ElementType::kFloat ? sizeof(float) : sizeof(double);
  size_t bytes = static_cast<size_t>(layout.size()) * element;
  if ((type != ElementType::kFloat && type != ElementType::kDouble) || from.size() != bytes ||
      to.size() != bytes || scale.size() != channels ||
      (!shift.empty() && shift.size() != channels)) {
    return false;
  }
  if (type == ElementType::kFloat) {
    mapElements<float>(from.data(), to.data(), layout, scale, shift);
  } else {
    mapElements<double>(from.data(), to.data(), layout, scale, shift);
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
