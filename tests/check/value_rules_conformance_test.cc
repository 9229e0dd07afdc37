// Every value of every ONNX backend conformance model passes the value rules: initializers
// (dense and sparse), every attribute (Constant's tensor among them), and every declared type;
// and every .pb input and output passes checkTestValue. These models are valid, so a
// diagnostic here means a rule is misread.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "check/value_rules.h"
#include "onyx/check/test_value_rules.h"
#include "onyx/ir/walk.h"
#include "onyx/serde/model_io.h"
#include "onyx/serde/test_data.h"
#include "support/conformance.h"

namespace onyx {
namespace {

using check::ValueContext;

struct Counts {
  size_t tensors = 0;
  size_t sparse_tensors = 0;
  size_t attributes = 0;
  size_t types = 0;
};

// The values of one model through the rules, walked here (the graph walker lands separately).
Diagnostics checkModelValues(const Model& model, Counts& counts) {
  Diagnostics out;
  ValueContext base;
  base.model = &model;
  base.ir_version = model.ir_version.value_or(0);

  std::unordered_map<const Graph*, const Function*> function_bodies;
  for (const Function* function : model.functions) {
    if (function->body != nullptr) function_bodies[function->body] = function;
  }
  auto functionOf = [&](const Graph* graph) -> const Function* {
    while (graph->parent() != nullptr) graph = graph->parent();
    auto found = function_bodies.find(graph);
    return found == function_bodies.end() ? nullptr : found->second;
  };
  auto checkTypes = [&](const ArenaList<ValueInfo*>& list, const std::string& where) {
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i]->type == nullptr || list[i]->isRemoved()) continue;
      ++counts.types;
      check::checkType(*list[i]->type, base,
                       where + "[" + std::to_string(i) + "](" +
                           std::string(list[i]->name.value_or("")) + ").type",
                       out);
    }
  };

  forEachGraph(model, [&](Graph& graph) {
    const std::string at = "graph(" + std::string(graph.name.value_or("")) + ")";
    ValueContext context = base;
    context.function = functionOf(&graph);
    context.in_function_body = context.function != nullptr;
    context.is_initializer = true;
    counts.tensors += graph.initializers.size();
    counts.sparse_tensors += graph.sparse_initializers.size();
    for (size_t i = 0; i < graph.initializers.size(); ++i) {
      check::checkTensor(*graph.initializers[i], context,
                         at + ".initializer[" + std::to_string(i) + "]", out);
    }
    for (size_t i = 0; i < graph.sparse_initializers.size(); ++i) {
      check::checkSparseTensor(*graph.sparse_initializers[i], context,
                               at + ".sparse_initializer[" + std::to_string(i) + "]", out);
    }
    context.is_initializer = false;
    size_t n = 0;
    for (Node* node = graph.firstNode(); node != nullptr; node = node->next(), ++n) {
      for (size_t a = 0; a < node->attributes.size(); ++a) {
        const Attribute& attribute = *node->attributes[a];
        ++counts.attributes;
        check::checkAttribute(attribute, context,
                              at + ".node[" + std::to_string(n) + "](" +
                                  std::string(node->op_type.value_or("")) + ").attribute(" +
                                  std::string(attribute.nameOrEmpty()) + ")",
                              out);
      }
    }
    checkTypes(graph.inputs, at + ".input");
    checkTypes(graph.outputs, at + ".output");
    checkTypes(graph.value_info, at + ".value_info");
  });
  for (const Function* function : model.functions) {
    ValueContext context = base;
    context.in_function_body = true;
    context.function = function;
    for (const Attribute* attribute : function->attribute_proto) {
      check::checkAttribute(*attribute, context,
                            "functions(" + std::string(function->nameOrEmpty()) +
                                ").attribute_proto(" + std::string(attribute->nameOrEmpty()) + ")",
                            out);
    }
  }
  return out;
}

void printFailures(const std::vector<std::string>& failures) {
  for (size_t i = 0; i < failures.size() && i < 30; ++i) std::cout << "  " << failures[i] << "\n";
}

TEST(ValueRulesConformance, EveryModelsValuesPass) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t clean = 0;
  size_t tensors = 0;
  Counts counts;
  std::vector<std::string> failures;
  for (const auto& dir : cases) {
    auto model = loadModel((dir / "model.onnx").string());
    if (!model) {
      failures.push_back(dir.filename().string() + ": " + model.status().toString());
      continue;
    }
    forEachTensor(*model, [&](Tensor&, TensorRole) { ++tensors; });
    Diagnostics diagnostics = checkModelValues(*model, counts);
    if (diagnostics.all().empty()) {
      ++clean;
    } else {
      for (const Diagnostic& d : diagnostics.all()) {
        failures.push_back(dir.filename().string() + ": " + d.toString());
      }
    }
  }
  std::cout << clean << "/" << cases.size() << " models clean: " << counts.tensors
            << " initializers, " << counts.sparse_tensors << " sparse initializers, "
            << counts.attributes << " attributes, " << counts.types << " types (" << tensors
            << " tensors in all)\n";
  EXPECT_GT(counts.attributes, 0u);
  EXPECT_GT(counts.types, 0u);
  printFailures(failures);
  EXPECT_EQ(clean, cases.size());
}

// input_K.pb / output_K.pb hold the message kind of the graph's K-th input / output.
const Type* typeOfDataFile(const Model& model, const std::string& file_name) {
  const bool is_input = file_name.rfind("input_", 0) == 0;
  const size_t index = std::stoul(file_name.substr(is_input ? 6 : 7));
  const auto& list = is_input ? model.graph->inputs : model.graph->outputs;
  return index < list.size() ? list[index]->type : nullptr;
}

TEST(ValueRulesConformance, EveryTestDataValuePasses) {
  auto cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t files = 0;
  size_t clean = 0;
  std::vector<std::string> failures;
  for (const auto& dir : cases) {
    auto model = loadModel((dir / "model.onnx").string());
    if (!model) continue;  // reported by the test above
    for (const auto& set : std::filesystem::directory_iterator(dir)) {
      if (!set.is_directory()) continue;
      for (const auto& file : std::filesystem::directory_iterator(set.path())) {
        const std::string name = file.path().filename().string();
        if (file.path().extension() != ".pb") continue;
        ++files;
        const std::string where =
            dir.filename().string() + "/" + set.path().filename().string() + "/" + name;
        auto value =
            loadTestValue(file.path().string(), testValueKindOf(typeOfDataFile(*model, name)));
        if (!value) {
          failures.push_back(where + ": " + value.status().toString());
          continue;
        }
        Diagnostics diagnostics = checkTestValue(*value, name);
        if (diagnostics.all().empty()) {
          ++clean;
        } else {
          for (const Diagnostic& d : diagnostics.all())
            failures.push_back(where + ": " + d.toString());
        }
      }
    }
  }
  std::cout << clean << "/" << files << " test data files clean\n";
  printFailures(failures);
  EXPECT_GT(files, 0u);
  EXPECT_EQ(clean, files);
}

}  // namespace
}  // namespace onyx
