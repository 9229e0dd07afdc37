// The arrays of constants shared by the sessions of a process (eval/engine/constant_arrays.h).
#include "eval/engine/constant_arrays.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onyx/eval/evaluator.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/model.h"
#include "onyx/ir/tensor.h"
#include "onyx/ir/tensor_data.h"
#include "onyx/ir/value.h"
#include "onyx/serde/model_io.h"
#include "onyx/text/parser.h"
#include "support/eval_testing.h"

namespace onyx::eval_internal {
namespace {

constexpr size_t kFloats = 2048;  // 8 KiB: shared (kSharedFrom)
static_assert(kFloats * sizeof(float) >= kSharedFrom);

// Bytes where a test wants them: at `offset` from a multiple of Array::kAlignment.
struct Placed {
  explicit Placed(size_t offset, size_t bytes) : storage(offset + bytes + Array::kAlignment) {
    auto start = reinterpret_cast<uintptr_t>(storage.data());
    data = storage.data() + (Array::kAlignment - start % Array::kAlignment) + offset;
  }
  std::vector<char> storage;
  char* data = nullptr;
};

std::shared_ptr<Placed> floatsAt(size_t offset) {
  auto placed = std::make_shared<Placed>(offset, kFloats * sizeof(float));
  for (size_t i = 0; i < kFloats; ++i) {
    const float value = static_cast<float>(i) * 0.5f;
    std::memcpy(placed->data + i * sizeof(float), &value, sizeof(float));
  }
  return placed;
}

class ConstantArraysTest : public ::testing::Test {
 protected:
  Tensor tensorOver(std::string_view bytes, ElementType type, std::vector<int64_t> dims) {
    Tensor tensor;
    tensor.data_type = static_cast<int32_t>(type);
    for (int64_t dim : dims) tensor.dims.values.push_back(GraphEditor(model_).arena(), dim);
    tensor.raw_data = bytes;
    return tensor;
  }
  Tensor floatsOver(const Placed& placed, std::vector<int64_t> dims = {kFloats}) {
    return tensorOver(std::string_view(placed.data, kFloats * sizeof(float)), ElementType::kFloat,
                      std::move(dims));
  }

  Model model_;  // holds the tensors' dims
};

TEST_F(ConstantArraysTest, AlignedBytesAreReadWhereTheyLie) {
  std::shared_ptr<Placed> bytes = floatsAt(0);
  std::weak_ptr<Placed> watch = bytes;
  Tensor tensor = floatsOver(*bytes);
  Result<Array> array = constantArray(tensor, bytes);
  ASSERT_TRUE(array) << array.status().toString();
  EXPECT_TRUE(array->borrowed());
  EXPECT_EQ(static_cast<const void*>(array->bytes().data()), bytes->data) << "no copy";
  EXPECT_EQ(array->shape(), std::vector<int64_t>{kFloats});
  EXPECT_EQ(array->data<float>()[3], 1.5f);

  bytes.reset();
  EXPECT_FALSE(watch.expired()) << "the array keeps the bytes it views";
  *array = Array();
  EXPECT_TRUE(watch.expired());
}

TEST_F(ConstantArraysTest, UnalignedBytesAreConvertedOnceForEverySessionReadingThem) {
  std::shared_ptr<Placed> bytes = floatsAt(4);  // aligned for floats, not for an Array
  std::weak_ptr<Placed> watch = bytes;
  // Two sessions' tensors over the same bytes: one model twice, or one file loaded twice.
  Tensor first_tensor = floatsOver(*bytes);
  Tensor second_tensor = floatsOver(*bytes);
  Result<Array> first = constantArray(first_tensor, bytes);
  Result<Array> second = constantArray(second_tensor, bytes);
  ASSERT_TRUE(first && second);
  EXPECT_TRUE(first->borrowed());
  EXPECT_NE(static_cast<const void*>(first->bytes().data()), bytes->data) << "a copy, aligned";
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first->bytes().data()) % Array::kAlignment, 0u);
  EXPECT_EQ(first->bytes().data(), second->bytes().data()) << "one copy for both";
  EXPECT_EQ(second->data<float>()[kFloats - 1], static_cast<float>(kFloats - 1) * 0.5f);

  // The same bytes read with other dims are another array.
  Tensor matrix_tensor = floatsOver(*bytes, {2, kFloats / 2});
  Result<Array> matrix = constantArray(matrix_tensor, bytes);
  ASSERT_TRUE(matrix);
  EXPECT_EQ(matrix->shape(), (std::vector<int64_t>{2, kFloats / 2}));
  EXPECT_NE(matrix->bytes().data(), first->bytes().data());

  // The copy keeps the bytes it was made from (their address names it) until the last
  // array of it goes.
  bytes.reset();
  *matrix = Array();
  *first = Array();
  EXPECT_FALSE(watch.expired());
  *second = Array();
  EXPECT_TRUE(watch.expired());
}

TEST_F(ConstantArraysTest, ConversionAfterEveryArrayWentIsMadeAfresh) {
  std::shared_ptr<Placed> bytes = floatsAt(8);
  Tensor tensor = floatsOver(*bytes);
  {
    Result<Array> once = constantArray(tensor, bytes);
    ASSERT_TRUE(once);
  }
  Result<Array> again = constantArray(tensor, bytes);
  ASSERT_TRUE(again) << again.status().toString();
  EXPECT_EQ(again->data<float>()[10], 5.0f);
}

TEST_F(ConstantArraysTest, SmallConstantsAreEachSessionsOwn) {
  std::shared_ptr<Placed> bytes = floatsAt(0);
  Tensor small = tensorOver(std::string_view(bytes->data, 16), ElementType::kFloat, {4});
  Result<Array> first = constantArray(small, bytes);
  Result<Array> second = constantArray(small, bytes);
  ASSERT_TRUE(first && second);
  EXPECT_FALSE(first->borrowed());
  EXPECT_NE(first->bytes().data(), second->bytes().data());
  EXPECT_EQ(first->data<float>()[3], 1.5f);
}

TEST_F(ConstantArraysTest, SubByteElementsAreUnpackedOnceEvenWhenAligned) {
  // INT4 is stored one element a byte in an Array, two a byte in the file: never in place.
  constexpr size_t kBytes = 8192;
  auto bytes = std::make_shared<Placed>(0, kBytes);
  std::memset(bytes->data, 0x7f, kBytes);  // each byte: -1 then 7
  Tensor tensor =
      tensorOver(std::string_view(bytes->data, kBytes), ElementType::kInt4, {2 * kBytes});
  Result<Array> first = constantArray(tensor, bytes);
  Result<Array> second = constantArray(tensor, bytes);
  ASSERT_TRUE(first && second) << first.status().toString();
  EXPECT_EQ(first->bytes().data(), second->bytes().data());
  EXPECT_EQ(first->size(), 2 * kBytes);
  EXPECT_EQ(first->data<int8_t>()[0], -1);
  EXPECT_EQ(first->data<int8_t>()[1], 7);
}

TEST_F(ConstantArraysTest, BytesThatDoNotFitTheDimsAreAnError) {
  for (size_t offset : {size_t{0}, size_t{4}}) {
    std::shared_ptr<Placed> bytes = floatsAt(offset);
    Tensor tensor = floatsOver(*bytes, {kFloats + 1});
    Result<Array> array = constantArray(tensor, bytes);
    ASSERT_FALSE(array) << "at offset " << offset;
    EXPECT_EQ(array.status().code(), ErrorCode::kMalformed) << array.status().toString();
  }
}

// Sessions (a model loaded from its file, an Evaluator over it) of one model file.
class SessionsOfOneFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-constants-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    for (size_t i = 0; i < kFloats; ++i) weights_.push_back(static_cast<float>(i % 97) - 48.0f);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Gives back its 8 KiB initializer w, a Constant node's 8 KiB tensor c, and x + w.
  std::string path() const { return dir_ + "/model.onnx"; }
  void save(const SaveOptions& options = {}) {
    const std::string floats = testing::floatsText(weights_);
    Result<Model> model = parseText(R"(<ir_version: 10, opset_import: ["" : 21]>
g (float[2048] x) => (float[2048] w, float[2048] c, float[2048] y) <float[2048] w = {)" +
                                    floats + R"(}> {
  c = Constant <value = float[2048] {)" +
                                    floats + R"(}> ()
  y = Add (x, w)
})");
    ASSERT_TRUE(model) << model.status().toString();
    Status saved = saveModel(*model, path(), options);
    ASSERT_TRUE(saved.isOk()) << saved.toString();
  }

  struct Session {
    explicit Session(const std::string& path) : model(loadModel(path).value()), evaluator(model) {}
    Model model;
    Evaluator evaluator;
  };
  std::vector<EvalValue> run(Session& session) {
    std::vector<NamedValue> inputs{
        {"x", testing::tensorOf<float>(ElementType::kFloat, {kFloats},
                                       std::vector<float>(kFloats, 1.0f))}};
    Result<std::vector<EvalValue>> outputs = session.evaluator.run(inputs);
    EXPECT_TRUE(outputs) << outputs.status().toString();
    return outputs ? std::move(*outputs) : std::vector<EvalValue>(3);
  }

  std::string dir_;
  std::vector<float> weights_;
};

TEST_F(SessionsOfOneFileTest, SessionsShareTheirConstants) {
  save();
  Session first(path());
  Session second(path());
  std::vector<EvalValue> a = run(first);
  std::vector<EvalValue> b = run(second);
  for (size_t output : {0u, 1u}) {  // the initializer, the Constant node's tensor
    ASSERT_TRUE(a[output].isTensor() && b[output].isTensor());
    EXPECT_TRUE(a[output].tensor.borrowed());
    EXPECT_EQ(a[output].tensor.bytes().data(), b[output].tensor.bytes().data())
        << "output " << output << ": one array for both sessions";
    EXPECT_EQ(testing::valuesOf<float>(b[output]), weights_);
  }
  EXPECT_EQ(testing::valuesOf<float>(b[2])[5], weights_[5] + 1.0f);
}

TEST_F(SessionsOfOneFileTest, AlignedExternalWeightsAreReadFromTheMappedFile) {
  SaveOptions options;
  options.external_threshold = 1024;
  options.external_file = "weights.bin";  // offsets aligned to 4096
  save(options);
  Session session(path());
  std::vector<EvalValue> outputs = run(session);
  const Value* w = session.model.graph->lookup("w");
  ASSERT_NE(w, nullptr);
  ASSERT_NE(w->initializer(), nullptr);
  Result<TensorBytes> mapped = rawBytes(*w->initializer());
  ASSERT_TRUE(mapped && mapped->isView());
  EXPECT_EQ(static_cast<const void*>(outputs[0].tensor.bytes().data()), mapped->bytes().data())
      << "the weights' array views the mapped file";
  EXPECT_EQ(testing::valuesOf<float>(outputs[0]), weights_);
  EXPECT_EQ(testing::valuesOf<float>(outputs[2])[7], weights_[7] + 1.0f);
}

TEST_F(SessionsOfOneFileTest, AConstantGivenBackOutlivesItsSessionAndModel) {
  SaveOptions options;
  options.external_threshold = 1024;
  options.external_file = "weights.bin";
  save(options);
  std::vector<EvalValue> outputs;
  {
    Session session(path());
    outputs = run(session);
  }  // the file is unmapped unless the array keeps it
  EXPECT_EQ(testing::valuesOf<float>(outputs[0]), weights_);
  EXPECT_EQ(testing::valuesOf<float>(outputs[1]), weights_);
}

TEST_F(SessionsOfOneFileTest, ASessionRunsOnAfterAnotherOfTheSameFileWent) {
  save();
  auto first = std::make_unique<Session>(path());
  Session second(path());
  run(*first);
  run(second);
  first.reset();
  std::vector<EvalValue> again = run(second);
  EXPECT_EQ(testing::valuesOf<float>(again[0]), weights_);
  EXPECT_EQ(testing::valuesOf<float>(again[2])[9], weights_[9] + 1.0f);
}

}  // namespace
}  // namespace onyx::eval_internal
