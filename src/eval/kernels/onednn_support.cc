#include "eval/kernels/onednn_support.h"

#include <mutex>

namespace onyx::eval_internal {

namespace {

dnnl::cpu_isa oneDnnIsaOf(CpuTier tier) {
  switch (tier) {
    case CpuTier::kBaseline: return dnnl::cpu_isa::sse41;
    case CpuTier::kAvx2: return dnnl::cpu_isa::avx2;
    case CpuTier::kAvx512: return dnnl::cpu_isa::avx512_core;
    case CpuTier::kAvx512Vnni: return dnnl::cpu_isa::avx512_core_vnni;
    case CpuTier::kAmx: break;
  }
  return dnnl::cpu_isa::all;
}

}  // namespace

void capOneDnnIsa() {
  static std::once_flag once;
  std::call_once(once, [] {
    Result<std::optional<CpuTier>> cap = environmentCpuTierCap();
    // An unreadable ONYX_MAX_ISA is reported by each run (cappedCpuTier); no cap meanwhile.
    if (!cap || !*cap || **cap >= detectedCpuTier()) return;
    // Fails only after oneDNN generated code already; it then keeps the CPU's own ISA.
    (void)dnnl::set_max_cpu_isa(oneDnnIsaOf(**cap));
  });
}

const dnnl::engine& processEngine() {
  static const dnnl::engine* engine = [] {
    capOneDnnIsa();
    return new dnnl::engine(dnnl::engine::kind::cpu, 0);  // never destroyed: see the header
  }();
  return *engine;
}

std::string layoutRecipe(const dnnl::memory::desc& layout) {
  const dnnl_memory_desc_t& d = layout.data;
  std::string text;
  auto add = [&text](auto value) { text += std::to_string(value) + ','; };
  auto addDims = [&add](const dnnl_dims_t& dims, int count) {
    for (int i = 0; i < count; ++i) add(dims[i]);
  };
  add(d.ndims);
  addDims(d.dims, d.ndims);
  add(static_cast<int>(d.data_type));
  addDims(d.padded_dims, d.ndims);
  addDims(d.padded_offsets, d.ndims);
  add(d.offset0);
  add(static_cast<int>(d.format_kind));
  if (d.format_kind == dnnl_blocked) {
    const dnnl_blocking_desc_t& blocking = d.format_desc.blocking;
    addDims(blocking.strides, d.ndims);
    add(blocking.inner_nblks);
    addDims(blocking.inner_blks, blocking.inner_nblks);
    addDims(blocking.inner_idxs, blocking.inner_nblks);
  } else {
    // Other kinds (Winograd, packed RNN) are not kept by onyx's kernels; their bytes as they are.
    const auto* bytes = reinterpret_cast<const char*>(&d.format_desc);
    text.append(bytes, sizeof(d.format_desc));
  }
  add(d.extra.flags);
  add(d.extra.compensation_mask);
  add(d.extra.scale_adjust);
  add(d.extra.asymm_compensation_mask);
  return text;
}

bool int8ProductsExact(CpuTier tier) {
  static const bool one_dnn_exact = [] {
    auto isa = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
    auto has = [isa](dnnl::cpu_isa wanted) {
      auto bits = static_cast<unsigned>(wanted);
      return (isa & bits) == bits;
    };
    return has(dnnl::cpu_isa::avx512_core_vnni) || has(dnnl::cpu_isa::avx2_vnni);
  }();
  return one_dnn_exact && tier >= CpuTier::kAvx512Vnni;
}

}  // namespace onyx::eval_internal
