// Internal: what the generator kernels share: filling an array with one element, reading a
// shape input, and the random number generator of the random operators.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <optional>
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

/// The random operators' generator: SplitMix64 seeding a xoshiro256** stream (both public,
/// fully specified algorithms), so a seed gives the same numbers on every platform. The
/// distributions are written out here rather than taken from <random>, whose distributions
/// differ between standard libraries.
class Random {
 public:
  explicit Random(uint64_t seed) {
    for (uint64_t& word : state_) word = splitMix(seed);
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

  /// Uniform in [0, 1), 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// Standard normal (Box-Muller; both values of a pair are used).
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u1 = 0;
    do {
      u1 = uniform();
    } while (u1 <= 0);
    double u2 = uniform();
    double radius = std::sqrt(-2.0 * std::log(u1));
    double angle = 2.0 * std::numbers::pi * u2;
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitMix(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  uint64_t state_[4] = {};
  double spare_ = 0;
  bool has_spare_ = false;
};

/// The seed of a random operator: its `seed` attribute (a float, whose bits are used, or
/// Dropout's int) when present; else the run's seed mixed with the name of the node's first
/// output, so that two unseeded nodes draw different numbers (and each the same ones on
/// every run).
inline uint64_t seedOf(const KernelContext& ctx) {
  if (std::optional<int64_t> seed = ctx.intAttribute("seed")) {
    return 0x5eed100000000000ULL ^ static_cast<uint64_t>(*seed);
  }
  if (std::optional<float> seed = ctx.floatAttribute("seed")) {
    uint32_t bits = 0;
    std::memcpy(&bits, &*seed, sizeof bits);
    return 0x5eed000000000000ULL ^ bits;
  }
  uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a
  const Node& node = ctx.node();
  if (!node.outputs.empty() && node.outputs[0] != nullptr) {
    for (char c : node.outputs[0]->name) {
      hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
  }
  return ctx.seed() ^ hash;
}

}  // namespace onyx::ops::generator
