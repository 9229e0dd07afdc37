// RNN, GRU and LSTM compute float tensors in float (as onnxruntime does) and the others in
// double: the two give the same states within float rounding, whichever path the gates take
// (LSTM's all-gates-at-once path without peepholes, its element path with them).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::randomFloats;
using testing::runText;
using testing::tensorOf;
using testing::valuesOf;

// The outputs of `node` (reading x, w, r, b, h0, c0, p as declared) run once on float tensors
// and once on the same values as double.
void expectFloatMatchesDouble(const std::string& node, int64_t gates, bool peepholes) {
  const int64_t seq = 3, batch = 2, input = 5, hidden = 4;
  std::vector<std::pair<std::string, std::vector<int64_t>>> shapes = {
      {"x", {seq, batch, input}},
      {"w", {1, gates * hidden, input}},
      {"r", {1, gates * hidden, hidden}},
      {"b", {1, 2 * gates * hidden}},
      {"h0", {1, batch, hidden}},
      {"c0", {1, batch, hidden}},
      {"p", {1, 3 * hidden}}};
  if (!peepholes) shapes.pop_back();
  auto model = [&](const std::string& type) {
    std::string inputs;
    for (const auto& [name, dims] : shapes) {
      std::string text;
      for (int64_t dim : dims) text += (text.empty() ? "" : ",") + std::to_string(dim);
      inputs += (inputs.empty() ? "" : ", ") + type + "[" + text + "] " + name;
    }
    return "<ir_version: 10, opset_import: [\"\" : 14]>\n g (" + inputs + ") => (" + type + " y, " +
           type + " yh) { " + node + " }";
  };
  std::vector<NamedValue> floats, doubles;
  uint32_t seed = 1;
  for (const auto& [name, dims] : shapes) {
    size_t count = 1;
    for (int64_t dim : dims) count *= static_cast<size_t>(dim);
    std::vector<float> values = randomFloats(count, seed++);
    std::vector<double> wide(values.begin(), values.end());
    floats.push_back({name, tensorOf<float>(ElementType::kFloat, dims, values)});
    doubles.push_back({name, tensorOf<double>(ElementType::kDouble, dims, wide)});
  }
  Result<std::vector<EvalValue>> in_float = runText(model("float"), floats);
  Result<std::vector<EvalValue>> in_double = runText(model("double"), doubles);
  ASSERT_TRUE(in_float) << in_float.status().toString();
  ASSERT_TRUE(in_double) << in_double.status().toString();
  for (size_t output = 0; output < 2; ++output) {
    std::vector<float> a = valuesOf<float>((*in_float)[output]);
    std::vector<double> b = valuesOf<double>((*in_double)[output]);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_FALSE(a.empty());
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_NEAR(a[i], b[i], 2e-6 * (1 + std::fabs(b[i])))
          << node << " output " << output << " at " << i;
    }
  }
}

TEST(RecurrentKernels, LstmWithoutPeepholesInFloatIsDoubleRounded) {
  expectFloatMatchesDouble("y, yh = LSTM <hidden_size = 4> (x, w, r, b, \"\", h0, c0)", 4, false);
}

TEST(RecurrentKernels, LstmWithPeepholesAndClipInFloatIsDoubleRounded) {
  expectFloatMatchesDouble(
      "y, yh = LSTM <hidden_size = 4, clip = 2.5> (x, w, r, b, \"\", h0, c0, p)", 4, true);
}

TEST(RecurrentKernels, GruInFloatIsDoubleRounded) {
  expectFloatMatchesDouble(
      "y, yh = GRU <hidden_size = 4, linear_before_reset = 1> (x, w, r, b, \"\", h0)", 3, false);
}

}  // namespace
}  // namespace onyx
