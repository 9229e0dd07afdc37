// onyx's own provider: the kernels, fusions and channels-last kernels written for onyx's
// kernels alone (float16 nodes run on the float kernels, matrix products through
// ops/matrix_multiply.h, the operators' own kernels on channels-last values), asked after the
// libraries' providers.
#include "eval/fusions/fusion_pattern.h"
#include "eval/layout/channels_last_kernels.h"
#include "eval/providers/provider.h"

namespace onyx::eval_internal {

extern const FusionPattern& qdqAddPattern();
extern const FusionPattern& dequantizedWeightsMatMulPattern();
extern const FusionPattern& linearLayerPattern();
extern const FusionPattern& gemmLayerPattern();
extern const FusionPattern& squeezeExcitationPattern();
extern const FusionPattern& gatedSiluPattern();
std::unique_ptr<ProvidedKernel> onyxHalvesAsFloats(const Node& node, const OpSchema& schema,
                                                   InitializerInputs inputs);

namespace {

class OnyxProvider final : public Provider {
 public:
  std::string_view name() const override { return "onyx"; }

  std::unique_ptr<ProvidedKernel> kernel(const Node& node, const OpSchema& schema, int64_t opset,
                                         InitializerInputs initializer_inputs) const override {
    (void)opset;
    return onyxHalvesAsFloats(node, schema, initializer_inputs);
  }

  std::span<const FusionPattern* const> fusions() const override {
    static const FusionPattern* const kFusions[] = {
        &qdqAddPattern(),    &dequantizedWeightsMatMulPattern(), &linearLayerPattern(),
        &gemmLayerPattern(), &squeezeExcitationPattern(),        &gatedSiluPattern(),
    };
    return kFusions;
  }

  const ChannelsLastKernel* channelsLast(const Node& node, const OpSchema* schema) const override {
    return channelsLastKernel(node, schema);
  }
};

}  // namespace

const Provider& onyxProvider() { return soleInstance<OnyxProvider>(); }

}  // namespace onyx::eval_internal
