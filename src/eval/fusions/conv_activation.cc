// The activations a convolution network puts after a convolution, as oneDNN post-operations:
// Relu, LeakyRelu, Clip (with constant bounds), HardSwish, HardSigmoid, Sigmoid, Tanh; and
// HardSwish and SiLU as exporters spell them out in several nodes that read the convolution's
// result twice:
//   x * (clip(x + 3, 0, 6) / 6)   Paddle2ONNX      Add, Clip, Div (or Mul by 1/6), Mul
//   (x * clip(x + 3, 0, 6)) / 6   Keras, tf2onnx   Add, Clip, Mul, Div (or Mul by 1/6)
//   x * hardsigmoid(x)            PyTorch before opset 14: HardSigmoid(1/6, 0.5), Mul
//   x * sigmoid(x)                SiLU, Swish: Sigmoid, Mul
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

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

// The value of a constant float tensor of one element, or nullopt.
std::optional<float> constantScalar(const Value* value, const FusionGraph& graph) {
  const Tensor* tensor = graph.fixedTensor(value);
  if (tensor == nullptr) return std::nullopt;
  Result<Array> array = arrayFromTensor(*tensor);
  if (!array || array->type() != ElementType::kFloat || array->size() != 1) return std::nullopt;
  return array->data<float>()[0];
}

// A Clip bound given as an input: a constant float scalar, or absent.
std::optional<float> clipBound(const Node& node, size_t index, const FusionGraph& graph,
                               float otherwise) {
  const Value* value = index < node.inputCount() ? node.input(index) : nullptr;
  if (value == nullptr) return otherwise;
  return constantScalar(value, graph);
}

// Clip's bounds: attributes before opset 11, optional inputs from it.
std::optional<std::pair<float, float>> clipBounds(const Node& clip, const FusionGraph& graph) {
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  std::optional<float> low = clip.attribute("min") != nullptr
                                 ? floatAttribute(clip, "min", -kInfinity)
                                 : clipBound(clip, 1, graph, -kInfinity);
  std::optional<float> high = clip.attribute("max") != nullptr
                                  ? floatAttribute(clip, "max", kInfinity)
                                  : clipBound(clip, 2, graph, kInfinity);
  if (!low || !high) return std::nullopt;
  return std::pair(*low, *high);
}

class ConvActivationEpilogue final : public ConvolutionEpilogue {
 public:
  bool absorb(const Node& next, ConvolutionChain& chain, const FusionGraph& graph) const override {
    if (!singleInOut(next) || next.input(0) != chain.end) return false;
    std::vector<ConvolutionActivation> added;
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
      std::optional<std::pair<float, float>> bounds = clipBounds(next, graph);
      if (!bounds) return false;
      added = {{Kind::kClip, bounds->first, bounds->second}};
    } else {
      return false;
    }
    chain.activations.insert(chain.activations.end(), added.begin(), added.end());
    return true;
  }
};

// The spelled-out activations of the header, each a group of nodes that read x (the chain's
// end) twice, ending in the one whose output is the activation's.
class SpelledActivationEpilogue final : public ConvolutionEpilogue {
 public:
  bool absorb(const Node&, ConvolutionChain&, const FusionGraph&) const override { return false; }

  std::vector<const Node*> absorbSpelled(ConvolutionChain& chain,
                                         const FusionGraph& graph) const override {
    const Value* x = chain.end;
    std::vector<const Node*> readers = graph.readers(x);
    if (readers.size() != 2 || readers[0] == readers[1]) return {};
    for (const Node* reader : readers) {
      if (graph.fused(*reader)) return {};
    }
    for (int first = 0; first < 2; ++first) {
      const Node& start = *readers[size_t(first)];
      const Node& other = *readers[size_t(1 - first)];
      std::vector<const Node*> members = hardSwish(x, start, other, graph);
      if (!members.empty()) {
        chain.activations.push_back({Kind::kHardSwish});
        return members;
      }
      if (isStandardOperator(start, "Sigmoid") && start.inputCount() == 1 && singleInOut(start) &&
          isProductWith(other, x, start.output(0)) && graph.soleReader(start.output(0)) == &other) {
        chain.activations.push_back({Kind::kSwish, 1.0f});
        return {&start, &other};
      }
    }
    return {};
  }

 private:
  // Whether `node` is Mul(a, b) or Mul(b, a).
  static bool isProductWith(const Node& node, const Value* a, const Value* b) {
    return isStandardOperator(node, "Mul") && node.inputCount() == 2 && singleInOut(node) &&
           ((node.input(0) == a && node.input(1) == b) ||
            (node.input(0) == b && node.input(1) == a));
  }
  static bool near(std::optional<float> value, float wanted) {
    return value && std::fabs(*value - wanted) <= 1e-6f * std::max(1.0f, std::fabs(wanted));
  }
  // Whether `node` divides `value` by 6 or multiplies it by 1/6.
  static bool sixth(const Node& node, const Value* value, const FusionGraph& graph) {
    if (!singleInOut(node) || node.inputCount() != 2) return false;
    if (isStandardOperator(node, "Div")) {
      return node.input(0) == value && near(constantScalar(node.input(1), graph), 6.0f);
    }
    if (!isStandardOperator(node, "Mul")) return false;
    const Value* factor = node.input(0) == value ? node.input(1) : node.input(0);
    return (node.input(0) == value || node.input(1) == value) &&
           near(constantScalar(factor, graph), 1.0f / 6.0f);
  }
  // The members of x * clip(x + 3, 0, 6) / 6 in either order, or of x * hardsigmoid(x) with
  // alpha 1/6 and beta 0.5, that start at `start` (reading x) and whose other reader of x is
  // `other`; empty when it is not that.
  static std::vector<const Node*> hardSwish(const Value* x, const Node& start, const Node& other,
                                            const FusionGraph& graph) {
    auto sole = [&graph](const Node& node) -> const Node* {
      const Node* reader = graph.soleReader(node.output(0));
      return reader != nullptr && !graph.fused(*reader) ? reader : nullptr;
    };
    if (isStandardOperator(start, "HardSigmoid") && start.inputCount() == 1 && singleInOut(start) &&
        near(floatAttribute(start, "alpha", 0.2f), 1.0f / 6.0f) &&
        near(floatAttribute(start, "beta", 0.5f), 0.5f) && sole(start) == &other &&
        isProductWith(other, x, start.output(0))) {
      return {&start, &other};
    }
    if (!isStandardOperator(start, "Add") || start.inputCount() != 2 || !singleInOut(start)) {
      return {};
    }
    const Value* three = start.input(0) == x ? start.input(1) : start.input(0);
    if ((start.input(0) != x && start.input(1) != x) || !near(constantScalar(three, graph), 3.0f)) {
      return {};
    }
    const Node* clip = sole(start);
    if (clip == nullptr || !isStandardOperator(*clip, "Clip") || !singleInOut(*clip) ||
        clip->input(0) != start.output(0)) {
      return {};
    }
    std::optional<std::pair<float, float>> bounds = clipBounds(*clip, graph);
    if (!bounds || bounds->first != 0.0f || bounds->second != 6.0f) return {};
    const Node* after = sole(*clip);
    if (after == nullptr) return {};
    // Paddle2ONNX: the sixth first, then the product with x.
    if (after != &other && sixth(*after, clip->output(0), graph) && sole(*after) == &other &&
        isProductWith(other, x, after->output(0))) {
      return {&start, clip, after, &other};
    }
    // Keras: the product with x first, then the sixth.
    if (after == &other && isProductWith(other, x, clip->output(0))) {
      const Node* last = sole(other);
      if (last != nullptr && sixth(*last, other.output(0), graph)) {
        return {&start, clip, &other, last};
      }
    }
    return {};
  }
};

}  // namespace

const ConvolutionEpilogue& convSpelledActivationEpilogue() {
  return soleInstance<SpelledActivationEpilogue>();
}

const ConvolutionEpilogue& convActivationEpilogue() {
  return soleInstance<ConvActivationEpilogue>();
}

}  // namespace onyx::eval_internal
