// Shape inference rules of the math family (src/ops/math): one case per rule and version
// group, symbolic dims where the operator keeps them, and the cases the rules refuse (X5).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>

#include "support/infer_testing.h"

namespace onyx {
namespace {

using testing::InferredText;
using testing::inferText;

// A model importing the default domain at `opset` whose graph is `signature { body }`.
InferredText inferAt(int opset, const std::string& signature, const std::string& body) {
  return inferText("<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" +
                   "g " + signature + " {\n" + body + "\n}");
}

void expectClean(const InferredText& m) {
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
}

TEST(MathInference, UnaryOperatorsKeepTheShape) {
  for (const char* op : {"Abs", "Sqrt", "Tanh", "Sigmoid", "Erf", "Gelu", "Softsign", "Clip",
                         "HardSwish", "Mish", "Round", "Sign"}) {
    auto m = inferAt(21, "(float[N, 3] x) => (y)", std::string("y = ") + op + "(x)");
    EXPECT_EQ(m.typeOf("y"), "float[N,3]") << op;
    expectClean(m);
  }
  auto legacy = inferAt(1, "(float[N, 3] x) => (y)", "y = Exp(x)");
  EXPECT_EQ(legacy.typeOf("y"), "float[N,3]");
  // A Reshape to a target of unknown length has unknown rank.
  auto unknown = inferAt(21, "(float[4] x0, int64[K] s) => (y)", "x = Reshape(x0, s)  y = Neg(x)");
  EXPECT_EQ(unknown.typeOf("y"), "float");
}

TEST(MathInference, ClipWithBoundsKeepsTheShape) {
  auto m = inferAt(13, "(float[N, 3] x, float[] lo, float[] hi) => (y)", "y = Clip(x, lo, hi)");
  EXPECT_EQ(m.typeOf("y"), "float[N,3]");
  auto six = inferAt(6, "(float[N, 3] x) => (y)", "y = Clip <min = 0.0, max = 6.0> (x)");
  EXPECT_EQ(six.typeOf("y"), "float[N,3]");
}

TEST(MathInference, BinaryArithmeticBroadcasts) {
  for (const char* op : {"Sub", "Mul", "Div", "Pow", "Mod"}) {
    auto m = inferAt(14, "(int64[N, 1, 4] a, int64[5, 1] b) => (y)",
                     std::string("y = ") + op + "(a, b)");
    EXPECT_EQ(m.typeOf("y"), "int64[N,5,4]") << op;
    expectClean(m);
  }
  auto fails = inferAt(14, "(float[2, 3] a, float[4] b) => (y)", "y = Mul(a, b)");
  EXPECT_TRUE(fails.has("X5")) << fails.diagnostics();
}

TEST(MathInference, LegacyBroadcastTakesTheFirstInputsShape) {
  auto m = inferAt(6, "(float[N, 3, 4] a, float[3] b) => (y)",
                   "y = Mul <broadcast = 1, axis = 1> (a, b)");
  EXPECT_EQ(m.typeOf("y"), "float[N,3,4]");
  expectClean(m);
  auto pow = inferAt(1, "(float[N, 3] a, float[3] b) => (y)", "y = Pow <broadcast = 1> (a, b)");
  EXPECT_EQ(pow.typeOf("y"), "float[N,3]");
  auto max = inferAt(6, "(float[N, 3] a, float[N, 3] b) => (y)", "y = Max(a, b)");
  EXPECT_EQ(max.typeOf("y"), "float[N,3]");
}

TEST(MathInference, ArithmeticPropagatesShapeValues) {
  auto m = inferAt(21, "(float[N, S, 8] x) => (y, z)", R"(
    s = Shape(x)
    two = Constant <value_ints = [2, 1, 4]> ()
    doubled = Mul(s, two)
    halved = Div(doubled, two)
    y = Reshape(x, halved)
    ones = Constant <value = float[1] {1.0}> ()
    z = Expand(ones, doubled))");
  EXPECT_EQ(m.typeOf("y"), "float[N,S,8]");
  EXPECT_EQ(m.typeOf("z"), "float[2*N,S,32]");
  expectClean(m);
}

TEST(MathInference, VariadicOperatorsBroadcastAllInputs) {
  for (const char* op : {"Max", "Min", "Mean", "Sum"}) {
    auto m = inferAt(13, "(float[N, 1] a, float[4] b, float[1, 1, 1] c) => (y)",
                     std::string("y = ") + op + "(a, b, c)");
    EXPECT_EQ(m.typeOf("y"), "float[1,N,4]") << op;
    expectClean(m);
  }
  auto fails = inferAt(13, "(float[3] a, float[2] b, float[3] c) => (y)", "y = Sum(a, b, c)");
  EXPECT_TRUE(fails.has("X5"));
}

TEST(MathInference, PReluHasTheShapeOfX) {
  auto m = inferAt(16, "(float[N, 3, 8] x, float[3, 1] slope) => (y)", "y = PRelu(x, slope)");
  EXPECT_EQ(m.typeOf("y"), "float[N,3,8]");
}

TEST(MathInference, SoftmaxFamilyChecksTheAxis) {
  for (const char* op : {"Softmax", "LogSoftmax", "Hardmax"}) {
    auto m = inferAt(13, "(float[N, 10] x) => (y)", std::string("y = ") + op + "(x)");
    EXPECT_EQ(m.typeOf("y"), "float[N,10]") << op;
    auto bad = inferAt(13, "(float[N, 10] x) => (y)", std::string("y = ") + op + " <axis = 2> (x)");
    EXPECT_TRUE(bad.has("X5")) << op;
  }
  // Before 13 the input is coerced to 2-D at axis, which may be the rank.
  auto old = inferAt(11, "(float[N] x) => (y)", "y = Softmax(x)");
  EXPECT_EQ(old.typeOf("y"), "float[N]");
  expectClean(old);
  auto bad_old = inferAt(1, "(float[N] x) => (y)", "y = Softmax <axis = 2> (x)");
  EXPECT_TRUE(bad_old.has("X5"));
}

TEST(MathInference, CumulativeOperatorsKeepTheShapeAndCheckTheAxis) {
  auto m = inferAt(26, "(float[N, 4] x) => (y, z)", R"(
    axis = Constant <value_int = 1> ()
    y = CumSum(x, axis)
    z = CumProd(x, axis))");
  EXPECT_EQ(m.typeOf("y"), "float[N,4]");
  EXPECT_EQ(m.typeOf("z"), "float[N,4]");
  auto bad = inferAt(14, "(float[N, 4] x) => (y)", R"(
    axis = Constant <value_int = 2> ()
    y = CumSum(x, axis))");
  EXPECT_TRUE(bad.has("X5"));
}

TEST(MathInference, GemmHonoursTranspositions) {
  auto m = inferAt(13, "(float[K, M] a, float[N, K] b, float[N] c) => (y)",
                   "y = Gemm <transA = 1, transB = 1> (a, b, c)");
  EXPECT_EQ(m.typeOf("y"), "float[M,N]");
  auto plain =
      inferAt(7, "(float[M, 4] a, float[4, 5] b, float[M, 5] c) => (y)", "y = Gemm(a, b, c)");
  EXPECT_EQ(plain.typeOf("y"), "float[M,5]");
  auto one = inferAt(1, "(float[3, 4] a, float[4, 5] b, float[5] c) => (y)",
                     "y = Gemm <broadcast = 1> (a, b, c)");
  EXPECT_EQ(one.typeOf("y"), "float[3,5]");
  auto half = inferAt(11, "(float[12] a0, int64[K] s, float[4, 5] b) => (y)",
                      "a = Reshape(a0, s)  y = Gemm(a, b)");
  EXPECT_EQ(half.typeOf("y"), "float[?,5]");
  auto inner = inferAt(11, "(float[3, 4] a, float[5, 6] b) => (y)", "y = Gemm(a, b)");
  EXPECT_TRUE(inner.has("X5"));
  auto rank = inferAt(11, "(float[2, 3, 4] a, float[4, 6] b) => (y)", "y = Gemm(a, b)");
  EXPECT_TRUE(rank.has("X5"));
}

TEST(MathInference, MatMulVariants) {
  auto integer = inferAt(10, "(uint8[B, M, 4] a, uint8[4, 6] b) => (y)", "y = MatMulInteger(a, b)");
  EXPECT_EQ(integer.typeOf("y"), "int32[B,M,6]");
  auto q = inferAt(21, R"((uint8[M, 4] a, float[] sa, uint8[] za, int8[4, 6] b, float[] sb,
                          int8[] zb, float[] sy, uint8[] zy) => (y))",
                   "y = QLinearMatMul(a, sa, za, b, sb, zb, sy, zy)");
  EXPECT_EQ(q.typeOf("y"), "uint8[M,6]");
  auto bad = inferAt(10, "(uint8[M, 4] a, uint8[5, 6] b) => (y)", "y = MatMulInteger(a, b)");
  EXPECT_TRUE(bad.has("X5"));
}

TEST(MathInference, DetDropsTheMatrixAxes) {
  auto m = inferAt(22, "(float[B, N, N] x) => (y)", "y = Det(x)");
  EXPECT_EQ(m.typeOf("y"), "float[B]");
  auto matrix = inferAt(11, "(float[3, 3] x) => (y)", "y = Det(x)");
  EXPECT_EQ(matrix.typeOf("y"), "float[]");
  EXPECT_TRUE(inferAt(22, "(float[2, 3] x) => (y)", "y = Det(x)").has("X5"));
  EXPECT_TRUE(inferAt(22, "(float[3] x) => (y)", "y = Det(x)").has("X5"));
}

TEST(MathInference, ExpandBroadcastsWithTheShapeInput) {
  auto m = inferAt(13, "(float[N, 1] x) => (y)", R"(
    shape = Constant <value_ints = [2, 1, 6]> ()
    y = Expand(x, shape))");
  EXPECT_EQ(m.typeOf("y"), "float[2,N,6]");
  auto unknown_values =
      inferAt(8, "(float[3, 1] x, int64[3] shape) => (y)", "y = Expand(x, shape)");
  EXPECT_EQ(unknown_values.typeOf("y"), "float[?,3,?]");
  auto bad = inferAt(13, "(float[3, 2] x) => (y)", R"(
    shape = Constant <value_ints = [4, 2]> ()
    y = Expand(x, shape))");
  EXPECT_TRUE(bad.has("X5"));
}

TEST(MathInference, TopKReadsK) {
  auto attribute = inferAt(1, "(float[N, 10] x) => (v, i)", "v, i = TopK <k = 3> (x)");
  EXPECT_EQ(attribute.typeOf("v"), "float[N,3]");
  EXPECT_EQ(attribute.typeOf("i"), "int64[N,3]");
  auto input = inferAt(11, "(float[10, N] x) => (v, i)", R"(
    k = Constant <value_ints = [4]> ()
    v, i = TopK <axis = 0> (x, k))");
  EXPECT_EQ(input.typeOf("v"), "float[4,N]");
  EXPECT_EQ(input.typeOf("i"), "int64[4,N]");
  auto symbolic = inferAt(24, "(float[N, S] x, float[K] other) => (v, i)", R"(
    s = Shape(other)
    v, i = TopK(x, s))");
  EXPECT_EQ(symbolic.typeOf("v"), "float[N,K]");
  auto unknown = inferAt(10, "(float[N, 10] x, int64[1] k) => (v, i)", "v, i = TopK(x, k)");
  EXPECT_EQ(unknown.typeOf("v"), "float[N,?]");
  auto too_many = inferAt(11, "(float[N, 3] x) => (v, i)", R"(
    k = Constant <value_ints = [4]> ()
    v, i = TopK(x, k))");
  EXPECT_TRUE(too_many.has("X5"));
  EXPECT_TRUE(
      inferAt(1, "(float[N, 3] x) => (v, i)", "v, i = TopK <k = 1, axis = 2> (x)").has("X5"));
}

TEST(MathInference, TopKTakesKAsAVectorOfOne) {
  // onnx checks K where it is a constant: an initializer or a Constant's value tensor.
  for (auto [k, refusal] : {
           std::pair{"int64[2] {1, 2}", "K has 2 elements; TopK takes a vector of one element"},
           std::pair{"int64 {2}", "K has rank 0; TopK needs a vector (rank 1)"},
       }) {
    auto bad = inferAt(11, "(float[3, 5] x) => (v, i)",
                       std::string("k = Constant <value = ") + k + "> ()  v, i = TopK(x, k)");
    EXPECT_TRUE(bad.refused(refusal)) << k << "\n" << bad.diagnostics();
  }
  auto fine = inferAt(11, "(float[3, 5] x) => (v, i)", R"(
    k = Constant <value_ints = [2]> ()
    v, i = TopK(x, k))");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("v"), "float[3,2]");
}

TEST(MathInference, EinsumFollowsTheEquation) {
  auto m = inferAt(12, "(float[B, I, J] a, float[B, J, K] b) => (y)",
                   R"(y = Einsum <equation = "bij, bjk -> bik"> (a, b))");
  EXPECT_EQ(m.typeOf("y"), "float[B,I,K]");
  auto implicit = inferAt(12, "(float[3, 4] a, float[4, 5] b) => (y)",
                          R"(y = Einsum <equation = "ij,jk"> (a, b))");
  EXPECT_EQ(implicit.typeOf("y"), "float[3,5]");
  auto trace = inferAt(12, "(float[N, N] a) => (y)", R"(y = Einsum <equation = "ii"> (a))");
  EXPECT_EQ(trace.typeOf("y"), "float[]");
  auto ellipsis = inferAt(12, "(float[B, H, S, D] q, float[H, T, D] k) => (y)",
                          R"(y = Einsum <equation = "...sd,...td->...st"> (q, k))");
  EXPECT_EQ(ellipsis.typeOf("y"), "float[B,H,S,T]");
  auto sorted = inferAt(12, "(float[2, 3, 4] a) => (y)", R"(y = Einsum <equation = "kBa"> (a))");
  EXPECT_EQ(sorted.typeOf("y"), "float[3,4,2]");
  auto rank = inferAt(12, "(float[3, 4] a, float[4, 5] b) => (y)",
                      R"(y = Einsum <equation = "ijk,jk->i"> (a, b))");
  EXPECT_TRUE(rank.has("X5"));
  auto sizes = inferAt(12, "(float[3, 4] a, float[5, 6] b) => (y)",
                       R"(y = Einsum <equation = "ij,jk->ik"> (a, b))");
  EXPECT_TRUE(sizes.has("X5"));
  auto missing = inferAt(12, "(float[3, 4] a) => (y)", R"(y = Einsum <equation = "ij->iz"> (a))");
  EXPECT_TRUE(missing.has("X5"));
  auto operands = inferAt(12, "(float[3, 4] a) => (y)", R"(y = Einsum <equation = "ij,jk"> (a))");
  EXPECT_TRUE(operands.has("X5"));
}

TEST(MathInference, LossesReduceOrKeepThePerElementShape) {
  auto mean =
      inferAt(13, "(float[N, C] x, int64[N] t) => (y)", "y = NegativeLogLikelihoodLoss(x, t)");
  EXPECT_EQ(mean.typeOf("y"), "float[]");
  auto none = inferAt(22, "(float[N, C, 7] x, int64[N, D] t, float[C] w) => (y)",
                      R"(y = NegativeLogLikelihoodLoss <reduction = "none"> (x, t, w))");
  EXPECT_EQ(none.typeOf("y"), "float[N,7]");
  auto bad_rank = inferAt(12, "(float[N, C, 7] x, int64[N] t) => (y)",
                          R"(y = NegativeLogLikelihoodLoss <reduction = "none"> (x, t))");
  EXPECT_TRUE(bad_rank.has("X5"));
  auto bad_weight = inferAt(12, "(float[N, 3] x, int64[N] t, float[4] w) => (y)",
                            "y = NegativeLogLikelihoodLoss(x, t, w)");
  EXPECT_TRUE(bad_weight.has("X5"));

  auto sce = inferAt(13, "(float[N, C, D] x, int64[N, D] t) => (y, p)",
                     R"(y, p = SoftmaxCrossEntropyLoss <reduction = "none"> (x, t))");
  EXPECT_EQ(sce.typeOf("y"), "float[N,D]");
  EXPECT_EQ(sce.typeOf("p"), "float[N,C,D]");
  auto sum = inferAt(12, "(float[N, C] x, int64[N] t) => (y)",
                     R"(y = SoftmaxCrossEntropyLoss <reduction = "sum"> (x, t))");
  EXPECT_EQ(sum.typeOf("y"), "float[]");
  auto bad =
      inferAt(13, "(float[N, C] x, int64[N, 2] t) => (y)", "y = SoftmaxCrossEntropyLoss(x, t)");
  EXPECT_TRUE(bad.has("X5"));
}

TEST(MathInference, DftChangesTheSignalAxisAndTheComplexAxis) {
  auto full = inferAt(17, "(float[B, N, 1] x) => (y)", "y = DFT(x)");
  EXPECT_EQ(full.typeOf("y"), "float[B,N,2]");
  auto rfft = inferAt(17, "(float[B, 16, 1] x) => (y)", "y = DFT <onesided = 1> (x)");
  EXPECT_EQ(rfft.typeOf("y"), "float[B,9,2]");
  auto length = inferAt(20, "(float[B, 16, 2] x) => (y)", R"(
    n = Constant <value_int = 32> ()
    y = DFT(x, n))");
  EXPECT_EQ(length.typeOf("y"), "float[B,32,2]");
  auto irfft = inferAt(20, "(float[B, 9, 2] x) => (y)", R"(
    axis = Constant <value_int = 1> ()
    y = DFT <onesided = 1, inverse = 1> (x, , axis))");
  EXPECT_EQ(irfft.typeOf("y"), "float[B,16,1]");
  auto unknown_axis =
      inferAt(20, "(float[B, 16, 2] x, int64[] axis) => (y)", "y = DFT <onesided = 0> (x, , axis)");
  EXPECT_EQ(unknown_axis.typeOf("y"), "float[B,16,2]");
  EXPECT_TRUE(inferAt(17, "(float[B, 16, 2] x) => (y)", "y = DFT <onesided = 1> (x)").has("X5"));
  EXPECT_TRUE(inferAt(17, "(float[B, 16, 2] x) => (y)", "y = DFT <axis = 2> (x)").has("X5"));
  EXPECT_TRUE(inferAt(20, "(float[16] x) => (y)", "y = DFT(x)").has("X5"));
}

TEST(MathInference, StftFramesTheSignal) {
  auto m = inferAt(17, "(float[B, 128, 1] signal, float[16] window) => (y)", R"(
    step = Constant <value_int = 8> ()
    y = STFT(signal, step, window))");
  EXPECT_EQ(m.typeOf("y"), "float[B,15,9,2]");
  auto length = inferAt(17, "(float[2, 100, 1] signal) => (y)", R"(
    step = Constant <value_int = 10> ()
    n = Constant <value_int = 20> ()
    y = STFT <onesided = 0> (signal, step, , n))");
  EXPECT_EQ(length.typeOf("y"), "float[2,9,20,2]");
  auto unknown =
      inferAt(17, "(float[B, L, 1] signal, int64[] step) => (y)", "y = STFT(signal, step)");
  EXPECT_EQ(unknown.typeOf("y"), "float[B,?,?,2]");
  auto mismatch = inferAt(17, "(float[B, 128, 1] signal, float[16] window) => (y)", R"(
    step = Constant <value_int = 8> ()
    n = Constant <value_int = 20> ()
    y = STFT(signal, step, window, n))");
  EXPECT_TRUE(mismatch.has("X5"));
}

TEST(MathInference, WindowsAndMelWeightMatrixTakeTheirTypeFromAnAttribute) {
  auto hann = inferAt(17, "() => (y)", R"(
    n = Constant <value_int = 10> ()
    y = HannWindow(n))");
  EXPECT_EQ(hann.typeOf("y"), "float[10]");
  auto hamming = inferAt(17, "(int64[] n) => (y)", "y = HammingWindow <output_datatype = 11> (n)");
  EXPECT_EQ(hamming.typeOf("y"), "double[?]");
  auto blackman = inferAt(17, "(float[W] x) => (y)", R"(
    s = Shape(x)
    y = BlackmanWindow <output_datatype = 10> (s))");
  EXPECT_EQ(blackman.typeOf("y"), "float16[W]");
  auto mel = inferAt(17, "(float[] lo, float[] hi) => (y)", R"(
    bins = Constant <value_int = 40> ()
    dft = Constant <value_int = 512> ()
    rate = Constant <value_int = 16000> ()
    y = MelWeightMatrix(bins, dft, rate, lo, hi))");
  EXPECT_EQ(mel.typeOf("y"), "float[257,40]");
  EXPECT_TRUE(
      inferAt(17, "(int64[] n) => (y)", "y = HannWindow <output_datatype = 0> (n)").has("X5"));
}

TEST(MathInference, SignalLengthsAndAxesAreScalars) {
  // Where they are constants, as onnx checks them.
  for (auto [opset, signature, body, refusal] : {
           std::tuple{20, "(float[2, 8, 1] x) => (y)",
                      "a = Constant <value = int64[1] {1}> ()  y = DFT(x, , a)",
                      "axis has rank 1; DFT needs a scalar"},
           std::tuple{20, "(float[2, 8, 1] x) => (y)",
                      "n = Constant <value = int64[1] {8}> ()  y = DFT(x, n)",
                      "dft_length has rank 1; DFT needs a scalar"},
           std::tuple{17, "() => (y)", "n = Constant <value = int64[1] {10}> ()  y = HannWindow(n)",
                      "size has rank 1; HannWindow needs a scalar"},
           std::tuple{17, "() => (y)", "n = Constant <value = int64 {0}> ()  y = HannWindow(n)",
                      "size is 0; a window has 1 element or more"},
           std::tuple{17, "(int64 dft, int64 rate, float lo, float hi) => (y)",
                      "bins = Constant <value = int64[1] {40}> ()"
                      "  y = MelWeightMatrix(bins, dft, rate, lo, hi)",
                      "num_mel_bins has rank 1; MelWeightMatrix needs a scalar"},
           std::tuple{17, "(float[1, 64, 1] s, int64 step) => (y)",
                      "length = Constant <value = int64[1] {16}> ()  y = STFT(s, step, , length)",
                      "frame_length has rank 1; STFT needs a scalar"},
       }) {
    auto bad = inferAt(opset, signature, body);
    EXPECT_TRUE(bad.refused(refusal)) << body << "\n" << bad.diagnostics();
  }
  auto fine = inferAt(20, "(float[2, 8, 1] x) => (y)", R"(
    a = Constant <value_int = 1> ()
    n = Constant <value_int = 8> ()
    y = DFT(x, n, a))");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[2,8,2]");
}

TEST(MathInference, SwiGluNeedsOneShape) {
  auto m = inferAt(28, "(float[N, 8] a, float[4, D] b) => (y)", "y = SwiGLU(a, b)");
  EXPECT_EQ(m.typeOf("y"), "float[4,8]");
  EXPECT_TRUE(inferAt(28, "(float[N, 8] a, float[N, 4] b) => (y)", "y = SwiGLU(a, b)").has("X5"));
  EXPECT_TRUE(inferAt(28, "(float[8] a, float[N, 8] b) => (y)", "y = SwiGLU(a, b)").has("X5"));
}

// Out-of-range and absurd attribute values give a diagnostic or an unknown shape, never a
// crash or a wrong shape.
TEST(MathInference, AbsurdAttributesAreRefusedOrIgnored) {
  EXPECT_TRUE(inferText(R"(
    <ir_version: 10, opset_import: ["" : 13]>
    g (float[N, 3] x) => (y) { y = Softmax <axis = -9223372036854775808> (x) })")
                  .has("X5"));
  EXPECT_TRUE(inferText(R"(
    <ir_version: 10, opset_import: ["" : 11]>
    g (float[N, 3] x) => (v, i) { k = Constant <value_ints = [1]> ()
                                  v, i = TopK <axis = 9223372036854775807> (x, k) })")
                  .has("X5"));
  EXPECT_TRUE(inferText(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (float[1, 8, 1] x) => (y) { y = DFT <axis = -9223372036854775808> (x) })")
                  .has("X5"));
  EXPECT_TRUE(inferText(R"(
    <ir_version: 10, opset_import: ["" : 17]>
    g (int64[] n) => (y) { y = HannWindow <output_datatype = 9223372036854775807> (n) })")
                  .has("X5"));
  auto reduction = inferText(R"(
    <ir_version: 10, opset_import: ["" : 13]>
    g (float[N, 3] x, int64[N] t) => (y) {
      y = NegativeLogLikelihoodLoss <reduction = "bogus"> (x, t) })");
  EXPECT_EQ(reduction.typeOf("y"), "float");
  auto empty = inferText(R"(
    <ir_version: 10, opset_import: ["" : 12]>
    g (float[] x) => (y) { y = Einsum <equation = ""> (x) })");
  EXPECT_EQ(empty.typeOf("y"), "float[]");
  EXPECT_TRUE(inferText(R"(
    <ir_version: 10, opset_import: ["" : 12]>
    g (float[2, 2] x) => (y) { y = Einsum <equation = "i.j"> (x) })")
                  .has("X5"));
  auto huge_k = inferText(R"(
    <ir_version: 10, opset_import: ["" : 1]>
    g (float[N, M] x) => (v, i) { v, i = TopK <k = 9223372036854775807> (x) })");
  EXPECT_EQ(huge_k.typeOf("v"), "float[N,9223372036854775807]");
}

}  // namespace
}  // namespace onyx
