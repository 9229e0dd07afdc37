// A transformer block with symbolic batch N and sequence S, as exporters write it: the
// head split's shape computed from the input (Shape → Gather → Unsqueeze → Concat), then
// Reshape, Transpose, MatMul, Softmax, LayerNormalization, and the same attention through
// the Attention operator with a key/value cache. Every shape must come out exact and
// symbolic, with the sequence grown by the cache (S + P: terms in the order their symbols appear).
#include <gtest/gtest.h>

#include "support/infer_testing.h"

namespace onyx {
namespace {

using testing::inferText;

TEST(TransformerBlock, SymbolicShapesThroughExplicitAttention) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    block (float[N, S, 64] x, float[64, 64] wq, float[64, 64] wk, float[64, 64] wv,
           float[64] gamma, float[64] beta) => (y) {
      h = LayerNormalization <axis = -1> (x, gamma, beta)
      shape = Shape(h)
      zero = Constant <value_int = 0> ()
      one = Constant <value_int = 1> ()
      axes = Constant <value_ints = [0]> ()
      n = Gather <axis = 0> (shape, zero)
      s = Gather <axis = 0> (shape, one)
      n1 = Unsqueeze(n, axes)
      s1 = Unsqueeze(s, axes)
      heads = Constant <value_ints = [4, 16]> ()
      split = Concat <axis = 0> (n1, s1, heads)
      q = MatMul(h, wq)
      k = MatMul(h, wk)
      v = MatMul(h, wv)
      q4 = Reshape(q, split)
      k4 = Reshape(k, split)
      v4 = Reshape(v, split)
      qt = Transpose <perm = [0, 2, 1, 3]> (q4)
      kt = Transpose <perm = [0, 2, 3, 1]> (k4)
      vt = Transpose <perm = [0, 2, 1, 3]> (v4)
      scores = MatMul(qt, kt)
      probs = Softmax <axis = -1> (scores)
      context = MatMul(probs, vt)
      ct = Transpose <perm = [0, 2, 1, 3]> (context)
      minus_one = Constant <value_ints = [64]> ()
      merge = Concat <axis = 0> (n1, s1, minus_one)
      merged = Reshape(ct, merge)
      y = Add(x, merged)
    })");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
  EXPECT_EQ(m.typeOf("h"), "float[N,S,64]");
  EXPECT_EQ(m.typeOf("split"), "int64[4]");
  EXPECT_EQ(m.typeOf("q4"), "float[N,S,4,16]");
  EXPECT_EQ(m.typeOf("kt"), "float[N,4,16,S]");
  EXPECT_EQ(m.typeOf("scores"), "float[N,4,S,S]");
  EXPECT_EQ(m.typeOf("probs"), "float[N,4,S,S]");
  EXPECT_EQ(m.typeOf("context"), "float[N,4,S,16]");
  EXPECT_EQ(m.typeOf("merged"), "float[N,S,64]");
  EXPECT_EQ(m.typeOf("y"), "float[N,S,64]");
}

TEST(TransformerBlock, SymbolicShapesThroughTheAttentionOperatorWithACache) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 23]>
    block (float[N, S, 64] q, float[N, S, 64] k, float[N, S, 64] v,
           float[N, 4, P, 16] past_k, float[N, 4, P, 16] past_v) => (y, present_k, present_v) {
      y, present_k, present_v = Attention <q_num_heads = 4, kv_num_heads = 4>
          (q, k, v, , past_k, past_v)
    })");
  EXPECT_FALSE(m.result.diagnostics.hasErrors()) << m.diagnostics();
  EXPECT_EQ(m.typeOf("y"), "float[N,S,64]");
  EXPECT_EQ(m.typeOf("present_k"), "float[N,4,S+P,16]");
  EXPECT_EQ(m.typeOf("present_v"), "float[N,4,S+P,16]");
}

TEST(TransformerBlock, FlattenedBatchAndSequenceStayAProduct) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21]>
    g (float[N, S, 64] x) => (y, back) {
      flat = Constant <value_ints = [-1, 64]> ()
      y = Reshape(x, flat)
      shape = Shape(x)
      back = Reshape(y, shape)
    })");
  EXPECT_EQ(m.typeOf("y"), "float[N*S,64]");
  EXPECT_EQ(m.typeOf("back"), "float[N,S,64]");
}

}  // namespace
}  // namespace onyx
