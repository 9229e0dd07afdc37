#include "onyx/ir/tensor.h"

namespace onyx {

const TensorRareFields Tensor::kNone{};

std::optional<std::string_view> Tensor::externalValue(std::string_view key) const {
  std::optional<std::string_view> found;
  for (const StringStringEntry& entry : rare().external_data) {
    if (entry.key.value_or("") == key) found = entry.value.value_or("");
  }
  return found;
}

}  // namespace onyx
