// Internal: what the generator kernels share: filling an array with one element, reading a
// shape input, and the random number generator of the random operators.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/ir/node.h"
#include "onyx/ir/value.h"
#include "ops/kernels.h"

namespace onyx::ops::generator {

/// Every element of `out` set to element 0 of `value` (same element type, at least one
/// element).
inline void fillWith(Array& out, const Array& value) {
  if (out.size() == 0) return;
  if (out.isString()) {
    for (std::string& text : out.strings()) text = value.strings()[0];
    return;
  }
  size_t width = arrayElementBytes(out.type());
  std::span<std::byte> bytes = out.bytes();
  std::span<const std::byte> first = value.bytes();
  std::memcpy(bytes.data(), first.data(), width);
  // Double the filled prefix until the array is full.
  size_t filled = width;
  while (filled < bytes.size()) {
    size_t chunk = std::min(filled, bytes.size() - filled);
    std::memcpy(bytes.data() + filled, bytes.data(), chunk);
    filled += chunk;
  }
}

/// A shape given as a 1-D INT64 input: its dims, checked non-negative. An error message in
/// `error` otherwise.
inline std::optional<std::vector<int64_t>> shapeFromInput(const Array* shape, std::string& error) {
  if (shape == nullptr) {
    error = "needs a shape tensor";
    return std::nullopt;
  }
  if (shape->rank() > 1) {
    error = "the shape must be 1-D, not of rank " + std::to_string(shape->rank());
    return std::nullopt;
  }
  std::optional<std::vector<int64_t>> dims = integersOf(*shape);
  if (!dims) {
    error = "the shape must be INT64";
    return std::nullopt;
  }
  for (int64_t dim : *dims) {
    if (dim < 0) {
      error = "the shape has a negative dimension (" + std::to_string(dim) + ")";
      return std::nullopt;
    }
  }
  return dims;
}

/// The random operators' generator, in one of two fully specified modes:
///  - for a node with a `seed` attribute, numpy's legacy RandomState(seed), which ONNX's
///    reference uses: MT19937 seeded as std::mt19937 is (the standard fixes its output), a
///    double from two draws (27 + 26 bits), normals by the polar method in pairs; the same
///    seed then gives the reference's numbers;
///  - otherwise SplitMix64 seeding xoshiro256**, from the run's seed.
/// The distributions are written out here rather than taken from <random>, whose
/// distributions differ between standard libraries.
class Random {
 public:
  /// The generator for the node `ctx` runs.
  static Random forNode(const KernelContext& ctx) {
    if (std::optional<int64_t> seed = ctx.intAttribute("seed")) {
      return Random(static_cast<uint32_t>(static_cast<uint64_t>(*seed)));
    }
    if (std::optional<float> seed = ctx.floatAttribute("seed"); seed && std::isfinite(*seed)) {
      double whole = std::trunc(static_cast<double>(*seed));
      auto wrapped = std::fabs(whole) < 9.0e18 ? static_cast<int64_t>(whole) : int64_t{0};
      return Random(static_cast<uint32_t>(static_cast<uint64_t>(wrapped)));
    }
    return Random(runSeed(ctx));
  }

  /// Uniform in [0, 1), 53 random bits.
  double uniform() {
    if (numpy_) {
      double high = static_cast<double>(mt_() >> 5);
      double low = static_cast<double>(mt_() >> 6);
      return (high * 67108864.0 + low) / 9007199254740992.0;
    }
    return static_cast<double>(next() >> 11) * 0x1.0p-53;
  }

  /// Standard normal: the polar method, both values of a pair used (second one first kept).
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double x1 = 0, x2 = 0, r2 = 0;
    do {
      x1 = 2.0 * uniform() - 1.0;
      x2 = 2.0 * uniform() - 1.0;
      r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    double f = std::sqrt(-2.0 * std::log(r2) / r2);
    spare_ = f * x1;
    has_spare_ = true;
    return f * x2;
  }

 private:
  explicit Random(uint32_t numpy_seed) : numpy_(true), mt_(numpy_seed) {}
  explicit Random(uint64_t seed) {
    for (uint64_t& word : state_) word = splitMix(seed);
  }

  /// The run's seed mixed with the name of the node's first output, so that two unseeded
  /// nodes draw different numbers (and each the same ones on every run).
  static uint64_t runSeed(const KernelContext& ctx) {
    uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a
    const Node& node = ctx.node();
    if (!node.outputs().empty() && node.output(0) != nullptr) {
      for (char c : node.output(0)->name()) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
      }
    }
    return ctx.seed() ^ hash;
  }

  uint64_t next() {
    uint64_t result = rotl(state_[1] * 5, 7) * 9;
    uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitMix(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  bool numpy_ = false;
  std::mt19937 mt_;
  uint64_t state_[4] = {};
  double spare_ = 0;
  bool has_spare_ = false;
};

/// A random operator's output element type: `dtype` when given (a floating-point type), else
/// `fallback`.
inline Result<ElementType> randomType(const KernelContext& ctx, ElementType fallback) {
  std::optional<int64_t> dtype = ctx.intAttribute("dtype");
  if (!dtype) return fallback;
  const ElementTypeInfo* info =
      *dtype > 0 && *dtype <= INT32_MAX ? elementTypeInfo(static_cast<int32_t>(*dtype)) : nullptr;
  if (info == nullptr || !info->isFloatingPoint()) {
    return ctx.fail("dtype " + std::to_string(*dtype) + " is not a floating-point type");
  }
  return info->type;
}

}  // namespace onyx::ops::generator
