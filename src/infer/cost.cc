#include "onyx/infer/cost.h"

#include <set>
#include <span>
#include <string_view>

#include "onyx/core/element_type.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"
#include "onyx/ir/opset_imports.h"
#include "onyx/ir/value.h"

namespace onyx {

namespace {

// The dims of a tensor value whose shape is wholly known: its type's, or its initializer's
// (an initializer's value often declares no type).
std::optional<std::vector<int64_t>> knownDims(const Value* value) {
  if (value == nullptr) return std::nullopt;
  const Type* type = value->type();
  if (type == nullptr || !type->isTensor() || type->shape == nullptr) {
    if (const Tensor* tensor = value->initializer()) {
      return std::vector<int64_t>(tensor->dims.begin(), tensor->dims.end());
    }
    return std::nullopt;
  }
  std::vector<int64_t> dims;
  for (const Dimension& dim : type->shape->dims) {
    if (!dim.isKnown() || *dim.dim_value < 0) return std::nullopt;
    dims.push_back(*dim.dim_value);
  }
  return dims;
}

std::optional<uint64_t> elementsOf(const Value* value) {
  std::optional<std::vector<int64_t>> dims = knownDims(value);
  if (!dims) return std::nullopt;
  Result<uint64_t> count = elementCount(*dims);
  return count ? std::optional<uint64_t>(*count) : std::nullopt;
}

std::optional<uint64_t> bytesOf(const Value* value) {
  std::optional<uint64_t> count = elementsOf(value);
  if (!count) return std::nullopt;
  const ElementTypeInfo* info = elementTypeInfo(value->type()->elem_type.value_or(0));
  if (info == nullptr) return std::nullopt;
  Result<uint64_t> bytes = packedByteSize(info->type, *count);
  return bytes ? std::optional<uint64_t>(*bytes) : std::nullopt;
}

// The bytes of a constant's tensor, from its declared dims and type (its data need not be
// loaded: external weights are never read).
std::optional<uint64_t> tensorBytes(const Tensor& tensor) {
  const ElementTypeInfo* info = elementTypeInfo(tensor.data_type.value_or(0));
  Result<uint64_t> count =
      elementCount(std::span<const int64_t>(tensor.dims.begin(), tensor.dims.size()));
  if (info == nullptr || !count) return std::nullopt;
  Result<uint64_t> bytes = packedByteSize(info->type, *count);
  return bytes ? std::optional<uint64_t>(*bytes) : std::nullopt;
}

const Value* inputOf(const Node& node, size_t index) {
  return index < node.inputCount() ? node.input(index) : nullptr;
}

uint64_t product(std::span<const int64_t> dims, size_t from = 0) {
  uint64_t total = 1;
  for (size_t i = from; i < dims.size(); ++i) total *= static_cast<uint64_t>(dims[i]);
  return total;
}

bool oneOf(std::string_view op, std::initializer_list<std::string_view> ops) {
  for (std::string_view candidate : ops) {
    if (op == candidate) return true;
  }
  return false;
}

std::optional<uint64_t> attentionFlops(const Node& node) {
  // Q, K, V: [batch, heads, length, size], or 3-D [batch, length, heads * size] with the head
  // counts as attributes; a past cache adds its length to the keys'.
  std::optional<std::vector<int64_t>> q = knownDims(inputOf(node, 0));
  std::optional<std::vector<int64_t>> k = knownDims(inputOf(node, 1));
  std::optional<std::vector<int64_t>> v = knownDims(inputOf(node, 2));
  if (!q || !k || !v || q->size() != k->size() || q->size() != v->size()) return std::nullopt;
  uint64_t batch = 0, heads = 0, q_length = 0, kv_length = 0, size = 0, v_size = 0;
  if (q->size() == 4) {
    batch = (*q)[0], heads = (*q)[1], q_length = (*q)[2], size = (*q)[3];
    kv_length = (*k)[2], v_size = (*v)[3];
  } else if (q->size() == 3) {
    const Attribute* q_heads = node.attribute("q_num_heads");
    const Attribute* kv_heads = node.attribute("kv_num_heads");
    if (q_heads == nullptr || kv_heads == nullptr || q_heads->i.value_or(0) <= 0 ||
        kv_heads->i.value_or(0) <= 0) {
      return std::nullopt;
    }
    batch = (*q)[0], q_length = (*q)[1], kv_length = (*k)[1];
    heads = static_cast<uint64_t>(*q_heads->i);
    size = (*q)[2] / heads;
    v_size = (*v)[2] / static_cast<uint64_t>(*kv_heads->i);
  } else {
    return std::nullopt;
  }
  if (const Value* past = inputOf(node, 4)) {
    std::optional<std::vector<int64_t>> past_dims = knownDims(past);
    if (!past_dims || past_dims->size() != 4) return std::nullopt;
    kv_length += (*past_dims)[2];
  }
  return 2 * batch * heads * q_length * kv_length * (size + v_size);
}

// The operations of one standard node, or nullopt when a shape it needs is unknown.
std::optional<uint64_t> nodeFlops(const Node& node) {
  const std::string_view op = node.opType();
  const Value* output = node.outputCount() > 0 ? node.output(0) : nullptr;
  if (op == "MatMul") {
    std::optional<std::vector<int64_t>> a = knownDims(inputOf(node, 0));
    std::optional<uint64_t> out = elementsOf(output);
    if (!a || a->empty() || !out) return std::nullopt;
    return 2 * *out * static_cast<uint64_t>(a->back());
  }
  if (op == "Gemm") {
    std::optional<std::vector<int64_t>> a = knownDims(inputOf(node, 0));
    std::optional<uint64_t> out = elementsOf(output);
    if (!a || a->size() != 2 || !out) return std::nullopt;
    const Attribute* trans_a = node.attribute("transA");
    const uint64_t depth = static_cast<uint64_t>(
        trans_a != nullptr && trans_a->i.value_or(0) != 0 ? (*a)[0] : (*a)[1]);
    return 2 * *out * depth + (inputOf(node, 2) != nullptr ? *out : 0);
  }
  if (op == "Conv" || op == "ConvTranspose") {
    std::optional<std::vector<int64_t>> w = knownDims(inputOf(node, 1));
    std::optional<uint64_t> out = elementsOf(output);
    std::optional<uint64_t> in = elementsOf(inputOf(node, 0));
    if (!w || w->size() < 2 || !out || !in) return std::nullopt;
    // W is [M, C / group, k...] for Conv and [C, M / group, k...] for ConvTranspose: its
    // second dimension and kernel are what each result (or input) element multiplies.
    const uint64_t per_element = static_cast<uint64_t>((*w)[1]) * product(*w, 2);
    const uint64_t bias = inputOf(node, 2) != nullptr ? *out : 0;
    return 2 * (op == "Conv" ? *out : *in) * per_element + bias;
  }
  if (op == "Attention") return attentionFlops(node);
  if (oneOf(op, {"Add",        "Sub",   "Mul",     "Div",         "Pow",       "Sqrt",
                 "Reciprocal", "Exp",   "Log",     "Neg",         "Abs",       "Relu",
                 "LeakyRelu",  "PRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh",
                 "Erf",        "Gelu",  "Elu",     "Selu",        "Celu",      "Softplus",
                 "Softsign",   "Mish",  "Clip",    "Max",         "Min",       "Mean",
                 "Sum",        "Sin",   "Cos",     "Tan",         "Sinh",      "Cosh",
                 "Asin",       "Acos",  "Atan",    "Asinh",       "Acosh",     "Atanh",
                 "Floor",      "Ceil",  "Round",   "Sign",        "Mod",       "ThresholdedRelu",
                 "Swish"})) {
    return elementsOf(output);
  }
  if (oneOf(op, {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
                 "ReduceL2", "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp",
                 "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool", "ArgMax", "ArgMin"})) {
    return elementsOf(inputOf(node, 0));
  }
  if (op == "AveragePool" || op == "MaxPool" || op == "LpPool") {
    const Attribute* kernel = node.attribute("kernel_shape");
    std::optional<uint64_t> out = elementsOf(output);
    if (kernel == nullptr || !out) return std::nullopt;
    uint64_t window = 1;
    for (int64_t k : kernel->ints) window *= static_cast<uint64_t>(std::max<int64_t>(k, 0));
    return *out * window;
  }
  if (op == "DequantizeLinear" || op == "QuantizeLinear") {
    std::optional<uint64_t> out = elementsOf(output);
    if (!out) return std::nullopt;
    return 2 * *out;
  }
  if (op == "RotaryEmbedding") {
    std::optional<uint64_t> out = elementsOf(output);
    if (!out) return std::nullopt;
    return 3 * *out;
  }
  if (oneOf(op, {"Softmax", "LogSoftmax", "LayerNormalization", "RMSNormalization",
                 "BatchNormalization", "InstanceNormalization", "GroupNormalization",
                 "LpNormalization", "MeanVarianceNormalization"})) {
    std::optional<uint64_t> out = elementsOf(output);
    if (!out) return std::nullopt;
    return 5 * *out;
  }
  return 0;
}

}  // namespace

ModelCost modelCost(const Model& model) {
  ModelCost cost;
  if (model.graph == nullptr) return cost;
  const InitializerInputs initializer_inputs = initializerInputsOf(model);
  std::set<const Value*> counted_constants;
  for (const Node* node : model.graph->nodes()) {
    NodeCost entry;
    entry.node = node;
    // Nodes of other domains (contrib operators, functions) are counted as moving data:
    // without their definitions' costs, only what they read and make is known.
    entry.flops = isDefaultDomain(*node) ? nodeFlops(*node) : 0;
    for (size_t i = 0; i < node->inputCount(); ++i) {
      const Value* input = node->input(i);
      const Tensor* constant =
          input != nullptr ? constantTensor(input, initializer_inputs) : nullptr;
      if (constant == nullptr) continue;
      const std::optional<uint64_t> bytes = tensorBytes(*constant);
      if (!bytes) continue;
      entry.parameter_bytes += *bytes;
      if (counted_constants.insert(input).second) cost.parameter_bytes += *bytes;
    }
    uint64_t made = 0;
    bool known = true;
    for (size_t o = 0; o < node->outputCount(); ++o) {
      const Value* output = node->output(o);
      if (output == nullptr) continue;
      const std::optional<uint64_t> bytes = bytesOf(output);
      known = known && bytes.has_value();
      made += bytes.value_or(0);
    }
    if (known) {
      entry.activation_bytes = made;
      cost.activation_bytes += made;
    }
    if (entry.flops) {
      cost.flops += *entry.flops;
    } else {
      ++cost.uncounted;
    }
    cost.nodes.push_back(entry);
  }
  return cost;
}

}  // namespace onyx
