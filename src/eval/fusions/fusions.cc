// The evaluator's fusion tables (fusion_pattern.h, convolution_chain.h). A new fusion is a
// file in this folder and a line here.
#include "eval/fusions/convolution_chain.h"
#include "eval/fusions/fusion_pattern.h"

namespace onyx::eval_internal {

extern const FusionPattern& convolutionChainPattern();
extern const FusionPattern& linearLayerPattern();
extern const FusionPattern& squeezeExcitationPattern();

extern const ConvolutionEpilogue& convBatchNormEpilogue();
extern const ConvolutionEpilogue& convResidualAddEpilogue();
extern const ConvolutionEpilogue& convActivationEpilogue();
extern const ConvolutionEpilogue& convSpelledActivationEpilogue();
extern const ConvolutionEpilogue& convOutputTransposeEpilogue();

std::span<const FusionPattern* const> fusionPatterns() {
  static const FusionPattern* const kPatterns[] = {
      &convolutionChainPattern(),
      &linearLayerPattern(),
      &squeezeExcitationPattern(),
  };
  return kPatterns;
}

std::span<const ConvolutionEpilogue* const> convolutionEpilogues() {
  static const ConvolutionEpilogue* const kEpilogues[] = {
      &convBatchNormEpilogue(),         &convResidualAddEpilogue(),     &convActivationEpilogue(),
      &convSpelledActivationEpilogue(), &convOutputTransposeEpilogue(),
  };
  return kEpilogues;
}

}  // namespace onyx::eval_internal
