// Shape-inference rules of the nn operators: convolutions, poolings, normalizations,
// attention and the rest of src/ops/nn.
#include <gtest/gtest.h>

#include <string>

#include "support/infer_testing.h"

namespace onyx {
namespace {

using testing::InferredText;
using testing::inferText;

// Infers `graph` (`g (inputs) => (outputs) { ... }`) at ai.onnx version `opset`.
InferredText inferAt(int opset, const std::string& graph) {
  return inferText("<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" +
                   graph);
}

// ---- convolutions ------------------------------------------------------------------------

TEST(NnInference, ConvWithPadsAndStrides) {
  auto m = inferAt(21, R"(g (float[N, 3, 32, 32] x, float[8, 3, 3, 3] w) => (y) {
    y = Conv <pads = [1, 1, 1, 1], strides = [2, 2]> (x, w) })");
  EXPECT_EQ(m.typeOf("y"), "float[N,8,16,16]") << m.diagnostics();
}

TEST(NnInference, ConvKeepsSymbolicSpatialDimsAtStrideOne) {
  auto m = inferAt(11, R"(g (float[N, 3, H, W] x, float[8, 3, 3, 5] w, float[8] b) => (y) {
    y = Conv (x, w, b) })");
  EXPECT_EQ(m.typeOf("y"), "float[N,8,H-2,W-4]") << m.diagnostics();
}

TEST(NnInference, ConvAutoPadAndDilations) {
  auto m = inferAt(22, R"(g (float[1, 4, 7, 10] x, float[6, 2, 3, 3] w) => (same, valid) {
    same = Conv <auto_pad = "SAME_UPPER", strides = [2, 2], group = 2> (x, w)
    valid = Conv <auto_pad = "VALID", dilations = [2, 2], kernel_shape = [3, 3], group = 2> (x, w)
  })");
  EXPECT_EQ(m.typeOf("same"), "float[1,6,4,5]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("valid"), "float[1,6,3,6]") << m.diagnostics();
}

TEST(NnInference, ConvRefusesChannelMismatchAndSmallRank) {
  EXPECT_TRUE(inferAt(21, R"(g (float[1, 4, 5, 5] x, float[8, 3, 3, 3] w) => (y) {
    y = Conv (x, w) })")
                  .has("X5"));
  EXPECT_TRUE(
      inferAt(21, R"(g (float[4, 5] x, float[8, 4, 3] w) => (y) { y = Conv (x, w) })").has("X5"));
  EXPECT_TRUE(inferAt(21, R"(g (float[1, 3, 5, 5] x, float[8, 3, 3, 3] w) => (y) {
    y = Conv <strides = [1, 1, 1]> (x, w) })")
                  .has("X5"));
}

TEST(NnInference, PadsBesideAnAutoPadOtherThanNotSetIsRefused) {
  EXPECT_TRUE(inferAt(21, R"(g (float[1, 3, 5, 5] x, float[8, 3, 3, 3] w) => (y) {
    y = ConvTranspose <auto_pad = "SAME_UPPER", pads = [1, 1, 1, 1]> (x, w) })")
                  .has("X5"));
  EXPECT_TRUE(inferAt(21, R"(g (float[1, 3, 5, 5] x, float[8, 3, 3, 3] w) => (y) {
    y = Conv <auto_pad = "VALID", pads = [0, 0, 0, 0]> (x, w) })")
                  .has("X5"));
  auto fine = inferAt(21, R"(g (float[1, 3, 5, 5] x, float[8, 3, 3, 3] w) => (y) {
    y = Conv <auto_pad = "NOTSET", pads = [1, 1, 1, 1]> (x, w) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
}

TEST(NnInference, BatchNormalizationStatisticsAreOnePerChannel) {
  EXPECT_TRUE(inferAt(15, R"(g (float[2, 3, 4] x, float[3, 1] s, float[3] b, float[3] m,
                              float[3] v) => (y) { y = BatchNormalization (x, s, b, m, v) })")
                  .has("X5"));
  EXPECT_TRUE(inferAt(15, R"(g (float[2, 3, 4] x, float[4] s, float[4] b, float[4] m,
                              float[4] v) => (y) { y = BatchNormalization (x, s, b, m, v) })")
                  .has("X5"));
  auto fine = inferAt(15, R"(g (float[2, C, 4] x, float[3] s, float[3] b, float[3] m,
                              float[3] v) => (y) { y = BatchNormalization (x, s, b, m, v) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[2,C,4]");
}

TEST(NnInference, ConvTransposeInputChannelsSplitIntoTheGroups) {
  auto bad = inferAt(22, R"(g (float[1, 3, 5, 5] x, float[3, 2, 3, 3] w) => (y) {
    y = ConvTranspose <group = 2> (x, w) })");
  EXPECT_TRUE(bad.refused("the input has 3 channels, which do not split into 2 groups"))
      << bad.diagnostics();
  auto fine = inferAt(22, R"(g (float[1, 4, 5, 5] x, float[4, 2, 3, 3] w) => (y) {
    y = ConvTranspose <group = 2> (x, w) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[1,4,7,7]");
}

TEST(NnInference, ConvTransposeChecksItsWindowBesideAnOutputShape) {
  auto strides = inferAt(22, R"(g (float[1, 3, 5, 5] x, float[3, 2, 3, 3] w) => (y) {
    y = ConvTranspose <output_shape = [10, 10], strides = [2, 2, 2]> (x, w) })");
  EXPECT_TRUE(strides.refused("strides has 3 values, expected 2")) << strides.diagnostics();
  auto pads = inferAt(22, R"(g (float[1, 3, 5, 5] x, float[3, 2, 3, 3] w) => (y) {
    y = ConvTranspose <output_shape = [10, 10], auto_pad = "SAME_UPPER", pads = [1, 1, 1, 1]>
        (x, w) })");
  EXPECT_TRUE(pads.refused("pads is set beside auto_pad")) << pads.diagnostics();
  auto fine = inferAt(22, R"(g (float[1, 3, 5, 5] x, float[3, 2, 3, 3] w) => (y) {
    y = ConvTranspose <output_shape = [10, 10], strides = [2, 2]> (x, w) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[1,2,10,10]");
}

TEST(NnInference, ConvWithUnknownKernelKeepsBatchAndChannels) {
  auto m = inferAt(21, R"(g (float[N, 3, 8, 8] x, float[16, 3, K, K] w) => (y) {
    y = Conv (x, w) })");
  EXPECT_EQ(m.typeOf("y"), "float[N,16,?,?]") << m.diagnostics();
}

TEST(NnInference, ConvIntegerQLinearConvDeformConv) {
  auto m = inferAt(22, R"(g (uint8[1, 1, 5, 5] x, uint8[2, 1, 3, 3] w, float s, uint8 z,
                              int8 yz, float[1, 8, 4, 4] offset, float[1, 1, 5, 5] fx,
                              float[2, 1, 2, 2] fw) => (ci, ql, dc) {
    ci = ConvInteger <pads = [1, 1, 1, 1]> (x, w)
    ql = QLinearConv (x, s, z, w, s, z, s, yz)
    dc = DeformConv (fx, fw, offset)
  })");
  EXPECT_EQ(m.typeOf("ci"), "int32[1,2,5,5]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("ql"), "int8[1,2,3,3]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("dc"), "float[1,2,4,4]") << m.diagnostics();
}

TEST(NnInference, ConvTransposeShapes) {
  auto m = inferAt(11, R"(g (float[1, 1, 3, 3] x, float[1, 2, 3, 3] w, float[N, 1, H, W] s)
                            => (strided, same, explicit, symbolic) {
    strided = ConvTranspose <strides = [3, 2], output_padding = [1, 1]> (x, w)
    same = ConvTranspose <auto_pad = "SAME_UPPER", strides = [2, 2]> (x, w)
    explicit = ConvTranspose <output_shape = [10, 8], strides = [3, 2]> (x, w)
    symbolic = ConvTranspose <group = 1> (s, w)
  })");
  EXPECT_EQ(m.typeOf("strided"), "float[1,2,10,8]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("same"), "float[1,2,6,6]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("explicit"), "float[1,2,10,8]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("symbolic"), "float[N,2,H+2,W+2]") << m.diagnostics();
}

// ---- poolings ------------------------------------------------------------------------------

TEST(NnInference, MaxPoolGivesIndicesTheSameShape) {
  auto m = inferAt(12, R"(g (float[1, 3, 32, 32] x) => (y, i) {
    y, i = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x) })");
  EXPECT_EQ(m.typeOf("y"), "float[1,3,16,16]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("i"), "int64[1,3,16,16]") << m.diagnostics();
}

TEST(NnInference, PoolingCeilModeAndSymbolicDims) {
  auto m = inferAt(19, R"(g (float[1, 1, 4, 4] x, float[N, C, H, W] s) => (floor, ceil, same, lp) {
    floor = MaxPool <kernel_shape = [3, 3], strides = [2, 2]> (x)
    ceil = AveragePool <kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1> (x)
    same = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (s)
    lp = LpPool <kernel_shape = [2, 2], dilations = [2, 2]> (s)
  })");
  EXPECT_EQ(m.typeOf("floor"), "float[1,1,1,1]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("ceil"), "float[1,1,2,2]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("same"), "float[N,C,H,W]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("lp"), "float[N,C,H-2,W-2]") << m.diagnostics();
}

TEST(NnInference, EarlyPoolingVersions) {
  // AveragePool before 19 has no dilations; MaxPool-1 has no Indices; LpPool-2.
  auto m = inferAt(10, R"(g (float[N, 2, 9, 9] x) => (avg, mx, lp) {
    avg = AveragePool <kernel_shape = [3, 3], strides = [3, 3], ceil_mode = 1> (x)
    mx = MaxPool <kernel_shape = [2, 2], auto_pad = "SAME_LOWER", strides = [2, 2]> (x)
    lp = LpPool <kernel_shape = [9, 9]> (x)
  })");
  EXPECT_EQ(m.typeOf("avg"), "float[N,2,3,3]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("mx"), "float[N,2,5,5]");
  EXPECT_EQ(m.typeOf("lp"), "float[N,2,1,1]");
  auto first = inferAt(1, R"(g (float[1, 1, H, 4] x) => (y) {
    y = MaxPool <kernel_shape = [1, 2], auto_pad = "SAME_UPPER", strides = [2, 2]> (x) })");
  EXPECT_EQ(first.typeOf("y"), "float[1,1,?,2]") << first.diagnostics();
}

TEST(NnInference, PoolingRefusesWindowLargerThanInput) {
  auto m = inferAt(11, R"(g (float[1, 1, 2, 2] x) => (y) {
    y = AveragePool <kernel_shape = [5, 5]> (x) })");
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(NnInference, GlobalPoolsAndMaxUnpoolAndRoiPool) {
  auto m = inferAt(22, R"(g (float[N, C, H, W] x, float[1, 1, 2, 2] u, int64[1, 1, 2, 2] ui,
                              float[R, 5] rois) => (avg, mx, lp, unpooled, roi) {
    avg = GlobalAveragePool (x)
    mx = GlobalMaxPool (x)
    lp = GlobalLpPool (x)
    unpooled = MaxUnpool <kernel_shape = [2, 2], strides = [2, 2]> (u, ui)
    roi = MaxRoiPool <pooled_shape = [2, 3]> (x, rois)
  })");
  EXPECT_EQ(m.typeOf("avg"), "float[N,C,1,1]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("mx"), "float[N,C,1,1]");
  EXPECT_EQ(m.typeOf("lp"), "float[N,C,1,1]");
  EXPECT_EQ(m.typeOf("unpooled"), "float[1,1,4,4]");
  EXPECT_EQ(m.typeOf("roi"), "float[R,C,2,3]");
}

TEST(NnInference, MaxUnpoolTakesTheOutputShapeInput) {
  auto m = inferAt(11, R"(g (float[1, 1, 2, 2] u, int64[1, 1, 2, 2] ui) => (y) {
    shape = Constant <value_ints = [1, 1, 5, 5]> ()
    y = MaxUnpool <kernel_shape = [2, 2], strides = [2, 2]> (u, ui, shape) })");
  EXPECT_EQ(m.typeOf("y"), "float[1,1,5,5]") << m.diagnostics();
}

// ---- normalizations and elementwise --------------------------------------------------------

TEST(NnInference, MaxUnpoolOutputShapeHasOneEntryPerAxis) {
  auto length = inferAt(22, R"(g (float[1, 1, 2, 2] x, int64[1, 1, 2, 2] i, int64[3] s) => (y) {
    y = MaxUnpool <kernel_shape = [2, 2], strides = [2, 2]> (x, i, s) })");
  EXPECT_TRUE(length.refused("output_shape has 3 entries for an input of rank 4"))
      << length.diagnostics();
  auto rank = inferAt(22, R"(g (float[1, 1, 2, 2] x, int64[1, 1, 2, 2] i, int64[2, 2] s) => (y) {
    y = MaxUnpool <kernel_shape = [2, 2], strides = [2, 2]> (x, i, s) })");
  EXPECT_TRUE(rank.refused("output_shape has rank 2; MaxUnpool needs a vector (rank 1)"))
      << rank.diagnostics();
  auto strides = inferAt(22, R"(g (float[1, 1, 2, 2] x, int64[1, 1, 2, 2] i, int64[4] s) => (y) {
    y = MaxUnpool <kernel_shape = [2, 2], strides = [2]> (x, i, s) })");
  EXPECT_TRUE(strides.refused("strides has 1 values, expected 2")) << strides.diagnostics();
  auto fine = inferAt(22, R"(g (float[1, 1, 2, 2] x, int64[1, 1, 2, 2] i, int64[4] s) => (y) {
    y = MaxUnpool <kernel_shape = [2, 2], strides = [2, 2]> (x, i, s) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[?,?,?,?]");
}

TEST(NnInference, MaxRoiPoolTakesFiveValuesPerRoiAndPositivePooledSizes) {
  auto rois = inferAt(22, R"(g (float[1, 3, 8, 8] x, float[4, 4] r) => (y) {
    y = MaxRoiPool <pooled_shape = [2, 2]> (x, r) })");
  EXPECT_TRUE(rois.refused("rois has rows of 4 values")) << rois.diagnostics();
  auto rank = inferAt(22, R"(g (float[1, 3, 8, 8] x, float[5] r) => (y) {
    y = MaxRoiPool <pooled_shape = [2, 2]> (x, r) })");
  EXPECT_TRUE(rank.refused("rois has rank 1; MaxRoiPool needs rank 2")) << rank.diagnostics();
  auto empty = inferAt(22, R"(g (float[1, 3, 8, 8] x, float[4, 5] r) => (y) {
    y = MaxRoiPool <pooled_shape = [0, 2]> (x, r) })");
  EXPECT_TRUE(empty.refused("pooled_shape is [0, 2]; both sizes must be positive"))
      << empty.diagnostics();
  auto fine = inferAt(22, R"(g (float[1, 3, 8, 8] x, float[R, 5] r) => (y) {
    y = MaxRoiPool <pooled_shape = [2, 3]> (x, r) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[R,3,2,3]");
}

TEST(NnInference, BatchNormalizationStatistics) {
  auto m = inferAt(15, R"(g (float[N, 3, H, W] x, float[3] s, float[3] b, double[3] m, double[3] v)
                            => (y, rm, rv) {
    y, rm, rv = BatchNormalization <training_mode = 1> (x, s, b, m, v) })");
  EXPECT_EQ(m.typeOf("y"), "float[N,3,H,W]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("rm"), "double[3]");
  EXPECT_EQ(m.typeOf("rv"), "double[3]");
  auto old = inferAt(9, R"(g (float[N, C, 5] x, float[C] s, float[C] b, float[C] m, float[C] v)
                            => (y, a, c, d, e) {
    y, a, c, d, e = BatchNormalization (x, s, b, m, v) })");
  EXPECT_EQ(old.typeOf("y"), "float[N,C,5]") << old.diagnostics();
  EXPECT_EQ(old.typeOf("e"), "float[C]");
}

TEST(NnInference, DropoutMask) {
  auto m = inferAt(13, R"(g (float[N, 4] x) => (y, mask) { y, mask = Dropout (x) })");
  EXPECT_EQ(m.typeOf("y"), "float[N,4]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("mask"), "bool[N,4]");
  auto old = inferAt(7, R"(g (float[N, 4] x) => (y, mask) { y, mask = Dropout (x) })");
  EXPECT_EQ(old.typeOf("mask"), "float[N,4]") << old.diagnostics();
}

TEST(NnInference, DropoutRatioAndTrainingModeAreScalars) {
  auto ratio = inferAt(22, R"(g (float[2, 3] x, float[1] r) => (y) { y = Dropout (x, r) })");
  EXPECT_TRUE(ratio.refused("ratio has rank 1; Dropout needs a scalar")) << ratio.diagnostics();
  auto mode = inferAt(22, R"(g (float[2, 3] x, float r, bool[1] t) => (y) {
    y = Dropout (x, r, t) })");
  EXPECT_TRUE(mode.refused("training_mode has rank 1; Dropout needs a scalar"))
      << mode.diagnostics();
  auto fine = inferAt(22, R"(g (float[2, 3] x, float r, bool t) => (y, m) {
    y, m = Dropout (x, r, t) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("m"), "bool[2,3]");
}

TEST(NnInference, FlattenAxes) {
  auto m = inferAt(13, R"(g (float[N, 3, 4, 5] x) => (a, b, c) {
    a = Flatten <axis = 2> (x)
    b = Flatten <axis = 0> (x)
    c = Flatten <axis = -1> (x)
  })");
  EXPECT_EQ(m.typeOf("a"), "float[3*N,20]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("b"), "float[1,60*N]");
  EXPECT_EQ(m.typeOf("c"), "float[12*N,5]");
  EXPECT_TRUE(inferAt(13, R"(g (float[2, 3] x) => (y) { y = Flatten <axis = 3> (x) })").has("X5"));
  EXPECT_TRUE(inferAt(9, R"(g (float[2, 3] x) => (y) { y = Flatten <axis = -1> (x) })").has("X5"));
}

TEST(NnInference, LayerNormalizationKeepsSymbolsAndReducesStatistics) {
  auto m = inferAt(17, R"(g (float16[batch, seq, 512] x, float16[512] s) => (y, mean, inv) {
    y, mean, inv = LayerNormalization <axis = -1> (x, s) })");
  EXPECT_EQ(m.typeOf("y"), "float16[batch,seq,512]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("mean"), "float[batch,seq,1]");
  EXPECT_EQ(m.typeOf("inv"), "float[batch,seq,1]");
  auto axis1 = inferAt(17, R"(g (float[B, S, 4] x, float[S, 4] s) => (y, mean) {
    y, mean = LayerNormalization <axis = 1, stash_type = 16> (x, s) })");
  EXPECT_EQ(axis1.typeOf("mean"), "bfloat16[B,1,1]") << axis1.diagnostics();
  EXPECT_TRUE(inferAt(17, R"(g (float[2, 3] x, float[3] s) => (y) {
    y = LayerNormalization <axis = 2> (x, s) })")
                  .has("X5"));
}

TEST(NnInference, SameShapeNormalizations) {
  auto m = inferAt(23, R"(g (float[N, 6, H, W] x, float[6] s, float16[W] r, float[2] g)
                            => (inst, lp, mvn, lrn, shrink, rms, group) {
    inst = InstanceNormalization (x, s, s)
    lp = LpNormalization <axis = 1> (x)
    mvn = MeanVarianceNormalization (x)
    lrn = LRN <size = 3> (x)
    shrink = Shrink (x)
    rms = RMSNormalization (x, r)
    group = GroupNormalization <num_groups = 2> (x, s, s)
  })");
  for (const char* name : {"inst", "lp", "mvn", "lrn", "shrink", "group"}) {
    EXPECT_EQ(m.typeOf(name), "float[N,6,H,W]") << name << m.diagnostics();
  }
  EXPECT_EQ(m.typeOf("rms"), "float16[N,6,H,W]");
  EXPECT_TRUE(inferAt(21, R"(g (float[1, 5, 4] x, float[5] s) => (y) {
    y = GroupNormalization <num_groups = 2> (x, s, s) })")
                  .has("X5"));
}

// ---- attention -----------------------------------------------------------------------------

TEST(NnInference, RmsNormalizationAxisNamesAnAxis) {
  auto bad = inferAt(23, R"(g (float[2, 3] x, float[3] s) => (y) {
    y = RMSNormalization <axis = -3> (x, s) })");
  EXPECT_TRUE(bad.refused("axis -3 is outside [-2, 2)")) << bad.diagnostics();
  auto fine = inferAt(23, R"(g (float[2, 3] x, float[2, 3] s) => (y) {
    y = RMSNormalization <axis = -2> (x, s) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[2,3]");
}

TEST(NnInference, Attention25RefusesHalfACacheAndHeadsBeside4D) {
  const std::string inputs = "float[1, 2, 3, 4] q, float[1, 2, 3, 4] k, float[1, 2, 3, 4] v";
  auto past = inferAt(25, "g (" + inputs + R"(, float[1, 2, 3, 4] pk) => (y) {
    y = Attention (q, k, v, , pk) })");
  EXPECT_TRUE(past.refused("past_key is given without past_value")) << past.diagnostics();
  auto present = inferAt(25, "g (" + inputs + R"() => (y, pk) { y, pk = Attention (q, k, v) })");
  EXPECT_TRUE(present.refused("present_key is asked for without present_value"))
      << present.diagnostics();
  auto nonpad = inferAt(25, "g (" + inputs + R"(, int64[1] n) => (y, pk, pv) {
    y, pk, pv = Attention (q, k, v, , , , n) })");
  EXPECT_TRUE(nonpad.refused("nonpad_kv_seqlen is given beside a past or present cache"))
      << nonpad.diagnostics();
  auto window = inferAt(25, "g (" + inputs + R"() => (y) {
    y = Attention <left_window_size = -2> (q, k, v) })");
  EXPECT_TRUE(window.refused("left_window_size is -2")) << window.diagnostics();
  auto heads = inferAt(25, "g (" + inputs + R"() => (y) {
    y = Attention <q_num_heads = 2, kv_num_heads = 2> (q, k, v) })");
  EXPECT_TRUE(heads.refused("Q is 4-D")) << heads.diagnostics();
  // Before version 25 onnx checks none of these.
  auto v24 = inferAt(24, "g (" + inputs + R"() => (y, pk) { y, pk = Attention (q, k, v) })");
  EXPECT_FALSE(v24.has("X5")) << v24.diagnostics();
  auto fine = inferAt(25, "g (" + inputs + R"(, float[1, 2, 5, 4] pk, float[1, 2, 5, 4] pv) =>
                              (y, qk, qv) { y, qk, qv = Attention (q, k, v, , pk, pv) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("qk"), "float[1,2,8,4]");
}

TEST(NnInference, Attention4DWithPastKeyAndValue) {
  auto m = inferAt(23, R"(g (float[B, 8, S, 64] q, float[B, 8, L, 64] k, float[B, 8, L, 32] v,
                             float[B, 8, P, 64] pk, float[B, 8, P, 32] pv)
                            => (y, present_k, present_v, qk) {
    y, present_k, present_v, qk = Attention <qk_matmul_output_mode = 0> (q, k, v, , pk, pv) })");
  EXPECT_EQ(m.typeOf("y"), "float[B,8,S,32]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("present_k"), "float[B,8,L+P,64]");
  EXPECT_EQ(m.typeOf("present_v"), "float[B,8,L+P,32]");
  EXPECT_EQ(m.typeOf("qk"), "float[B,8,S,L+P]");
}

TEST(NnInference, Attention3DWithGroupedHeads) {
  auto m = inferAt(24, R"(g (float[B, S, 512] q, float[B, L, 128] k, float[B, L, 64] v)
                            => (y, present_k, present_v) {
    y, present_k, present_v = Attention <q_num_heads = 8, kv_num_heads = 2> (q, k, v) })");
  EXPECT_EQ(m.typeOf("y"), "float[B,S,256]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("present_k"), "float[B,2,L,64]");
  EXPECT_EQ(m.typeOf("present_v"), "float[B,2,L,32]");
  EXPECT_TRUE(inferAt(23, R"(g (float[B, S, 512] q, float[B, L, 512] k, float[B, L, 512] v)
                            => (y) { y = Attention (q, k, v) })")
                  .has("X5"));
  EXPECT_TRUE(inferAt(23, R"(g (float[B, 512] q, float[B, L, 512] k, float[B, L, 512] v)
                            => (y) { y = Attention <q_num_heads = 8, kv_num_heads = 8> (q, k, v) })")
                  .has("X5"));
}

// The issue's acceptance case: a transformer block keeps its symbolic batch and sequence.
TEST(NnInference, TransformerBlockKeepsBatchAndSequence) {
  auto m = inferAt(23, R"(g (float[batch, seq, 512] x, float[512] gamma, float[512] beta,
                             float[512, 512] wq, float[512, 512] wk, float[512, 512] wv,
                             float[512, 512] wo, float[512, 2048] w1, float[2048, 512] w2)
                            => (out) {
    norm1 = LayerNormalization <axis = -1> (x, gamma, beta)
    q = MatMul (norm1, wq)
    k = MatMul (norm1, wk)
    v = MatMul (norm1, wv)
    attended = Attention <q_num_heads = 8, kv_num_heads = 8, is_causal = 1> (q, k, v)
    projected = MatMul (attended, wo)
    residual = Add (x, projected)
    norm2 = LayerNormalization <axis = -1> (residual, gamma, beta)
    hidden = MatMul (norm2, w1)
    activated = Relu (hidden)
    ff = MatMul (activated, w2)
    out = Add (residual, ff)
  })");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
  EXPECT_EQ(m.typeOf("norm1"), "float[batch,seq,512]");
  EXPECT_EQ(m.typeOf("attended"), "float[batch,seq,512]");
  EXPECT_EQ(m.typeOf("hidden"), "float[batch,seq,2048]");
  EXPECT_EQ(m.typeOf("out"), "float[batch,seq,512]");
}

TEST(NnInference, RotaryEmbeddingLinearAttentionCausalConv) {
  auto m = inferAt(27, R"(g (float[B, S, 64] x, float[S, 16] cache, float[B, T, 256] q,
                             float[B, T, 128] k, float[B, T, 96] v, float[B, C, T] signal,
                             float[C, 1, 4] w) => (rot, out, state, conv, carry) {
    rot = RotaryEmbedding <num_heads = 4> (x, cache, cache)
    out, state = LinearAttention <q_num_heads = 4, kv_num_heads = 2, update_rule = "linear">
                                 (q, k, v)
    conv, carry = CausalConvWithState (signal, w)
  })");
  EXPECT_EQ(m.typeOf("rot"), "float[B,S,64]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("out"), "float[B,T,192]");
  EXPECT_EQ(m.typeOf("state"), "float[B,2,64,48]");
  EXPECT_EQ(m.typeOf("conv"), "float[B,C,T]");
  EXPECT_EQ(m.typeOf("carry"), "float[B,C,3]");
}

TEST(NnInference, CausalConvWithStateShapesAndActivation) {
  const std::string inputs = "float[1, 3, 8] x, float[3, 1, 4] w";
  auto activation = inferAt(27, "g (" + inputs + R"() => (y, s) {
    y, s = CausalConvWithState <activation = "relu"> (x, w) })");
  EXPECT_TRUE(activation.refused("activation 'relu' is not one of none, silu, swish"))
      << activation.diagnostics();
  auto weight = inferAt(27, R"(g (float[1, 3, 8] x, float[3, 2, 4] w) => (y, s) {
    y, s = CausalConvWithState (x, w) })");
  EXPECT_TRUE(weight.refused("the weight's dimension 1 (one per channel) is 2 but should be 1"))
      << weight.diagnostics();
  auto channels = inferAt(27, R"(g (float[1, 3, 8] x, float[5, 1, 4] w) => (y, s) {
    y, s = CausalConvWithState (x, w) })");
  EXPECT_TRUE(channels.refused("the weight's dimension 0 (channels) is 5 but should be 3"))
      << channels.diagnostics();
  auto state = inferAt(27, "g (" + inputs + R"(, float[3] b, float[1, 3, 2] p) => (y, s) {
    y, s = CausalConvWithState (x, w, b, p) })");
  EXPECT_TRUE(state.refused("past_state's length (kernel size - 1) is 2 but should be 3"))
      << state.diagnostics();
  auto fine = inferAt(27, "g (" + inputs + R"(, float[3] b, float[1, 3, 3] p) => (y, s) {
    y, s = CausalConvWithState <activation = "silu"> (x, w, b, p) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("s"), "float[1,3,3]");
}

TEST(NnInference, LinearAttentionRuleTakesItsInputs) {
  const std::string inputs = "float[1, 3, 8] q, float[1, 3, 8] k, float[1, 3, 8] v";
  auto rule = inferAt(27, "g (" + inputs + R"() => (y) {
    y = LinearAttention <q_num_heads = 2, kv_num_heads = 2, update_rule = "bogus"> (q, k, v) })");
  EXPECT_TRUE(rule.refused("update_rule 'bogus' is not one of")) << rule.diagnostics();
  auto decay = inferAt(27, "g (" + inputs + R"(, float[1, 3, 2] b) => (y) {
    y = LinearAttention <q_num_heads = 2, kv_num_heads = 2> (q, k, v, , , b) })");
  EXPECT_TRUE(decay.refused("update_rule 'gated_delta' needs decay input")) << decay.diagnostics();
  auto beta = inferAt(27, "g (" + inputs + R"(, float[1, 3, 2] b) => (y) {
    y = LinearAttention <q_num_heads = 2, kv_num_heads = 2, update_rule = "linear">
                        (q, k, v, , , b) })");
  EXPECT_TRUE(beta.refused("update_rule 'linear' takes no beta input")) << beta.diagnostics();
  auto heads = inferAt(27, "g (" + inputs + R"() => (y) {
    y = LinearAttention <q_num_heads = 3, kv_num_heads = 2, update_rule = "linear"> (q, k, v) })");
  EXPECT_TRUE(heads.refused("q_num_heads 3 is not a multiple of kv_num_heads 2"))
      << heads.diagnostics();
  auto fine = inferAt(27, "g (" + inputs + R"(, float[1, 3, 2] d, float[1, 3, 2] b) => (y) {
    y = LinearAttention <q_num_heads = 2, kv_num_heads = 2> (q, k, v, , d, b) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[1,3,8]");
}

TEST(NnInference, Col2ImAndTfIdfVectorizer) {
  auto m = inferAt(18, R"(g (float[N, 10, 12] cols, int64[N, 6] tokens) => (image, tfidf) {
    image_shape = Constant <value_ints = [5, 5]> ()
    block_shape = Constant <value_ints = [1, 5]> ()
    image = Col2Im (cols, image_shape, block_shape)
    tfidf = TfIdfVectorizer <max_gram_length = 1, max_skip_count = 0, min_gram_length = 1,
                             mode = "TF", ngram_counts = [0], ngram_indexes = [0, 1, 2, 6],
                             pool_int64s = [1, 2, 3, 4]> (tokens)
  })");
  EXPECT_EQ(m.typeOf("image"), "float[N,2,5,5]") << m.diagnostics();
  EXPECT_EQ(m.typeOf("tfidf"), "float[N,7]");
}

// ---- robustness ----------------------------------------------------------------------------

TEST(NnInference, RotaryEmbeddingTakesThreeOrFourAxesAndHeadsFor3D) {
  auto rank = inferAt(23, R"(g (float[2, 3] x, float[4, 2] c, float[4, 2] s, int64[2, 3] p) =>
                             (y) { y = RotaryEmbedding (x, c, s, p) })");
  EXPECT_TRUE(rank.refused("X has rank 2; RotaryEmbedding needs rank 3 or 4"))
      << rank.diagnostics();
  auto heads = inferAt(23, R"(g (float[1, 3, 8] x, float[4, 2] c, float[4, 2] s, int64[1, 3] p) =>
                              (y) { y = RotaryEmbedding (x, c, s, p) })");
  EXPECT_TRUE(heads.refused("num_heads is not given")) << heads.diagnostics();
  auto fine = inferAt(23, R"(g (float[1, 3, 8] x, float[4, 2] c, float[4, 2] s, int64[1, 3] p) =>
                             (y) { y = RotaryEmbedding <num_heads = 2> (x, c, s, p) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[1,3,8]");
}

TEST(NnInference, Col2ImShapesAgreeOnTheSpatialAxes) {
  auto rank = inferAt(18, R"(g (float[1, 4, 9] x, int64[2, 1] i, int64[2] b) => (y) {
    y = Col2Im (x, i, b) })");
  EXPECT_TRUE(rank.refused("image_shape has rank 2; Col2Im needs a vector (rank 1)"))
      << rank.diagnostics();
  auto lengths = inferAt(18, R"(g (float[1, 4, 9] x, int64[2] i, int64[3] b) => (y) {
    y = Col2Im (x, i, b) })");
  EXPECT_TRUE(lengths.refused("image_shape has 2 entries, block_shape 3")) << lengths.diagnostics();
  auto strides = inferAt(18, R"(g (float[1, 4, 9] x, int64[2] i, int64[2] b) => (y) {
    y = Col2Im <strides = [1, 1, 1]> (x, i, b) })");
  EXPECT_TRUE(strides.refused("strides has 3 values for the 2 spatial axes"))
      << strides.diagnostics();
  auto pads = inferAt(18, R"(g (float[1, 4, 9] x, int64[I] i, int64[B] b) => (y) {
    y = Col2Im <pads = [1, 1, 1]> (x, i, b) })");
  EXPECT_TRUE(pads.refused("pads has 3 values; it needs a begin and an end")) << pads.diagnostics();
  auto fine = inferAt(18, R"(g (float[1, 4, 9] x, int64[2] i, int64[2] b) => (y) {
    y = Col2Im <strides = [1, 1], pads = [0, 0, 0, 0]> (x, i, b) })");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[1,?,?,?]");
}

TEST(NnInference, AbsurdAttributesFailOrStayUnknown) {
  EXPECT_TRUE(inferAt(21, R"(g (float[1, 1, 5, 5] x) => (y) {
    y = MaxPool <kernel_shape = [2, 2], strides = [0, 1]> (x) })")
                  .has("X5"));
  EXPECT_TRUE(inferAt(21, R"(g (float[1, 1, 5, 5] x) => (y) {
    y = MaxPool <kernel_shape = [9223372036854775807, 1]> (x) })")
                  .has("X5"));
  EXPECT_TRUE(inferAt(21, R"(g (float[1, 1, 5, 5] x) => (y) {
    y = AveragePool <kernel_shape = [2, 2], pads = [-1, 0, 0, 0]> (x) })")
                  .has("X5"));
  EXPECT_TRUE(inferAt(21, R"(g (float[1, 1, 5, 5] x) => (y) {
    y = AveragePool <kernel_shape = [2, 2], auto_pad = "SIDEWAYS"> (x) })")
                  .has("X5"));
  auto huge = inferAt(21, R"(g (float[1, 1, 5, 5] x) => (y) {
    y = AveragePool <kernel_shape = [2, 2],
                     pads = [9223372036854775807, 0, 9223372036854775807, 0]> (x) })");
  EXPECT_EQ(huge.typeOf("y"), "float[1,1,?,4]") << huge.diagnostics();
  // Reshape to a target of unknown length gives values of unknown rank.
  auto unknown_rank = inferAt(23, R"(g (float[4] data, int64[K] s) => (y, pool, norm) {
    x = Reshape (data, s)
    y = Attention (x, x, x)
    pool = MaxPool <kernel_shape = [2]> (x)
    norm = LayerNormalization (x, x)
  })");
  EXPECT_EQ(unknown_rank.typeOf("y"), "float") << unknown_rank.diagnostics();
  EXPECT_EQ(unknown_rank.typeOf("pool"), "float");
  EXPECT_EQ(unknown_rank.typeOf("norm"), "float");
  EXPECT_FALSE(unknown_rank.result.diagnostics.hasErrors()) << unknown_rank.diagnostics();
}

}  // namespace
}  // namespace onyx
