#include "onyx/ops/kernel_context.h"

#include "onyx/ir/node.h"

namespace onyx {

Status KernelContext::fail(std::string message) const {
  std::string where(node().opType());
  if (!node().nameOrEmpty().empty()) where += " '" + std::string(node().nameOrEmpty()) + "'";
  return Status(ErrorCode::kInvalidArgument, where + ": " + message);
}

}  // namespace onyx
