// Inference against the ONNX backend conformance models: with every type annotation of the
// main graph removed (value_info, output types), inference must find each output's type
// again. The declared outputs come from running the operator, so they are the truth.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "onyx/infer/infer.h"
#include "onyx/ir/editor.h"
#include "onyx/ir/graph.h"
#include "onyx/ir/node.h"
#include "onyx/ir/type.h"
#include "onyx/ir/value.h"
#include "onyx/serde/model_io.h"
#include "onyx/serde/test_data.h"
#include "support/conformance.h"

namespace onyx {
namespace {

// Outputs reproduced when this floor was last raised; inference must not fall below it.
constexpr size_t kReproducedFloor = 1904;
// Misses no reason explains, when this ceiling was last lowered; it must not rise.
constexpr size_t kUnexplainedCeiling = 0;

// Operators whose output size depends on the contents of their inputs, not only on shapes
// and attributes: the number of non-zeros, of unique elements, of boxes kept, of
// substrings, of stopwords removed, the size of an encoded image, the elements kept.
bool sizeDependsOnContents(std::string_view op) {
  for (std::string_view known : {"NonZero", "Unique", "NonMaxSuppression", "StringSplit",
                                 "StringNormalizer", "ImageDecoder", "Compress"}) {
    if (op == known) return true;
  }
  return false;
}

// A declared type, copied out of the model before its annotations are removed.
struct Expected {
  std::string name;
  Type::Kind kind = Type::Kind::kNone;
  std::optional<int32_t> elem_type;
  bool has_shape = false;
  std::vector<Dimension> dims;  // strings point into the model, which stays alive
};

Expected expectedOf(const ValueInfo& output) {
  Expected expected;
  const Value* value = output.bound();
  expected.name = value != nullptr ? std::string(value->name()) : std::string();
  if (output.type == nullptr) return expected;
  expected.kind = output.type->kind;
  expected.elem_type = output.type->elem_type;
  if (output.type->shape != nullptr) {
    expected.has_shape = true;
    expected.dims.assign(output.type->shape->dims.begin(), output.type->shape->dims.end());
  }
  return expected;
}

std::string dimText(const Dimension& dim) {
  if (dim.dim_value) return std::to_string(*dim.dim_value);
  if (dim.dim_param) return std::string(*dim.dim_param);
  return "?";
}

// Why `inferred` does not reproduce `expected`; empty when it does. Declared symbols must
// map consistently (`symbols`: declared name → inferred text).
std::string mismatch(const Expected& expected, const Type* inferred,
                     std::map<std::string, std::string>& symbols) {
  if (expected.kind == Type::Kind::kNone) return {};
  if (inferred == nullptr) return "no type inferred";
  if (inferred->kind != expected.kind) return "kind differs: inferred " + formatType(*inferred);
  if (expected.kind != Type::Kind::kTensor && expected.kind != Type::Kind::kSparseTensor) {
    return {};  // sequences, maps, optionals: the kind is what the declaration pins down here
  }
  if (expected.elem_type && inferred->elem_type != expected.elem_type) {
    return "element type differs: inferred " + formatType(*inferred);
  }
  if (!expected.has_shape) return {};
  if (inferred->shape == nullptr) return "rank unknown: inferred " + formatType(*inferred);
  if (inferred->shape->rank() != expected.dims.size()) {
    return "rank differs: inferred " + formatType(*inferred);
  }
  for (size_t axis = 0; axis < expected.dims.size(); ++axis) {
    const Dimension& want = expected.dims[axis];
    const Dimension& got = inferred->shape->dims[axis];
    if (want.dim_value) {
      if (got.dim_value != want.dim_value) {
        return "dimension " + std::to_string(axis) + ": declared " + dimText(want) + ", inferred " +
               formatType(*inferred);
      }
    } else if (want.dim_param) {
      auto [slot, inserted] = symbols.try_emplace(std::string(*want.dim_param), dimText(got));
      if (dimText(got) == "?" || (!inserted && slot->second != dimText(got))) {
        return "dimension " + std::to_string(axis) + ": declared " + dimText(want) + ", inferred " +
               formatType(*inferred);
      }
    }
  }
  return {};
}

void removeAnnotations(Graph& graph) {
  for (ValueInfo* info : graph.value_info) info->type = nullptr;
  for (ValueInfo* output : graph.outputs) output->type = nullptr;
}

TEST(InferConformance, OutputsReproducedWithoutAnnotations) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t outputs = 0;
  size_t reproduced = 0;
  size_t unexplained = 0;
  std::map<std::string, std::vector<std::string>> misses_by_reason;
  std::vector<std::string> errors;
  for (const auto& dir : cases) {
    Result<Model> loaded = loadModel((dir / "model.onnx").string());
    ASSERT_TRUE(loaded) << dir << ": " << loaded.status().toString();
    Model& model = *loaded;
    std::vector<Expected> expected;
    for (const ValueInfo* output : model.graph->outputs) expected.push_back(expectedOf(*output));
    removeAnnotations(*model.graph);
    InferResult result = inferModel(model);
    for (const Diagnostic& diagnostic : result.diagnostics.all()) {
      if (diagnostic.severity == Severity::kError) {
        errors.push_back(dir.filename().string() + ": " + diagnostic.toString());
      }
    }
    std::map<std::string, std::string> symbols;
    for (size_t i = 0; i < expected.size(); ++i) {
      ++outputs;
      const ValueInfo* output = model.graph->outputs[i];
      std::string why = mismatch(expected[i], output->type, symbols);
      if (why.empty()) {
        ++reproduced;
        continue;
      }
      const Value* value = output->bound();
      std::string op = value != nullptr && value->producer() != nullptr
                           ? std::string(value->producer()->opType())
                           : std::string("(graph input)");
      std::string reason;
      auto source =
          value != nullptr ? result.value_dependent.find(value) : result.value_dependent.end();
      if (source != result.value_dependent.end()) {
        reason = "depends on the values of a graph input";
      } else if (sizeDependsOnContents(op)) {
        reason = "the size depends on the input's contents";
      } else {
        reason = "unexplained";
        ++unexplained;
      }
      std::string line = dir.filename().string() + " " + expected[i].name + " (" + op + "): " + why;
      if (source != result.value_dependent.end()) {
        line += " [graph input '" + std::string(source->second->name()) + "']";
      }
      misses_by_reason[reason].push_back(std::move(line));
    }
  }
  std::printf("%zu/%zu outputs reproduced\n", reproduced, outputs);
  for (const auto& [reason, misses] : misses_by_reason) {
    std::printf("%zu missed: %s\n", misses.size(), reason.c_str());
    for (const std::string& miss : misses) std::printf("  %s\n", miss.c_str());
  }
  std::printf("%zu inference errors on valid models\n", errors.size());
  for (size_t i = 0; i < errors.size() && i < 40; ++i) std::printf("  %s\n", errors[i].c_str());
  EXPECT_GE(reproduced, kReproducedFloor);
  EXPECT_LE(unexplained, kUnexplainedCeiling);
  EXPECT_TRUE(errors.empty());
}

// How a case's model is read in InitializersListedAsInputsInferAsConstants: its tensor inputs
// made initializers holding the case's first input values, and those ...
enum class Listing {
  kApart,                   // ... not listed as inputs (constants from IR 4 on)
  kListedAtIrThree,         // ... also listed as inputs, the IR version set to 3
  kListedAndConstantOnAsk,  // ... also listed, InferOptions::constant_initializers
  kListedAsDefaults,        // ... also listed, from IR 4 on: defaults a caller overrides
};

// The outputs of `dir`'s model that inference reproduces read as `listing` says; nullopt when
// the case has no tensor input with a value to make an initializer of.
std::optional<std::vector<bool>> reproducedOutputs(const std::filesystem::path& dir,
                                                   Listing listing) {
  Result<Model> loaded = loadModel((dir / "model.onnx").string());
  if (!loaded || loaded->graph == nullptr) return std::nullopt;
  Model& model = *loaded;
  Graph& graph = *model.graph;
  GraphEditor edit(model);
  std::vector<TestValue> values;  // the initializers' bytes live in them
  std::vector<Value*> made;
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    Value* input = graph.inputs[i]->value;
    if (input == nullptr || input->isInitializer() || input->type() == nullptr ||
        !input->type()->isTensor()) {
      continue;
    }
    std::filesystem::path file = dir / "test_data_set_0" / ("input_" + std::to_string(i) + ".pb");
    if (!std::filesystem::exists(file)) continue;
    Result<TestValue> value = loadTestValue(file.string(), TestValueKind::kTensor);
    if (!value || value->tensor() == nullptr) continue;
    Tensor* tensor = edit.arena().make<Tensor>(*value->tensor());
    tensor->name = input->name();
    if (!edit.addInitializer(graph, tensor)) continue;
    values.push_back(std::move(*value));
    made.push_back(input);
  }
  if (made.empty()) return std::nullopt;
  std::vector<Expected> expected;
  for (const ValueInfo* output : graph.outputs) expected.push_back(expectedOf(*output));
  removeAnnotations(graph);
  InferOptions options;
  if (listing == Listing::kApart) {
    for (Value* value : made) EXPECT_TRUE(graph.removeInput(value)) << dir;
  } else if (listing == Listing::kListedAtIrThree) {
    model.ir_version = 3;
  } else if (listing == Listing::kListedAndConstantOnAsk) {
    options.constant_initializers = true;
  } else {
    model.ir_version = std::max<int64_t>(model.ir_version.value_or(4), 4);
  }
  inferModel(model, options);
  std::vector<bool> reproduced;
  std::map<std::string, std::string> symbols;
  for (size_t i = 0; i < expected.size(); ++i) {
    reproduced.push_back(mismatch(expected[i], graph.outputs[i]->type, symbols).empty());
  }
  return reproduced;
}

// IR versions before 4 list every initializer as a graph input (and exporters kept doing so);
// those are constants there, and from IR 4 on when the caller says so: inference must find
// the same output shapes as when the initializers are not inputs at all.
TEST(InferConformance, InitializersListedAsInputsInferAsConstants) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t models = 0;
  size_t outputs = 0;
  std::map<Listing, size_t> reproduced;
  std::vector<std::string> differing;
  for (const auto& dir : cases) {
    std::optional<std::vector<bool>> apart = reproducedOutputs(dir, Listing::kApart);
    if (!apart) continue;
    ++models;
    outputs += apart->size();
    for (Listing listing : {Listing::kApart, Listing::kListedAtIrThree,
                            Listing::kListedAndConstantOnAsk, Listing::kListedAsDefaults}) {
      std::optional<std::vector<bool>> found =
          listing == Listing::kApart ? apart : reproducedOutputs(dir, listing);
      ASSERT_TRUE(found) << dir;
      for (bool one : *found) reproduced[listing] += one ? 1 : 0;
      if (*found != *apart && listing != Listing::kListedAsDefaults) {
        differing.push_back(dir.filename().string() +
                            (listing == Listing::kListedAtIrThree ? " (IR 3)" : " (asked)"));
      }
    }
  }
  std::printf(
      "%zu models, %zu outputs: %zu reproduced apart, %zu listed at IR 3, %zu listed "
      "with constant_initializers, %zu listed as defaults\n",
      models, outputs, reproduced[Listing::kApart], reproduced[Listing::kListedAtIrThree],
      reproduced[Listing::kListedAndConstantOnAsk], reproduced[Listing::kListedAsDefaults]);
  for (size_t i = 0; i < differing.size() && i < 40; ++i) {
    std::printf("  differs: %s\n", differing[i].c_str());
  }
  EXPECT_GT(models, 1000u);
  EXPECT_EQ(reproduced[Listing::kListedAtIrThree], reproduced[Listing::kApart]);
  EXPECT_EQ(reproduced[Listing::kListedAndConstantOnAsk], reproduced[Listing::kApart]);
  EXPECT_TRUE(differing.empty());
  // Read as defaults, the values are unknown: shapes that follow from them are lost.
  EXPECT_LT(reproduced[Listing::kListedAsDefaults], reproduced[Listing::kApart]);
}

}  // namespace
}  // namespace onyx
