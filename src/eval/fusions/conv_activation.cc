// The activations a convolution network puts after a convolution, as oneDNN post-operations:
// Relu, LeakyRelu, Clip (with constant bounds), HardSwish, HardSigmoid, Sigmoid, Tanh.
#include <limits>

#include "eval/fusions/convolution_chain.h"
#include "onyx/ir/attribute.h"
#include "onyx/ir/node.h"
#include "onyx/ir/tensor_array.h"
#include "onyx/ir/value.h"

namespace onyx::eval_internal {

namespace {

using Kind = ConvolutionActivation::Kind;

float floatAttribute(const Node& node, std::string_view name, float otherwise) {
  const Attribute* attribute = node.attribute(name);
  return attribute != nullptr ? attribute->f.value_or(otherwise) : otherwise;
}

// A Clip bound given as an input: a constant float scalar, or absent.
std::optional<float> clipBound(const Node& node, size_t index, const FusionGraph& graph,
                               float otherwise) {
  const Value* value = index < node.inputCount() ? node.input(index) : nullptr;
  if (value == nullptr) return otherwise;
  if (!graph.constant(value)) return std::nullopt;
  Result<Array> bound = arrayFromTensor(*value->initializer());
  if (!bound || bound->type() != ElementType::kFloat || bound->size() != 1) return std::nullopt;
  return bound->data<float>()[0];
}

class ConvActivationEpilogue final : public ConvolutionEpilogue {
 public:
  bool absorb(const Node& next, ConvolutionChain& chain, const FusionGraph& graph) const override {
    if (!singleInOut(next) || next.input(0) != chain.end) return false;
    std::vector<ConvolutionActivation> added;
    constexpr float kInfinity = std::numeric_limits<float>::infinity();
    if (isStandardOperator(next, "Relu") && next.inputCount() == 1) {
      added = {{Kind::kRelu}};
    } else if (isStandardOperator(next, "LeakyRelu") && next.inputCount() == 1) {
      added = {{Kind::kLeakyRelu, floatAttribute(next, "alpha", 0.01f)}};
    } else if (isStandardOperator(next, "HardSwish") && next.inputCount() == 1) {
      added = {{Kind::kHardSwish}};
    } else if (isStandardOperator(next, "HardSigmoid") && next.inputCount() == 1) {
      added = {
          {Kind::kLinear, floatAttribute(next, "alpha", 0.2f), floatAttribute(next, "beta", 0.5f)},
          {Kind::kClip, 0.0f, 1.0f}};
    } else if (isStandardOperator(next, "Sigmoid") && next.inputCount() == 1) {
      added = {{Kind::kSigmoid}};
    } else if (isStandardOperator(next, "Tanh") && next.inputCount() == 1) {
      added = {{Kind::kTanh}};
    } else if (isStandardOperator(next, "Clip")) {
      // Bounds are attributes before opset 11, optional inputs from it.
      std::optional<float> low = next.attribute("min") != nullptr
                                     ? floatAttribute(next, "min", -kInfinity)
                                     : clipBound(next, 1, graph, -kInfinity);
      std::optional<float> high = next.attribute("max") != nullptr
                                      ? floatAttribute(next, "max", kInfinity)
                                      : clipBound(next, 2, graph, kInfinity);
      if (!low || !high) return false;
      added = {{Kind::kClip, *low, *high}};
    } else {
      return false;
    }
    chain.activations.insert(chain.activations.end(), added.begin(), added.end());
    return true;
  }
};

}  // namespace

const ConvolutionEpilogue& convActivationEpilogue() {
  return soleInstance<ConvActivationEpilogue>();
}

}  // namespace onyx::eval_internal
