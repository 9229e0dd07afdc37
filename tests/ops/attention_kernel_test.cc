// Attention on floats (the kernel's float path: scores and products on sgemm, K and V read in
// place, grouped heads reading their one K and V head) against the scalar reference, which
// computes in double and runs for DOUBLE inputs: grouped heads, causal and padding masks, a
// past cache and its present, softcap, scale, 3-D and 4-D inputs, versions 23 and 24; and a
// cache of fixed capacity read only where it is valid.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::dimsText;
using testing::elementCount;
using testing::randomFloats;
using testing::runText;
using testing::tensorOf;
using testing::valuesOf;

struct AttentionCase {
  std::string name = "";
  int opset = 23;
  bool three_d = false;  // (batch, sequence, heads * size) with the head counts as attributes
  int64_t batch = 2, q_heads = 4, kv_heads = 2, sequence = 3, past = 0, size = 8;
  std::string attributes = "";  // besides the head counts
  std::string mask = "";        // "", "bool" or "float": (batch, 1, sequence, past + sequence)
  bool nonpad = false;          // version 24's nonpad_kv_seqlen
};

std::vector<int64_t> headShape(const AttentionCase& c, int64_t heads, int64_t sequence) {
  if (c.three_d) return {c.batch, sequence, heads * c.size};
  return {c.batch, heads, sequence, c.size};
}

// The case as a model over `type` ("float" or "double"), and its inputs.
std::string modelText(const AttentionCase& c, const std::string& type) {
  const int64_t total = c.past + c.sequence;
  auto declared = [&](const std::vector<int64_t>& shape, const std::string& name,
                      const std::string& element) {
    return element + dimsText(shape) + " " + name;
  };
  std::string inputs = declared(headShape(c, c.q_heads, c.sequence), "q", type) + ", " +
                       declared(headShape(c, c.kv_heads, c.sequence), "k", type) + ", " +
                       declared(headShape(c, c.kv_heads, c.sequence), "v", type);
  std::string reads = "q, k, v";
  if (!c.mask.empty()) {
    inputs +=
        ", " + declared({c.batch, 1, c.sequence, total}, "m", c.mask == "bool" ? "bool" : type);
    reads += ", m";
  } else if (c.past > 0 || c.nonpad) {
    reads += ", ";
  }
  std::string outputs = type + " y";
  if (c.past > 0) {
    const std::vector<int64_t> past = {c.batch, c.kv_heads, c.past, c.size};
    inputs += ", " + declared(past, "pk", type) + ", " + declared(past, "pv", type);
    reads += ", pk, pv";
    outputs += ", " + type + " ok, " + type + " ov";
  }
  if (c.nonpad) {
    inputs += ", int64[" + std::to_string(c.batch) + "] n";
    reads += ", , , n";
  }
  std::string attributes = c.attributes;
  if (c.three_d) {
    attributes += std::string(attributes.empty() ? "" : ", ") +
                  "q_num_heads = " + std::to_string(c.q_heads) +
                  ", kv_num_heads = " + std::to_string(c.kv_heads);
  }
  std::string node = c.past > 0 ? "y, ok, ov" : "y";
  return "<ir_version: 10, opset_import: [\"\" : " + std::to_string(c.opset) + "]>\ng (" + inputs +
         ") => (" + outputs + ") {\n  " + node + " = Attention " +
         (attributes.empty() ? "" : "<" + attributes + "> ") + "(" + reads + ")\n}";
}

std::vector<NamedValue> inputsOf(const AttentionCase& c, bool doubles) {
  const int64_t total = c.past + c.sequence;
  auto values = [&](const std::string& name, std::vector<int64_t> shape, uint32_t seed) {
    std::vector<float> drawn = randomFloats(elementCount(shape), seed);
    if (doubles) {
      return NamedValue{name, tensorOf<double>(ElementType::kDouble, std::move(shape),
                                               std::vector<double>(drawn.begin(), drawn.end()))};
    }
    return NamedValue{name, tensorOf<float>(ElementType::kFloat, std::move(shape), drawn)};
  };
  std::vector<NamedValue> inputs = {values("q", headShape(c, c.q_heads, c.sequence), 1),
                                    values("k", headShape(c, c.kv_heads, c.sequence), 2),
                                    values("v", headShape(c, c.kv_heads, c.sequence), 3)};
  if (c.mask == "bool") {
    // Position (i, j) masked when (i + 2 j + b) % 3 == 0, row 0 of batch 1 entirely.
    std::vector<bool> flags(static_cast<size_t>(c.batch * c.sequence * total));
    for (int64_t b = 0; b < c.batch; ++b) {
      for (int64_t i = 0; i < c.sequence; ++i) {
        for (int64_t j = 0; j < total; ++j) {
          flags[static_cast<size_t>((b * c.sequence + i) * total + j)] =
              (i + 2 * j + b) % 3 != 0 && !(b == 1 && i == 0);
        }
      }
    }
    inputs.push_back(
        {"m", tensorOf<bool>(ElementType::kBool, {c.batch, 1, c.sequence, total}, flags)});
  } else if (c.mask == "float") {
    inputs.push_back(values("m", {c.batch, 1, c.sequence, total}, 4));
  }
  if (c.past > 0) {
    inputs.push_back(values("pk", {c.batch, c.kv_heads, c.past, c.size}, 5));
    inputs.push_back(values("pv", {c.batch, c.kv_heads, c.past, c.size}, 6));
  }
  if (c.nonpad) {
    std::vector<int64_t> lengths(static_cast<size_t>(c.batch));
    for (int64_t b = 0; b < c.batch; ++b) lengths[static_cast<size_t>(b)] = total - b;
    inputs.push_back({"n", tensorOf<int64_t>(ElementType::kInt64, {c.batch}, lengths)});
  }
  return inputs;
}

TEST(AttentionKernel, FloatsGiveWhatTheDoubleReferenceGives) {
  const std::vector<AttentionCase> cases = {
      {.name = "grouped heads"},
      {.name = "causal", .attributes = "is_causal = 1"},
      {.name = "causal with a past", .past = 5, .attributes = "is_causal = 1"},
      {.name = "one token after a past, 3-D",
       .three_d = true,
       .sequence = 1,
       .past = 7,
       .attributes = "is_causal = 1"},
      {.name = "3-D prefill", .three_d = true, .sequence = 6, .attributes = "is_causal = 1"},
      {.name = "bool mask with a fully masked row", .mask = "bool"},
      {.name = "float mask, past, scale", .past = 2, .attributes = "scale = 0.3", .mask = "float"},
      {.name = "softcap", .attributes = "softcap = 2.5, is_causal = 1"},
      {.name = "as many K heads as Q heads", .kv_heads = 4, .attributes = "is_causal = 1"},
      {.name = "padding by nonpad_kv_seqlen", .opset = 24, .sequence = 4, .nonpad = true},
      {.name = "causal padding by nonpad_kv_seqlen, 3-D",
       .opset = 24,
       .three_d = true,
       .sequence = 4,
       .attributes = "is_causal = 1",
       .nonpad = true},
      {.name = "left and right windows after a past",
       .opset = 25,
       .sequence = 6,
       .past = 3,
       .attributes = "left_window_size = 2, right_window_size = 1"},
      {.name = "causal with a left window",
       .opset = 25,
       .attributes = "is_causal = 1, left_window_size = 1"},
  };
  for (const AttentionCase& c : cases) {
    SCOPED_TRACE(c.name + "\n" + modelText(c, "float"));
    Result<std::vector<EvalValue>> floats = runText(modelText(c, "float"), inputsOf(c, false));
    Result<std::vector<EvalValue>> reference = runText(modelText(c, "double"), inputsOf(c, true));
    ASSERT_TRUE(floats) << floats.status().toString();
    ASSERT_TRUE(reference) << reference.status().toString();
    ASSERT_EQ(floats->size(), reference->size());
    for (size_t output = 0; output < floats->size(); ++output) {
      std::vector<float> got = valuesOf<float>((*floats)[output]);
      std::vector<double> expected = valuesOf<double>((*reference)[output]);
      ASSERT_EQ((*floats)[output].tensor.shape(), (*reference)[output].tensor.shape());
      ASSERT_EQ(got.size(), expected.size());
      for (size_t i = 0; i < got.size(); ++i) {
        // Outputs are sums of probabilities times values in [-1, 1): float rounding is far
        // below 1e-5; the present caches are copies, exact.
        ASSERT_NEAR(got[i], expected[i], output == 0 ? 1e-5 : 0.0)
            << "output " << output << " element " << i;
      }
    }
  }
}

// A cache of fixed capacity (opset 24's external cache) past nonpad_kv_seqlen holds positions
// no query sees yet: the float path reads none of them, so what lies there (NaN here) does not
// reach the output, which is attention over the valid positions alone.
TEST(AttentionKernel, ACacheIsReadOnlyUpToItsValidLength) {
  const std::string text = R"(<ir_version: 10, opset_import: ["" : 24]>
    g (float[1, 2, 2, 4] q, float[1, 1, %d, 4] k, float[1, 1, %d, 4] v, int64[1] n)
        => (float[1, 2, 2, 4] y) {
      y = Attention <is_causal = 1> (q, k, v, , , , n)
    })";
  auto model = [&](int capacity) {
    std::string filled = text;
    for (int twice = 0; twice < 2; ++twice) {
      filled.replace(filled.find("%d"), 2, std::to_string(capacity));
    }
    return filled;
  };
  const std::vector<float> q = randomFloats(16, 1);
  const std::vector<float> k = randomFloats(12, 2), v = randomFloats(12, 3);
  std::vector<float> k_cache(32, std::nanf("")), v_cache(32, std::nanf(""));
  std::copy(k.begin(), k.end(), k_cache.begin());
  std::copy(v.begin(), v.end(), v_cache.begin());
  auto run = [&](int capacity, const std::vector<float>& keys, const std::vector<float>& values) {
    return runText(model(capacity),
                   {{"q", tensorOf<float>(ElementType::kFloat, {1, 2, 2, 4}, q)},
                    {"k", tensorOf<float>(ElementType::kFloat, {1, 1, capacity, 4}, keys)},
                    {"v", tensorOf<float>(ElementType::kFloat, {1, 1, capacity, 4}, values)},
                    {"n", tensorOf<int64_t>(ElementType::kInt64, {1}, {3})}});
  };
  Result<std::vector<EvalValue>> cached = run(8, k_cache, v_cache);
  Result<std::vector<EvalValue>> exact = run(3, k, v);
  ASSERT_TRUE(cached) << cached.status().toString();
  ASSERT_TRUE(exact) << exact.status().toString();
  EXPECT_EQ(valuesOf<float>((*cached)[0]), valuesOf<float>((*exact)[0]));
}

}  // namespace
}  // namespace onyx
