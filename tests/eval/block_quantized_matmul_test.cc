// A MatMul by weights a DequantizeLinear of constant int4, uint4, int8 or uint8 codes gives
// runs as one step on the codes, laid out in tiles once per process
// (src/eval/kernels/block_quantized_matmul.h): it gives what DequantizeLinear -> MatMul give
// node by node within the bound docs/eval.md states, at every CPU tier, with the same bits on
// any thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "eval/kernels/shared_preparation.h"
#include "onyx/eval/evaluator.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/model.h"
#include "onyx/ir/node.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;
using testing::valuesOf;

struct Weights {
  ElementType type = ElementType::kInt4;
  int64_t depth = 0;
  int64_t columns = 0;
  int64_t block = 0;  // 0: a scale per column (axis 1), or per tensor
  bool per_tensor = false;
  bool zero_points = false;
};

struct Drawn {
  std::vector<int32_t> codes;  // [depth, columns]
  std::vector<float> scales;   // [blocks, columns], or one
  std::vector<int32_t> zeros;  // as scales, or empty
};

std::pair<int32_t, int32_t> codeRange(ElementType type) {
  switch (type) {
    case ElementType::kInt4: return {-8, 7};
    case ElementType::kUint4: return {0, 15};
    case ElementType::kInt8: return {-128, 127};
    default: return {0, 255};
  }
}

size_t blockCount(const Weights& w) {
  if (w.per_tensor) return 1;
  return w.block > 0 ? static_cast<size_t>((w.depth + w.block - 1) / w.block) : 1;
}

Drawn draw(const Weights& w, uint32_t seed) {
  std::mt19937 random(seed);
  auto [low, high] = codeRange(w.type);
  std::uniform_int_distribution<int32_t> code(low, high);
  std::uniform_real_distribution<float> scale(0.001f, 0.05f);
  Drawn drawn;
  drawn.codes.resize(static_cast<size_t>(w.depth * w.columns));
  for (int32_t& c : drawn.codes) c = code(random);
  const size_t scales = w.per_tensor ? 1 : blockCount(w) * static_cast<size_t>(w.columns);
  drawn.scales.resize(scales);
  for (float& s : drawn.scales) s = scale(random);
  if (w.zero_points) {
    drawn.zeros.resize(scales);
    for (int32_t& z : drawn.zeros) z = code(random);
  }
  return drawn;
}

// The scale and zero point of element (k, n).
size_t scaleIndex(const Weights& w, int64_t k, int64_t n) {
  if (w.per_tensor) return 0;
  const int64_t block = w.block > 0 ? k / w.block : 0;
  return static_cast<size_t>(block * w.columns + n);
}

Array codesArray(const Weights& w, const std::vector<int32_t>& codes, std::vector<int64_t> shape) {
  Array array(w.type, std::move(shape));
  for (size_t i = 0; i < codes.size(); ++i) {
    if (w.type == ElementType::kInt4 || w.type == ElementType::kInt8) {
      array.data<int8_t>()[i] = static_cast<int8_t>(codes[i]);
    } else {
      array.data<uint8_t>()[i] = static_cast<uint8_t>(codes[i]);
    }
  }
  return array;
}

std::string typeName(ElementType type) {
  switch (type) {
    case ElementType::kInt4: return "int4";
    case ElementType::kUint4: return "uint4";
    case ElementType::kInt8: return "int8";
    default: return "uint8";
  }
}

// DequantizeLinear -> MatMul on [rows, depth] inputs, the codes, scales and zero points as
// Constant nodes whose tensors hold raw bytes (packed for 4 bits), as exporters write them.
Model quantizedWeightsModel(const Weights& w, const Drawn& drawn, int64_t rows) {
  const std::string a = "float[" + std::to_string(rows) + ", " + std::to_string(w.depth) + "]";
  const std::string y = "float[" + std::to_string(rows) + ", " + std::to_string(w.columns) + "]";
  const std::string attributes =
      w.block > 0 ? "<axis = 0, block_size = " + std::to_string(w.block) + ">" : "<axis = 1>";
  const std::string t = typeName(w.type);
  std::string text = "<ir_version: 10, opset_import: [\"\" : 21]>\ng (" + a + " a) => (" + y +
                     " y) {\n  w = Constant <value = " + t + "[1] {0}> ()\n" +
                     "  s = Constant <value = float[1] {1}> ()\n";
  if (w.zero_points) text += "  z = Constant <value = " + t + "[1] {0}> ()\n";
  text += "  wf = DequantizeLinear " + attributes + (w.zero_points ? " (w, s, z)\n" : " (w, s)\n");
  text += "  y = MatMul (a, wf)\n}";
  Result<Model> model = parseText(text);
  EXPECT_TRUE(model) << model.status().toString() << "\n" << text;
  if (!model) return Model();
  GraphEditor edit(*model);
  const std::vector<int64_t> scale_shape =
      w.per_tensor  ? std::vector<int64_t>{}
      : w.block > 0 ? std::vector<int64_t>{static_cast<int64_t>(blockCount(w)), w.columns}
                    : std::vector<int64_t>{w.columns};
  for (Node* node : model->graph->nodes()) {
    if (node->opType() != "Constant") continue;
    const std::string_view name = node->output(0)->name();
    Array array;
    if (name == "w") {
      array = codesArray(w, drawn.codes, {w.depth, w.columns});
    } else if (name == "z") {
      array = codesArray(w, drawn.zeros, scale_shape);
    } else {
      array = Array(ElementType::kFloat, scale_shape);
      std::copy(drawn.scales.begin(), drawn.scales.end(), array.data<float>());
    }
    edit.setTensorAttr(node, "value", edit.tensorFromArray(array));
  }
  return std::move(*model);
}

// a [rows, depth] times the dequantized weights, in double, and the sum of |a * w| per
// element: the scale of the rounding error.
void reference(const Weights& w, const Drawn& drawn, const std::vector<float>& a, int64_t rows,
               std::vector<double>& product, std::vector<double>& magnitude) {
  product.assign(static_cast<size_t>(rows * w.columns), 0.0);
  magnitude.assign(product.size(), 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = 0; k < w.depth; ++k) {
      const double x = a[static_cast<size_t>(r * w.depth + k)];
      for (int64_t n = 0; n < w.columns; ++n) {
        const size_t at = scaleIndex(w, k, n);
        const int32_t zero = w.zero_points ? drawn.zeros[at] : 0;
        const double weight =
            static_cast<float>(drawn.codes[static_cast<size_t>(k * w.columns + n)] - zero) *
            drawn.scales[at];
        product[static_cast<size_t>(r * w.columns + n)] += x * weight;
        magnitude[static_cast<size_t>(r * w.columns + n)] += std::fabs(x * weight);
      }
    }
  }
}

// Within depth float roundings of each term's size: what a float sum of depth products in
// any order keeps to (docs/eval.md).
void expectWithinBound(const std::vector<double>& product, const std::vector<double>& magnitude,
                       int64_t depth, const std::vector<float>& got, const std::string& what) {
  ASSERT_EQ(got.size(), product.size()) << what;
  const double unit = std::ldexp(1.0, -24);
  for (size_t i = 0; i < got.size(); ++i) {
    const double bound = static_cast<double>(depth) * unit * magnitude[i] + 1e-30;
    ASSERT_LE(std::fabs(got[i] - product[i]), bound) << what << ", element " << i;
  }
}

void checkProduct(const Weights& w, int64_t rows, uint32_t seed) {
  const std::string what =
      typeName(w.type) + " [" + std::to_string(w.depth) + ", " + std::to_string(w.columns) +
      "] block " + std::to_string(w.block) + (w.per_tensor ? " per tensor" : "") +
      (w.zero_points ? " with zero points" : "") + ", " + std::to_string(rows) + " rows";
  SCOPED_TRACE(what);
  const Drawn drawn = draw(w, seed);
  Model model = quantizedWeightsModel(w, drawn, rows);
  ASSERT_NE(model.graph, nullptr);
  std::vector<float> a = testing::randomFloats(static_cast<size_t>(rows * w.depth), seed + 1);
  std::vector<NamedValue> inputs = {
      {"a", tensorOf<float>(ElementType::kFloat, {rows, w.depth}, a)}};
  std::vector<double> product, magnitude;
  reference(w, drawn, a, rows, product, magnitude);

  EvalOptions literal;
  literal.fusions = false;
  Result<std::vector<EvalValue>> node_by_node = evaluate(model, inputs, literal);
  ASSERT_TRUE(node_by_node) << node_by_node.status().toString();
  expectWithinBound(product, magnitude, w.depth, valuesOf<float>((*node_by_node)[0]),
                    "node by node");
  for (CpuTier tier : testing::cpuTiersToTest()) {
    testing::StepRecorder steps;
    EvalOptions options;
    options.max_isa = tier;
    options.observer = &steps;
    Result<std::vector<EvalValue>> out = evaluate(model, inputs, options);
    ASSERT_TRUE(out) << out.status().toString();
    EXPECT_EQ(steps.steps, std::vector<std::string>{"DequantizeLinear+MatMul"});
    EXPECT_EQ(steps.declined, 0u);
    expectWithinBound(product, magnitude, w.depth, valuesOf<float>((*out)[0]),
                      std::string("tier ") + std::string(cpuTierName(tier)));
  }
  EXPECT_EQ(testing::threadCountDifference(model, inputs, 2), "");
  EXPECT_EQ(testing::threadCountDifference(model, inputs, 5), "");
}

TEST(BlockQuantizedMatMul, Int4InBlocksOf32ForOneTokenAFewAndMany) {
  // 1 and 3 rows: widened in registers; 7 and 70: tiles of floats on sgemm.
  for (int64_t rows : {1, 3, 7, 70}) {
    checkProduct({.type = ElementType::kInt4, .depth = 96, .columns = 48, .block = 32}, rows, 1);
  }
}

TEST(BlockQuantizedMatMul, WideColumnsTakeTheWholeChunksAndTheRest) {
  // 130 columns: a chunk of 128 (AVX-512) or four of 32 (AVX2), then two more.
  checkProduct({.type = ElementType::kInt4, .depth = 64, .columns = 130, .block = 32}, 2, 2);
  checkProduct({.type = ElementType::kUint4, .depth = 64, .columns = 272, .block = 16}, 5, 3);
}

TEST(BlockQuantizedMatMul, Uint4WithZeroPointsAndAShortLastBlock) {
  for (int64_t rows : {2, 9}) {
    checkProduct(
        {.type = ElementType::kUint4, .depth = 40, .columns = 64, .block = 16, .zero_points = true},
        rows, 4);
  }
}

TEST(BlockQuantizedMatMul, AnOddColumnCountOfPackedCodes) {
  // Rows of 17 packed codes start mid-byte: the portable way at every tier.
  for (int64_t rows : {1, 6}) {
    checkProduct({.type = ElementType::kInt4, .depth = 33, .columns = 17, .block = 32}, rows, 5);
  }
}

TEST(BlockQuantizedMatMul, EightBitCodesPerColumnAndPerTensor) {
  for (int64_t rows : {1, 12}) {
    checkProduct({.type = ElementType::kInt8, .depth = 50, .columns = 40, .zero_points = true},
                 rows, 6);
    checkProduct({.type = ElementType::kUint8,
                  .depth = 24,
                  .columns = 32,
                  .per_tensor = true,
                  .zero_points = true},
                 rows, 7);
    checkProduct({.type = ElementType::kInt8, .depth = 64, .columns = 48, .block = 32}, rows, 8);
  }
}

// One row of random inputs for the weights' model (quantizedWeightsModel with 1 row).
std::vector<NamedValue> oneRow(const Weights& w, uint32_t seed) {
  return {{"a", tensorOf<float>(ElementType::kFloat, {1, w.depth},
                                testing::randomFloats(static_cast<size_t>(w.depth), seed))}};
}

// The tiles the kernel reads are laid out once per process: a second session of the model
// finds the first one's (the codes, 8 KiB, known by their address), and computes the same.
TEST(BlockQuantizedMatMul, SessionsOfOneModelShareTheTiles) {
  const Weights w{.type = ElementType::kInt4, .depth = 128, .columns = 128, .block = 32};
  const Drawn drawn = draw(w, 9);
  Model model = quantizedWeightsModel(w, drawn, 1);
  ASSERT_NE(model.graph, nullptr);
  const std::vector<NamedValue> inputs = oneRow(w, 10);
  const size_t before = eval_internal::livePreparations();
  Evaluator first(model);
  Evaluator second(model);
  Result<std::vector<EvalValue>> first_out = first.run(inputs);
  ASSERT_TRUE(first_out) << first_out.status().toString();
  const size_t after_first = eval_internal::livePreparations();
  EXPECT_EQ(after_first, before + 1) << "the first session laid out no tiles";
  Result<std::vector<EvalValue>> second_out = second.run(inputs);
  ASSERT_TRUE(second_out) << second_out.status().toString();
  EXPECT_EQ(eval_internal::livePreparations(), after_first) << "the second laid them out anew";
  EXPECT_EQ(valuesOf<float>((*first_out)[0]), valuesOf<float>((*second_out)[0]));
}

// The int8-activation products (EvalOptions::int8_activations,
// src/eval/kernels/block_quantized_int8_matmul.h), in the order the kernel takes them: each
// row rounded per block (q = nearbyint(x * 127 / max|x|), s = max|x| / 127), each block's
// exact integer sum of (code - zero) q times (scale * s), fused-added in block order.
std::vector<float> int8Reference(const Weights& w, const Drawn& drawn, const std::vector<float>& a,
                                 int64_t rows) {
  std::vector<float> out(static_cast<size_t>(rows * w.columns), 0.0f);
  const int64_t blocks = w.depth / w.block;
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = a.data() + r * w.depth;
    std::vector<int32_t> q(static_cast<size_t>(w.depth));
    std::vector<float> s(static_cast<size_t>(blocks));
    for (int64_t block = 0; block < blocks; ++block) {
      float largest = 0;
      for (int64_t k = block * w.block; k < (block + 1) * w.block; ++k) {
        largest = std::max(largest, std::fabs(row[k]));
      }
      const float inverse = largest > 0 ? 127.0f / largest : 0.0f;
      s[static_cast<size_t>(block)] = largest / 127.0f;
      for (int64_t k = block * w.block; k < (block + 1) * w.block; ++k) {
        q[static_cast<size_t>(k)] =
            static_cast<int32_t>(std::clamp(std::nearbyint(row[k] * inverse), -127.0f, 127.0f));
      }
    }
    for (int64_t n = 0; n < w.columns; ++n) {
      float sum = 0;
      for (int64_t block = 0; block < blocks; ++block) {
        const size_t at = scaleIndex(w, block * w.block, n);
        const int32_t zero = w.zero_points ? drawn.zeros[at] : 0;
        int32_t dot = 0;
        for (int64_t k = block * w.block; k < (block + 1) * w.block; ++k) {
          dot += (drawn.codes[static_cast<size_t>(k * w.columns + n)] - zero) *
                 q[static_cast<size_t>(k)];
        }
        const float scale = drawn.scales[at] * s[static_cast<size_t>(block)];
        sum = std::fma(static_cast<float>(dot), scale, sum);
      }
      out[static_cast<size_t>(r * w.columns + n)] = sum;
    }
  }
  return out;
}

// With int8 activations on, a tier with VNNI rounds the inputs to int8, to the reference's
// bits, for one row, a few (each row across a whole tile) and more (four rows by two groups
// at a time, and the rest); below VNNI, and for weights the quads do not take (columns not a
// multiple of 16), the option changes nothing.
TEST(BlockQuantizedMatMul, Int8ActivationsRoundTheInputsWhereTheCpuHasVnni) {
  const std::vector<Weights> shapes = {
      {.type = ElementType::kInt4, .depth = 96, .columns = 144, .block = 32},
      {.type = ElementType::kUint4, .depth = 64, .columns = 32, .block = 16, .zero_points = true}};
  // Each tier this CPU has (testing::cpuTiersToTest): the rounding is checked where VNNI is.
  const std::vector<CpuTier> tiers = testing::cpuTiersToTest();
  for (const Weights& w : shapes) {
    const Drawn drawn = draw(w, 11);
    for (int64_t rows : {1, 3, 7, 9}) {
      SCOPED_TRACE(typeName(w.type) + ", " + std::to_string(rows) + " rows");
      Model model = quantizedWeightsModel(w, drawn, rows);
      ASSERT_NE(model.graph, nullptr);
      std::vector<float> a = testing::randomFloats(static_cast<size_t>(rows * w.depth), 12);
      a[3] = 0.0f;  // a block with a zero, and below one of all zeros
      std::fill(a.begin() + w.block, a.begin() + 2 * w.block, 0.0f);
      std::vector<NamedValue> inputs = {
          {"a", tensorOf<float>(ElementType::kFloat, {rows, w.depth}, a)}};
      for (CpuTier tier : tiers) {
        EvalOptions exact{.max_isa = tier};
        EvalOptions rounded{.int8_activations = true, .max_isa = tier};
        Result<std::vector<EvalValue>> exact_out = evaluate(model, inputs, exact);
        Result<std::vector<EvalValue>> rounded_out = evaluate(model, inputs, rounded);
        ASSERT_TRUE(exact_out) << exact_out.status().toString();
        ASSERT_TRUE(rounded_out) << rounded_out.status().toString();
        const std::vector<float> got = valuesOf<float>((*rounded_out)[0]);
        if (tier >= CpuTier::kAvx512Vnni) {
          EXPECT_EQ(got, int8Reference(w, drawn, a, rows)) << cpuTierName(tier);
        } else {
          EXPECT_EQ(got, valuesOf<float>((*exact_out)[0])) << cpuTierName(tier);
        }
      }
    }
  }
}

TEST(BlockQuantizedMatMul, Int8ActivationsLeaveWeightsTheQuadsDoNotTake) {
  // 40 columns: not a multiple of 16.
  const Weights w{.type = ElementType::kInt4, .depth = 64, .columns = 40, .block = 32};
  const Drawn drawn = draw(w, 13);
  Model model = quantizedWeightsModel(w, drawn, 1);
  ASSERT_NE(model.graph, nullptr);
  const std::vector<NamedValue> inputs = oneRow(w, 14);
  Result<std::vector<EvalValue>> exact_out = evaluate(model, inputs, {});
  Result<std::vector<EvalValue>> rounded_out = evaluate(model, inputs, {.int8_activations = true});
  ASSERT_TRUE(exact_out) << exact_out.status().toString();
  ASSERT_TRUE(rounded_out) << rounded_out.status().toString();
  EXPECT_EQ(valuesOf<float>((*rounded_out)[0]), valuesOf<float>((*exact_out)[0]));
}

// Codes an exporter wrote in int32_data (as the text syntax does) have no bytes to view: the
// step reads their array.
TEST(BlockQuantizedMatMul, CodesInATypedFieldRunOnTheirArray) {
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float[1, 4] a) => (float[1, 2] y)
        <int8[4, 2] w = {1, -2, 3, -4, 5, -6, 7, -8}, float[2, 2] s = {0.5, 0.25, 1, 2}> {
      wf = DequantizeLinear <axis = 0, block_size = 2> (w, s)
      y = MatMul (a, wf)
    })");
  ASSERT_TRUE(model) << model.status().toString();
  testing::StepRecorder steps;
  std::vector<NamedValue> inputs = {
      {"a", tensorOf<float>(ElementType::kFloat, {1, 4}, {1, 2, 3, 4})}};
  Result<std::vector<EvalValue>> out = evaluate(*model, inputs, {.observer = &steps});
  ASSERT_TRUE(out) << out.status().toString();
  EXPECT_EQ(steps.steps, std::vector<std::string>{"DequantizeLinear+MatMul"});
  // Columns: (1*1 + 2*3) * 0.5 + (3*5 + 4*7) * 1 and (1*-2 + 2*-4) * 0.25 + (3*-6 + 4*-8) * 2.
  EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{46.5f, -102.5f}));
}

// One DequantizeLinear read by two products and by a graph output: the products read its
// codes, and it runs for the output alone.
TEST(BlockQuantizedMatMul, ADequantizeLinearOthersReadStaysOutOfTheGroups) {
  const char* text = R"(<ir_version: 10, opset_import: ["" : 21]>
    g (float[1, 4] a, float[3, 4] b) => (float[1, 2] y, float[3, 2] x%s) {
      w = Constant <value = int4[1] {0}> ()
      s = Constant <value = float[1] {1}> ()
      wf = DequantizeLinear <axis = 0, block_size = 2> (w, s)
      y = MatMul (a, wf)
      x = MatMul (b, wf)%s
    })";
  for (bool output : {false, true}) {
    std::string model_text = text;
    model_text.replace(model_text.find("%s"), 2, output ? ", float[4, 2] wf" : "");
    model_text.replace(model_text.find("%s"), 2, "");
    Result<Model> model = parseText(model_text);
    ASSERT_TRUE(model) << model.status().toString();
    GraphEditor edit(*model);
    for (Node* node : model->graph->nodes()) {
      if (node->opType() != "Constant") continue;
      Array array = node->output(0)->name() == "w" ? Array(ElementType::kInt4, {4, 2})
                                                   : Array(ElementType::kFloat, {2, 2});
      if (array.type() == ElementType::kInt4) {
        const int8_t codes[] = {1, -2, 3, -4, 5, -6, 7, -8};
        std::copy(std::begin(codes), std::end(codes), array.data<int8_t>());
      } else {
        const float scales[] = {0.5f, 0.25f, 1, 2};
        std::copy(std::begin(scales), std::end(scales), array.data<float>());
      }
      edit.setTensorAttr(node, "value", edit.tensorFromArray(array));
    }
    testing::StepRecorder steps;
    std::vector<float> b(12, 1.0f);
    std::vector<NamedValue> inputs = {
        {"a", tensorOf<float>(ElementType::kFloat, {1, 4}, {1, 2, 3, 4})},
        {"b", tensorOf<float>(ElementType::kFloat, {3, 4}, b)}};
    Result<std::vector<EvalValue>> out = evaluate(*model, inputs, {.observer = &steps});
    ASSERT_TRUE(out) << out.status().toString();
    EXPECT_EQ(steps.steps, output
                               ? (std::vector<std::string>{"DequantizeLinear", "MatMul", "MatMul"})
                               : (std::vector<std::string>{"MatMul", "MatMul"}))
        << (output ? "with" : "without") << " the weights as an output";
    EXPECT_EQ(valuesOf<float>((*out)[0]), (std::vector<float>{46.5f, -102.5f}));
    // Each row of b is ones: the sums of the dequantized columns.
    EXPECT_EQ(valuesOf<float>((*out)[1]),
              (std::vector<float>{14.0f, -29.5f, 14.0f, -29.5f, 14.0f, -29.5f}));
    if (output) {
      EXPECT_EQ(valuesOf<float>((*out)[2]),
                (std::vector<float>{0.5f, -0.5f, 1.5f, -1.0f, 5.0f, -12.0f, 7.0f, -16.0f}));
    }
  }
}

}  // namespace
}  // namespace onyx
