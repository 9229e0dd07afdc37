// Tensors whose bytes a pass computes on demand (ComputedBytes): written as raw_data, inline
// or to external data, computed slice by slice; the same file as a tensor holding those bytes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "onyx/ir/editor.h"
#include "onyx/ir/tensor_data.h"
#include "onyx/serde/model_io.h"
#include "support/check_testing.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

// 300,000 floats: more than one of the writer's 1 MiB slices, and not a whole number of them.
constexpr uint64_t kElements = 300000;
constexpr uint64_t kBytes = kElements * sizeof(float);

std::byte patternByte(uint64_t at) { return static_cast<std::byte>((at * 7 + at / 4096) & 0xff); }

Status computePattern(const void* /*state*/, uint64_t offset, std::span<std::byte> out) {
  for (size_t k = 0; k < out.size(); ++k) out[k] = patternByte(offset + k);
  return Status::ok();
}

Status computeNothing(const void* /*state*/, uint64_t, std::span<std::byte>) {
  return Status(ErrorCode::kInternal, "the weights could not be computed");
}

std::string pattern() {
  std::string bytes(kBytes, '\0');
  for (uint64_t i = 0; i < kBytes; ++i) bytes[i] = static_cast<char>(patternByte(i));
  return bytes;
}

// A model whose initializer w holds kElements floats: computed, or (computed false) the same
// bytes held as raw_data.
Model modelWithWeights(bool computed, ComputedBytes::Compute compute = computePattern) {
  Model model = testing::parseOrFail(
      "<ir_version: 10, opset_import: [\"\" : 18]>\n"
      "g (float[300000] x) => (float[300000] y) <float[1] w = {0.5}> { y = Add(x, w) }");
  Tensor& w = *model.graph->initializers[0];
  w.dims.values.clear();
  w.dims.values.push_back(GraphEditor(model).arena(), static_cast<int64_t>(kElements));
  w.raw_data.reset();
  GraphEditor(model).rare(&w).float_data = PackedData();
  if (computed) {
    GraphEditor(model).rare(&w).computed =
        GraphEditor(model).arena().make<ComputedBytes>(ComputedBytes{kBytes, compute, nullptr});
  } else {
    w.raw_data = GraphEditor(model).arena().copy(pattern());
  }
  return model;
}

std::filesystem::path temporaryFolder() {
  char name[] = "/tmp/onyx-computed-XXXXXX";
  EXPECT_NE(mkdtemp(name), nullptr);
  return name;
}

TEST(ComputedBytes, AreWrittenAsTheBytesTheyCompute) {
  Model computed = modelWithWeights(true);
  EXPECT_EQ(tensorStorage(*computed.graph->initializers[0]), TensorStorage::kComputed);
  Result<TensorBytes> bytes = rawBytes(*computed.graph->initializers[0]);
  ASSERT_TRUE(bytes);
  EXPECT_TRUE(bytes->bytes() == pattern());
  EXPECT_TRUE(testing::bytesOf(computed) == testing::bytesOf(modelWithWeights(false)));
}

TEST(ComputedBytes, GoToExternalDataSliceBySlice) {
  std::filesystem::path folder = temporaryFolder();
  SaveOptions options;
  options.external_threshold = 1024;
  options.external_file = "m.data";
  ASSERT_TRUE(saveModel(modelWithWeights(true), (folder / "m.onnx").string(), options));
  Result<Model> loaded = loadModel((folder / "m.onnx").string());
  ASSERT_TRUE(loaded) << loaded.status().toString();
  const Tensor& w = *loaded->graph->initializers[0];
  EXPECT_TRUE(w.isExternal());
  Result<TensorBytes> bytes = rawBytes(w);
  ASSERT_TRUE(bytes);
  EXPECT_TRUE(bytes->bytes() == pattern());
  std::filesystem::remove_all(folder);
}

TEST(ComputedBytes, ThatFailLeaveNoFileBehind) {
  std::filesystem::path folder = temporaryFolder();
  Status inline_save =
      saveModel(modelWithWeights(true, computeNothing), (folder / "m.onnx").string());
  EXPECT_FALSE(inline_save.isOk());
  EXPECT_NE(inline_save.message().find("could not be computed"), std::string::npos);
  SaveOptions external;
  external.external_threshold = 1024;
  Status external_save =
      saveModel(modelWithWeights(true, computeNothing), (folder / "e.onnx").string(), external);
  EXPECT_FALSE(external_save.isOk());
  EXPECT_TRUE(std::filesystem::is_empty(folder));
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace onyx
