// setDims: a batch an exporter baked into Reshape, Expand and ConstantOfShape shapes (some
// built by Concat) is traced and rewritten, so that the model runs at the new batch, or at any
// batch under a symbol, each row computing what the original computed for it.
#include "onyx/passes/set_dims.h"

#include <gtest/gtest.h>

#include "onyx/check/checker.h"
#include "onyx/text/printer.h"
#include "support/check_testing.h"
#include "support/eval_testing.h"
#include "support/graph_testing.h"

namespace onyx {
namespace {

using testing::bytesOf;
using testing::parseOrFail;
using testing::tensorOf;
using testing::valuesOf;
using testing::verified;

// Exported at batch 2: the 2 heads of 4 are a second 2 in the Reshape targets.
constexpr std::string_view kBaked = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (int64[2,S] ids) => (float[2,S,8] y, float[2,3,8] z)
    <float[5,8] embed = {-3.0, -2.75, -2.5, -2.25, -2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5,
                         -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75,
                         3.0, 3.25, 3.5, 3.75, 4.0, 4.25, 4.5, 4.75, 5.0, 5.25, 5.5, 5.75, 6.0,
                         6.25, 6.5, 6.75},
     int64[4] split = {2, -1, 2, 4}, int64[3] merge = {2, -1, 8}, int64[3] widen = {2, 1, 8},
     float[1,1,8] bias = {0.5, -0.5, 1, -1, 2, -2, 3, -3}> {
    h = Gather (embed, ids)
    heads = Reshape (h, split)
    t = Transpose <perm = [0, 2, 1, 3]> (heads)
    r = Relu (t)
    back = Transpose <perm = [0, 2, 1, 3]> (r)
    flat = Reshape (back, merge)
    b = Expand (bias, widen)
    y = Add (flat, b)
    batch = Constant <value = int64[1] {2}> ()
    rest = Constant <value = int64[2] {3, 8}> ()
    zshape = Concat <axis = 0> (batch, rest)
    z = ConstantOfShape <value = float[1] {0.5}> (zshape)
  })";

std::vector<DimSetting> settings(std::initializer_list<std::string_view> texts) {
  std::vector<DimSetting> parsed;
  for (std::string_view text : texts) {
    auto setting = parseDimSetting(text);
    EXPECT_TRUE(setting.isOk()) << setting.status().toString();
    if (setting) parsed.push_back(*setting);
  }
  return parsed;
}

Model setChecked(std::string_view text, std::initializer_list<std::string_view> dims) {
  Model model = parseOrFail(text);
  std::vector<DimSetting> parsed = settings(dims);
  auto report = setDims(model, parsed);
  EXPECT_TRUE(report.isOk()) << report.status().toString();
  EXPECT_TRUE(verified(model));
  Diagnostics diagnostics = checkModel(model);
  EXPECT_FALSE(diagnostics.hasErrors()) << testing::listed(diagnostics) << printModel(model);
  return model;
}

// `rows` rows of ids, row k being {k % 5, (k + 2) % 5, (k + 4) % 5}.
EvalValue idRows(int64_t rows) {
  std::vector<int64_t> ids;
  for (int64_t k = 0; k < rows; ++k) {
    for (int64_t j = 0; j < 3; ++j) ids.push_back((k + 2 * j) % 5);
  }
  return tensorOf<int64_t>(ElementType::kInt64, {rows, 3}, ids);
}

// Output `index` of `model` for `rows` rows of ids.
std::vector<float> outputOf(const Model& model, int64_t rows, size_t index) {
  std::vector<NamedValue> inputs{{"ids", idRows(rows)}};
  auto outputs = evaluate(model, inputs);
  EXPECT_TRUE(outputs.isOk()) << outputs.status().toString();
  return outputs.isOk() ? valuesOf<float>((*outputs)[index]) : std::vector<float>();
}

// The original's outputs for rows 0..rows-1, two rows a run (the batch it was exported at).
std::vector<float> originalRows(int64_t rows, size_t index) {
  Model original = parseOrFail(kBaked);
  std::vector<float> all;
  for (int64_t first = 0; first < rows; first += 2) {
    std::vector<int64_t> ids;
    for (int64_t k = first; k < first + 2; ++k) {
      for (int64_t j = 0; j < 3; ++j) ids.push_back((k + 2 * j) % 5);
    }
    std::vector<NamedValue> inputs{{"ids", tensorOf<int64_t>(ElementType::kInt64, {2, 3}, ids)}};
    auto outputs = evaluate(original, inputs);
    EXPECT_TRUE(outputs.isOk());
    std::vector<float> values = valuesOf<float>((*outputs)[index]);
    all.insert(all.end(), values.begin(), values.end());
  }
  return all;
}

TEST(SetDims, ABakedBatchGoesToOneEverywhere) {
  Model one = setChecked(kBaked, {"ids:0=1"});
  std::string text = printModel(one);
  EXPECT_NE(text.find("(int64[1,S] ids) => (float[1,S,8] y, float[1,3,8] z)"), std::string::npos)
      << text;
  std::vector<float> row = originalRows(2, 0);
  row.resize(row.size() / 2);
  EXPECT_EQ(outputOf(one, 1, 0), row);
  EXPECT_EQ(outputOf(one, 1, 1).size(), 24u);
}

TEST(SetDims, ABakedBatchBecomesASymbolAndRunsAtAnyBatch) {
  Model any = setChecked(kBaked, {"ids:0=batch"});
  std::string text = printModel(any);
  EXPECT_NE(text.find("(int64[batch,S] ids) => (float[batch,S,8] y, float[batch,3,8] z)"),
            std::string::npos)
      << text;
  EXPECT_EQ(outputOf(any, 4, 0), originalRows(4, 0));
  EXPECT_EQ(outputOf(any, 4, 1), originalRows(4, 1));
  EXPECT_EQ(outputOf(any, 2, 0), originalRows(2, 0));
}

// torch.onnx at a fixed batch and a dynamic sequence: view(2, s, 2, 4) as a Concat of the
// folded batch, the sequence read from Shape, and the literal heads.
constexpr std::string_view kHalfBaked = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[2,S,8] x) => (float[2,2,S,4] y) {
    batch = Constant <value = int64[1] {2}> ()
    shape = Shape (x)
    one = Constant <value = int64 {1}> ()
    s = Gather <axis = 0> (shape, one)
    zero = Constant <value = int64[1] {0}> ()
    s1 = Unsqueeze (s, zero)
    heads = Constant <value = int64[2] {2, 4}> ()
    target = Concat <axis = 0> (batch, s1, heads)
    split = Reshape (x, target)
    y = Transpose <perm = [0, 2, 1, 3]> (split)
  })";

TEST(SetDims, AShapeOfTheFoldedBatchAndARunTimeSequenceKeepsTheSequence) {
  std::vector<float> x(4 * 3 * 8);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.5f - 7;
  for (std::string_view to : {"x:0=batch", "x:0=4"}) {
    Model model = setChecked(kHalfBaked, {to});
    std::vector<NamedValue> inputs{{"x", tensorOf<float>(ElementType::kFloat, {4, 3, 8}, x)}};
    auto outputs = evaluate(model, inputs);
    ASSERT_TRUE(outputs.isOk()) << outputs.status().toString() << printModel(model);
    // Each row of 24 split into 2 heads of 4 over 3 positions, heads first.
    std::vector<float> got = valuesOf<float>((*outputs)[0]);
    ASSERT_EQ(got.size(), x.size());
    for (size_t b = 0; b < 4; ++b) {
      for (size_t h = 0; h < 2; ++h) {
        for (size_t s = 0; s < 3; ++s) {
          for (size_t d = 0; d < 4; ++d) {
            EXPECT_EQ(got[((b * 2 + h) * 3 + s) * 4 + d], x[(b * 3 + s) * 8 + h * 4 + d]);
          }
        }
      }
    }
  }
}

TEST(SetDims, ASymbolTakesANumberOrANameInEveryDeclaration) {
  constexpr std::string_view kSymbolic = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[N,4] x, float[N,4] w) => (float[N,4] y) {
      y = Add (x, w)
    })";
  Model fixed = setChecked(kSymbolic, {"N=3"});
  EXPECT_NE(printModel(fixed).find("(float[3,4] x, float[3,4] w) => (float[3,4] y)"),
            std::string::npos);
  Model renamed = setChecked(kSymbolic, {"x:0=rows"});
  EXPECT_NE(printModel(renamed).find("(float[rows,4] x, float[rows,4] w) => (float[rows,4] y)"),
            std::string::npos);
}

TEST(SetDims, WhatCannotBeTracedIsRefusedNamingTheNode) {
  // The data has the batch at axis 0; the shape holds 2 elsewhere and nothing to take it.
  Model model = parseOrFail(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,8] x) => (float[8,2] y) <int64[2] shape = {8, 2}> {
      y = Reshape (x, shape)
    })");
  std::string before = bytesOf(model);
  std::vector<DimSetting> parsed = settings({"x:0=1"});
  auto report = setDims(model, parsed);
  ASSERT_FALSE(report.isOk());
  EXPECT_EQ(report.status().message(),
            "cannot trace dimension 0 of input 'x' through the shape node[0] (Reshape) reads: it "
            "holds 2 elsewhere than in its place 0, and no -1 or 0 to take it");
  EXPECT_EQ(bytesOf(model), before);
  auto missing = setDims(model, settings({"nope:0=1", "M=2"}));
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.status().message(), "the model declares no input 'nope', no symbol 'M'");
}

TEST(SetDims, SettingsAreReadAsTheCommandLineWritesThem) {
  auto symbol = parseDimSetting("batch_size=1");
  ASSERT_TRUE(symbol.isOk());
  EXPECT_EQ(symbol->symbol, "batch_size");
  EXPECT_EQ(symbol->to_value, 1);
  auto axis = parseDimSetting("past_key_values.0.key:2=past");
  ASSERT_TRUE(axis.isOk());
  EXPECT_EQ(axis->input, "past_key_values.0.key");
  EXPECT_EQ(axis->axis, 2);
  EXPECT_EQ(axis->to_symbol, "past");
  EXPECT_FALSE(parseDimSetting("x:0").isOk());
  EXPECT_FALSE(parseDimSetting("x:0=-3").isOk());
}

}  // namespace
}  // namespace onyx
