// Shape rules of the ai.onnx.ml operators.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "support/infer_testing.h"

namespace onyx {
namespace {

using testing::inferText;

std::string model(const char* body) {
  return std::string(R"(<ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 5]>)") + body;
}

TEST(MlInference, ClassifiersGiveLabelsAndScores) {
  auto m = inferText(model(R"(
    g (float[N, 4] x, float[4] one) => (l, s, l2, s2, l3, s3, l4, s4) {
      l, s = ai.onnx.ml.LinearClassifier <classlabels_ints = [0, 1, 2],
          coefficients = [1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12.],
          intercepts = [0., 0., 0.]> (x)
      l2, s2 = ai.onnx.ml.LinearClassifier <classlabels_strings = ["no", "yes"],
          coefficients = [1., 2., 3., 4.], intercepts = [0.]> (one)
      l3, s3 = ai.onnx.ml.TreeEnsembleClassifier <classlabels_strings = ["a", "b", "c"]> (x)
      l4, s4 = ai.onnx.ml.SVMClassifier <classlabels_ints = [1, 2]> (x)
    })"));
  EXPECT_EQ(m.typeOf("l"), "int64[N]");
  EXPECT_EQ(m.typeOf("s"), "float[N,3]");
  EXPECT_EQ(m.typeOf("l2"), "string[1]");
  EXPECT_EQ(m.typeOf("s2"), "float[1,2]");
  EXPECT_EQ(m.typeOf("l3"), "string[N]");
  EXPECT_EQ(m.typeOf("s3"), "float[N,3]");
  EXPECT_EQ(m.typeOf("l4"), "int64[N]");
  EXPECT_EQ(m.typeOf("s4"), "float[N,?]");
}

TEST(MlInference, ClassifierOfRank3InputFails) {
  auto m = inferText(model(R"(
    g (float[2, 3, 4] x) => (l, s) {
      l, s = ai.onnx.ml.TreeEnsembleClassifier <classlabels_int64s = [0, 1]> (x)
    })"));
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(MlInference, Regressors) {
  auto m = inferText(model(R"(
    g (float[N, 4] x, double[N, 4] d) => (lin, svm, tree, ens) {
      lin = ai.onnx.ml.LinearRegressor <coefficients = [1., 2., 3., 4., 5., 6., 7., 8.],
                                        targets = 2> (x)
      svm = ai.onnx.ml.SVMRegressor (x)
      tree = ai.onnx.ml.TreeEnsembleRegressor <n_targets = 3> (x)
      ens = ai.onnx.ml.TreeEnsemble <leaf_targetids = [0, 1, 4]> (d)
    })"));
  EXPECT_EQ(m.typeOf("lin"), "float[N,2]");
  EXPECT_EQ(m.typeOf("svm"), "float[N,1]");
  EXPECT_EQ(m.typeOf("tree"), "float[N,3]");
  EXPECT_EQ(m.typeOf("ens"), "double[N,5]");
}

TEST(MlInference, TreeEnsembleListsAgreeWithTheNodesAndTheInput) {
  // One node, one leaf; `changes` is spliced into the attributes.
  auto tree = [](const std::string& input, const std::string& changes) {
    return inferText(model((R"(g ()" + input + R"( x) => (y) {
      y = ai.onnx.ml.TreeEnsemble <nodes_featureids = [0], nodes_modes = uint8[1] {0},
          nodes_truenodeids = [0], nodes_falsenodeids = [0], nodes_trueleafs = [1],
          nodes_falseleafs = [1], tree_roots = [0], )" +
                            changes + R"(> (x) })")
                               .c_str()));
  };
  for (auto [input, changes, refusal] : {
           std::tuple{"float[N, 3]",
                      "leaf_targetids = [0, 1], leaf_weights = float[1] {1.0}, "
                      "nodes_splits = float[1] {1.0}",
                      "leaf_targetids has 2 entries, leaf_weights 1"},
           std::tuple{"float[N, 3]",
                      "leaf_targetids = [0], leaf_weights = float[1] {1.0}, "
                      "nodes_splits = float[2] {1.0, 2.0}",
                      "nodes_featureids has 1 entries for the 2 nodes of nodes_splits"},
           std::tuple{"double[N, 3]",
                      "leaf_targetids = [0], leaf_weights = double[1] {1.0}, "
                      "nodes_splits = float[1] {1.0}",
                      "nodes_splits holds FLOAT but the input is DOUBLE"},
       }) {
    auto bad = tree(input, changes);
    EXPECT_TRUE(bad.refused(refusal)) << changes << "\n" << bad.diagnostics();
  }
  auto fine = tree("float[N, 3]",
                   "leaf_targetids = [0], leaf_weights = float[1] {1.0}, "
                   "nodes_splits = float[1] {1.0}");
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "float[N,1]");
}

TEST(MlInference, MappingsPairTheirKeysAndValues) {
  auto labels = inferText(model(R"(g (int64[N] x) => (y) {
    y = ai.onnx.ml.LabelEncoder <keys_int64s = [1, 2], values_strings = ["a"]> (x) })"));
  EXPECT_TRUE(labels.refused("keys_int64s has 2 keys, values_strings 1 values"))
      << labels.diagnostics();
  auto key_type = inferText(model(R"(g (string[N] x) => (y) {
    y = ai.onnx.ml.LabelEncoder <keys_int64s = [1], values_strings = ["a"]> (x) })"));
  EXPECT_TRUE(key_type.refused("the keys (keys_int64s) are INT64 but the input is STRING"))
      << key_type.diagnostics();
  auto fallback = inferText(model(R"(g (int64[N] x) => (y) {
    y = ai.onnx.ml.LabelEncoder <keys_int64s = [1], values_strings = ["a"],
                                 default_tensor = int64[1] {0}> (x) })"));
  EXPECT_TRUE(fallback.refused("default_tensor is INT64 but the values are STRING"))
      << fallback.diagnostics();
  auto cats = inferText(model(R"(g (int64[N] x) => (y) {
    y = ai.onnx.ml.CategoryMapper <cats_int64s = [1, 2], cats_strings = ["a"]> (x) })"));
  EXPECT_TRUE(cats.refused("cats_int64s has 2 entries, cats_strings 1")) << cats.diagnostics();
  auto zip = inferText(model(R"(g (float[2, 3, 4] x) => (y) {
    y = ai.onnx.ml.ZipMap <classlabels_int64s = [1, 2, 3]> (x) })"));
  EXPECT_TRUE(zip.refused("X has rank 3; ZipMap needs rank 1 or 2")) << zip.diagnostics();
  auto fine = inferText(model(R"(g (int64[N] x, float[N, 2] p) => (y, c, z) {
    y = ai.onnx.ml.LabelEncoder <keys_int64s = [1, 2], values_strings = ["a", "b"]> (x)
    c = ai.onnx.ml.CategoryMapper <cats_int64s = [1, 2], cats_strings = ["a", "b"]> (x)
    z = ai.onnx.ml.ZipMap <classlabels_int64s = [1, 2]> (p) })"));
  EXPECT_FALSE(fine.has("X5")) << fine.diagnostics();
  EXPECT_EQ(fine.typeOf("y"), "string[N]");
  EXPECT_EQ(fine.typeOf("c"), "string[N]");
}

TEST(MlInference, ElementwiseOperatorsKeepTheShape) {
  auto m = inferText(model(R"(
    g (int64[N, 3] x) => (b, i, n, s) {
      b = ai.onnx.ml.Binarizer (x)
      i = ai.onnx.ml.Imputer <imputed_value_int64s = [0]> (x)
      n = ai.onnx.ml.Normalizer (x)
      s = ai.onnx.ml.Scaler <offset = [0.], scale = [2.]> (x)
    })"));
  EXPECT_EQ(m.typeOf("b"), "int64[N,3]");
  EXPECT_EQ(m.typeOf("i"), "int64[N,3]");
  EXPECT_EQ(m.typeOf("n"), "float[N,3]");
  EXPECT_EQ(m.typeOf("s"), "float[N,3]");
}

TEST(MlInference, EncodersAndMappers) {
  auto m = inferText(model(R"(
    g (string[N] words, int64[N, 2] ids) => (hot, cat, back, enc, enc_f) {
      hot = ai.onnx.ml.OneHotEncoder <cats_strings = ["a", "b", "c"]> (words)
      cat = ai.onnx.ml.CategoryMapper <cats_int64s = [1, 2], cats_strings = ["a", "b"]> (words)
      back = ai.onnx.ml.CategoryMapper <cats_int64s = [1, 2], cats_strings = ["a", "b"]> (ids)
      enc = ai.onnx.ml.LabelEncoder <keys_strings = ["a"], values_int64s = [1]> (words)
      enc_f = ai.onnx.ml.LabelEncoder <keys_int64s = [1], values_floats = [0.5]> (ids)
    })"));
  EXPECT_EQ(m.typeOf("hot"), "float[N,3]");
  EXPECT_EQ(m.typeOf("cat"), "int64[N]");
  EXPECT_EQ(m.typeOf("back"), "string[N,2]");
  EXPECT_EQ(m.typeOf("enc"), "int64[N]");
  EXPECT_EQ(m.typeOf("enc_f"), "float[N,2]");
}

TEST(MlInference, LabelEncoderVersion1MapsStringsToIntegers) {
  auto m = inferText(R"(
    <ir_version: 10, opset_import: ["" : 21, "ai.onnx.ml" : 1]>
    g (string[N] words) => (ids) {
      ids = ai.onnx.ml.LabelEncoder <classes_strings = ["a", "b"]> (words)
    })");
  EXPECT_EQ(m.typeOf("ids"), "int64[N]");
}

TEST(MlInference, LabelEncoderWithoutValuesFails) {
  auto m = inferText(model(R"(
    g (string[N] words) => (ids) { ids = ai.onnx.ml.LabelEncoder <keys_strings = ["a"]> (words) })"));
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(MlInference, OneHotEncoderNeedsExactlyOneCategoryList) {
  auto m = inferText(model(R"(
    g (int64[N] x) => (y) { y = ai.onnx.ml.OneHotEncoder (x) })"));
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

TEST(MlInference, FeatureExtractionAndVectorizing) {
  auto m = inferText(model(R"(
    g (float[N, 5] x, int64[2] idx, int32[N, 2] a, double[N, 3] b) => (picked, joined) {
      picked = ai.onnx.ml.ArrayFeatureExtractor (x, idx)
      joined = ai.onnx.ml.FeatureVectorizer <inputdimensions = [2, 3]> (a, b)
    })"));
  EXPECT_EQ(m.typeOf("picked"), "float[N,2]");
  EXPECT_EQ(m.typeOf("joined"), "float[N,5]");
}

TEST(MlInference, MapsAndZipMap) {
  auto m = inferText(model(R"(
    g (map(int64, float) m1, map(string, double) m2, float[N, 2] scores) => (c, d, z, zi) {
      c = ai.onnx.ml.CastMap <cast_to = "TO_INT64"> (m1)
      d = ai.onnx.ml.DictVectorizer <string_vocabulary = ["a", "b"]> (m2)
      z = ai.onnx.ml.ZipMap <classlabels_strings = ["a", "b"]> (scores)
      zi = ai.onnx.ml.ZipMap <classlabels_int64s = [3, 4]> (scores)
    })"));
  EXPECT_EQ(m.typeOf("c"), "int64");
  EXPECT_EQ(m.typeOf("d"), "double");
  EXPECT_EQ(m.typeOf("z"), "seq(map(string, float))");
  EXPECT_EQ(m.typeOf("zi"), "seq(map(int64, float))");
}

TEST(MlInference, CastMapToAnUnknownTypeFails) {
  auto m = inferText(model(R"(
    g (map(int64, float) m1) => (c) { c = ai.onnx.ml.CastMap <cast_to = "TO_BYTES"> (m1) })"));
  EXPECT_TRUE(m.has("X5")) << m.diagnostics();
}

}  // namespace
}  // namespace onyx
