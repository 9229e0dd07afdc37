// Outputs bound to the caller's memory (Evaluator::run with BoundOutput): written there by the
// kernel that makes them, or copied in after the run; bound to an input's memory for a state
// carried from run to run; refused, naming the output, when they do not fit.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "onyx/eval/evaluator.h"
#include "onyx/ir/node.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx {
namespace {

using testing::tensorOf;
using testing::valuesOf;

// Caller memory for `count` floats at a multiple of Array::kAlignment, all NaN.
struct CallerFloats {
  explicit CallerFloats(size_t count)
      : storage(std::make_shared<std::vector<float>>(count + Array::kAlignment / sizeof(float))) {
    auto address = reinterpret_cast<uintptr_t>(storage->data());
    size_t skip = (Array::kAlignment - address % Array::kAlignment) % Array::kAlignment;
    data = storage->data() + skip / sizeof(float);
    for (size_t i = 0; i < count; ++i) data[i] = std::numeric_limits<float>::quiet_NaN();
  }
  Array array(std::vector<int64_t> shape) const {
    return Array::over(ElementType::kFloat, std::move(shape), reinterpret_cast<std::byte*>(data),
                       storage);
  }
  std::shared_ptr<std::vector<float>> storage;
  float* data = nullptr;
};

Model parsed(const char* text) {
  Result<Model> model = parseText(text);
  EXPECT_TRUE(model) << model.status().toString();
  return std::move(*model);
}

// Reads the caller's memory as each step of the main graph ends, before the run copies
// anything in.
class BufferWatch : public EvalObserver {
 public:
  explicit BufferWatch(const float* data) : data_(data) {}
  void stepRanBy(std::span<const Node* const> nodes, std::chrono::nanoseconds,
                 std::string_view) override {
    if (nodes.back()->opType() == "Relu") first_after_relu_ = data_[0];
  }
  float first_after_relu_ = 0;

 private:
  const float* data_;
};

constexpr const char* kAddRelu = R"(<ir_version: 10, opset_import: ["" : 21]>
g (float[2, 3] a, float[2, 3] b) => (float[2, 3] y, float[2, 3] s) {
  s = Add (a, b)
  y = Relu (s)
})";

std::vector<NamedValue> addReluInputs() {
  return {{"a", tensorOf<float>(ElementType::kFloat, {2, 3}, {1, -2, 3, -4, 5, -6})},
          {"b", tensorOf<float>(ElementType::kFloat, {2, 3}, {1, 1, 1, 1, 1, 1})}};
}

TEST(BoundOutputs, TheKernelWritesTheOutputInTheCallersMemory) {
  Model model = parsed(kAddRelu);
  CallerFloats memory(6);
  BufferWatch watch(memory.data);
  Evaluator evaluator(model, {.threads = 1, .fusions = false, .observer = &watch});
  std::vector<BoundOutput> bound = {{"y", memory.array({2, 3})}};
  Result<std::vector<EvalValue>> outputs = evaluator.run(addReluInputs(), bound);
  ASSERT_TRUE(outputs) << outputs.status().toString();
  // Relu's result lay there as soon as it ran: no copy after the run.
  EXPECT_EQ(watch.first_after_relu_, 2.0f);
  EXPECT_EQ((*outputs)[0].tensor.data<float>(), memory.data);
  EXPECT_EQ(valuesOf<float>((*outputs)[0]), (std::vector<float>{2, 0, 4, 0, 6, 0}));
  EXPECT_EQ(memory.data[2], 4.0f);
  EXPECT_EQ(valuesOf<float>((*outputs)[1]), (std::vector<float>{2, -1, 4, -3, 6, -5}));
}

TEST(BoundOutputs, AnOutputNoKernelAllocatesIsCopiedIn) {
  // Identity gives its input back: the bound array receives a copy.
  Model model = parsed(R"(<ir_version: 10, opset_import: ["" : 21]>
g (float[3] x) => (float[3] y) {
  y = Identity (x)
})");
  CallerFloats memory(3);
  Evaluator evaluator(model);
  std::vector<NamedValue> inputs = {{"x", tensorOf<float>(ElementType::kFloat, {3}, {7, 8, 9})}};
  std::vector<BoundOutput> bound = {{"y", memory.array({3})}};
  Result<std::vector<EvalValue>> outputs = evaluator.run(inputs, bound);
  ASSERT_TRUE(outputs) << outputs.status().toString();
  EXPECT_EQ((*outputs)[0].tensor.data<float>(), memory.data);
  EXPECT_EQ(memory.data[1], 8.0f);
  EXPECT_EQ(valuesOf<float>(inputs[0].value), (std::vector<float>{7, 8, 9}));
}

TEST(BoundOutputs, AStateBoundToItsInputsMemoryIsCarriedFromRunToRun) {
  // h' = h x W with W a rotation of the elements: every element of h is read after the first
  // element of h' is made, so writing h' over h during the MatMul would be wrong.
  Model model = parsed(R"(<ir_version: 10, opset_import: ["" : 21]>
g (float[1, 3] h) => (float[1, 3] next) <float[3, 3] w = {0, 1, 0, 0, 0, 1, 1, 0, 0}> {
  next = MatMul (h, w)
})");
  CallerFloats state(3);
  state.data[0] = 1, state.data[1] = 2, state.data[2] = 3;
  Evaluator evaluator(model);
  for (const std::vector<float>& expected :
       {std::vector<float>{3, 1, 2}, std::vector<float>{2, 3, 1}, std::vector<float>{1, 2, 3}}) {
    std::vector<NamedValue> inputs = {{"h", EvalValue::of(state.array({1, 3}))}};
    std::vector<BoundOutput> bound = {{"next", state.array({1, 3})}};
    Result<std::vector<EvalValue>> outputs = evaluator.run(inputs, bound);
    ASSERT_TRUE(outputs) << outputs.status().toString();
    EXPECT_EQ(std::vector<float>(state.data, state.data + 3), expected);
  }
}

TEST(BoundOutputs, AnArrayOfAnotherShapeIsRefusedNamingTheOutput) {
  Model model = parsed(kAddRelu);
  CallerFloats memory(6);
  Evaluator evaluator(model);
  std::vector<BoundOutput> bound = {{"y", memory.array({3, 2})}};
  Result<std::vector<EvalValue>> outputs = evaluator.run(addReluInputs(), bound);
  ASSERT_FALSE(outputs);
  EXPECT_EQ(outputs.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(outputs.status().toString().find("bound output 'y'"), std::string::npos)
      << outputs.status().toString();
  // The next run, unbound, succeeds.
  EXPECT_TRUE(evaluator.run(addReluInputs()));
}

TEST(BoundOutputs, AnOutputOfAnUndeclaredShapeMustComeOutAsBound) {
  Model model = parsed(R"(<ir_version: 10, opset_import: ["" : 21]>
g (float[N] x) => (float[M] y) {
  y = Concat <axis = 0> (x, x)
})");
  CallerFloats memory(4);
  Evaluator evaluator(model);
  std::vector<NamedValue> inputs = {{"x", tensorOf<float>(ElementType::kFloat, {3}, {1, 2, 3})}};
  std::vector<BoundOutput> bound = {{"y", memory.array({4})}};
  Result<std::vector<EvalValue>> outputs = evaluator.run(inputs, bound);
  ASSERT_FALSE(outputs);
  EXPECT_NE(outputs.status().toString().find("output 'y' is FLOAT[6], its bound array FLOAT[4]"),
            std::string::npos)
      << outputs.status().toString();
}

TEST(BoundOutputs, UnknownTwiceAndOverlappingBindingsAreRefused) {
  Model model = parsed(kAddRelu);
  CallerFloats memory(12);
  Evaluator evaluator(model);
  std::vector<std::vector<BoundOutput>> refused = {
      {{"z", memory.array({2, 3})}},
      {{"y", memory.array({2, 3})}, {"y", memory.array({2, 3})}},
      {{"y", memory.array({2, 3})}, {"s", memory.array({2, 3})}},
  };
  for (const std::vector<BoundOutput>& bound : refused) {
    Result<std::vector<EvalValue>> outputs = evaluator.run(addReluInputs(), bound);
    ASSERT_FALSE(outputs);
    EXPECT_EQ(outputs.status().code(), ErrorCode::kInvalidArgument);
  }
}

TEST(ArrayDestinations, AnArrayOfTheDestinationsTypeAndShapeTakesItsMemoryOnce) {
  CallerFloats memory(4);
  std::vector<Array> destinations = {memory.array({2, 2})};
  {
    ArrayDestinationScope scope(destinations);
    Array other_shape(ElementType::kFloat, {4});
    EXPECT_NE(other_shape.data<float>(), memory.data);
    Array other_type(ElementType::kInt32, {2, 2});
    EXPECT_NE(static_cast<void*>(other_type.data<int32_t>()), static_cast<void*>(memory.data));
    Result<Array> taken = Array::allocate(ElementType::kFloat, {2, 2});
    ASSERT_TRUE(taken);
    EXPECT_EQ(taken->data<float>(), memory.data);
    Array again(ElementType::kFloat, {2, 2});
    EXPECT_NE(again.data<float>(), memory.data);
  }
  Array after(ElementType::kFloat, {2, 2});
  EXPECT_NE(after.data<float>(), memory.data);
}

}  // namespace
}  // namespace onyx

namespace onyx {
namespace {

// A decoder's cache of fixed capacity, written in place (TensorScatter, opset 24): the
// present output bound to the past's own memory. Every page of the cache but the row the
// step writes is made read-only: a kernel that copied the cache, even onto itself, would
// fault. Zero bytes of the cache are copied per step.
TEST(BoundOutputs, ACacheWrittenInPlaceByTensorScatterCopiesNothing) {
  Model model = parsed(R"(<ir_version: 10, opset_import: ["" : 24]>
    g (float[1, 1, 8, 1024] past, float[1, 1, 1, 1024] update, int64[1] at)
        => (float[1, 1, 8, 1024] present) {
      present = TensorScatter <axis = 2> (past, update, at)
    })");
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  constexpr size_t kRow = 1024 * sizeof(float);
  ASSERT_EQ(kRow % page, 0u) << "a row a whole number of pages";
  void* mapped =
      mmap(nullptr, 8 * kRow, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  std::shared_ptr<void> cache_memory(mapped, [](void* at) { munmap(at, 8 * kRow); });
  auto* cache = static_cast<float*>(mapped);
  for (size_t i = 0; i < 8 * 1024; ++i) cache[i] = static_cast<float>(i);
  Evaluator evaluator(model);
  for (int64_t step = 0; step < 3; ++step) {
    // All read-only but the row this step writes.
    ASSERT_EQ(mprotect(mapped, 8 * kRow, PROT_READ), 0);
    auto* row = static_cast<std::byte*>(mapped) + static_cast<size_t>(step) * kRow;
    ASSERT_EQ(mprotect(row, kRow, PROT_READ | PROT_WRITE), 0);
    Array cache_array = Array::over(ElementType::kFloat, {1, 1, 8, 1024},
                                    static_cast<std::byte*>(mapped), cache_memory);
    std::vector<NamedValue> inputs = {
        {"past", EvalValue::of(cache_array)},
        {"update", tensorOf<float>(ElementType::kFloat, {1, 1, 1, 1024},
                                   std::vector<float>(1024, -1.0f - static_cast<float>(step)))},
        {"at", tensorOf<int64_t>(ElementType::kInt64, {1}, {step})}};
    std::vector<BoundOutput> bound = {{"present", cache_array}};
    Result<std::vector<EvalValue>> out = evaluator.run(inputs, bound);
    ASSERT_TRUE(out) << out.status().toString();
    EXPECT_EQ((*out)[0].tensor.bytes().data(), static_cast<std::byte*>(mapped));
  }
  ASSERT_EQ(mprotect(mapped, 8 * kRow, PROT_READ | PROT_WRITE), 0);
  for (size_t r = 0; r < 8; ++r) {
    const float expected_first =
        r < 3 ? -1.0f - static_cast<float>(r) : static_cast<float>(r * 1024);
    EXPECT_EQ(cache[r * 1024], expected_first) << "row " << r;
    EXPECT_EQ(cache[r * 1024 + 1023], r < 3 ? expected_first : expected_first + 1023)
        << "row " << r;
  }
}

}  // namespace
}  // namespace onyx
