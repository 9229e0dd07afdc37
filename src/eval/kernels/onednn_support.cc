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
