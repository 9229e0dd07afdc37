// Shape-inference rules of the reductions (src/ops/reduction), the recurrent operators
// (src/ops/rnn), quantization, object detection and ImageDecoder.
#include <gtest/gtest.h>

#include <string>

#include "support/infer_testing.h"

namespace onyx {
namespace {

using testing::InferredText;
using testing::inferText;

InferredText inferAt(int opset, const std::string& graph) {
  return inferText("<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" +
                   graph);
}

// ---- reductions ----------------------------------------------------------------------------

TEST(ReductionInference, AxesAttribute) {
  auto m = inferAt(13, R"(g (float[N, 3, 4] x) => (kept, dropped, all, negative) {
    kept = ReduceMean <axes = [1]> (x)
    dropped = ReduceMax <axes = [0, 2], keepdims = 0> (x)
    all = ReduceL2 (x)
    negative = ReduceProd <axes = [-1], keepdims = 0> (x)
  })");
  EXPECT_EQ(m.typeOf("kept"), "float[N,1,4]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("dropped"), "float[3]");
  EXPECT_EQ(m.typeOf("all"), "float[1,1,1]");
  EXPECT_EQ(m.typeOf("negative"), "float[N,3]");
  EXPECT_TRUE(
      inferAt(11, R"(g (float[2, 3] x) => (y) { y = ReduceSum <axes = [2]> (x) })").has("X5"));
}

TEST(ReductionInference, AxesInput) {
  auto m = inferAt(18, R"(g (float[N, 3, 4] x, int64[1] unknown) => (a, noop, all, guess, drop) {
    axes = Constant <value_ints = [1]> ()
    a = ReduceSumSquare <keepdims = 0> (x, axes)
    noop = ReduceLogSum <noop_with_empty_axes = 1> (x)
    all = ReduceL1 <keepdims = 0> (x)
    guess = ReduceMin (x, unknown)
    drop = ReduceLogSumExp <keepdims = 0> (x, unknown)
  })");
  EXPECT_EQ(m.typeOf("a"), "float[N,4]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("noop"), "float[N,3,4]");
  EXPECT_EQ(m.typeOf("all"), "float[]");
  EXPECT_EQ(m.typeOf("guess"), "float[?,?,?]");
  EXPECT_EQ(m.typeOf("drop"), "float");
  auto sum = inferAt(13, R"(g (int64[N, 3] x) => (y) {
    axes = Constant <value_ints = [-2]> ()
    y = ReduceSum (x, axes) })");
  EXPECT_EQ(sum.typeOf("y"), "int64[1,3]") << sum.diagnostics();
  EXPECT_TRUE(inferAt(18, R"(g (float[2, 3] x) => (y) {
    axes = Constant <value_ints = [5]> ()
    y = ReduceMean (x, axes) })")
                  .has("X5"));
}

TEST(ReductionInference, ArgMaxArgMin) {
  auto m = inferAt(13, R"(g (float[N, 3, 4] x) => (a, b) {
    a = ArgMax <axis = 1, keepdims = 0, select_last_index = 1> (x)
    b = ArgMin <axis = -1> (x)
  })");
  EXPECT_EQ(m.typeOf("a"), "int64[N,4]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("b"), "int64[N,3,1]");
  EXPECT_TRUE(inferAt(11, R"(g (float[2, 3] x) => (y) { y = ArgMax <axis = -3> (x) })").has("X5"));
}

// ---- recurrent -----------------------------------------------------------------------------

TEST(RecurrentInference, LstmBidirectional) {
  auto m = inferAt(14, R"(g (float[S, B, 10] x, float[2, 64, 10] w, float[2, 64, 16] r)
                            => (y, h, c) {
    y, h, c = LSTM <hidden_size = 16, direction = "bidirectional"> (x, w, r) })");
  EXPECT_EQ(m.typeOf("y"), "float[S,2,B,16]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("h"), "float[2,B,16]");
  EXPECT_EQ(m.typeOf("c"), "float[2,B,16]");
}

TEST(RecurrentInference, GruBatchFirstAndRnnHiddenFromR) {
  auto m = inferAt(22, R"(g (float[B, S, 10] x, float[1, 60, 10] w, float[1, 60, 20] r,
                             float[S, B, 10] x0, float[1, 8, 10] rw, float[1, 8, 8] rr)
                            => (y, h, ry) {
    y, h = GRU <hidden_size = 20, layout = 1> (x, w, r)
    ry = RNN (x0, rw, rr)
  })");
  EXPECT_EQ(m.typeOf("y"), "float[B,S,1,20]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("h"), "float[B,1,20]");
  EXPECT_EQ(m.typeOf("ry"), "float[S,1,B,8]");
  EXPECT_TRUE(inferAt(14, R"(g (float[S, 10] x, float[1, 8, 10] w, float[1, 8, 8] r) => (y) {
    y = RNN (x, w, r) })")
                  .has("X5"));
}

// ---- quantization --------------------------------------------------------------------------

TEST(QuantizationInference, QuantizeLinearOutputTypes) {
  auto m = inferAt(21, R"(g (float[N, 4] x, float s, int8 z) => (default, zero, dtype) {
    default = QuantizeLinear (x, s)
    zero = QuantizeLinear (x, s, z)
    dtype = QuantizeLinear <output_dtype = 4> (x, s)
  })");
  EXPECT_EQ(m.typeOf("default"), "uint8[N,4]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("zero"), "int8[N,4]");
  EXPECT_EQ(m.typeOf("dtype"), "uint16[N,4]");
  auto old = inferAt(10, R"(g (float[N, 4] x, float s) => (y) { y = QuantizeLinear (x, s) })");
  EXPECT_EQ(old.typeOf("y"), "uint8[N,4]") << old.diagnostics();
}

TEST(QuantizationInference, QuantizeLinearOutputDtypeMatchesTheZeroPoint) {
  auto bad = inferAt(21, R"(g (float[N, 4] x, float s, uint8 z) => (y) {
    y = QuantizeLinear <output_dtype = 3> (x, s, z) })");
  EXPECT_TRUE(bad.refused("output_dtype is INT8 but y_zero_point is UINT8")) << bad.diagnostics();
  auto fine = inferAt(21, R"(g (float[N, 4] x, float s, int8 z) => (y) {
    y = QuantizeLinear <output_dtype = 3> (x, s, z) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "int8[N,4]");
}

TEST(QuantizationInference, DequantizeAndDynamicQuantize) {
  auto m =
      inferAt(23, R"(g (int8[N, 4] x, float16 s, float[N, 4] f) => (half, dtype, q, scale, zero) {
    half = DequantizeLinear (x, s)
    dtype = DequantizeLinear <output_dtype = 1> (x, s)
    q, scale, zero = DynamicQuantizeLinear (f)
  })");
  EXPECT_EQ(m.typeOf("half"), "float16[N,4]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("dtype"), "float[N,4]");
  EXPECT_EQ(m.typeOf("q"), "uint8[N,4]");
  EXPECT_EQ(m.typeOf("scale"), "float[]");
  EXPECT_EQ(m.typeOf("zero"), "uint8[]");
  auto old = inferAt(13, R"(g (uint8[N, 4] x, float s) => (y) { y = DequantizeLinear (x, s) })");
  EXPECT_EQ(old.typeOf("y"), "float[N,4]") << old.diagnostics();
}

// ---- object detection and image ------------------------------------------------------------

TEST(DetectionInference, NonMaxSuppressionRoiAlignImageDecoder) {
  auto m = inferAt(22, R"(g (float[1, 6, 4] boxes, float[1, 1, 6] scores, float[N, C, H, W] x,
                             float[R, 4] rois, int64[R] batch, uint8[L] bytes)
                            => (selected, aligned, image, gray) {
    selected = NonMaxSuppression (boxes, scores)
    aligned = RoiAlign <output_height = 7, output_width = 5> (x, rois, batch)
    image = ImageDecoder (bytes)
    gray = ImageDecoder <pixel_format = "Grayscale"> (bytes)
  })");
  EXPECT_EQ(m.typeOf("selected"), "int64[?,3]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("aligned"), "float[R,C,7,5]");
  EXPECT_EQ(m.typeOf("image"), "uint8[?,?,3]");
  EXPECT_EQ(m.typeOf("gray"), "uint8[?,?,1]");
  EXPECT_TRUE(inferAt(16, R"(g (float[C, H, W] x, float[R, 4] rois, int64[R] batch) => (y) {
    y = RoiAlign (x, rois, batch) })")
                  .has("X5"));
}

TEST(DetectionInference, ImageDecoderTakesAVectorOfBytes) {
  auto bad = inferAt(20, R"(g (uint8[2, 3] bytes) => (image) { image = ImageDecoder (bytes) })");
  EXPECT_TRUE(bad.refused("encoded_stream has rank 2; ImageDecoder needs a vector (rank 1)"))
      << bad.diagnostics();
  auto fine = inferAt(20, R"(g (uint8[L] bytes) => (image) { image = ImageDecoder (bytes) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("image"), "uint8[?,?,3]");
}

}  // namespace
}  // namespace onyx
