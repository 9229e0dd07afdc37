// Models whose external data lies past 2 GiB load and save; nothing about them is read
// that is not asked for. The data file is sparse, so the test costs no disk space.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "onyx/ir/editor.h"
#include "onyx/ir/tensor_data.h"
#include "onyx/serde/model_io.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kFileBytes = uint64_t{3} << 30;   // 3 GiB, sparse
constexpr uint64_t kFarOffset = uint64_t{5} << 29;   // 2.5 GiB
constexpr uint64_t kHugeLength = uint64_t{9} << 28;  // 2.25 GiB of zeros

void addExternal(const GraphEditor& edit, Tensor& tensor, std::string_view offset,
                 std::string_view length) {
  auto add = [&](std::string_view key, std::string_view value) {
    StringStringEntry& entry = edit.rare(&tensor).external_data.emplace_back(edit.arena());
    entry.key = edit.arena().copy(key);
    entry.value = edit.arena().copy(value);
  };
  add("location", "big.bin");
  add("offset", offset);
  add("length", length);
  tensor.data_location = Tensor::kExternal;
}

class LargeExternal : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/onyx-large-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    int fd = ::open((dir_ / "big.bin").c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, static_cast<off_t>(kFileBytes)), 0);
    std::string marker(4096, 'x');
    ASSERT_EQ(pwrite(fd, marker.data(), marker.size(), static_cast<off_t>(kFarOffset)), 4096);
    ::close(fd);

    // A model with a small tensor far into the file and a 2.25 GiB one.
    Model model;
    GraphEditor edit(model);

    model.ir_version = 8;
    model.graph = edit.arena().make<Graph>();
    model.graph->name = "large";
    Tensor* far = edit.arena().make<Tensor>();
    far->name = "far";
    far->data_type = 2;  // UINT8
    far->dims.values.push_back(edit.arena(), 4096);
    addExternal(edit, *far, std::to_string(kFarOffset), "4096");
    Tensor* huge = edit.arena().make<Tensor>();
    huge->name = "huge";
    huge->data_type = 1;  // FLOAT
    huge->dims.values.push_back(edit.arena(), static_cast<int64_t>(kHugeLength / 4));
    addExternal(edit, *huge, "0", std::to_string(kHugeLength));
    model.graph->initializers.push_back(edit.arena(), far);
    model.graph->initializers.push_back(edit.arena(), huge);
    model.setFolder(dir_.string());
    ASSERT_TRUE(saveModel(model, (dir_ / "model.onnx").string()));
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(LargeExternal, LoadsDataPastTwoGibibytes) {
  auto model = loadModel((dir_ / "model.onnx").string());
  ASSERT_TRUE(model) << model.status().toString();
  const Tensor* far = model->graph->initializers[0];
  const Tensor* huge = model->graph->initializers[1];
  ASSERT_TRUE(far->rare().external_bytes && huge->rare().external_bytes);
  EXPECT_EQ(*far->rare().external_bytes, std::string(4096, 'x'));
  EXPECT_EQ(huge->rare().external_bytes->size(), kHugeLength);
}

TEST_F(LargeExternal, ResavesInPlaceWithoutTouchingTheData) {
  auto model = loadModel((dir_ / "model.onnx").string());
  ASSERT_TRUE(model) << model.status().toString();
  ASSERT_TRUE(saveModel(*model, (dir_ / "model.onnx").string()));
  EXPECT_EQ(fs::file_size(dir_ / "big.bin"), kFileBytes);
  EXPECT_TRUE(loadModel((dir_ / "model.onnx").string()));
}

TEST_F(LargeExternal, RangesPastTheEndAreRefused) {
  auto model = loadModel((dir_ / "model.onnx").string());
  ASSERT_TRUE(model);
  Model& m = *model;
  Tensor* past = GraphEditor(m).arena().make<Tensor>();
  past->name = "past";
  addExternal(GraphEditor(m), *past, std::to_string(kFileBytes - 10), "11");
  m.graph->initializers.push_back(GraphEditor(m).arena(), past);
  ASSERT_TRUE(saveModel(m, (dir_ / "past.onnx").string()));
  auto reloaded = loadModel((dir_ / "past.onnx").string());
  ASSERT_FALSE(reloaded);
  EXPECT_EQ(reloaded.status().code(), ErrorCode::kMalformed);
  EXPECT_NE(reloaded.status().toString().find("past"), std::string::npos)
      << reloaded.status().toString();
}

}  // namespace
}  // namespace onyx

namespace onyx {
namespace {

TEST(TooLargeForProtobuf, SavingSwitchesToExternalDataAndSaysSo) {
  char pattern[] = "/tmp/onyx-toolarge-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  std::filesystem::path dir = pattern;
  auto model = loadModel(ONYX_SOURCE_DIR "/examples/tiny_cnn.onnx");
  ASSERT_TRUE(model);
  SaveOptions options;
  options.too_large_bytes = 10000;  // the example is 22 KiB: "too large" for this test
  std::string said;
  options.notice = [&](const std::string& text) { said = text; };
  ASSERT_TRUE(saveModel(*model, (dir / "m.onnx").string(), options));
  EXPECT_NE(said.find("m.onnx.data"), std::string::npos) << said;
  EXPECT_TRUE(std::filesystem::exists(dir / "m.onnx.data"));
  EXPECT_LT(std::filesystem::file_size(dir / "m.onnx"), 10000u);
  auto reloaded = loadModel((dir / "m.onnx").string());
  ASSERT_TRUE(reloaded) << reloaded.status().toString();
  EXPECT_TRUE(reloaded->graph->initializers[0]->isExternal());

  // Asking for inline data explicitly is obeyed, however large.
  said.clear();
  SaveOptions explicit_inline = options;
  explicit_inline.inline_external = true;
  ASSERT_TRUE(saveModel(*reloaded, (dir / "inline.onnx").string(), explicit_inline));
  EXPECT_TRUE(said.empty());
  EXPECT_GT(std::filesystem::file_size(dir / "inline.onnx"), 10000u);
  std::filesystem::remove_all(dir);
}

TEST(SavingExternalData, LeavesTheSavedModelAsItWas) {
  // The writer moves data with copies of the tensors; the model it was given keeps its own
  // data, external_data and rare fields (the copies must not share them).
  char pattern[] = "/tmp/onyx-keep-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  std::filesystem::path dir = pattern;
  auto model = loadModel(ONYX_SOURCE_DIR "/examples/tiny_cnn.onnx");
  ASSERT_TRUE(model);
  GraphEditor(*model).rare(model->graph->initializers[0]).doc_string = "kept";
  auto before = serializeModel(*model);
  ASSERT_TRUE(before);
  SaveOptions external;
  external.external_threshold = 0;
  external.external_file = "m.bin";
  ASSERT_TRUE(saveModel(*model, (dir / "m.onnx").string(), external));
  auto after = serializeModel(*model);
  ASSERT_TRUE(after);
  EXPECT_TRUE(*after == *before);

  auto reloaded = loadModel((dir / "m.onnx").string());
  ASSERT_TRUE(reloaded) << reloaded.status().toString();
  const Tensor& first = *reloaded->graph->initializers[0];
  ASSERT_TRUE(first.isExternal());
  EXPECT_EQ(*first.rare().doc_string, "kept");
  auto external_before = serializeModel(*reloaded);
  ASSERT_TRUE(external_before);
  SaveOptions back_inline;
  back_inline.inline_external = true;
  ASSERT_TRUE(saveModel(*reloaded, (dir / "inline.onnx").string(), back_inline));
  auto external_after = serializeModel(*reloaded);
  ASSERT_TRUE(external_after);
  EXPECT_TRUE(*external_after == *external_before);
  EXPECT_TRUE(first.isExternal());
  EXPECT_TRUE(first.rare().external_bytes.has_value());
  auto inlined = loadModel((dir / "inline.onnx").string());
  ASSERT_TRUE(inlined);
  EXPECT_FALSE(inlined->graph->initializers[0]->isExternal());
  EXPECT_TRUE(inlined->graph->initializers[0]->rare().external_data.empty());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace onyx
