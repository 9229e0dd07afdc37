// oneDNN as a provider (provider.h): kernels for nodes alone through its primitives, and the
// convolution chain (fusions/convolution_chain.h), a Conv with what follows it as one
// primitive. What they decline the built-in kernels run. A new kernel is a file in this
// folder and a line in the table below.
#include <string_view>

#include "eval/fusions/fusion_pattern.h"
#include "eval/providers/provider.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"

namespace onyx::eval_internal {

extern const FusionPattern& qdqConvolutionPattern();
extern const FusionPattern& qdqMatMulPattern();
extern const FusionPattern& dynamicConvolutionPattern();
extern const FusionPattern& convolutionChainPattern();
std::unique_ptr<ProvidedKernel> onednnConvolution(const Node& node, InitializerInputs inputs);
std::unique_ptr<ProvidedKernel> onednnConvInteger(const Node& node, InitializerInputs inputs);
std::unique_ptr<ProvidedKernel> onednnMatMulInteger(const Node& node, InitializerInputs inputs);

namespace {

struct KernelEntry {
  std::string_view op_type;  // of the default domain
  std::unique_ptr<ProvidedKernel> (*make)(const Node& node, InitializerInputs inputs);
};

constexpr KernelEntry kKernels[] = {
    {"Conv", onednnConvolution},
    {"ConvInteger", onednnConvInteger},
    {"MatMulInteger", onednnMatMulInteger},
};

class OnednnProvider final : public Provider {
 public:
  std::string_view name() const override { return "oneDNN"; }

  std::unique_ptr<ProvidedKernel> kernel(const Node& node, const OpSchema& schema, int64_t opset,
                                         InitializerInputs initializer_inputs) const override {
    (void)schema, (void)opset;
    for (const KernelEntry& entry : kKernels) {
      if (isStandardOperator(node, entry.op_type)) return entry.make(node, initializer_inputs);
    }
    return nullptr;
  }

  std::span<const FusionPattern* const> fusions() const override {
    static const FusionPattern* const kFusions[] = {&qdqConvolutionPattern(), &qdqMatMulPattern(),
                                                    &dynamicConvolutionPattern(),
                                                    &convolutionChainPattern()};
    return kFusions;
  }
};

}  // namespace

const Provider& onednnProvider() { return soleInstance<OnednnProvider>(); }

}  // namespace onyx::eval_internal
