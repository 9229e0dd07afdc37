#include "onyx/ops/kernel_context.h"

#include "onyx/core/quote.h"
#include "onyx/ir/node.h"

namespace onyx {

Status KernelContext::fail(std::string message) const {
  std::string where(node().opType());
  if (!node().nameOrEmpty().empty()) where += " " + quoted(node().nameOrEmpty());
  return Status(ErrorCode::kInvalidArgument, where + ": " + message);
}

std::optional<Array> KernelContext::reusableInput(size_t i, ElementType type,
                                                  const std::vector<int64_t>& shape) const {
  if (i >= last_read_.size() || !last_read_[i] || !hasInput(i)) return std::nullopt;
  const EvalValue& value = *inputs_[i];
  if (!value.isTensor() || value.tensor.type() != type || type == ElementType::kString ||
      !value.tensor.soleHandle()) {
    return std::nullopt;
  }
  size_t count = 1;
  for (int64_t dim : shape) count *= static_cast<size_t>(dim);
  if (count != value.tensor.size() || count == 0) return std::nullopt;
  // A second handle on elements no one else will read: the evaluator drops the input's own
  // handle after this node.
  return value.tensor.reshaped(shape);
}

}  // namespace onyx
