// Internal to the evaluator: what the kernels built on oneDNN's primitives share.
#pragma once

#include <dnnl.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "onyx/core/array.h"
#include "onyx/core/cpu_tier.h"

namespace onyx::eval_internal {

/// What a kernel on oneDNN returns when a call is outside what it handles, having done
/// nothing: the caller's own path then runs.
inline Result<std::optional<Array>> notHandled() { return std::optional<Array>(); }

/// oneDNN's type for int8 (`is_signed`) or uint8 elements.
inline dnnl::memory::data_type byteType(bool is_signed) {
  return is_signed ? dnnl::memory::data_type::s8 : dnnl::memory::data_type::u8;
}

/// `array`'s elements as oneDNN's memory objects take them (non-const; it only reads
/// sources).
inline void* handleOf(const Array& array) { return const_cast<std::byte*>(array.bytes().data()); }

/// Scratch kept from call to call: `held` when nothing else holds it, else a new array of
/// `type` and `shape` put there; null when it cannot be made.
inline Array* reusedScratch(std::optional<Array>& held, ElementType type,
                            std::vector<int64_t> shape) {
  if (!held || !held->soleHandle()) {
    ArrayDestinationScope none({});  // kept beyond the run: never in a caller's bound memory
    Result<Array> made = Array::allocate(type, std::move(shape));
    if (!made) return nullptr;
    held = std::move(*made);
  }
  return &*held;
}

/// Weights in a primitive's own layout, as kept beside it (OneDnnPrimitiveCache) and shared
/// among executors when fixed.
struct OneDnnWeights {
  dnnl::memory memory;
  std::vector<uint32_t> sums;  // the integer kernels' per-column sums of the int8 weights
};

/// A text that differs for every two layouts oneDNN tells apart (the descriptor's sizes, type,
/// blocking and compensation), for a shared preparation's recipe.
std::string layoutRecipe(const dnnl::memory::desc& layout);

/// Convolution weights of `type` and sizes (M, C / group, KH, KW), plain, reordered into
/// `layout` (the primitive's own), seen as oneDNN's grouped (G, M / G, C / G, KH, KW) when
/// `group` > 1.
inline dnnl::memory reorderedWeights(const Array& weights, dnnl::memory::data_type type,
                                     const std::array<int64_t, 4>& sizes, int64_t group,
                                     const dnnl::memory::desc& layout, const dnnl::engine& engine,
                                     const dnnl::stream& stream) {
  using Tag = dnnl::memory::format_tag;
  const auto [m, c, kh, kw] = sizes;
  dnnl::memory::desc plain =
      group > 1 ? dnnl::memory::desc({group, m / group, c, kh, kw}, type, Tag::goihw)
                : dnnl::memory::desc({m, c, kh, kw}, type, Tag::oihw);
  dnnl::memory given(plain, engine, handleOf(weights));
  dnnl::memory reordered(layout, engine);
  dnnl::reorder(given, reordered).execute(stream, given, reordered);
  dnnl::stream(stream).wait();  // done before another thread reads them (shared_preparation.h)
  return reordered;
}

/// oneDNN's description of a 2-D forward-inference convolution over ONNX's window: dilations
/// counted from 1 (oneDNN counts the gap, from 0); `bias` null for none.
inline dnnl::convolution_forward::desc convolutionDescription(
    const dnnl::memory::desc& x, const dnnl::memory::desc& weights, const dnnl::memory::desc* bias,
    const dnnl::memory::desc& y, const std::array<int64_t, 2>& strides,
    const std::array<int64_t, 2>& dilations, const std::array<int64_t, 2>& pad_begin,
    const std::array<int64_t, 2>& pad_end) {
  const auto kind = dnnl::prop_kind::forward_inference;
  const auto direct = dnnl::algorithm::convolution_direct;
  const dnnl::memory::dims step = {strides[0], strides[1]};
  const dnnl::memory::dims gaps = {dilations[0] - 1, dilations[1] - 1};
  const dnnl::memory::dims begin = {pad_begin[0], pad_begin[1]};
  const dnnl::memory::dims end = {pad_end[0], pad_end[1]};
  if (bias != nullptr) {
    return dnnl::convolution_forward::desc(kind, direct, x, weights, *bias, y, step, gaps, begin,
                                           end);
  }
  return dnnl::convolution_forward::desc(kind, direct, x, weights, y, step, gaps, begin, end);
}

/// The attributes every primitive a kernel keeps starts from: its scratch memory given by the
/// caller (OneDnnPrimitiveCache, one per executor), not oneDNN's, which this build of oneDNN
/// shares among every primitive made on one thread, so that two executors whose primitives
/// one thread made would write the same scratch at once.
inline dnnl::primitive_attr keptPrimitiveAttributes() {
  dnnl::primitive_attr attributes;
  attributes.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attributes;
}

/// Whether oneDNN has only its reference code for a primitive: slower than onyx's own.
inline bool onlyReference(const dnnl::primitive_desc_base& description) {
  return std::string(description.impl_info_str()).starts_with("ref");
}

/// Caps oneDNN's code generation at the tier ONYX_MAX_ISA names (onyx/core/cpu_tier.h), once
/// per process and before its first primitive: oneDNN's cap is process-wide and fixed from
/// its first use on. A session's own lower cap (EvalOptions::max_isa) so governs onyx's
/// choices, not the instructions of oneDNN's float primitives.
void capOneDnnIsa();

/// The one CPU engine every kept primitive and memory object of the process is made on, so
/// that weights prepared once (shared_preparation.h) fit every executor's primitives. oneDNN's
/// engines are thread-safe; its streams are not, and each kernel cache has its own. Never
/// destroyed, as memory objects made on it may be released after static destruction begins.
const dnnl::engine& processEngine();

/// Whether oneDNN's int8 products are exact for a session at `tier`: with VNNI or AMX it
/// multiplies bytes into int32 directly; without, through an int16 step that saturates. The
/// tier alone decides (AVX-VNNI without AVX-512 counts as avx2), so that a capped session
/// takes the path a CPU of its tier would, and a test's verdict depends on the tier only.
bool int8ProductsExact(CpuTier tier);

}  // namespace onyx::eval_internal
