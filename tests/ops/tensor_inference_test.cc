// Shape rules of the tensor family: data propagation (Shape, Gather, Slice, Concat,
// Unsqueeze, Squeeze, Cast into Reshape, Tile, Pad, Resize), and the shape-only rules.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>

#include "support/infer_testing.h"

namespace onyx {
namespace {

using testing::InferredText;
using testing::inferText;

// A model of opset `opset` with `inputs` and these nodes; outputs are inferred.
InferredText run(int opset, const std::string& inputs, const std::string& body) {
  return inferText("<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]> g (" +
                   inputs + ") => () {" + body + "}");
}

TEST(TensorInference, TransformerBlockKeepsSymbolicShapes) {
  // Split heads: [N, S, 64] → [N, S, 4, 16] → [N, 4, S, 16], with the target shape built
  // from the input's own Shape, then merged back.
  auto m = run(21, "float[N, S, 64] x, float[64, 64] w", R"(
      q = MatMul(x, w)
      shape = Shape(q)
      i0 = Constant <value_int = 0> ()
      i1 = Constant <value_int = 1> ()
      n = Gather <axis = 0> (shape, i0)
      s = Gather(shape, i1)
      zero = Constant <value_ints = [0]> ()
      n1 = Unsqueeze(n, zero)
      s1 = Unsqueeze(s, zero)
      heads = Constant <value_ints = [4, 16]> ()
      target = Concat <axis = 0> (n1, s1, heads)
      split = Reshape(q, target)
      t = Transpose <perm = [0, 2, 1, 3]> (split)
      kt = Transpose <perm = [0, 1, 3, 2]> (t)
      scores = MatMul(t, kt)
      back = Transpose <perm = [0, 2, 1, 3]> (t)
      minus_one = Constant <value_ints = [-1]> ()
      merged_shape = Concat <axis = 0> (n1, s1, minus_one)
      merged = Reshape(back, merged_shape)
      flat = Transpose(merged)
  )");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
  EXPECT_EQ(m.typeOf("shape"), "int64[3]");
  EXPECT_EQ(m.typeOf("n"), "int64[]");
  EXPECT_EQ(m.typeOf("n1"), "int64[1]");
  EXPECT_EQ(m.typeOf("target"), "int64[4]");
  EXPECT_EQ(m.typeOf("split"), "float[N,S,4,16]");
  EXPECT_EQ(m.typeOf("t"), "float[N,4,S,16]");
  EXPECT_EQ(m.typeOf("kt"), "float[N,4,16,S]");
  EXPECT_EQ(m.typeOf("scores"), "float[N,4,S,S]");
  EXPECT_EQ(m.typeOf("merged"), "float[N,S,64]");
  EXPECT_EQ(m.typeOf("flat"), "float[64,S,N]");
}

TEST(TensorInference, SizeAndIdentityCarryData) {
  auto m = run(21, "float[N, 3] x", R"(
      n = Size(x)
      one = Constant <value_ints = [1]> ()
      v = Reshape(n, one)
      w = Identity(v)
      y = Reshape(x, w)
  )");
  EXPECT_EQ(m.typeOf("n"), "int64[]");
  EXPECT_EQ(m.typeOf("w"), "int64[1]");
  EXPECT_EQ(m.typeOf("y"), "float[3*N]");
}

TEST(TensorInference, GatherPicksNegativeIndicesAndShapes) {
  auto m = run(13, "float[N, S, 8] x, int64[2, 5] idx, float[N, 8] x2", R"(
      shape = Shape(x)
      picks = Constant <value_ints = [-1, 0]> ()
      picked = Gather(shape, picks)
      y = Reshape(x2, picked)
      g = Gather <axis = 1> (x, idx)
      bad = Constant <value_ints = [3]> ()
  )");
  EXPECT_EQ(m.typeOf("picked"), "int64[2]");
  EXPECT_EQ(m.typeOf("y"), "float[8,N]");
  EXPECT_EQ(m.typeOf("g"), "float[N,2,5,8]");
}

TEST(TensorInference, GatherIndexOutOfRangeIsX5) {
  auto m = run(13, "float[N, S] x", R"(
      shape = Shape(x)
      three = Constant <value_ints = [3]> ()
      y = Gather(shape, three)
  )");
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(TensorInference, SliceOnDataAndSymbolicDims) {
  auto m = run(13, "float[N, S, 8] x", R"(
      shape = Shape(x)
      s0 = Constant <value_ints = [0]> ()
      e2 = Constant <value_ints = [2]> ()
      head = Slice(shape, s0, e2)
      y = Reshape(x, head)
      start = Constant <value_ints = [1, -3]> ()
      end = Constant <value_ints = [9223372036854775807, -1]> ()
      axes = Constant <value_ints = [1, 2]> ()
      z = Slice(x, start, end, axes)
      rs = Constant <value_ints = [-1]> ()
      re = Constant <value_ints = [-9223372036854775807]> ()
      ra = Constant <value_ints = [0]> ()
      step = Constant <value_ints = [-1]> ()
      r = Slice(x, rs, re, ra, step)
      ks = Constant <value_ints = [1]> ()
      ke = Constant <value_ints = [7]> ()
      ka = Constant <value_ints = [2]> ()
      kst = Constant <value_ints = [2]> ()
      k = Slice(x, ks, ke, ka, kst)
  )");
  EXPECT_EQ(m.typeOf("head"), "int64[2]");
  EXPECT_EQ(m.typeOf("y"), "float[N,S]");
  EXPECT_EQ(m.typeOf("z"), "float[N,S-1,2]");
  EXPECT_EQ(m.typeOf("r"), "float[N,S,8]");
  EXPECT_EQ(m.typeOf("k"), "float[N,S,3]");
}

TEST(TensorInference, Slice1TakesAttributesAndZeroStepFails) {
  auto m = run(9, "float[4, 10] x", "y = Slice <starts = [2], ends = [-1], axes = [1]> (x)");
  EXPECT_EQ(m.typeOf("y"), "float[4,7]");
  auto bad = run(13, "float[4, 10] x", R"(
      s = Constant <value_ints = [0]> ()
      st = Constant <value_ints = [0]> ()
      y = Slice(x, s, s, s, st)
  )");
  EXPECT_TRUE(bad.has("X5")) << bad.diagnostics();
}

TEST(TensorInference, ConcatSumsTheAxisAndRejectsOtherMismatches) {
  auto m = run(13, "float[N, 3] a, float[M, 3] b", "y = Concat <axis = 0> (a, b, a)");
  EXPECT_EQ(m.typeOf("y"), "float[2*N+M,3]");
  auto bad = run(13, "float[2, 3] a, float[2, 4] b", "y = Concat <axis = 0> (a, b)");
  EXPECT_TRUE(bad.has("X5")) << bad.diagnostics();
}

TEST(TensorInference, SqueezeAndUnsqueezeByVersion) {
  auto m = run(11, "float[N, 1, 3] x", R"(
      a = Squeeze <axes = [1]> (x)
      b = Unsqueeze <axes = [0, -1]> (x)
      c = Squeeze(x)
  )");
  EXPECT_EQ(m.typeOf("a"), "float[N,3]");
  EXPECT_EQ(m.typeOf("b"), "float[1,N,1,3,1]");
  EXPECT_EQ(m.typeOf("c"), "float");  // N might be 1
  auto v13 = run(13, "float[N, 1, 3] x", R"(
      axes = Constant <value_ints = [1]> ()
      a = Squeeze(x, axes)
      b = Unsqueeze(x, axes)
  )");
  EXPECT_EQ(v13.typeOf("a"), "float[N,3]");
  EXPECT_EQ(v13.typeOf("b"), "float[N,1,1,3]");
  auto bad = run(13, "float[N, 2, 3] x", R"(
      axes = Constant <value_ints = [1]> ()
      a = Squeeze(x, axes)
  )");
  EXPECT_TRUE(bad.has("X5")) << bad.diagnostics();
}

TEST(TensorInference, CastKeepsIntegerDataOnly) {
  auto m = run(21, "float[N, S] x", R"(
      shape = Shape(x)
      as32 = Cast <to = 6> (shape)
      back = Cast <to = 7> (as32)
      y = Reshape(x, back)
      f = Cast <to = 1> (shape)
      g = Cast <to = 7> (f)
      z = Reshape(x, g)
  )");
  EXPECT_EQ(m.typeOf("as32"), "int32[2]");
  EXPECT_EQ(m.typeOf("y"), "float[N,S]");
  EXPECT_EQ(m.typeOf("f"), "float[2]");
  EXPECT_EQ(m.typeOf("z"), "float[?,?]");
  auto v1 = run(1, "float[2, 3] x", "y = Cast <to = \"INT64\"> (x)");
  EXPECT_EQ(v1.typeOf("y"), "int64[2,3]");
}

TEST(TensorInference, TilePadAndTranspose) {
  auto m = run(13, "float[N, 3] x", R"(
      reps = Constant <value_ints = [2, 1]> ()
      t = Tile(x, reps)
      pads = Constant <value_ints = [1, 0, 1, 2]> ()
      p = Pad(x, pads)
      tr = Transpose(x)
  )");
  EXPECT_EQ(m.typeOf("t"), "float[2*N,3]");
  EXPECT_EQ(m.typeOf("p"), "float[N+2,5]");
  EXPECT_EQ(m.typeOf("tr"), "float[3,N]");
  auto v2 = run(2, "float[N, 3] x", "p = Pad <pads = [0, 1, 0, 1]> (x)");
  EXPECT_EQ(v2.typeOf("p"), "float[N,5]");
  auto v18 = run(18, "float[N, 3, 4] x", R"(
      pads = Constant <value_ints = [1, 1]> ()
      axes = Constant <value_ints = [-1]> ()
      p = Pad(x, pads, , axes)
  )");
  EXPECT_EQ(v18.typeOf("p"), "float[N,3,6]");
  auto bad = run(13, "float[N, 3] x", "t = Transpose <perm = [0, 0]> (x)");
  EXPECT_TRUE(bad.has("X5")) << bad.diagnostics();
}

TEST(TensorInference, SplitBySizesEquallyAndByNumOutputs) {
  auto m = run(18, "float[N, 10] x", R"(
      sizes = Constant <value_ints = [3, 7]> ()
      a, b = Split <axis = 1> (x, sizes)
      e, f, g = Split <axis = 1, num_outputs = 3> (x)
  )");
  EXPECT_EQ(m.typeOf("a"), "float[N,3]");
  EXPECT_EQ(m.typeOf("b"), "float[N,7]");
  EXPECT_EQ(m.typeOf("e"), "float[N,4]");
  EXPECT_EQ(m.typeOf("g"), "float[N,2]");
  auto v13 = run(13, "float[N, 10] x", "c, d = Split <axis = 1> (x)");
  EXPECT_EQ(v13.typeOf("c"), "float[N,5]");
  auto v11 = run(11, "float[N, 10] x", "a, b = Split <axis = 1, split = [4, 5]> (x)");
  EXPECT_TRUE(v11.has("X5")) << v11.diagnostics();
}

TEST(TensorInference, Split18TakesExactlyOneOfSplitAndNumOutputs) {
  auto both = run(18, "float[6] x, int64[2] s", "a, b = Split <num_outputs = 2> (x, s)");
  EXPECT_TRUE(both.refused("both the split input and num_outputs are given")) << both.diagnostics();
  auto neither = run(18, "float[6] x", "a, b = Split (x)");
  EXPECT_TRUE(neither.refused("neither the split input nor num_outputs is given"))
      << neither.diagnostics();
  auto fine = run(18, "float[6] x", "a, b = Split <num_outputs = 2> (x)");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("a"), "float[3]");
}

TEST(TensorInference, ResizeByScalesSizesAndAspectPolicy) {
  auto m = run(19, "float[N, 3, 10, 20] x", R"(
      scales = Constant <value = float[4] {1.0, 1.0, 2.0, 0.5}> ()
      a = Resize(x, , scales)
      sizes = Constant <value_ints = [30, 30]> ()
      b = Resize <axes = [2, 3], keep_aspect_ratio_policy = "not_larger"> (x, , , sizes)
      c = Resize <axes = [2, 3]> (x, , , sizes)
  )");
  EXPECT_EQ(m.typeOf("a"), "float[N,3,20,10]");
  EXPECT_EQ(m.typeOf("b"), "float[N,3,15,30]");
  EXPECT_EQ(m.typeOf("c"), "float[N,3,30,30]");
  auto v10 = run(10, "float[N, 3, 5, 5] x", R"(
      scales = Constant <value = float[4] {1.0, 1.0, 1.5, 3.0}> ()
      y = Upsample(x, scales)
      z = Resize(x, scales)
  )");
  EXPECT_EQ(v10.typeOf("y"), "float[N,3,7,15]");
  EXPECT_EQ(v10.typeOf("z"), "float[N,3,7,15]");
}

TEST(TensorInference, ResizeTakesOneOfScalesAndSizesAndAKnownPolicy) {
  auto both = run(19, "float[1, 1, 4, 4] x, float[4] sc, int64[4] sz", "y = Resize (x, , sc, sz)");
  EXPECT_TRUE(both.refused("both scales and sizes are given")) << both.diagnostics();
  auto neither = run(13, "float[1, 1, 4, 4] x", "y = Resize (x)");
  EXPECT_TRUE(neither.refused("neither scales nor sizes is given")) << neither.diagnostics();
  auto policy = run(19, "float[1, 1, 4, 4] x, int64[4] sz",
                    R"(y = Resize <keep_aspect_ratio_policy = "bigger"> (x, , , sz))");
  EXPECT_TRUE(policy.refused("keep_aspect_ratio_policy 'bigger' is not one of"))
      << policy.diagnostics();
  auto scales = run(19, "float[1, 1, 4, 4] x, float[4] sc",
                    R"(y = Resize <keep_aspect_ratio_policy = "not_larger"> (x, , sc))");
  EXPECT_TRUE(scales.refused("with scales it must be stretch")) << scales.diagnostics();
  // An empty scales stands for none, and version 11 takes both.
  auto fine = run(19, "float[1, 1, 4, 4] x", R"(
      empty = Constant <value = float[0] {}> ()
      sizes = Constant <value_ints = [1, 1, 8, 8]> ()
      y = Resize (x, , empty, sizes))");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[1,1,8,8]");
  auto v11 = run(11, "float[1, 1, 4, 4] x, float[0] roi, float[4] sc, int64[4] sz",
                 "y = Resize (x, roi, sc, sz)");
  EXPECT_FALSE(v11.has("X5")) << v11.diagnostics();
}

TEST(TensorInference, SpaceDepthAndGatherFamilies) {
  auto m = run(13, "float[N, 8, 4, 6] x, int64[N, 2, 2] idx, int64[N, 3, 4, 6] ie", R"(
      d = DepthToSpace <blocksize = 2> (x)
      s = SpaceToDepth <blocksize = 2> (x)
      nd = GatherND <batch_dims = 1> (x, idx)
      ge = GatherElements <axis = 1> (x, ie)
      sc = ScatterElements(x, ie, ie)
      nz = NonZero(x)
  )");
  EXPECT_EQ(m.typeOf("d"), "float[N,2,8,12]");
  EXPECT_EQ(m.typeOf("s"), "float[N,32,2,3]");
  EXPECT_EQ(m.typeOf("nd"), "float[N,2,6]");
  EXPECT_EQ(m.typeOf("ge"), "float[N,3,4,6]");
  EXPECT_EQ(m.typeOf("sc"), "float[N,8,4,6]");
  EXPECT_EQ(m.typeOf("nz"), "int64[4,?]");
  auto bad = run(13, "float[N, 6, 4, 6] x", "d = DepthToSpace <blocksize = 2> (x)");
  EXPECT_TRUE(bad.has("X5")) << bad.diagnostics();
}

TEST(TensorInference, OneHotTakesOneDepthAndTwoValues) {
  // The inputs of `y = OneHot (i, d, v)` and the refusal they get.
  for (auto [inputs, refusal] : {
           std::pair{"int64[3] i, int64[2] d, float[2] v",
                     "depth holds 2 numbers; OneHot takes one"},
           std::pair{"int64[3] i, int64[1, 1] d, float[2] v",
                     "depth has rank 2; OneHot needs rank 0 or 1"},
           std::pair{"int64[3] i, int64 d, float[3] v", "values holds 3 numbers; OneHot takes two"},
           std::pair{"int64[3] i, int64 d, float[1, 2] v",
                     "values has rank 2; OneHot needs a vector (rank 1)"},
           std::pair{"int64 i, int64 d, float[2] v",
                     "indices has rank 0; OneHot needs rank 1 or more"},
       }) {
    auto bad = run(11, inputs, "y = OneHot (i, d, v)");
    EXPECT_TRUE(bad.refused(refusal)) << inputs << "\n" << bad.diagnostics();
  }
  auto fine = run(11, "int64[3] i, int64[1] d, float[2] v", "y = OneHot (i, d, v)");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[3,?]");
}

TEST(TensorInference, ReverseSequenceAndTriluRanks) {
  auto input = run(10, "float[4] x, int64[4] l", "y = ReverseSequence (x, l)");
  EXPECT_TRUE(input.refused("input has rank 1; ReverseSequence needs rank 2 or more"))
      << input.diagnostics();
  auto lens = run(10, "float[4, 2] x, int64[2, 1] l", "y = ReverseSequence (x, l)");
  EXPECT_TRUE(lens.refused("sequence_lens has rank 2; ReverseSequence needs a vector"))
      << lens.diagnostics();
  auto trilu = run(14, "float[4] x", "y = Trilu (x)");
  EXPECT_TRUE(trilu.refused("input has rank 1; Trilu needs rank 2 or more")) << trilu.diagnostics();
  auto fine = run(14, "float[T, B, 3] x, int64[B] l", R"(
      y = ReverseSequence (x, l)
      t = Trilu (x))");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[T,B,3]");
  EXPECT_EQ(fine.typeOf("t"), "float[T,B,3]");
}

TEST(TensorInference, TensorScatterUpdateFitsTheCache) {
  // The inputs and the node, and the refusal they get.
  for (auto [inputs, node, refusal] : {
           std::tuple{"float[1, 4, 8] c, float[1, 4] u", "y = TensorScatter (c, u)",
                      "update has rank 2, past_cache rank 3"},
           std::tuple{"float[1, 4, 8] c, float[1, 2, 7] u", "y = TensorScatter <axis = 1> (c, u)",
                      "update has 7 in dimension 2, past_cache 8"},
           std::tuple{"float[1, 4, 8] c, float[1, 2, 8] u", "y = TensorScatter <axis = 0> (c, u)",
                      "axis 0 does not name an axis after the batch axis"},
           std::tuple{"float[1, 4, 8] c, float[1, 2, 8] u, int64[1, 1] w",
                      "y = TensorScatter <axis = 1> (c, u, w)",
                      "write_indices has rank 2; TensorScatter needs a vector"},
           std::tuple{"float[1, 4, 8] c, float[1, 2, 8] u, int64[2] w",
                      "y = TensorScatter <axis = 1> (c, u, w)",
                      "write_indices has 2 entries for a batch of 1"},
       }) {
    auto bad = run(24, inputs, node);
    EXPECT_TRUE(bad.refused(refusal)) << node << "\n" << bad.diagnostics();
  }
  auto fine = run(24, "float[B, 4, 8] c, float[B, 2, 8] u, int64[B] w",
                  "y = TensorScatter <axis = 1> (c, u, w)");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[B,4,8]");
}

TEST(TensorInference, WhereOneHotUniqueCompressTrilu) {
  auto m = run(11, "bool[N, 1] c, float[1, 5] a, float[5] b, int64[N] i, float[N, 3] x", R"(
      w = Where(c, a, b)
      depth = Constant <value_int = 10> ()
      values = Constant <value_floats = [0.0, 1.0]> ()
      o = OneHot <axis = 0> (i, depth, values)
      u, ui, uinv, uc = Unique(x)
      ua, uai, uainv, uac = Unique <axis = 1> (x)
      cond = Constant <value_ints = [1, 0, 1]> ()
      k = Compress <axis = 1> (x, c)
  )");
  EXPECT_EQ(m.typeOf("w"), "float[N,5]");
  EXPECT_EQ(m.typeOf("o"), "float[10,N]");
  EXPECT_EQ(m.typeOf("u"), "float[?]");
  EXPECT_EQ(m.typeOf("uinv"), "int64[3*N]");
  EXPECT_EQ(m.typeOf("ua"), "float[N,?]");
  EXPECT_EQ(m.typeOf("uainv"), "int64[3]");
  EXPECT_EQ(m.typeOf("k"), "float[N,?]");
}

TEST(TensorInference, GridSampleAffineGridCenterCropPadBitCast) {
  auto m = run(26, "float[N, 3, 8, 8] x, float[N, 5, 6, 2] grid, float[N, 2, 3] theta", R"(
      gs = GridSample(x, grid)
      size = Constant <value_ints = [2, 3, 16, 24]> ()
      ag = AffineGrid(theta, size)
      crop = Constant <value_ints = [4, 10]> ()
      cp = CenterCropPad <axes = [2, 3]> (x, crop)
      bc = BitCast <to = 6> (x)
      inf = IsInf(x)
  )");
  EXPECT_EQ(m.typeOf("gs"), "float[N,3,5,6]");
  EXPECT_EQ(m.typeOf("ag"), "float[2,16,24,2]");
  EXPECT_EQ(m.typeOf("cp"), "float[N,3,4,10]");
  EXPECT_EQ(m.typeOf("bc"), "int32[N,3,8,8]");
  EXPECT_EQ(m.typeOf("inf"), "bool[N,3,8,8]");
  auto bad = run(26, "float[2] x", "y = BitCast <to = 7> (x)");
  EXPECT_TRUE(bad.has("X5")) << bad.diagnostics();
}

}  // namespace
}  // namespace onyx
