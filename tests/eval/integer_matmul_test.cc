// MatMulInteger through oneDNN's int8 matrix product (src/eval/kernels/integer_matmul.h)
// gives exactly the spec's int32 sums: compared with a scalar reference written from the
// definition, over random inputs with zero points at their limits, uint8 and int8 a and b,
// per-column zero points of b, a of rank 1 to 3, b as an initializer (prepared once) and as
// an input, at one and two threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "onyx/eval/evaluator.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;
using testing::valuesOf;

struct Case {
  bool a_signed = false;
  bool b_signed = false;
  std::vector<int64_t> a_dims = {5, 33};  // [..., M, K]
  int64_t n = 7;
  int32_t a_zero = 0;
  std::vector<int32_t> b_zero;  // empty: none; one value; or one per column
  bool b_initializer = false;
  // Every element of a (of b) this value instead of a random one.
  std::optional<int32_t> a_fill, b_fill;
};

void expectExact(const Case& k, uint32_t seed) {
  std::mt19937 random(seed);
  auto draw = [&](bool is_signed) {
    int32_t low = is_signed ? -128 : 0;
    return std::uniform_int_distribution<int32_t>(low, low + 255)(random);
  };
  int64_t inner = k.a_dims.back();
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < k.a_dims.size(); ++i) rows *= k.a_dims[i];
  std::vector<int32_t> a, b;
  for (int64_t i = 0; i < rows * inner; ++i) a.push_back(k.a_fill ? *k.a_fill : draw(k.a_signed));
  for (int64_t i = 0; i < inner * k.n; ++i) b.push_back(k.b_fill ? *k.b_fill : draw(k.b_signed));
  // The spec's sums, exact, wrapped to int32 at the end.
  std::vector<int32_t> expected(static_cast<size_t>(rows * k.n));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < k.n; ++j) {
      int32_t bz = k.b_zero.empty() ? 0 : k.b_zero[k.b_zero.size() == 1 ? 0 : size_t(j)];
      int64_t sum = 0;
      for (int64_t q = 0; q < inner; ++q) {
        sum += int64_t(a[size_t(r * inner + q)] - k.a_zero) * (b[size_t(q * k.n + j)] - bz);
      }
      expected[size_t(r * k.n + j)] = static_cast<int32_t>(static_cast<uint32_t>(sum));
    }
  }
  std::vector<int64_t> y_dims(k.a_dims.begin(), k.a_dims.end() - 1);
  y_dims.push_back(k.n);
  std::string a_type = k.a_signed ? "int8" : "uint8";
  std::string b_type = k.b_signed ? "int8" : "uint8";
  std::string b_dims = testing::dimsText({inner, k.n});
  std::ostringstream text;
  text << "<ir_version: 10, opset_import: [\"\" : 22]>\n"
       << "g (" << a_type << testing::dimsText(k.a_dims) << " a, " << a_type << " az";
  if (!k.b_initializer) text << ", " << b_type << b_dims << " b";
  text << ") => (int32" << testing::dimsText(y_dims) << " y)";
  if (k.b_initializer)
    text << " <" << b_type << b_dims << " b = {" << testing::elementsText(b) << "}>";
  text << " {\n";
  if (!k.b_zero.empty()) {
    text << "  bz = Constant <value = " << b_type << "[" << k.b_zero.size() << "] {"
         << testing::elementsText(k.b_zero) << "}> ()\n";
  }
  text << "  y = MatMulInteger (a, b, az" << (k.b_zero.empty() ? "" : ", bz") << ")\n}\n";
  std::vector<NamedValue> inputs = {{"a", testing::byteTensor(k.a_signed, k.a_dims, a)},
                                    {"az", testing::byteTensor(k.a_signed, {}, {k.a_zero})}};
  if (!k.b_initializer) inputs.push_back({"b", testing::byteTensor(k.b_signed, {inner, k.n}, b)});
  for (int threads : {1, 2}) {
    EvalOptions options;
    options.threads = threads;
    Result<std::vector<EvalValue>> out = testing::runText(text.str(), inputs, options);
    ASSERT_TRUE(out) << out.status().toString() << "\n" << text.str();
    EXPECT_EQ(valuesOf<int32_t>((*out)[0]), expected)
        << "seed " << seed << ", " << threads << " threads\n"
        << text.str();
  }
}

TEST(IntegerMatMul, ExactOverRandomInputsAndZeroPointsAtTheirLimits) {
  uint32_t seed = 1;
  for (bool a_signed : {false, true}) {
    for (bool b_signed : {false, true}) {
      int32_t a_low = a_signed ? -128 : 0, b_low = b_signed ? -128 : 0;
      for (int32_t a_zero : {a_low, a_low + 255, a_low + 128, a_low + 41}) {
        for (std::vector<int32_t> b_zero :
             std::vector<std::vector<int32_t>>{{},
                                               {b_low},
                                               {b_low + 255},
                                               {b_low + 128},
                                               {b_low, b_low + 255, b_low + 128, b_low + 1,
                                                b_low + 77, b_low + 254, b_low + 3}}) {
          Case k;
          k.a_signed = a_signed;
          k.b_signed = b_signed;
          k.a_zero = a_zero;
          k.b_zero = b_zero;
          k.b_initializer = (seed % 2) == 0;
          expectExact(k, seed++);
        }
      }
    }
  }
}

TEST(IntegerMatMul, ExactForAVectorAndABatchOfRows) {
  Case vector;
  vector.a_dims = {19};
  vector.n = 5;
  vector.a_zero = 255;
  vector.b_zero = {3};
  expectExact(vector, 200);
  Case batched;
  batched.a_dims = {2, 3, 64};
  batched.n = 40;
  batched.a_zero = 128;
  batched.b_zero = {200};
  batched.b_initializer = true;
  expectExact(batched, 201);
}

// 33,030 products of (0 - 255) * (0 - 255) sum past INT32_MAX; the spec's 32-bit accumulator
// wraps it.
TEST(IntegerMatMul, WrapsPastTheInt32RangeAsTheSpecsAccumulator) {
  Case k;
  k.a_dims = {2, 33030};
  k.n = 2;
  k.a_zero = 255;
  k.b_zero = {255};
  k.a_fill = 0, k.b_fill = 0;
  expectExact(k, 301);
}

}  // namespace
}  // namespace onyx
