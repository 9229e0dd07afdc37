// Well-known operator signatures, checked by hand against the ONNX operator changelog
// (docs/Changelog.md, docs/Changelog-ml.md of onnx at f7546912), and how nodes resolve to
// them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <string>

#include "onyx/ops/registry.h"
#include "onyx/ops/schema_text.h"

namespace onyx {
namespace {

// "X: T, W: T, B?: T"; a variadic is "name...: T (min+)", "(min+ mixed)" when heterogeneous.
std::string signature(std::initializer_list<FormalParameter> formals) {
  std::string text;
  for (const FormalParameter& formal : formals) {
    if (!text.empty()) text += ", ";
    text += formal.name;
    if (formal.option == ParameterOption::kOptional) text += "?";
    if (formal.option == ParameterOption::kVariadic) text += "...";
    text += std::string(": ") + formal.type;
    if (formal.option == ParameterOption::kVariadic) {
      text += " (" + std::to_string(formal.min_count) + "+" + (formal.homogeneous ? "" : " mixed") +
              ")";
    }
  }
  return text;
}

// "alpha: float = 1.0, body: graph!, pads: ints": ! marks a required attribute.
std::string attributes(const OpSchema& schema) {
  std::string text;
  for (const AttributeSpec& attribute : schema.attributes) {
    if (!text.empty()) text += ", ";
    text += std::string(attribute.name) + ": " + std::string(attributeKindName(attribute.kind));
    if (attribute.required) text += "!";
    if (attribute.has_default) text += " = " + attributeDefaultText(attribute);
  }
  return text;
}

// The types a constraint allows, sorted, in ONNX's notation.
std::set<std::string> typesOf(const OpSchema& schema, const char* constraint) {
  const TypeConstraint* found = schema.constraint(constraint);
  if (found == nullptr) return {"(no constraint " + std::string(constraint) + ")"};
  std::vector<std::string> names = typeSetNames(found->allowed);
  return {names.begin(), names.end()};
}

// tensor(e) for each element type name in `elements` ("float16 float double").
std::set<std::string> tensors(const std::string& elements) {
  std::set<std::string> names;
  std::istringstream in(elements);
  for (std::string element; in >> element;) names.insert("tensor(" + element + ")");
  return names;
}

std::vector<int> versionsOf(const char* domain, const char* op) {
  std::vector<int> versions;
  const Operator* found = findOperator(domain, op);
  if (found == nullptr) return versions;
  for (const OpSchema& schema : found->versions) versions.push_back(schema.since_version);
  return versions;
}

// The schema in force, asserted to exist by the caller through ASSERT_NE.
const OpSchema* at(const char* op, int64_t opset, const char* domain = "") {
  return findSchema(domain, op, opset);
}

TEST(Signatures, Conv) {
  EXPECT_EQ(versionsOf("", "Conv"), (std::vector<int>{1, 11, 22}));
  for (int opset : {1, 11, 22}) {
    const OpSchema* conv = at("Conv", opset);
    ASSERT_NE(conv, nullptr);
    EXPECT_EQ(conv->since_version, opset);
    EXPECT_EQ(signature(conv->inputs), "X: T, W: T, B?: T");
    EXPECT_EQ(signature(conv->outputs), "Y: T");
    EXPECT_EQ(attributes(*conv),
              "auto_pad: string = \"NOTSET\", dilations: ints, group: int = 1, kernel_shape: "
              "ints, pads: ints, strides: ints");
    EXPECT_EQ(conv->minInputs(), 2u);
    EXPECT_EQ(conv->maxInputs(), 3u);
  }
  EXPECT_EQ(typesOf(*at("Conv", 1), "T"), tensors("float16 float double"));
  EXPECT_EQ(typesOf(*at("Conv", 21), "T"), tensors("float16 float double"));
  EXPECT_EQ(typesOf(*at("Conv", 22), "T"), tensors("bfloat16 float16 float double"));
}

TEST(Signatures, Gemm13) {
  EXPECT_EQ(versionsOf("", "Gemm"), (std::vector<int>{1, 6, 7, 9, 11, 13}));
  const OpSchema* gemm = at("Gemm", 13);
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(signature(gemm->inputs), "A: T, B: T, C?: T");
  EXPECT_EQ(signature(gemm->outputs), "Y: T");
  EXPECT_EQ(attributes(*gemm),
            "alpha: float = 1.0, beta: float = 1.0, transA: int = 0, transB: int = 0");
  EXPECT_EQ(typesOf(*gemm, "T"),
            tensors("float16 float double uint32 uint64 int32 int64 bfloat16"));
}

TEST(Signatures, LayerNormalization17) {
  EXPECT_EQ(at("LayerNormalization", 16), nullptr);
  const OpSchema* norm = at("LayerNormalization", 17);
  ASSERT_NE(norm, nullptr);
  EXPECT_EQ(signature(norm->inputs), "X: T, Scale: T, B?: T");
  EXPECT_EQ(signature(norm->outputs), "Y: T, Mean?: U, InvStdDev?: U");
  EXPECT_EQ(norm->minOutputs(), 1u);
  EXPECT_EQ(norm->maxOutputs(), 3u);
  EXPECT_EQ(attributes(*norm), "axis: int = -1, epsilon: float = 1e-05, stash_type: int = 1");
  EXPECT_EQ(typesOf(*norm, "T"), tensors("float16 float double bfloat16"));
  EXPECT_EQ(typesOf(*norm, "U"), tensors("float bfloat16"));
  EXPECT_EQ(at("LayerNormalization", 28), norm);
}

TEST(Signatures, IfLoopScan) {
  const OpSchema* if1 = at("If", 1);
  ASSERT_NE(if1, nullptr);
  EXPECT_EQ(signature(if1->inputs), "cond: B");
  EXPECT_EQ(signature(if1->outputs), "outputs...: V (1+ mixed)");
  EXPECT_EQ(attributes(*if1), "else_branch: graph!, then_branch: graph!");
  EXPECT_EQ(typesOf(*if1, "B"), tensors("bool"));
  EXPECT_EQ(typesOf(*if1, "V").count("tensor(bfloat16)"), 0u);

  const OpSchema* if25 = at("If", 25);
  ASSERT_NE(if25, nullptr);
  EXPECT_EQ(if25->since_version, 25);
  std::set<std::string> v25 = typesOf(*if25, "V");
  // Every element type as a tensor, a sequence and an optional tensor (26 each); optional
  // sequences only of the 16 types IR 4 had.
  EXPECT_EQ(v25.size(), 94u);
  EXPECT_EQ(v25.count("optional(seq(tensor(float8e4m3fn)))"), 0u);
  for (const char* type : {"tensor(int2)", "tensor(float8e8m0)", "seq(tensor(bfloat16))",
                           "optional(tensor(float))", "optional(seq(tensor(string)))"}) {
    EXPECT_EQ(v25.count(type), 1u) << type;
  }

  // Loop: M and cond optional; v_initial takes at least one argument before opset 11.
  const OpSchema* loop1 = at("Loop", 1);
  const OpSchema* loop11 = at("Loop", 11);
  ASSERT_NE(loop1, nullptr);
  ASSERT_NE(loop11, nullptr);
  EXPECT_EQ(signature(loop1->inputs), "M?: I, cond?: B, v_initial...: V (1+ mixed)");
  EXPECT_EQ(signature(loop11->inputs), "M?: I, cond?: B, v_initial...: V (0+ mixed)");
  EXPECT_EQ(loop1->minInputs(), 3u);
  EXPECT_EQ(loop11->minInputs(), 2u);
  EXPECT_EQ(loop11->maxInputs(), OpSchema::kUnbounded);
  EXPECT_EQ(signature(loop11->outputs), "v_final_and_scan_outputs...: V (1+ mixed)");
  EXPECT_EQ(attributes(*loop11), "body: graph!");
  EXPECT_EQ(typesOf(*loop11, "I"), tensors("int64"));
  EXPECT_EQ(versionsOf("", "Loop"), (std::vector<int>{1, 11, 13, 16, 19, 21, 23, 24, 25}));

  // Scan 8 takes sequence_lens and `directions`; 9 drops both for the axes attributes.
  const OpSchema* scan8 = at("Scan", 8);
  const OpSchema* scan9 = at("Scan", 9);
  ASSERT_NE(scan8, nullptr);
  ASSERT_NE(scan9, nullptr);
  EXPECT_EQ(signature(scan8->inputs),
            "sequence_lens?: I, initial_state_and_scan_inputs...: V (1+ mixed)");
  EXPECT_EQ(attributes(*scan8), "body: graph!, directions: ints, num_scan_inputs: int!");
  EXPECT_EQ(signature(scan9->inputs), "initial_state_and_scan_inputs...: V (1+ mixed)");
  EXPECT_EQ(attributes(*scan9),
            "body: graph!, num_scan_inputs: int!, scan_input_axes: ints, scan_input_directions: "
            "ints, scan_output_axes: ints, scan_output_directions: ints");
  EXPECT_EQ(at("Scan", 7), nullptr);
}

TEST(Signatures, ResizeVersions) {
  EXPECT_EQ(versionsOf("", "Resize"), (std::vector<int>{10, 11, 13, 18, 19}));
  EXPECT_EQ(at("Resize", 9), nullptr);
  const OpSchema* r10 = at("Resize", 10);
  ASSERT_NE(r10, nullptr);
  EXPECT_EQ(signature(r10->inputs), "X: T, scales: tensor(float)");
  EXPECT_EQ(attributes(*r10), "mode: string = \"nearest\"");
  const OpSchema* r11 = at("Resize", 11);
  ASSERT_NE(r11, nullptr);
  EXPECT_EQ(signature(r11->inputs), "X: T1, roi: T2, scales: tensor(float), sizes?: tensor(int64)");
  EXPECT_EQ(r11->minInputs(), 3u);
  EXPECT_EQ(attributes(*r11),
            "coordinate_transformation_mode: string = \"half_pixel\", cubic_coeff_a: float = "
            "-0.75, exclude_outside: int = 0, extrapolation_value: float = 0.0, mode: string = "
            "\"nearest\", nearest_mode: string = \"round_prefer_floor\"");
  EXPECT_EQ(typesOf(*r11, "T2"), tensors("float16 float double"));
  const OpSchema* r19 = at("Resize", 19);
  ASSERT_NE(r19, nullptr);
  EXPECT_EQ(signature(r19->inputs),
            "X: T1, roi?: T2, scales?: tensor(float), sizes?: tensor(int64)");
  EXPECT_EQ(r19->minInputs(), 1u);
  EXPECT_EQ(r19->maxInputs(), 4u);
  EXPECT_EQ(attributes(*r19),
            "antialias: int = 0, axes: ints, coordinate_transformation_mode: string = "
            "\"half_pixel\", cubic_coeff_a: float = -0.75, exclude_outside: int = 0, "
            "extrapolation_value: float = 0.0, keep_aspect_ratio_policy: string = \"stretch\", "
            "mode: string = \"nearest\", nearest_mode: string = \"round_prefer_floor\"");
  // The literal type of `scales` is a constraint of its own.
  EXPECT_EQ(typesOf(*r19, "tensor(float)"), tensors("float"));
}

TEST(Signatures, CastVersions) {
  EXPECT_EQ(versionsOf("", "Cast"), (std::vector<int>{1, 6, 9, 13, 19, 21, 23, 24, 25}));
  const std::string base =
      "float16 float double int8 int16 int32 int64 uint8 uint16 uint32 "
      "uint64 bool";
  const std::string f8 = " float8e4m3fn float8e4m3fnuz float8e5m2 float8e5m2fnuz";
  struct Expected {
    int opset;
    const char* attributes;
    std::string elements;
  };
  const Expected expected[] = {
      {1, "to: string!", base},
      {6, "to: int!", base},
      {9, "to: int!", base + " string"},
      {13, "to: int!", base + " string bfloat16"},
      {19, "saturate: int = 1, to: int!", base + " string bfloat16" + f8},
      {21, "saturate: int = 1, to: int!", base + " string bfloat16" + f8 + " uint4 int4"},
      {23, "saturate: int = 1, to: int!",
       base + " string bfloat16" + f8 + " uint4 int4 float4e2m1"},
      {24, "round_mode: string = \"up\", saturate: int = 1, to: int!",
       base + " string bfloat16" + f8 + " uint4 int4 float4e2m1 float8e8m0"},
      {25, "round_mode: string = \"up\", saturate: int = 1, to: int!",
       base + " string bfloat16" + f8 + " uint4 int4 float4e2m1 float8e8m0 uint2 int2"},
  };
  for (const Expected& row : expected) {
    const OpSchema* cast = at("Cast", row.opset);
    ASSERT_NE(cast, nullptr) << row.opset;
    EXPECT_EQ(cast->since_version, row.opset);
    EXPECT_EQ(signature(cast->inputs), "input: T1");
    EXPECT_EQ(signature(cast->outputs), "output: T2");
    EXPECT_EQ(attributes(*cast), row.attributes) << row.opset;
    EXPECT_EQ(typesOf(*cast, "T1"), tensors(row.elements)) << row.opset;
    EXPECT_EQ(typesOf(*cast, "T2"), tensors(row.elements)) << row.opset;
  }
  EXPECT_EQ(at("Cast", 12)->since_version, 9);
}

TEST(Signatures, SplitMovesItsSizesFromAttributeToInput) {
  EXPECT_EQ(versionsOf("", "Split"), (std::vector<int>{1, 2, 11, 13, 18}));
  const OpSchema* s11 = at("Split", 11);
  const OpSchema* s13 = at("Split", 13);
  const OpSchema* s18 = at("Split", 18);
  ASSERT_NE(s11, nullptr);
  ASSERT_NE(s13, nullptr);
  ASSERT_NE(s18, nullptr);
  EXPECT_EQ(signature(s11->inputs), "input: T");
  EXPECT_EQ(attributes(*s11), "axis: int = 0, split: ints");
  EXPECT_EQ(signature(s13->inputs), "input: T, split?: tensor(int64)");
  EXPECT_EQ(attributes(*s13), "axis: int = 0");
  EXPECT_EQ(signature(s18->inputs), "input: T, split?: tensor(int64)");
  EXPECT_EQ(attributes(*s18), "axis: int = 0, num_outputs: int");
  EXPECT_EQ(signature(s18->outputs), "outputs...: T (1+)");
  EXPECT_EQ(s18->attribute("split"), nullptr);
  ASSERT_NE(s18->attribute("num_outputs"), nullptr);
  EXPECT_FALSE(s18->attribute("num_outputs")->has_default);
}

TEST(Signatures, ReduceSumTakesAxesAsAnInputFrom13) {
  EXPECT_EQ(versionsOf("", "ReduceSum"), (std::vector<int>{1, 11, 13}));
  const OpSchema* r11 = at("ReduceSum", 12);
  const OpSchema* r13 = at("ReduceSum", 13);
  ASSERT_NE(r11, nullptr);
  ASSERT_NE(r13, nullptr);
  EXPECT_EQ(r11->since_version, 11);
  EXPECT_EQ(signature(r11->inputs), "data: T");
  EXPECT_EQ(attributes(*r11), "axes: ints, keepdims: int = 1");
  EXPECT_EQ(signature(r13->inputs), "data: T, axes?: tensor(int64)");
  EXPECT_EQ(signature(r13->outputs), "reduced: T");
  EXPECT_EQ(attributes(*r13), "keepdims: int = 1, noop_with_empty_axes: int = 0");
  EXPECT_EQ(typesOf(*r13, "T"), tensors("uint32 uint64 int32 int64 float16 float double bfloat16"));
  // ReduceMean kept the attribute until 18.
  EXPECT_NE(at("ReduceMean", 17)->attribute("axes"), nullptr);
  EXPECT_EQ(at("ReduceMean", 18)->attribute("axes"), nullptr);
}

TEST(Signatures, TreeEnsembles) {
  EXPECT_EQ(versionsOf(kMlDomain, "TreeEnsembleRegressor"), (std::vector<int>{1, 3, 5}));
  const OpSchema* r3 = at("TreeEnsembleRegressor", 4, kMlDomain);
  ASSERT_NE(r3, nullptr);
  EXPECT_EQ(r3->since_version, 3);
  EXPECT_FALSE(r3->deprecated);
  EXPECT_EQ(signature(r3->inputs), "X: T");
  EXPECT_EQ(signature(r3->outputs), "Y: tensor(float)");
  EXPECT_EQ(attributes(*r3),
            "aggregate_function: string = \"SUM\", base_values: floats, base_values_as_tensor: "
            "tensor, n_targets: int, nodes_falsenodeids: ints, nodes_featureids: ints, "
            "nodes_hitrates: floats, nodes_hitrates_as_tensor: tensor, "
            "nodes_missing_value_tracks_true: ints, nodes_modes: strings, nodes_nodeids: ints, "
            "nodes_treeids: ints, nodes_truenodeids: ints, nodes_values: floats, "
            "nodes_values_as_tensor: tensor, post_transform: string = \"NONE\", target_ids: "
            "ints, target_nodeids: ints, target_treeids: ints, target_weights: floats, "
            "target_weights_as_tensor: tensor");
  EXPECT_EQ(typesOf(*r3, "T"), tensors("float double int64 int32"));
  // Deprecated at 5 in favour of TreeEnsemble; the deprecated version keeps the signature.
  const OpSchema* r5 = at("TreeEnsembleRegressor", 5, kMlDomain);
  ASSERT_NE(r5, nullptr);
  EXPECT_TRUE(r5->deprecated);
  EXPECT_EQ(attributes(*r5), attributes(*r3));
  EXPECT_EQ(signature(r5->outputs), "Y: tensor(float)");
  EXPECT_TRUE(at("TreeEnsembleClassifier", 5, kMlDomain)->deprecated);

  EXPECT_EQ(at("TreeEnsemble", 4, kMlDomain), nullptr);
  const OpSchema* tree = at("TreeEnsemble", 5, kMlDomain);
  ASSERT_NE(tree, nullptr);
  EXPECT_EQ(signature(tree->inputs), "X: T");
  EXPECT_EQ(signature(tree->outputs), "Y: T");
  EXPECT_EQ(attributes(*tree),
            "aggregate_function: int = 1, leaf_targetids: ints!, leaf_weights: tensor!, "
            "membership_values: tensor, n_targets: int, nodes_falseleafs: ints!, "
            "nodes_falsenodeids: ints!, nodes_featureids: ints!, nodes_hitrates: tensor, "
            "nodes_missing_value_tracks_true: ints, nodes_modes: tensor!, nodes_splits: tensor!, "
            "nodes_trueleafs: ints!, nodes_truenodeids: ints!, post_transform: int = 0, "
            "tree_roots: ints!");
  EXPECT_EQ(typesOf(*tree, "T"), tensors("float double float16"));
}

TEST(Signatures, LabelEncoder) {
  EXPECT_EQ(versionsOf(kMlDomain, "LabelEncoder"), (std::vector<int>{1, 2, 4}));
  const OpSchema* l1 = at("LabelEncoder", 1, kMlDomain);
  ASSERT_NE(l1, nullptr);
  EXPECT_EQ(attributes(*l1),
            "classes_strings: strings, default_int64: int = -1, default_string: string = "
            "\"_Unused\"");
  EXPECT_EQ(typesOf(*l1, "T1"), tensors("string int64"));
  const OpSchema* l2 = at("LabelEncoder", 3, kMlDomain);
  ASSERT_NE(l2, nullptr);
  EXPECT_EQ(l2->since_version, 2);
  EXPECT_EQ(attributes(*l2),
            "default_float: float = -0.0, default_int64: int = -1, default_string: string = "
            "\"_Unused\", keys_floats: floats, keys_int64s: ints, keys_strings: strings, "
            "values_floats: floats, values_int64s: ints, values_strings: strings");
  ASSERT_NE(l2->attribute("default_float"), nullptr);
  EXPECT_TRUE(std::signbit(l2->attribute("default_float")->default_float));
  const OpSchema* l4 = at("LabelEncoder", 5, kMlDomain);
  ASSERT_NE(l4, nullptr);
  EXPECT_EQ(l4->since_version, 4);
  for (const char* name : {"default_tensor", "keys_tensor", "values_tensor"}) {
    ASSERT_NE(l4->attribute(name), nullptr) << name;
    EXPECT_EQ(l4->attribute(name)->kind, AttributeKind::kTensor);
    EXPECT_FALSE(l4->attribute(name)->has_default);
  }
  EXPECT_EQ(typesOf(*l4, "T2"), tensors("string int64 float int32 int16 double"));
}

TEST(Signatures, TrainingAndPreview) {
  const OpSchema* adagrad = at("Adagrad", 1, kPreviewTrainingDomain);
  ASSERT_NE(adagrad, nullptr);
  EXPECT_EQ(signature(adagrad->inputs), "R: T1, T: T2, inputs...: T3 (1+ mixed)");
  EXPECT_EQ(signature(adagrad->outputs), "outputs...: T3 (1+ mixed)");
  EXPECT_EQ(adagrad->minInputs(), 3u);
  // The changelog prints 1e-6 rounded to 0.0; the definition says 1e-6.
  EXPECT_EQ(attributes(*adagrad),
            "decay_factor: float = 0.0, epsilon: float = 1e-06, norm_coefficient: float = 0.0");
  EXPECT_EQ(adagrad->attribute("epsilon")->default_float, 1e-6f);
  EXPECT_EQ(typesOf(*adagrad, "T2"), tensors("int64"));

  const OpSchema* gradient = at("Gradient", 1, kPreviewTrainingDomain);
  ASSERT_NE(gradient, nullptr);
  EXPECT_EQ(signature(gradient->inputs), "Inputs...: T1 (1+ mixed)");
  EXPECT_EQ(signature(gradient->outputs), "Outputs...: T2 (1+ mixed)");
  EXPECT_EQ(attributes(*gradient), "xs: strings!, y: string!, zs: strings");
  EXPECT_EQ(typesOf(*gradient, "T2"), tensors("float16 float double"));
  EXPECT_NE(at("Adam", 1, kPreviewTrainingDomain), nullptr);
  EXPECT_NE(at("Momentum", 1, kPreviewTrainingDomain), nullptr);
  // The training ops are in the preview domain; ai.onnx.training 1 has none.
  EXPECT_EQ(at("Adagrad", 1, kTrainingDomain), nullptr);
  EXPECT_TRUE(operatorsAt(kTrainingDomain, 1).empty());

  const OpSchema* flex = at("FlexAttention", 1, kPreviewDomain);
  ASSERT_NE(flex, nullptr);
  EXPECT_EQ(signature(flex->inputs), "Q: T1, K: T1, V: T1");
  EXPECT_EQ(signature(flex->outputs), "Y: T1");
  EXPECT_EQ(attributes(*flex),
            "prob_mod: graph, scale: float, score_mod: graph, softmax_precision: int");
  EXPECT_EQ(typesOf(*flex, "T1"), tensors("bfloat16 float16 float double"));
}

TEST(Signatures, DefaultsTheChangelogRounds) {
  const OpSchema* selu = at("Selu", 6);
  ASSERT_NE(selu, nullptr);
  EXPECT_EQ(selu->attribute("alpha")->default_float, 1.67326319217681884765625f);
  EXPECT_EQ(selu->attribute("gamma")->default_float, 1.05070102214813232421875f);
  EXPECT_EQ(at("Selu", 1)->attribute("alpha")->default_float, 1.6732f);
  const OpSchema* clip = at("Clip", 6);
  ASSERT_NE(clip, nullptr);
  EXPECT_EQ(clip->attribute("min")->default_float, std::numeric_limits<float>::lowest());
  EXPECT_EQ(clip->attribute("max")->default_float, std::numeric_limits<float>::max());
  EXPECT_EQ(at("Adam", 1, kPreviewTrainingDomain)->attribute("epsilon")->default_float, 1e-6f);
}

TEST(Signatures, ListDefaults) {
  const OpSchema* mvn = at("MeanVarianceNormalization", 13);
  ASSERT_NE(mvn, nullptr);
  EXPECT_EQ(attributes(*mvn), "axes: ints = [0, 2, 3]");
  const OpSchema* rnn = at("RNN", 14);
  ASSERT_NE(rnn, nullptr);
  const AttributeSpec* activations = rnn->attribute("activations");
  ASSERT_NE(activations, nullptr);
  EXPECT_EQ(attributeDefaultText(*activations), "[\"Tanh\", \"Tanh\"]");
  // GRU 1 spells its default direction "foward": a fact of the spec, kept as it is.
  EXPECT_STREQ(at("GRU", 1)->attribute("direction")->default_string, "foward");
  EXPECT_STREQ(at("GRU", 3)->attribute("direction")->default_string, "forward");
}

TEST(Signatures, DeprecatedVersionsKeepTheirLastSignature) {
  const OpSchema* up9 = at("Upsample", 9);
  const OpSchema* up10 = at("Upsample", 10);
  ASSERT_NE(up9, nullptr);
  ASSERT_NE(up10, nullptr);
  EXPECT_FALSE(up9->deprecated);
  EXPECT_TRUE(up10->deprecated);
  EXPECT_EQ(signature(up10->inputs), "X: T, scales: tensor(float)");
  EXPECT_EQ(attributes(*up10), "mode: string = \"nearest\"");
  // A deprecated operator stays deprecated at every later opset.
  EXPECT_EQ(at("Upsample", 28), up10);

  const OpSchema* scatter = at("Scatter", 13);
  ASSERT_NE(scatter, nullptr);
  EXPECT_EQ(scatter->since_version, 11);
  EXPECT_TRUE(scatter->deprecated);
  EXPECT_EQ(signature(scatter->inputs), "data: T, indices: Tind, updates: T");
  EXPECT_EQ(attributes(*scatter), "axis: int = 0");

  // GroupNormalization 18 was deprecated where it was introduced; 21 replaces it.
  EXPECT_EQ(at("GroupNormalization", 17), nullptr);
  const OpSchema* group18 = at("GroupNormalization", 20);
  ASSERT_NE(group18, nullptr);
  EXPECT_EQ(group18->since_version, 18);
  EXPECT_TRUE(group18->deprecated);
  EXPECT_EQ(signature(group18->inputs), "X: T, scale: T, bias: T");
  EXPECT_EQ(attributes(*group18), "epsilon: float = 1e-05, num_groups: int!");
  const OpSchema* group21 = at("GroupNormalization", 21);
  ASSERT_NE(group21, nullptr);
  EXPECT_FALSE(group21->deprecated);
  EXPECT_EQ(attributes(*group21), "epsilon: float = 1e-05, num_groups: int!, stash_type: int = 1");
}

TEST(Resolution, EdgeCases) {
  // Below the first version, nothing; "" and "ai.onnx" are one domain.
  EXPECT_EQ(findSchema("", "Conv", 0), nullptr);
  EXPECT_EQ(findSchema("ai.onnx", "Conv", 1), findSchema("", "Conv", 1));
  EXPECT_EQ(findSchema("", "Gelu", 19), nullptr);
  EXPECT_NE(findSchema("", "Gelu", 20), nullptr);
  // Above the highest known opset, the newest version.
  EXPECT_EQ(findSchema("", "Add", 1000)->since_version, 14);
  EXPECT_EQ(findSchema("", "Add", 13)->since_version, 13);
  // Unknown operators and domains, and names that differ only in case.
  EXPECT_EQ(findOperator("", "Convolution"), nullptr);
  EXPECT_EQ(findOperator("", "conv"), nullptr);
  EXPECT_EQ(findOperator("", ""), nullptr);
  EXPECT_EQ(findOperator("com.microsoft", "Conv"), nullptr);
  EXPECT_EQ(findOperator("ai.onnx.ml", "Conv"), nullptr);
  EXPECT_EQ(findOperator("", "LabelEncoder"), nullptr);
  EXPECT_NE(findOperator("ai.onnx.ml", "LabelEncoder"), nullptr);
  // ai.onnx.preview.training and ai.onnx.preview do not share operators.
  EXPECT_EQ(findOperator(kPreviewDomain, "Adam"), nullptr);
}

TEST(Resolution, OperatorSets) {
  auto sets = standardOperatorSets();
  ASSERT_EQ(sets.size(), 5u);
  EXPECT_STREQ(sets[0].domain, "ai.onnx");
  EXPECT_EQ(sets[0].first_version, 1);
  EXPECT_EQ(sets[0].last_version, 28);
  EXPECT_EQ(sets[0].last_release_version, 27);
  EXPECT_EQ(findOperatorSet(""), &sets[0]);
  EXPECT_EQ(findOperatorSet("ai.onnx.ml")->last_version, 5);
  EXPECT_EQ(findOperatorSet("ai.onnx.training")->last_version, 1);
  EXPECT_EQ(findOperatorSet("ai.onnx.preview.training")->last_version, 1);
  EXPECT_EQ(findOperatorSet("com.microsoft"), nullptr);
  EXPECT_STREQ(findOperatorSet("ai.onnx")->domain, "ai.onnx");
}

TEST(Resolution, ListingAtAnOpset) {
  auto at1 = operatorsAt("", 1);
  auto at28 = operatorsAt("ai.onnx", 28);
  EXPECT_LT(at1.size(), at28.size());
  bool has_conv = false;
  for (const ResolvedOperator& entry : at1) {
    EXPECT_LE(entry.schema->since_version, 1);
    has_conv = has_conv || std::string_view(entry.op->name) == "Conv";
    EXPECT_NE(std::string_view(entry.op->name), "Gelu");
  }
  EXPECT_TRUE(has_conv);
  EXPECT_TRUE(std::is_sorted(at28.begin(), at28.end(), [](const auto& a, const auto& b) {
    return std::string_view(a.op->name) < std::string_view(b.op->name);
  }));
  // Counts of onnx at f7546912 (scripts/draft_op_schemas.py summary): a guard against ops
  // going missing from operator_index.inc.
  EXPECT_EQ(at28.size(), 203u);
  EXPECT_EQ(operatorsAt(kMlDomain, 5).size(), 19u);
  EXPECT_EQ(operatorsAt(kPreviewDomain, 1).size(), 1u);
  EXPECT_EQ(operatorsAt(kPreviewTrainingDomain, 1).size(), 4u);
  size_t versions = 0;
  for (const Operator* op : allOperators()) versions += op->versions.size();
  EXPECT_EQ(versions, 612u + 25u + 1u + 4u);
}

}  // namespace
}  // namespace onyx
