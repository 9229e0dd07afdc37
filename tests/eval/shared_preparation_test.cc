// Preparations of fixed weights made once per process (eval/kernels/shared_preparation.h), and
// the sessions whose kernels share them.
#include "eval/kernels/shared_preparation.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "onyx/eval/evaluator.h"
#include "onyx/ir/model.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx::eval_internal {
namespace {

Array floats(std::vector<float> values) {
  Array array(ElementType::kFloat, {static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) array.data<float>()[i] = values[i];
  return array;
}

// A preparation that counts how often it was made: the sum of its source's elements.
struct Sum {
  float total = 0;
};

std::shared_ptr<const Sum> summed(const Array& source, const std::string& recipe, int& made) {
  return sharedPreparation<Sum>({&source}, recipe, [&] {
    ++made;
    float total = 0;
    for (size_t i = 0; i < source.size(); ++i) total += source.data<float>()[i];
    return std::optional(Sum{total});
  });
}

TEST(SharedPreparationTest, TheSameSourcesAndRecipeGiveTheOnePreparation) {
  Array weights = floats({1, 2, 3});
  int made = 0;
  std::shared_ptr<const Sum> first = summed(weights, "sum", made);
  std::shared_ptr<const Sum> second = summed(weights, "sum", made);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first, second);
  EXPECT_EQ(made, 1);
  EXPECT_EQ(first->total, 6.0f);
}

// Elements enough to be known by their address (kSharedFrom bytes), all `value`.
Array large(float value) { return floats(std::vector<float>(kSharedFrom / sizeof(float), value)); }

TEST(SharedPreparationTest, AnotherRecipeIsAnotherPreparation) {
  Array weights = floats({1, 2, 3});
  int made = 0;
  std::shared_ptr<const Sum> first = summed(weights, "sum", made);
  std::shared_ptr<const Sum> by_recipe = summed(weights, "sum, again", made);
  EXPECT_NE(first, by_recipe);
  EXPECT_EQ(made, 2);
}

TEST(SharedPreparationTest, LargeSourcesAreKnownByAddressSmallOnesByElements) {
  // Sessions share large constants and copy small ones (engine/constant_arrays.h).
  int made = 0;
  Array large_one = large(1), large_copy = large(1);
  EXPECT_NE(summed(large_one, "sum", made), summed(large_copy, "sum", made));
  EXPECT_EQ(made, 2);
  Array small_one = floats({1, 2, 3}), small_copy = floats({1, 2, 3}), small_other = floats({3});
  std::shared_ptr<const Sum> small = summed(small_one, "sum", made);
  EXPECT_EQ(summed(small_copy, "sum", made), small);
  EXPECT_EQ(made, 3);
  EXPECT_NE(summed(small_other, "sum", made), small);
  EXPECT_EQ(made, 4);
}

TEST(SharedPreparationTest, AnAbsentSourceIsPartOfTheKey) {
  Array weights = floats({1, 2});
  Array bias = floats({3});
  auto make = [](int& made) {
    ++made;
    return std::optional(Sum{});
  };
  int made = 0;
  auto with_bias = sharedPreparation<Sum>({&weights, &bias}, "r", [&] { return make(made); });
  auto without = sharedPreparation<Sum>({&weights, nullptr}, "r", [&] { return make(made); });
  EXPECT_NE(with_bias, without);
  EXPECT_EQ(made, 2);
}

TEST(SharedPreparationTest, APreparationNoOneHoldsIsMadeAfresh) {
  Array weights = floats({4, 5});
  int made = 0;
  summed(weights, "sum", made).reset();
  std::shared_ptr<const Sum> again = summed(weights, "sum", made);
  EXPECT_EQ(made, 2);
  EXPECT_EQ(again->total, 9.0f);
}

TEST(SharedPreparationTest, APreparationKeepsItsSourcesBytes) {
  // While the preparation lives its source's bytes cannot be freed and reused at the same
  // address by other elements, which would then find it.
  int made = 0;
  std::optional<Array> weights = large(1);
  const std::byte* address = weights->bytes().data();
  std::shared_ptr<const Sum> kept = summed(*weights, "sum", made);
  EXPECT_FALSE(weights->soleHandle());
  weights.reset();
  Array next = large(2);
  EXPECT_NE(next.bytes().data(), address);
  EXPECT_EQ(summed(next, "sum", made)->total, 2.0f * static_cast<float>(next.size()));
  EXPECT_EQ(made, 2);
}

TEST(SharedPreparationTest, BytesNoArrayHoldsAreASourceTheirOwnerKeptAlive) {
  // Large bytes are known by their address, as a large array is: their owner lives as long
  // as the preparation, so that no other bytes take that address meanwhile.
  auto owner = std::make_shared<std::vector<std::byte>>(2 * kSharedFrom, std::byte{3});
  const std::weak_ptr<std::vector<std::byte>> watched = owner;
  int made = 0;
  auto make = [&] {
    ++made;
    return std::optional(Sum{static_cast<float>(owner->size())});
  };
  std::shared_ptr<const Sum> kept;
  {
    const BytesSource source{.bytes = std::span<const std::byte>(*owner), .owner = owner};
    kept = sharedPreparation<Sum>(source, {}, "bytes", make);
    EXPECT_EQ(sharedPreparation<Sum>(source, {}, "bytes", make), kept);
  }
  EXPECT_EQ(made, 1);
  owner.reset();
  EXPECT_FALSE(watched.expired()) << "the preparation let its bytes' owner go";
  kept.reset();
  EXPECT_TRUE(watched.expired());
}

TEST(SharedPreparationTest, OneThatCannotBeMadeIsNotKept) {
  Array weights = floats({1});
  int made = 0;
  auto refuse = [&] {
    ++made;
    return std::optional<Sum>();
  };
  EXPECT_EQ(sharedPreparation<Sum>({&weights}, "r", refuse), nullptr);
  EXPECT_EQ(sharedPreparation<Sum>({&weights}, "r", refuse), nullptr);
  EXPECT_EQ(made, 2);
}

TEST(SharedPreparationTest, ThreadsMakingOneAtOnceGetTheFirstKept) {
  Array weights = floats({1, 2, 3, 4});
  std::atomic<int> made = 0;
  std::vector<std::shared_ptr<const Sum>> got(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < got.size(); ++t) {
    threads.emplace_back([&, t] {
      got[t] = sharedPreparation<Sum>({&weights}, "sum", [&] {
        ++made;
        return std::optional(Sum{10});
      });
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const auto& each : got) EXPECT_EQ(each, got[0]);
  EXPECT_GE(made.load(), 1);
}

// A convolution whose 36 KiB of weights the oneDNN kernel reorders (and a BatchNormalization
// folded into them), run by two sessions of one Model.
TEST(SharedPreparationTest, SessionsOfOneModelShareTheirPreparedWeights) {
  constexpr int kChannels = 48;
  const std::vector<float> weights = testing::randomFloats(kChannels * kChannels * 9, 7);
  const std::vector<float> scale = testing::randomFloats(kChannels, 8);
  std::vector<float> variance(kChannels, 1.5f), zeros(kChannels, 0.0f);
  const std::string c = std::to_string(kChannels);
  Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
g (float[1, )" + c + R"(, 16, 16] x) => (float[1, )" +
                                  c + R"(, 16, 16] y) <float[)" + c + "," + c + R"(, 3, 3] w = {)" +
                                  testing::floatsText(weights) + "}, float[" + c + "] s = {" +
                                  testing::floatsText(scale) + "}, float[" + c + "] v = {" +
                                  testing::floatsText(variance) + "}, float[" + c + "] z = {" +
                                  testing::floatsText(zeros) + R"(}> {
  t = Conv <pads = [1, 1, 1, 1]> (x, w)
  y = BatchNormalization (t, s, z, z, v)
})");
  ASSERT_TRUE(model) << model.status().toString();
  const std::vector<float> input = testing::randomFloats(kChannels * 256, 9);
  std::vector<NamedValue> inputs = {
      {"x", testing::tensorOf(ElementType::kFloat, {1, kChannels, 16, 16}, input)}};

  const size_t before = livePreparations();
  Evaluator first(*model);
  Evaluator second(*model);
  Result<std::vector<EvalValue>> first_out = first.run(inputs);
  ASSERT_TRUE(first_out) << first_out.status().toString();
  const size_t after_first = livePreparations();
  Result<std::vector<EvalValue>> second_out = second.run(inputs);
  ASSERT_TRUE(second_out) << second_out.status().toString();
  EXPECT_EQ(livePreparations(), after_first) << "the second session made preparations anew";
  EXPECT_EQ(testing::valuesOf<float>((*first_out)[0]), testing::valuesOf<float>((*second_out)[0]));
  EXPECT_GT(after_first, before) << "nothing was prepared once for both";
}

}  // namespace
}  // namespace onyx::eval_internal
