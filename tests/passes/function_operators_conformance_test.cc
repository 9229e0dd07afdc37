// Function-operators of the ONNX backend conformance models, inlined through their bodies:
//   - every node of an operator version with a body (built or fixed) inlines into a model that
//     passes verifyModel and the checker;
//   - for each pair test_X / test_X_expanded (the expanded model is onnx's own inlining of
//     test_X's node), inlining test_X's function-operators gives the same operators as
//     test_X_expanded, counted as a multiset; the pairs that differ are printed with both
//     multisets (they may differ where the bodies are equivalent).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "onyx/check/checker.h"
#include "onyx/ir/clone.h"
#include "onyx/ir/verify.h"
#include "onyx/ops/function_body.h"
#include "onyx/ops/registry.h"
#include "onyx/passes/inline_functions.h"
#include "onyx/serde/model_io.h"
#include "support/conformance.h"

namespace onyx {
namespace {

namespace fs = std::filesystem;

// The nodes of the main graph and the graphs nested in it, in a fixed order, so that the
// n-th node of a model and of its copy are the same node.
std::vector<Node*> allNodes(const Model& model) {
  std::vector<Node*> nodes;
  if (model.graph != nullptr) model.graph->forEachNode([&](Node* node) { nodes.push_back(node); });
  return nodes;
}

// The schema a main-graph-scope node binds to, when it has a body at its opset.
const OpSchema* functionOperator(const Model& model, const Node& node) {
  std::optional<int64_t> opset = model.opsetVersion(node.domainOrDefault());
  if (!opset) return nullptr;
  const OpSchema* schema = findSchema(node.domainOrDefault(), node.opType(), *opset);
  return schema != nullptr && hasFunctionBodyAt(*schema, *opset) ? schema : nullptr;
}

std::string errorsOf(const Model& model) {
  CheckOptions options;
  options.external_data = false;
  Diagnostics found = checkModel(model, options);
  std::string text;
  for (const Diagnostic& diagnostic : found.all()) {
    if (diagnostic.severity == Severity::kError) text += diagnostic.toString() + "\n";
  }
  return text;
}

TEST(FunctionOperatorsConformance, EveryFunctionOperatorNodeInlinesIntoAValidModel) {
  std::vector<fs::path> cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t built = 0, built_valid = 0, fixed = 0, fixed_valid = 0, refused = 0;
  std::map<std::string, size_t> refusals;
  std::vector<std::string> failures;
  size_t skipped = 0;
  std::set<const OpSchema*> exercised;
  for (const fs::path& dir : cases) {
    Result<Model> loaded = loadModel((dir / "model.onnx").string());
    ASSERT_TRUE(loaded) << dir << ": " << loaded.status().toString();
    if (!errorsOf(*loaded).empty()) {  // judged by the checker's own tests
      ++skipped;
      continue;
    }
    std::vector<Node*> nodes = allNodes(*loaded);
    for (size_t index = 0; index < nodes.size(); ++index) {
      const OpSchema* schema = functionOperator(*loaded, *nodes[index]);
      if (schema == nullptr) continue;
      bool builder = schema->build_function_body != nullptr;
      ++(builder ? built : fixed);
      Model copy = cloneModel(*loaded);
      Node* node = allNodes(copy)[index];
      std::string where = dir.filename().string() + ": " + std::string(node->opType()) + "-" +
                          std::to_string(schema->since_version);
      Status inlined = inlineNode(copy, *node);
      if (!inlined) {
        // A builder may need an input type the model does not declare (inside the _expanded
        // models, whose values have no value_info); anything else is a failure.
        if (inlined.code() == ErrorCode::kUnsupported) {
          ++refused;
          ++refusals[std::string(nodes[index]->opType())];
          continue;
        }
        failures.push_back(where + ": " + inlined.toString());
        continue;
      }
      Status consistent = verifiedStatus(verifyModel(copy));
      std::string errors = errorsOf(copy);
      if (!consistent || !errors.empty()) {
        failures.push_back(where + ": " + consistent.toString() + "\n" + errors);
        continue;
      }
      ++(builder ? built_valid : fixed_valid);
      exercised.insert(schema);
    }
  }
  std::printf("%zu/%zu function-operator nodes inlined and valid (%zu/%zu built, %zu/%zu fixed)\n",
              built_valid + fixed_valid, built + fixed - refused, built_valid, built - refused,
              fixed_valid, fixed);
  std::string refused_text;
  for (const auto& [op, count] : refusals) refused_text += " " + op + " " + std::to_string(count);
  std::printf("%zu nodes whose builder refused for want of a declared input type:%s\n", refused,
              refused_text.c_str());
  size_t versions = 0;
  std::string missed;
  for (const Operator* op : allOperators()) {
    for (const OpSchema& schema : op->versions) {
      if (!hasFunctionBody(schema)) continue;
      ++versions;
      if (exercised.count(&schema) == 0) {
        missed += " " + std::string(op->name) + "-" + std::to_string(schema.since_version);
      }
    }
  }
  std::printf("%zu/%zu operator versions with a body exercised; not by any model:%s\n",
              exercised.size(), versions, missed.c_str());
  std::printf("%zu models skipped, the checker finding errors in them\n", skipped);
  EXPECT_GT(built_valid, 300u);
  EXPECT_GT(fixed_valid, 40u);
  for (const std::string& failure : failures) ADD_FAILURE() << failure;
}

// ---------------------------------------------------------------------------------------

using OpCounts = std::map<std::string, int>;

OpCounts opCounts(const Model& model) {
  OpCounts counts;
  for (const Node* node : allNodes(model)) {
    std::string domain(node->domainOrDefault());
    counts[(domain.empty() || domain == "ai.onnx" ? "" : domain + ".") +
           std::string(node->opType())]++;
  }
  return counts;
}

std::string difference(const OpCounts& ours, const OpCounts& theirs) {
  std::string text;
  std::map<std::string, int> delta;
  for (const auto& [op, count] : ours) delta[op] += count;
  for (const auto& [op, count] : theirs) delta[op] -= count;
  for (const auto& [op, count] : delta) {
    if (count != 0)
      text += (count > 0 ? "+" : "-") + std::to_string(std::abs(count)) + " " + op + ", ";
  }
  return text.empty() ? text : text.substr(0, text.size() - 2);
}

// "test_x" for "test_x_expanded" or "test_x_expanded_ver18"; empty for other names.
std::string expandedBase(const std::string& name) {
  size_t at = name.rfind("_expanded");
  if (at == std::string::npos) return {};
  std::string_view rest = std::string_view(name).substr(at + 9);
  if (!rest.empty()) {
    if (rest.substr(0, 4) != "_ver" || rest.size() == 4) return {};
    for (char c : rest.substr(4)) {
      if (c < '0' || c > '9') return {};
    }
  }
  return name.substr(0, at);
}

TEST(FunctionOperatorsConformance, InlinedModelsMatchTheExpandedModels) {
  std::vector<fs::path> cases = testing::conformanceCases();
  if (cases.empty()) GTEST_SKIP() << testing::conformanceMissingReason();
  size_t pairs = 0, agree = 0;
  std::vector<std::string> differ;
  for (const fs::path& dir : cases) {
    std::string name = dir.filename().string();
    std::string base_name = expandedBase(name);
    if (base_name.empty()) continue;
    fs::path base = dir.parent_path() / base_name;
    if (!fs::is_directory(base)) continue;
    Result<Model> expanded = loadModel((dir / "model.onnx").string());
    Result<Model> model = loadModel((base / "model.onnx").string());
    ASSERT_TRUE(expanded && model) << name;
    // The expanded model was made at its own opset (the _verN suffix); inline at that one.
    if (std::optional<int64_t> opset = expanded->opsetVersion("")) {
      model->setOpsetVersion("", *opset);
    }
    bool any = false;
    std::string refused;
    for (Node* node : allNodes(*model)) {
      if (node->graph() != model->graph || functionOperator(*model, *node) == nullptr) continue;
      any = true;
      Status inlined = inlineNode(*model, *node);
      if (!inlined) refused = inlined.toString();
    }
    if (!any) continue;
    ++pairs;
    if (!refused.empty()) {
      differ.push_back(name + ": not inlined: " + refused);
      continue;
    }
    OpCounts ours = opCounts(*model);
    OpCounts theirs = opCounts(*expanded);
    if (ours == theirs) {
      ++agree;
    } else {
      differ.push_back(name + ": " + difference(ours, theirs));
    }
  }
  std::printf("%zu/%zu expanded pairs give the same operators\n", agree, pairs);
  for (const std::string& line : differ) std::printf("  differs: %s\n", line.c_str());
  EXPECT_GE(pairs, 450u);
}

}  // namespace
}  // namespace onyx
