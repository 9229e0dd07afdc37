// Test support for kernels: a model written in the text syntax, run with given inputs.
//
//   Result<std::vector<EvalValue>> out = runText(R"(
//     <ir_version: 10, opset_import: ["" : 21]>
//     g (float[2] x) => (float[2] y) { y = Relu(x) })",
//     {{"x", tensorOf<float>(ElementType::kFloat, {2}, {-1, 2})}});
//   ASSERT_TRUE(out) << out.status().toString();
//   EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{0, 2}));
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/eval/evaluator.h"
#include "onyx/ir/node.h"

namespace onyx::testing {

/// Parses `text` (a whole model; the test fails on a parse error) and evaluates it.
Result<std::vector<EvalValue>> runText(std::string_view text, std::vector<NamedValue> inputs,
                                       const EvalOptions& options = {});

/// The outputs of `model` on `inputs` as floats, one list per output (valuesOf<float>); an
/// evaluation that fails fails the test and gives none.
std::vector<std::vector<float>> floatOutputs(const Model& model,
                                             const std::vector<NamedValue>& inputs);

/// How the outputs of `model` on `inputs` differ between 1 thread and `threads` threads
/// (compareValues's message, naming the output); empty when they are bit-identical.
std::string threadCountDifference(const Model& model, const std::vector<NamedValue>& inputs,
                                  int threads = 2);

/// The CPU tiers a test runs a tier-dependent path at (through EvalOptions::max_isa): every
/// tier from the baseline up to the one in force here (the CPU's, capped by ONYX_MAX_ISA).
/// A test states what each tier must do, so that its verdict never depends on the host.
std::vector<CpuTier> cpuTiersToTest();

/// A unit in the last place of a float in |value|'s binade (2^-149 at 0 and below the normal
/// range): the tolerance unit of tests that compare a FLOAT kernel with a DOUBLE result.
double floatUlp(double value);

/// Records the steps of a run (each as its nodes' op types joined by "+") and its warnings.
class StepRecorder final : public EvalObserver {
 public:
  void stepRan(std::span<const Node* const> nodes, std::chrono::nanoseconds) override {
    std::string step;
    for (const Node* node : nodes) step += (step.empty() ? "" : "+") + std::string(node->opType());
    steps.push_back(step);
  }
  void fusionDeclined(std::span<const Node* const> nodes) override { declined += nodes.size(); }
  void warning(std::string_view message) override { warnings.emplace_back(message); }
  std::vector<std::string> steps;
  std::vector<std::string> warnings;
  size_t declined = 0;  // members of fused steps that ran one by one
};

/// A shape as the text syntax writes it: "[2,3]", or "" for a scalar (`float` + "" is a
/// scalar float).
std::string dimsText(const std::vector<int64_t>& shape);

/// Floats as the text syntax writes a tensor's elements, each to 9 digits: "0.5, -1.25".
std::string floatsText(const std::vector<float>& values);

/// Integers as the text syntax writes a tensor's elements: "1, -2, 3".
std::string elementsText(const std::vector<int32_t>& values);

/// A UINT8 tensor (INT8 when `is_signed`) of `values`, each in the type's range.
EvalValue byteTensor(bool is_signed, std::vector<int64_t> shape,
                     const std::vector<int32_t>& values);

/// The elements of a UINT8 (INT8 when `is_signed`) tensor, widened: byteTensor's inverse.
std::vector<int32_t> byteValues(const EvalValue& value, bool is_signed);

/// The number of elements of `shape`.
size_t elementCount(const std::vector<int64_t>& shape);

/// `count` floats drawn uniformly from [-1, 1) by MT19937 seeded with `seed`.
std::vector<float> randomFloats(size_t count, uint32_t seed);

/// A tensor of `type` whose storage is `T` (float for FLOAT, uint16_t for FLOAT16, ...).
template <class T>
EvalValue tensorOf(ElementType type, std::vector<int64_t> shape, const std::vector<T>& values) {
  Array array(type, std::move(shape));
  std::copy_n(values.begin(), std::min(values.size(), array.size()), array.data<T>());
  return EvalValue::of(std::move(array));
}

/// The elements of a tensor value as `T` (its storage type); empty when not a tensor.
template <class T>
std::vector<T> valuesOf(const EvalValue& value) {
  if (!value.isTensor()) return {};
  const T* data = value.tensor.data<T>();
  return std::vector<T>(data, data + value.tensor.size());
}

}  // namespace onyx::testing
