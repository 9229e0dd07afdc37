#include "support/eval_testing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <string>

#include "onyx/eval/test_case.h"
#include "onyx/text/parser.h"

namespace onyx::testing {

Result<std::vector<EvalValue>> runText(std::string_view text, std::vector<NamedValue> inputs,
                                       const EvalOptions& options) {
  Result<Model> parsed = parseText(text);
  EXPECT_TRUE(parsed) << parsed.status().toString();
  if (!parsed) return parsed.status();
  return evaluate(*parsed, inputs, options);
}

std::vector<std::vector<float>> floatOutputs(const Model& model,
                                             const std::vector<NamedValue>& inputs) {
  Result<std::vector<EvalValue>> out = evaluate(model, inputs);
  EXPECT_TRUE(out) << out.status().toString();
  std::vector<std::vector<float>> values;
  if (!out) return values;
  for (const EvalValue& value : *out) values.push_back(valuesOf<float>(value));
  return values;
}

std::string dimsText(const std::vector<int64_t>& shape) {
  if (shape.empty()) return "";
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i > 0 ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

std::string elementsText(const std::vector<int32_t>& values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i)
    text += (i > 0 ? ", " : "") + std::to_string(values[i]);
  return text;
}

std::string floatsText(const std::vector<float>& values) {
  std::ostringstream text;
  text.precision(9);
  for (size_t i = 0; i < values.size(); ++i) text << (i > 0 ? ", " : "") << values[i];
  return text.str();
}

std::vector<int32_t> byteValues(const EvalValue& value, bool is_signed) {
  std::vector<int32_t> out;
  if (is_signed) {
    for (int8_t v : valuesOf<int8_t>(value)) out.push_back(v);
  } else {
    for (uint8_t v : valuesOf<uint8_t>(value)) out.push_back(v);
  }
  return out;
}

EvalValue byteTensor(bool is_signed, std::vector<int64_t> shape,
                     const std::vector<int32_t>& values) {
  if (is_signed) {
    return tensorOf<int8_t>(ElementType::kInt8, std::move(shape),
                            std::vector<int8_t>(values.begin(), values.end()));
  }
  return tensorOf<uint8_t>(ElementType::kUint8, std::move(shape),
                           std::vector<uint8_t>(values.begin(), values.end()));
}

size_t elementCount(const std::vector<int64_t>& shape) {
  size_t count = 1;
  for (int64_t dim : shape) count *= static_cast<size_t>(dim);
  return count;
}

std::vector<CpuTier> cpuTiersToTest() {
  std::vector<CpuTier> tiers;
  const CpuTier top = cappedCpuTierOrBaseline();
  for (CpuTier tier = CpuTier::kBaseline; tier <= top;
       tier = static_cast<CpuTier>(static_cast<int>(tier) + 1)) {
    tiers.push_back(tier);
    if (tier == CpuTier::kAmx) break;
  }
  return tiers;
}

double floatUlp(double value) {
  if (value == 0) return std::ldexp(1.0, -149);
  int exponent = 0;
  std::frexp(value, &exponent);
  return std::ldexp(1.0, std::max(exponent - 24, -149));
}

std::vector<float> randomFloats(size_t count, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& v : values) v = uniform(generator);
  return values;
}

std::string threadCountDifference(const Model& model, const std::vector<NamedValue>& inputs,
                                  int threads) {
  EvalOptions one;
  one.threads = 1;
  EvalOptions many;
  many.threads = threads;
  Result<std::vector<EvalValue>> expected = evaluate(model, inputs, one);
  Result<std::vector<EvalValue>> actual = evaluate(model, inputs, many);
  if (!expected) return "1 thread: " + expected.status().toString();
  if (!actual) return std::to_string(threads) + " threads: " + actual.status().toString();
  if (expected->size() != actual->size()) return "a different number of outputs";
  for (size_t i = 0; i < expected->size(); ++i) {
    std::string why = compareValues((*expected)[i], (*actual)[i], Tolerance{0.0, 0.0});
    if (!why.empty()) return "output " + std::to_string(i) + ": " + why;
  }
  return {};
}

}  // namespace onyx::testing
