// oneDNN's kernel for MatMulInteger: its int8 matrix product (integer_matmul.h), exact where
// the CPU multiplies bytes without saturating; a batched b, per-row zero points and other
// CPUs go to onyx's own kernel.
#include "eval/kernels/integer_matmul.h"
#include "eval/providers/provider.h"
#include "onyx/ir/constant_value.h"
#include "onyx/ir/node.h"

namespace onyx::eval_internal {

namespace {

class OnednnMatMulInteger final : public ProvidedKernel {
 public:
  explicit OnednnMatMulInteger(bool b_constant) : b_constant_(b_constant) {}

  Result<bool> run(KernelContext& ctx) override {
    if ((ctx.hasInput(2) && ctx.inputArray(2) == nullptr) ||
        (ctx.hasInput(3) && ctx.inputArray(3) == nullptr)) {
      return false;
    }
    IntegerMatMulCall call{.a = ctx.inputArray(0),
                           .a_zero = ctx.inputArray(2),
                           .b = ctx.inputArray(1),
                           .b_fixed = b_constant_,
                           .b_zero = ctx.inputArray(3),
                           .threads = ctx.threads(),
                           .tier = ctx.cpuTier()};
    if (call.a == nullptr || call.b == nullptr) return false;
    return tookResult(ctx, product_.run(call));
  }

  std::unique_ptr<ProvidedKernel> fresh() const override {
    return std::make_unique<OnednnMatMulInteger>(b_constant_);
  }

 private:
  bool b_constant_;
  IntegerMatMul product_;
};

}  // namespace

std::unique_ptr<ProvidedKernel> onednnMatMulInteger(const Node& node, InitializerInputs inputs) {
  if (node.inputCount() < 2 || node.input(1) == nullptr) return nullptr;
  // A b no input can override (an initializer, a Constant node's) is prepared once.
  return std::make_unique<OnednnMatMulInteger>(constantTensor(node.input(1), inputs) != nullptr);
}

}  // namespace onyx::eval_internal
