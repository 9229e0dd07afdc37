#include "passes/pass_helpers.h"

#include <array>
#include <string_view>

#include "onyx/ir/tensor_array.h"
#include "onyx/ir/unique_names.h"
#include "onyx/ops/registry.h"

namespace onyx::passes_internal {

namespace {

bool isDefaultDomain(std::string_view domain) { return domain.empty() || domain == "ai.onnx"; }

}  // namespace

bool isKnownOperator(const Node& node, const CalleeResolver& callees) {
  return findOperator(node.domainOrDefault(), node.opType()) != nullptr ||
         callees.localFunction(node) != nullptr;
}

bool isRandomOperator(const Node& node) {
  static constexpr std::array<std::string_view, 7> kRandom = {
      "Bernoulli",     "Dropout",          "Multinomial",       "RandomNormal",
      "RandomUniform", "RandomNormalLike", "RandomUniformLike",
  };
  if (!isDefaultDomain(node.domainOrDefault())) return false;
  for (std::string_view op : kRandom) {
    if (node.opType() == op) return true;
  }
  return false;
}

const Tensor* constantTensor(const Value* value) {
  if (value == nullptr) return nullptr;
  if (value->initializer() != nullptr) {
    return value->isGraphInput() ? nullptr : value->initializer();
  }
  const Node* producer = value->producer();
  if (producer == nullptr || producer->opType() != "Constant" ||
      !isDefaultDomain(producer->domainOrDefault())) {
    return nullptr;
  }
  return producer->tensorAttr("value");
}

std::optional<std::vector<int64_t>> constantIntegers(const Value* value) {
  if (value == nullptr) return std::nullopt;
  if (const Node* producer = value->producer(); producer != nullptr &&
                                                producer->opType() == "Constant" &&
                                                isDefaultDomain(producer->domainOrDefault())) {
    if (std::optional<int64_t> one = producer->intAttr("value_int")) {
      return std::vector<int64_t>{*one};
    }
    if (producer->hasAttr("value_ints")) {
      std::span<const int64_t> ints = producer->intsAttr("value_ints");
      return std::vector<int64_t>(ints.begin(), ints.end());
    }
  }
  const Tensor* tensor = constantTensor(value);
  if (tensor == nullptr) return std::nullopt;
  Result<Array> array = arrayFromTensor(*tensor);
  if (!array) return std::nullopt;
  std::vector<int64_t> values(array->size());
  if (array->type() == ElementType::kInt64) {
    for (size_t i = 0; i < values.size(); ++i) values[i] = array->data<int64_t>()[i];
  } else if (array->type() == ElementType::kInt32) {
    for (size_t i = 0; i < values.size(); ++i) values[i] = array->data<int32_t>()[i];
  } else {
    return std::nullopt;
  }
  return values;
}

bool isOutput(const Value& value) {
  for (const Use& use : value.uses()) {
    if (use.isGraphOutput()) return true;
  }
  return false;
}

Bypass bypassOutput(Arena& arena, Node& node, size_t output, Value& replacement) {
  Value* old = node.output(output);
  if (old == nullptr || old == &replacement) return Bypass::kRefused;
  if (!isOutput(*old)) {
    old->replaceAllUsesWith(&replacement);
    if (node.hasUses()) return Bypass::kDone;
    return node.destroy() ? Bypass::kNodeRemoved : Bypass::kDone;
  }
  // The output's name is an interface: the replacement takes it over.
  for (size_t i = 0; i < node.outputCount(); ++i) {
    if (i != output && node.output(i) != nullptr && node.output(i)->hasUses()) {
      return Bypass::kRefused;
    }
  }
  if (replacement.producer() == nullptr || replacement.graph() != old->graph() ||
      isOutput(replacement)) {
    return Bypass::kRefused;
  }
  std::string_view name = old->name();
  old->replaceAllUsesWith(&replacement);
  if (!node.destroy()) {
    replacement.replaceUsesWith(old, [](const Use& use) { return use.isGraphOutput(); });
    return Bypass::kRefused;
  }
  // The name was the removed output's, so it is free; a failure would leave a valid graph
  // with the replacement's name on the output.
  (void)renameValue(arena, replacement, name);
  return Bypass::kNodeRemoved;
}

}  // namespace onyx::passes_internal
